# The functions of the cuda-stubs CMake package, and where its files are (everything relative to
# this file, <prefix>/lib/cmake/cuda-stubs): included by cuda-stubsConfig.cmake, by the CUDA rules
# override cuda-stubs-cuda-rules.cmake (in CMake's try_compile projects too) and by
# cuda-stubs-switch.cmake. Defines no target: cuda-stubsConfig.cmake does, once CMake knows the
# platform (before project() enables a language, it does not support shared libraries yet).

get_filename_component(_cuda_stubs_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
# The stubs (Windows: their import libraries), and on Windows the DLLs.
set(cuda-stubs_LIBRARY_DIR "${_cuda_stubs_prefix}/lib")
set(cuda-stubs_DLL_DIR "${_cuda_stubs_prefix}/bin")
set(cuda-stubs_INCLUDE_DIR "${_cuda_stubs_prefix}/include")
# Which stubs exist (codegen writes it from the specs): cuda-stubs_IMPORTED_TARGETS,
# cuda-stubs_TOOLKIT_TARGETS, cuda-stubs_CUDART_ABIS (the cudart ABIs the stub exports, oldest
# first; the last is libstubs_cudart.so's default), cuda-stubs_WINDOWS_STUBS ...
include("${CMAKE_CURRENT_LIST_DIR}/cuda-stubs-libraries.cmake")
list(GET cuda-stubs_CUDART_ABIS -1 cuda-stubs_CUDART_NEWEST)
# NVIDIA's link names as linker scripts naming the stubs, one folder per cudart ABI (ELF only).
set(cuda-stubs_LINK_ROOT "${_cuda_stubs_prefix}/lib/cuda-stubs-link")
include("${CMAKE_CURRENT_LIST_DIR}/cuda-stubs-link-names.cmake")

# Windows: the import library of `name` (stubs_nvrtc, stubs_cudart_abi12) the project's
# toolchain links, into `out`: MinGW's lib<name>.dll.a, else (MSVC, clang-cl) <name>.lib.
function(_cuda_stubs_import_library name out)
  if(MINGW)
    set(${out} "${cuda-stubs_LIBRARY_DIR}/lib${name}.dll.a" PARENT_SCOPE)
  else()
    set(${out} "${cuda-stubs_LIBRARY_DIR}/${name}.lib" PARENT_SCOPE)
  endif()
endfunction()

# Fails: the Windows stubs' CMake package has the imported targets only; what rewires a
# project's CUDA toolkit (its targets, the implicit runtime) is written and tested for Linux.
function(_cuda_stubs_not_on_windows what)
  message(FATAL_ERROR "cuda-stubs: ${what} is not available on Windows yet: link "
    "cuda-stubs::cudart, ::nvrtc, ::cuda_driver and ::nvjitlink (find_package(cuda-stubs)) "
    "instead of CUDA::cudart & co.")
endfunction()

# The cudart ABI to link for, from CUDA_STUBS_CUDART_ABI and the project's CUDA toolkit, into
# `out`; FATAL_ERROR on a mismatch (see the top of cuda-stubsConfig.cmake).
function(_cuda_stubs_cudart_abi out)
  set(_headers "")
  if(CUDAToolkit_VERSION_MAJOR)
    set(_headers "${CUDAToolkit_VERSION_MAJOR}")
    set(_from "CUDAToolkit_VERSION_MAJOR (find_package(CUDAToolkit), CUDA ${CUDAToolkit_VERSION})")
  elseif(CMAKE_CUDA_COMPILER_VERSION)
    string(REGEX MATCH "^[0-9]+" _headers "${CMAKE_CUDA_COMPILER_VERSION}")
    set(_from "CMAKE_CUDA_COMPILER_VERSION (nvcc ${CMAKE_CUDA_COMPILER_VERSION})")
  endif()
  list(GET cuda-stubs_CUDART_ABIS -1 _newest)
  string(REPLACE ";" " and " _abis "${cuda-stubs_CUDART_ABIS}")
  # list(FIND), not IN_LIST: this file runs under the consumer's policies.
  list(FIND cuda-stubs_CUDART_ABIS "${CUDA_STUBS_CUDART_ABI}" _set_known)
  list(FIND cuda-stubs_CUDART_ABIS "${_headers}" _headers_known)
  if(NOT "${CUDA_STUBS_CUDART_ABI}" STREQUAL "")
    if(_set_known EQUAL -1)
      message(FATAL_ERROR "cuda-stubs: CUDA_STUBS_CUDART_ABI=${CUDA_STUBS_CUDART_ABI}: the cudart "
        "stub exports the ABIs of CUDA ${_abis} headers.")
    endif()
    if(NOT "${_headers}" STREQUAL "" AND NOT _headers STREQUAL CUDA_STUBS_CUDART_ABI)
      message(FATAL_ERROR "cuda-stubs: CUDA_STUBS_CUDART_ABI=${CUDA_STUBS_CUDART_ABI}, but this "
        "project compiles against CUDA ${_headers}.x headers (${_from}). Code compiled against "
        "${_headers}.x headers calls cudaMemAdvise, cudaGraphAddDependencies and the other names "
        "whose prototype differs between CUDA 12 and 13 with ${_headers}.x's prototypes; linking "
        "the ${CUDA_STUBS_CUDART_ABI} ABI would hand their arguments to the other prototype. Set "
        "CUDA_STUBS_CUDART_ABI=${_headers}, or leave it unset to follow the toolkit.")
    endif()
    set(${out} "${CUDA_STUBS_CUDART_ABI}" PARENT_SCOPE)
  elseif(NOT "${_headers}" STREQUAL "" AND _headers_known EQUAL -1)
    # No ABI for these headers (11.x): cuda-stubs::cudart becomes unusable, an error only for
    # targets that link it (a project using only NVRTC or the driver stub still configures).
    set(${out} "none" PARENT_SCOPE)
    message(WARNING "cuda-stubs: this project compiles against CUDA ${_headers}.x headers "
      "(${_from}); the cudart stub exports the ABIs of CUDA ${_abis} headers "
      "only (some calls' ${_headers}.x prototypes differ from both): a target linking "
      "cuda-stubs::cudart fails to generate.")
  elseif(NOT "${_headers}" STREQUAL "")
    set(${out} "${_headers}" PARENT_SCOPE)
  else()
    set(${out} "${_newest}" PARENT_SCOPE)
  endif()
endfunction()

# The file cuda-stubs::cudart links for `abi`: what its calls record (see the top of
# cuda-stubsConfig.cmake).
# Windows: the import library of that ABI (stubs_cudart_abi12.lib imports cudaMemAdvise from
# stubs_cudart.dll's CUDA 12 export); the DLL is stubs_cudart.dll either way.
function(_cuda_stubs_cudart_file abi out)
  list(GET cuda-stubs_CUDART_ABIS -1 _newest)
  if(abi STREQUAL "none")
    set(${out} "" PARENT_SCOPE)
  elseif(WIN32)
    if(abi STREQUAL _newest)
      _cuda_stubs_import_library(stubs_cudart _file)
    else()
      _cuda_stubs_import_library(stubs_cudart_abi${abi} _file)
    endif()
    set(${out} "${_file}" PARENT_SCOPE)
  elseif(abi STREQUAL _newest)
    set(${out} "${cuda-stubs_LIBRARY_DIR}/libstubs_cudart.so" PARENT_SCOPE)
  else()
    set(${out} "${cuda-stubs_LIBRARY_DIR}/libstubs_cudart_abi${abi}.so" PARENT_SCOPE)
  endif()
endfunction()

# cuda-stubs::cudart for headers the stub has no ABI for: an interface target whose link names
# a target that does not exist, so that generating a target that links it fails with this name
# (CMake: "links to target cuda-stubs::cudart-has-no-ABI-for-these-CUDA-headers but the target
# was not found").
macro(_cuda_stubs_unusable_cudart)
  if(NOT TARGET cuda-stubs::cudart)
    add_library(cuda-stubs::cudart INTERFACE IMPORTED)
    set_property(TARGET cuda-stubs::cudart PROPERTY
      INTERFACE_LINK_LIBRARIES cuda-stubs::cudart-has-no-ABI-for-these-CUDA-headers)
  endif()
endmacro()

# Adds the imported target cuda-stubs::<target> for the stub file `location`, with `property`
# (IMPORTED_SONAME on Linux: what DT_NEEDED records; IMPORTED_IMPLIB on Windows: the import
# library, which must exist too) set to `value`. A macro, so that a missing file ends the
# package's configuration (cuda-stubs_FOUND FALSE, the message with `hint`) from the caller.
macro(_cuda_stubs_add_imported target location property value hint)
  if(NOT EXISTS "${location}")
    set(cuda-stubs_FOUND FALSE)
    set(cuda-stubs_NOT_FOUND_MESSAGE "${location} is missing${hint}")
    return()
  endif()
  if("${property}" STREQUAL "IMPORTED_IMPLIB" AND NOT EXISTS "${value}")
    set(cuda-stubs_FOUND FALSE)
    set(cuda-stubs_NOT_FOUND_MESSAGE "${value} is missing${hint}")
    return()
  endif()
  if(NOT TARGET cuda-stubs::${target})
    add_library(cuda-stubs::${target} SHARED IMPORTED)
    set_target_properties(cuda-stubs::${target} PROPERTIES
      IMPORTED_LOCATION "${location}"
      ${property} "${value}"
      INTERFACE_INCLUDE_DIRECTORIES "${cuda-stubs_INCLUDE_DIR}")
  endif()
endmacro()

# Points CMake's implicit CUDA runtime at the cudart stub, in the caller's scope: the lists
# CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_STATIC / _SHARED (cuda-stubs-cuda-rules.cmake says
# what they are) name the stub instead of cudart_static / cudart, and keep cudadevrt. The ABI is
# the one cuda_stubs_use_for_cuda_toolkit() chose (CUDA_STUBS_SWITCHED_CUDART_ABI, which
# try_compile() carries into its test projects), else the one CUDA_STUBS_CUDART_ABI and the
# project's CUDA compiler give. Nothing to do where CUDA is not enabled.
function(_cuda_stubs_switch_runtime_link_options)
  if(NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_STATIC
     AND NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_SHARED)
    return()
  endif()
  if(NOT "${CUDA_STUBS_SWITCHED_CUDART_ABI}" STREQUAL "")
    set(_abi "${CUDA_STUBS_SWITCHED_CUDART_ABI}")
  else()
    _cuda_stubs_cudart_abi(_abi)
  endif()
  _cuda_stubs_cudart_file("${_abi}" _file)
  # The link folder of this directory follows (cuda-stubs-link-names.cmake).
  set_property(DIRECTORY PROPERTY CUDA_STUBS_LINK_ABI "${_abi}")
  if(_file STREQUAL "")
    string(REPLACE ";" " and " _abis "${cuda-stubs_CUDART_ABIS}")
    message(FATAL_ERROR "cuda-stubs: the CUDA compiler (${CMAKE_CUDA_COMPILER_ID} "
      "${CMAKE_CUDA_COMPILER_VERSION}) compiles against CUDA headers the cudart stub has no ABI "
      "for (it exports those of CUDA ${_abis} headers): its targets cannot link the stub.")
  endif()
  foreach(_kind STATIC SHARED)
    # Also a stub an earlier switch put there: the last ABI chosen wins.
    list(TRANSFORM CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_${_kind}
      REPLACE "^(cudart|cudart_static|/.*/libstubs_cudart(_abi[0-9]+)?[.]so)$" "${_file}"
      OUTPUT_VARIABLE _options)
    set(CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_${_kind} "${_options}" PARENT_SCOPE)
  endforeach()
endfunction()

# What the switch sets in a directory, in the caller's scope, for the targets and the CUDA
# enabled after it:
# - cuda-stubs-cuda-rules.cmake as the CUDA rules override (keeping the one the project had,
#   which that file includes first), and what it reads in CMAKE_TRY_COMPILE_PLATFORM_VARIABLES,
#   which try_compile() carries into CMake's test projects;
# - the stubs' folder in CMAKE_BUILD_RPATH: CMake links the implicit runtime's items as given and
#   computes no RUNPATH for them (unlike CUDA::cudart's file), so the build tree's executables
#   get the folder this way; CMake drops it at install, as it drops CUDA::cudart's (set
#   CMAKE_INSTALL_RPATH). An rpath entry only: targets without CUDA code need nothing from it;
# - the link folders in CMAKE_PLATFORM_IMPLICIT_LINK_DIRECTORIES, the folders CMake never puts
#   in a RUNPATH (build or install) for a library linked by path there: nothing is loaded from
#   them (cuda-stubs-link-names.cmake says why they must stay out). The switch links the stubs'
#   own files wherever it can; this keeps out a link folder's file it could not rewrite. CMake
#   also drops -L of these folders from link directories, which the switch never uses (its -L
#   is a link option).
function(_cuda_stubs_switch_directory)
  set(_ours "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cuda-stubs-cuda-rules.cmake")
  if(NOT "${CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA}" STREQUAL ""
     AND NOT CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA STREQUAL _ours)
    set(CUDA_STUBS_PREVIOUS_RULES_OVERRIDE_CUDA "${CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA}"
      PARENT_SCOPE)
  endif()
  if(NOT "${CMAKE_USER_MAKE_RULES_OVERRIDE}" STREQUAL "")
    set(CUDA_STUBS_PREVIOUS_RULES_OVERRIDE "${CMAKE_USER_MAKE_RULES_OVERRIDE}" PARENT_SCOPE)
  endif()
  set(CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA "${_ours}" PARENT_SCOPE)
  set(_vars ${CMAKE_TRY_COMPILE_PLATFORM_VARIABLES} CUDA_STUBS_SWITCHED_CUDART_ABI
    CUDA_STUBS_PREVIOUS_RULES_OVERRIDE_CUDA CUDA_STUBS_PREVIOUS_RULES_OVERRIDE)
  list(REMOVE_DUPLICATES _vars)
  set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES "${_vars}" PARENT_SCOPE)
  set(_rpath ${CMAKE_BUILD_RPATH})
  list(FIND _rpath "${cuda-stubs_LIBRARY_DIR}" _at)
  if(_at EQUAL -1)
    list(APPEND _rpath "${cuda-stubs_LIBRARY_DIR}")
  endif()
  set(CMAKE_BUILD_RPATH "${_rpath}" PARENT_SCOPE)
  set(_implicit ${CMAKE_PLATFORM_IMPLICIT_LINK_DIRECTORIES})
  foreach(_abi IN LISTS cuda-stubs_LINK_ABIS)
    _cuda_stubs_link_dir("${_abi}" _linkdir)
    list(FIND _implicit "${_linkdir}" _at)
    if(_at EQUAL -1)
      list(APPEND _implicit "${_linkdir}")
    endif()
  endforeach()
  set(CMAKE_PLATFORM_IMPLICIT_LINK_DIRECTORIES "${_implicit}" PARENT_SCOPE)
endfunction()

# Appends `value` to a target's list property unless it is there (the switch may run again:
# cuda-stubs-switch.cmake runs it after every find_package(CUDAToolkit)).
function(_cuda_stubs_append_once target property value)
  get_target_property(_values ${target} ${property})
  if(NOT _values)
    set(_values "")
  endif()
  list(FIND _values "${value}" _at)
  if(_at EQUAL -1)
    set_property(TARGET ${target} APPEND PROPERTY ${property} "${value}")
  endif()
endfunction()

# Switches the project to the stubs: every target that would link a CUDA runtime links the
# cudart stub instead, whatever the style.
#
# - CMake's implicit runtime (nvcc-built targets without CUDA::cudart, CUDA_RUNTIME_LIBRARY or
#   CMAKE_CUDA_RUNTIME_LIBRARY unset, Static or Shared; a C/C++ executable linking CUDA objects;
#   separable compilation, which keeps cudadevrt): through CMake's own runtime-library lists,
#   set here when CUDA is enabled already and by the CUDA rules override
#   cuda-stubs-cuda-rules.cmake wherever CUDA is enabled later, and in CMake's try_compile test
#   projects (see that file). A target whose CUDA_RUNTIME_LIBRARY is None links no runtime, as
#   before; targets without CUDA code link nothing more.
# - FindCUDAToolkit's CUDA::cudart, CUDA::cudart_static, CUDA::cuda_driver, CUDA::nvrtc and
#   CUDA::nvJitLink: their file becomes the stub's (other properties kept: CUDA::cudart's
#   include directories); missing ones (no toolkit on the machine) are created, so
#   `target_link_libraries(app CUDA::cudart)` links the stub either way. Its cache entries
#   CUDA_cudart_LIBRARY, CUDA_cuda_driver_LIBRARY … name the stubs too, for projects that link
#   those variables, in every subproject. NVIDIA's static
#   libraries (CUDA::cufft_static, CUDA::cublas_static, ...) are linked unchanged: their
#   runtime calls resolve against the stub like the project's own.
#
# Call it after find_package(CUDAToolkit) (when the project uses it) and before the targets are
# defined: in the top-level CMakeLists.txt after project(), so that the variables it sets reach
# every add_subdirectory(). The toolkit found by now decides the cudart ABI (checked against
# CUDA_STUBS_CUDART_ABI, see the top of cuda-stubsConfig.cmake); CUDA 11.x (no ABI) fails.
function(cuda_stubs_use_for_cuda_toolkit)
  if(WIN32)
    _cuda_stubs_not_on_windows("cuda_stubs_use_for_cuda_toolkit()")
  endif()
  _cuda_stubs_cudart_abi(_abi)
  _cuda_stubs_cudart_file("${_abi}" _file)
  get_target_property(_type cuda-stubs::cudart TYPE)
  if(_file STREQUAL "")
    # The toolkit's own headers are the ones the project compiles against.
    set(_version "${CUDAToolkit_VERSION}")
    if(_version STREQUAL "")
      set(_version "${CMAKE_CUDA_COMPILER_VERSION}")
    endif()
    string(REPLACE ";" " and " _abis "${cuda-stubs_CUDART_ABIS}")
    message(FATAL_ERROR "cuda-stubs: cuda_stubs_use_for_cuda_toolkit(): the project compiles "
      "against the CUDA ${_version} toolkit's headers; the cudart stub exports the ABIs of CUDA "
      "${_abis} headers only.")
  elseif(_type STREQUAL "INTERFACE_LIBRARY")
    message(FATAL_ERROR "cuda-stubs: find_package(cuda-stubs) saw CUDA headers it has no cudart "
      "ABI for, cuda_stubs_use_for_cuda_toolkit() sees CUDA ${_abi}: call "
      "find_package(CUDAToolkit) before find_package(cuda-stubs).")
  endif()
  set_target_properties(cuda-stubs::cudart PROPERTIES IMPORTED_LOCATION "${_file}")
  set(cuda-stubs_CUDART_ABI "${_abi}" PARENT_SCOPE)
  foreach(_pair IN LISTS cuda-stubs_TOOLKIT_TARGETS)
    string(REPLACE "|" ";" _pair "${_pair}")
    list(GET _pair 0 _name)
    list(GET _pair 1 _stub)
    list(GET _pair 2 _stub_file)
    get_target_property(_location cuda-stubs::${_stub} IMPORTED_LOCATION)
    if(TARGET CUDA::${_name})
      get_target_property(_type CUDA::${_name} TYPE)
      if(_type STREQUAL "INTERFACE_LIBRARY")
        # One the switch made (no toolkit), or FindCUDAToolkit's before CMake 3.20: an interface
        # target linking the toolkit's file (CUDA_<name>_LIBRARY) and its dependencies. The
        # file goes, the rest stays.
        get_target_property(_links CUDA::${_name} INTERFACE_LINK_LIBRARIES)
        if(_links AND NOT "${CUDA_${_name}_LIBRARY}" STREQUAL "")
          list(REMOVE_ITEM _links "${CUDA_${_name}_LIBRARY}")
          set_property(TARGET CUDA::${_name} PROPERTY INTERFACE_LINK_LIBRARIES "${_links}")
        endif()
        _cuda_stubs_append_once(CUDA::${_name} INTERFACE_LINK_LIBRARIES cuda-stubs::${_stub})
      else()
        # FindCUDAToolkit's targets (CMake 3.20+) are UNKNOWN IMPORTED with the toolkit's file
        # as IMPORTED_LOCATION: swap the file, keep the rest.
        set_target_properties(CUDA::${_name} PROPERTIES
          IMPORTED_LOCATION "${_location}"
          IMPORTED_SONAME "${_stub_file}")
        foreach(_config IN LISTS CMAKE_CONFIGURATION_TYPES CMAKE_BUILD_TYPE)
          string(TOUPPER "${_config}" _config)
          set_property(TARGET CUDA::${_name} PROPERTY IMPORTED_LOCATION_${_config} "${_location}")
        endforeach()
        _cuda_stubs_append_once(CUDA::${_name} INTERFACE_INCLUDE_DIRECTORIES
          "${cuda-stubs_INCLUDE_DIR}")
      endif()
    else()
      add_library(CUDA::${_name} INTERFACE IMPORTED GLOBAL)
      set_property(TARGET CUDA::${_name} PROPERTY INTERFACE_LINK_LIBRARIES cuda-stubs::${_stub})
    endif()
    # FindCUDAToolkit's cache entry CUDA_<name>_LIBRARY, which projects also link directly
    # (`target_link_libraries(app ${CUDA_cuda_driver_LIBRARY})`: NVIDIA's libNVVM samples):
    # the stub's file. In the cache, so that a subproject's own find_package(CUDAToolkit) keeps
    # it (find_library does not search again for a set entry); as a normal variable too, which
    # would shadow the cache entry in the caller's scope.
    set(CUDA_${_name}_LIBRARY "${_location}" CACHE FILEPATH
      "FindCUDAToolkit's ${_name} library, switched to the cuda-stubs stub" FORCE)
    set(CUDA_${_name}_LIBRARY "${_location}" PARENT_SCOPE)
  endforeach()
  # NVIDIA's link names (bare, -l, find_library, FindCUDA's variables): the link folder.
  _cuda_stubs_schedule_link_names("${_abi}")
  set(CMAKE_LIBRARY_PATH "${CMAKE_LIBRARY_PATH}" PARENT_SCOPE)
  if(CUDA_FOUND)
    _cuda_stubs_switch_findcuda_variables("${_abi}")
    get_cmake_property(_vars VARIABLES)
    list(FILTER _vars INCLUDE REGEX "^CUDA_[A-Za-z0-9_]*_LIBRAR(Y|IES)$")
    foreach(_var IN LISTS _vars)
      set(${_var} "${${_var}}" PARENT_SCOPE)
    endforeach()
  endif()
  # The implicit runtime, now (CUDA enabled) and wherever CUDA is enabled later.
  set(CUDA_STUBS_SWITCHED_CUDART_ABI "${_abi}")
  set(CUDA_STUBS_SWITCHED_CUDART_ABI "${_abi}" PARENT_SCOPE)
  _cuda_stubs_switch_runtime_link_options()
  _cuda_stubs_switch_directory()
  foreach(_var IN ITEMS CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_STATIC
                        CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_SHARED
                        CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA CMAKE_TRY_COMPILE_PLATFORM_VARIABLES
                        CUDA_STUBS_PREVIOUS_RULES_OVERRIDE_CUDA CUDA_STUBS_PREVIOUS_RULES_OVERRIDE
                        CMAKE_BUILD_RPATH CMAKE_PLATFORM_IMPLICIT_LINK_DIRECTORIES)
    if(DEFINED ${_var})
      set(${_var} "${${_var}}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

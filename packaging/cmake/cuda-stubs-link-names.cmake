# NVIDIA's link names in a switched project (issue 28): what the CUDA:: targets and the implicit
# runtime do not cover. Included by cuda-stubs-functions.cmake.
#
# A project names NVIDIA's libraries in many ways besides FindCUDAToolkit's targets: bare names
# (`target_link_libraries(app cublas)`, `cudart cusparse` on a C target), `-lcublas` in link
# options, `find_library(NVJITLINK_LIB nvJitLink)` and its full path, the deprecated FindCUDA's
# variables (`CUDA_LIBRARIES`, `CUDA_CUBLAS_LIBRARIES`, `CUDA_cufft_LIBRARY` ...). The link folder
# lib/cuda-stubs-link/abi<N>/ (the root CMakeLists.txt installs it from the specs) holds NVIDIA's
# link names as linker scripts naming the stubs; the switch uses it where only a name can be
# given, and names the stub's own file wherever CMake sees one:
#
# - at the end of the top-level directory (cmake_language(DEFER), once every target exists),
#   every target of the project gets -L<link folder> first in its LINK_OPTIONS (so a bare name
#   or -l in link options or linker flags finds the stub before the toolkit's lib64 or any -L
#   the project adds), and each item of its LINK_LIBRARIES / INTERFACE_LINK_LIBRARIES that is a
#   bare name, -l name or full path of a stubbed NVIDIA library (libcublas.so, libcublas.so.13,
#   libcudart_static.a, or the link folder's own file) becomes the stub's file
#   (lib/libstubs_cublas.so); so do the IMPORTED_LOCATION of the project's own imported targets;
# - find_library() of the project finds the link folder first (CMAKE_LIBRARY_PATH): its result
#   is the link folder's file, which the step above turns into the stub's (`jitLto`'s
#   NVJITLINK_LIB);
# - FindCUDA's result variables name the stubs' files (cuda_add_executable links
#   CUDA_LIBRARIES).
#
# RUNPATH (issue 38): CMake puts the folder of every shared library a target links by path in
# its build RUNPATH (and, with INSTALL_RPATH_USE_LINK_PATH, its installed one). Linked as the
# stubs' own files, the names give the stubs' folder, where the program's stubs are loaded from;
# the link folder never goes there: nothing is loaded from it, and a program's own
# dlopen("libcudart.so") would meet a linker script, a text file, there. A path into it that
# the switch cannot rewrite (a generator expression, an imported target a subdirectory keeps to
# itself, CMake < 3.19) is kept out too: the link folders are implicit link directories
# (CMAKE_PLATFORM_IMPLICIT_LINK_DIRECTORIES, _cuda_stubs_switch_directory()), which CMake never
# puts in a RUNPATH.
#
# The stub files follow the cudart ABI of the directory's CUDA headers, as cuda-stubs::cudart
# does (abi12's libcudart.so is libstubs_cudart_abi12.so): the directory property
# CUDA_STUBS_LINK_ABI, set where the switch decided it (inherited by subdirectories), else the
# newest. cudadevrt, cufft_static, culibos and every library without a stub are left as they
# are.

# The link folder of the cudart ABI `abi` into `out` ("" for "none": headers without an ABI).
function(_cuda_stubs_link_dir abi out)
  if(abi STREQUAL "none" OR "${abi}" STREQUAL "")
    set(${out} "" PARENT_SCOPE)
  else()
    set(${out} "${cuda-stubs_LINK_ROOT}/abi${abi}" PARENT_SCOPE)
  endif()
endfunction()

# The stub's file for `item` into `out`, or `item` unchanged: a bare name or -l<name> whose
# lib<name>.so or lib<name>.a is one of NVIDIA's link names with a stub, or a full path whose
# file is such a name or a versioned soname of one (/usr/local/cuda/lib64/libcublas.so.13, the
# link folder's libnvJitLink.so), for the cudart ABI `abi` (cuda-stubs_LINK_NAMES_<abi>: the
# link name and the stub it names). Generator expressions and targets are left alone.
function(_cuda_stubs_link_item item abi out)
  set(${out} "${item}" PARENT_SCOPE)
  if(item MATCHES "[$<>;]" OR TARGET "${item}")
    return()
  endif()
  set(_files)
  set(_stubs)
  foreach(_pair IN LISTS cuda-stubs_LINK_NAMES_${abi})
    string(REPLACE "|" ";" _pair "${_pair}")
    list(GET _pair 0 _file)
    list(GET _pair 1 _stub)
    list(APPEND _files "${_file}")
    list(APPEND _stubs "${_stub}")
  endforeach()
  # One MATCHES per if(): CMake evaluates every operand of an OR, and each MATCHES resets
  # CMAKE_MATCH_<n>.
  set(_at -1)
  set(_name "")
  set(_path_file "")
  if(item MATCHES "^-l([^/:]+)$")
    set(_name "${CMAKE_MATCH_1}")
  elseif(item MATCHES "^[A-Za-z0-9_.+][A-Za-z0-9_.+-]*$")
    # A bare name: CMake passes it to the linker as -l<name>.
    set(_name "${item}")
  elseif(item MATCHES "/(lib[^/]+[.]so)([.][0-9]+)*$")
    set(_path_file "${CMAKE_MATCH_1}")
  elseif(item MATCHES "/(lib[^/]+[.]a)$")
    set(_path_file "${CMAKE_MATCH_1}")
  endif()
  if(NOT _name STREQUAL "")
    # Shared first, as ld searches.
    foreach(_candidate "lib${_name}.so" "lib${_name}.a")
      list(FIND _files "${_candidate}" _at)
      if(NOT _at EQUAL -1)
        break()
      endif()
    endforeach()
  elseif(NOT _path_file STREQUAL "")
    list(FIND _files "${_path_file}" _at)
  endif()
  if(NOT _at EQUAL -1)
    list(GET _stubs ${_at} _stub)
    set(${out} "${cuda-stubs_LIBRARY_DIR}/${_stub}" PARENT_SCOPE)
  endif()
endfunction()

# `list` with each item mapped by _cuda_stubs_link_item, into `out`.
function(_cuda_stubs_link_list list abi out)
  set(_mapped)
  foreach(_item IN LISTS list)
    _cuda_stubs_link_item("${_item}" "${abi}" _item)
    list(APPEND _mapped "${_item}")
  endforeach()
  set(${out} "${_mapped}" PARENT_SCOPE)
endfunction()

# Switches the targets and imported targets of directory `dir` and its subdirectories, the ABI
# `abi` inherited from the parent unless the directory decided its own.
function(_cuda_stubs_link_names_in dir abi)
  get_property(_own DIRECTORY "${dir}" PROPERTY CUDA_STUBS_LINK_ABI)
  if(NOT "${_own}" STREQUAL "")
    set(abi "${_own}")
  endif()
  _cuda_stubs_link_dir("${abi}" _linkdir)
  if(NOT _linkdir STREQUAL "")
    get_property(_targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
    foreach(_target IN LISTS _targets)
      get_target_property(_type ${_target} TYPE)
      foreach(_property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
        if(_type STREQUAL "INTERFACE_LIBRARY" AND _property STREQUAL "LINK_LIBRARIES")
          continue()
        endif()
        get_target_property(_items ${_target} ${_property})
        if(_items)
          _cuda_stubs_link_list("${_items}" "${abi}" _mapped)
          if(NOT _mapped STREQUAL _items)
            set_property(TARGET ${_target} PROPERTY ${_property} "${_mapped}")
          endif()
        endif()
      endforeach()
      if(_type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
        # First: the linker takes the first folder holding a name, in -L order, and a -L in
        # the target's link options (`-L${CUDAToolkit_LIBRARY_DIR}`) comes before its link
        # directories on the command line.
        get_target_property(_options ${_target} LINK_OPTIONS)
        if(NOT _options)
          set(_options)
        endif()
        list(REMOVE_ITEM _options "-L${_linkdir}")
        set_property(TARGET ${_target} PROPERTY LINK_OPTIONS "-L${_linkdir}" ${_options})
      endif()
    endforeach()
    get_property(_imported DIRECTORY "${dir}" PROPERTY IMPORTED_TARGETS)
    foreach(_target IN LISTS _imported)
      if(NOT TARGET ${_target})
        # A directory's own imported target (not GLOBAL) is seen only from that directory.
        continue()
      endif()
      get_target_property(_type ${_target} TYPE)
      if(NOT _type MATCHES "^(SHARED_LIBRARY|STATIC_LIBRARY|UNKNOWN_LIBRARY)$"
         OR _target MATCHES "^(cuda-stubs|CUDA)::")
        # cuda-stubs:: are the stubs; CUDA:: are FindCUDAToolkit's, switched with their files.
        continue()
      endif()
      foreach(_config "" ${CMAKE_CONFIGURATION_TYPES} ${CMAKE_BUILD_TYPE})
        string(TOUPPER "${_config}" _config)
        set(_property IMPORTED_LOCATION)
        if(NOT _config STREQUAL "")
          set(_property IMPORTED_LOCATION_${_config})
        endif()
        get_target_property(_location ${_target} ${_property})
        if(_location)
          _cuda_stubs_link_item("${_location}" "${abi}" _mapped)
          if(NOT _mapped STREQUAL _location)
            # The stub's file has a SONAME, its file name (an NVIDIA soname the project gave
            # would mislead CMake's runtime path ordering).
            get_filename_component(_soname "${_mapped}" NAME)
            set_property(TARGET ${_target} PROPERTY ${_property} "${_mapped}")
            set_property(TARGET ${_target} PROPERTY IMPORTED_NO_SONAME FALSE)
            if(_type STREQUAL "SHARED_LIBRARY")
              string(REPLACE "LOCATION" "SONAME" _soname_property "${_property}")
              set_property(TARGET ${_target} PROPERTY ${_soname_property} "${_soname}")
            endif()
          endif()
        endif()
      endforeach()
    endforeach()
  endif()
  get_property(_subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(_sub IN LISTS _subdirs)
    _cuda_stubs_link_names_in("${_sub}" "${abi}")
  endforeach()
endfunction()

# The deferred call: every directory of the project, from the top.
function(_cuda_stubs_switch_link_names)
  _cuda_stubs_link_names_in("${CMAKE_SOURCE_DIR}" "${cuda-stubs_CUDART_NEWEST}")
endfunction()

# Schedules the switch of link names at the end of the top-level directory (once per project),
# and puts the link folder of `abi` first in find_library()'s search, in the caller's scope
# (CMAKE_LIBRARY_PATH). cmake_language(DEFER) needs CMake 3.19: older ones switch the targets and
# find_library() only.
macro(_cuda_stubs_schedule_link_names abi)
  get_property(_cuda_stubs_scheduled GLOBAL PROPERTY CUDA_STUBS_LINK_NAMES_SCHEDULED)
  if(NOT _cuda_stubs_scheduled AND NOT CMAKE_VERSION VERSION_LESS 3.19)
    set_property(GLOBAL PROPERTY CUDA_STUBS_LINK_NAMES_SCHEDULED TRUE)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _cuda_stubs_switch_link_names)
  endif()
  _cuda_stubs_link_dir("${abi}" _cuda_stubs_linkdir)
  if(NOT _cuda_stubs_linkdir STREQUAL "")
    set_property(DIRECTORY PROPERTY CUDA_STUBS_LINK_ABI "${abi}")
    list(FILTER CMAKE_LIBRARY_PATH EXCLUDE REGEX "/cuda-stubs-link/abi[0-9]+$")
    list(INSERT CMAKE_LIBRARY_PATH 0 "${_cuda_stubs_linkdir}")
  endif()
  unset(_cuda_stubs_scheduled)
  unset(_cuda_stubs_linkdir)
endmacro()

# The deprecated FindCUDA's result variables (CUDA_LIBRARIES, CUDA_CUBLAS_LIBRARIES,
# CUDA_cudart_static_LIBRARY, CUDA_CUDA_LIBRARY, ...: every CUDA_*_LIBRARY / CUDA_*_LIBRARIES
# set) name the stubs' files for the stubbed libraries, in the caller's scope and, for the
# cache entries, in the cache. A macro: FindCUDA's variables live in the caller's scope.
macro(_cuda_stubs_switch_findcuda_variables abi)
  _cuda_stubs_link_dir("${abi}" _cuda_stubs_linkdir)
  if(NOT _cuda_stubs_linkdir STREQUAL "")
    get_cmake_property(_cuda_stubs_vars VARIABLES)
    list(FILTER _cuda_stubs_vars INCLUDE REGEX "^CUDA_[A-Za-z0-9_]*_LIBRAR(Y|IES)$")
    foreach(_cuda_stubs_var IN LISTS _cuda_stubs_vars)
      _cuda_stubs_link_list("${${_cuda_stubs_var}}" "${abi}" _cuda_stubs_mapped)
      if(NOT _cuda_stubs_mapped STREQUAL "${${_cuda_stubs_var}}")
        get_property(_cuda_stubs_cached CACHE "${_cuda_stubs_var}" PROPERTY TYPE SET)
        if(_cuda_stubs_cached)
          set(${_cuda_stubs_var} "${_cuda_stubs_mapped}" CACHE FILEPATH
            "FindCUDA's ${_cuda_stubs_var}, switched to the cuda-stubs stubs" FORCE)
        endif()
        set(${_cuda_stubs_var} "${_cuda_stubs_mapped}")
      endif()
    endforeach()
  endif()
  unset(_cuda_stubs_vars)
  unset(_cuda_stubs_var)
  unset(_cuda_stubs_mapped)
  unset(_cuda_stubs_cached)
  unset(_cuda_stubs_linkdir)
endmacro()

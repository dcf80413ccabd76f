# find_package(cuda-stubs CONFIG): the cuda-stubs libraries as imported targets.
#
#   cuda-stubs::cudart       libstubs_cudart.so  (stands for libcudart)
#   cuda-stubs::nvrtc        libstubs_nvrtc.so   (stands for libnvrtc)
#   cuda-stubs::cuda_driver  libstubs_cuda.so    (stands for libcuda)
#   cuda-stubs::nvjitlink    libstubs_nvjitlink.so (stands for libnvJitLink)
#
# each with cuda_stubs.h's folder as an include directory, and
#
#   cuda-stubs_CUDART_ABI    12 or 13: the CUDA headers' ABI cuda-stubs::cudart links for
#
# The runtime stub serves code compiled against CUDA 12.x and 13.x headers in one process: the
# names whose prototype differs between the two (cudaMemAdvise, cudaGraphAddDependencies, ...)
# are exported once per ABI (ELF symbol versions), and the file a target links against decides
# which version its calls record. For ABI 13 that is libstubs_cudart.so itself; for ABI 12 the
# link-time stub libstubs_cudart_abi12.so (SONAME libstubs_cudart.so: the program still needs
# and loads libstubs_cudart.so). The ABI is that of the CUDA toolkit the project compiles with
# (CUDAToolkit_VERSION_MAJOR from find_package(CUDAToolkit), else the CUDA compiler's version),
# or 13, the newest, without one; -DCUDA_STUBS_CUDART_ABI=12|13 sets it. Configuration fails
# when the set ABI and the toolkit's headers disagree, or for headers of a major the stub has
# no ABI for (11.x): calls compiled against one header's prototypes would reach the other's.
#
#   cuda_stubs_use_for_cuda_toolkit()
#
# which points FindCUDAToolkit's CUDA::cudart, CUDA::cudart_static, CUDA::cuda_driver,
# CUDA::nvrtc and CUDA::nvJitLink at the stubs, so an existing CMake project switches with two
# lines.
#
# Relocatable: everything is found relative to this file (<prefix>/lib/cmake/cuda-stubs), as
# installed by `scripts/install.sh` or inside the Python wheel (`python -m cuda_stubs --cmakedir`).

get_filename_component(_cuda_stubs_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(cuda-stubs_LIBRARY_DIR "${_cuda_stubs_prefix}/lib")
set(cuda-stubs_INCLUDE_DIR "${_cuda_stubs_prefix}/include")
# The cudart ABIs the stub exports, oldest first; the last is libstubs_cudart.so's default.
set(cuda-stubs_CUDART_ABIS 12 13)

# The cudart ABI to link for, from CUDA_STUBS_CUDART_ABI and the project's CUDA toolkit, into
# `out`; FATAL_ERROR on a mismatch (see the top of this file).
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

# The file cuda-stubs::cudart links for `abi`: what its calls record (see the top of this file).
function(_cuda_stubs_cudart_file abi out)
  list(GET cuda-stubs_CUDART_ABIS -1 _newest)
  if(abi STREQUAL "none")
    set(${out} "" PARENT_SCOPE)
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

_cuda_stubs_cudart_abi(cuda-stubs_CUDART_ABI)

foreach(_cuda_stubs_pair IN ITEMS "cudart|cudart" "nvrtc|nvrtc" "cuda_driver|cuda"
                                  "nvjitlink|nvjitlink")
  string(REPLACE "|" ";" _cuda_stubs_pair "${_cuda_stubs_pair}")
  list(GET _cuda_stubs_pair 0 _cuda_stubs_target)
  list(GET _cuda_stubs_pair 1 _cuda_stubs_file)
  set(_cuda_stubs_lib "${cuda-stubs_LIBRARY_DIR}/libstubs_${_cuda_stubs_file}.so")
  if(_cuda_stubs_target STREQUAL "cudart")
    _cuda_stubs_cudart_file("${cuda-stubs_CUDART_ABI}" _cuda_stubs_lib)
    if(_cuda_stubs_lib STREQUAL "")
      _cuda_stubs_unusable_cudart()
      continue()
    endif()
  endif()
  if(NOT EXISTS "${_cuda_stubs_lib}")
    set(cuda-stubs_FOUND FALSE)
    set(cuda-stubs_NOT_FOUND_MESSAGE "${_cuda_stubs_lib} is missing")
    return()
  endif()
  if(NOT TARGET cuda-stubs::${_cuda_stubs_target})
    add_library(cuda-stubs::${_cuda_stubs_target} SHARED IMPORTED)
    set_target_properties(cuda-stubs::${_cuda_stubs_target} PROPERTIES
      IMPORTED_LOCATION "${_cuda_stubs_lib}"
      # The runtime stub's SONAME (the link-time stub has it too): what DT_NEEDED records.
      IMPORTED_SONAME "libstubs_${_cuda_stubs_file}.so"
      INTERFACE_INCLUDE_DIRECTORIES "${cuda-stubs_INCLUDE_DIR}")
  endif()
endforeach()

# Points CUDA::cudart, CUDA::cudart_static, CUDA::cuda_driver, CUDA::nvrtc and CUDA::nvJitLink
# at the stubs.
#
# Call it after find_package(CUDAToolkit) (when the project uses it) and before the targets are
# defined. Targets FindCUDAToolkit made keep their other properties (CUDA::toolkit's headers);
# missing ones (no toolkit on the machine) are created, so `target_link_libraries(app
# CUDA::cudart)` links the stub either way. It also sets CMAKE_CUDA_RUNTIME_LIBRARY to None in
# the caller's scope, so nvcc-built targets do not link the toolkit's libcudart(_static) beside
# the stub, and links libcudadevrt.a (device runtime: separable compilation, dynamic
# parallelism; a static archive with no libcudart dependency) to the directory's targets when
# the toolkit has it. The toolkit found by now decides cuda-stubs::cudart's ABI (checked
# against CUDA_STUBS_CUDART_ABI, see the top of this file).
function(cuda_stubs_use_for_cuda_toolkit)
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
  foreach(_pair IN ITEMS "cudart|cudart|cudart" "cudart_static|cudart|cudart"
                         "cuda_driver|cuda_driver|cuda" "nvrtc|nvrtc|nvrtc"
                         "nvJitLink|nvjitlink|nvjitlink")
    string(REPLACE "|" ";" _pair "${_pair}")
    list(GET _pair 0 _name)
    list(GET _pair 1 _stub)
    list(GET _pair 2 _stub_file)
    get_target_property(_location cuda-stubs::${_stub} IMPORTED_LOCATION)
    if(TARGET CUDA::${_name})
      get_target_property(_type CUDA::${_name} TYPE)
      if(_type STREQUAL "INTERFACE_LIBRARY")
        set_property(TARGET CUDA::${_name} APPEND PROPERTY
          INTERFACE_LINK_LIBRARIES cuda-stubs::${_stub})
      else()
        # FindCUDAToolkit's targets are UNKNOWN IMPORTED with the toolkit's file as
        # IMPORTED_LOCATION: swap the file, keep the rest.
        set_target_properties(CUDA::${_name} PROPERTIES
          IMPORTED_LOCATION "${_location}"
          IMPORTED_SONAME "libstubs_${_stub_file}.so")
        foreach(_config IN LISTS CMAKE_CONFIGURATION_TYPES CMAKE_BUILD_TYPE)
          string(TOUPPER "${_config}" _config)
          set_property(TARGET CUDA::${_name} PROPERTY IMPORTED_LOCATION_${_config} "${_location}")
        endforeach()
        set_property(TARGET CUDA::${_name} APPEND PROPERTY
          INTERFACE_INCLUDE_DIRECTORIES "${cuda-stubs_INCLUDE_DIR}")
      endif()
    else()
      add_library(CUDA::${_name} INTERFACE IMPORTED GLOBAL)
      set_property(TARGET CUDA::${_name} PROPERTY INTERFACE_LINK_LIBRARIES cuda-stubs::${_stub})
    endif()
  endforeach()
  set(CMAKE_CUDA_RUNTIME_LIBRARY None PARENT_SCOPE)
  if(CUDAToolkit_LIBRARY_DIR)
    find_library(CUDA_STUBS_CUDADEVRT cudadevrt HINTS "${CUDAToolkit_LIBRARY_DIR}" NO_DEFAULT_PATH)
    if(CUDA_STUBS_CUDADEVRT)
      link_libraries("${CUDA_STUBS_CUDADEVRT}")
    endif()
  endif()
endfunction()

set(cuda-stubs_FOUND TRUE)
unset(_cuda_stubs_pair)
unset(_cuda_stubs_target)
unset(_cuda_stubs_file)
unset(_cuda_stubs_lib)

# Switches a CMake project to the stubs without editing it (CMake >= 3.24):
#
#   cmake -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=<cmakedir>/cuda-stubs-switch.cmake ...
#
# (<cmakedir>: `python -m cuda_stubs --cmakedir`, or <prefix>/lib/cmake/cuda-stubs). CMake
# includes this file in the project's first project() call, before it enables any language;
# the result is that of cuda_stubs_use_for_cuda_toolkit() (cuda-stubsConfig.cmake) called
# at the right places:
#
# - the CUDA rules override cuda-stubs-cuda-rules.cmake is set now, so the implicit CUDA runtime
#   of every target (and of CMake's own CUDA compiler check and try_compile tests) is the stub
#   from the moment project() enables CUDA, with the ABI of the project's CUDA compiler
#   (CUDA_STUBS_CUDART_ABI overrides; a disagreement fails, as for the package);
# - a dependency provider (cmake_language(SET_DEPENDENCY_PROVIDER), which only a file of
#   CMAKE_PROJECT_TOP_LEVEL_INCLUDES may set) runs every find_package(CUDAToolkit) of the project
#   as usual, then cuda_stubs_use_for_cuda_toolkit() in the same scope, so FindCUDAToolkit's
#   CUDA::cudart, ::cudart_static, ::cuda_driver, ::nvrtc and ::nvJitLink name the stubs
#   wherever the project finds the toolkit; find_package(CUDA), the deprecated FindCUDA, gets its
#   result variables (CUDA_LIBRARIES, CUDA_CUBLAS_LIBRARIES, ...) pointed at the stubs.
#   Other packages are not touched;
# - NVIDIA's link names anywhere else (bare names, -l, find_library()): see
#   cuda-stubs-link-names.cmake.
#
# CMake keeps one dependency provider: with another one (vcpkg's, conan's), the one listed last
# in CMAKE_PROJECT_TOP_LEVEL_INCLUDES wins; edit the project (two lines) instead.

if(CMAKE_VERSION VERSION_LESS 3.24)
  message(FATAL_ERROR "cuda-stubs-switch.cmake needs CMake 3.24 (dependency providers); with "
    "CMake ${CMAKE_VERSION}, call find_package(cuda-stubs CONFIG REQUIRED) and "
    "cuda_stubs_use_for_cuda_toolkit() in the project's CMakeLists.txt.")
endif()

# Only the functions now: before project() enables a language CMake does not know that the
# platform has shared libraries, so the package's targets wait for the provider.
include("${CMAKE_CURRENT_LIST_DIR}/cuda-stubs-functions.cmake")
# WIN32 is not known before project(): a Windows host, or -DCMAKE_SYSTEM_NAME=Windows.
if(CMAKE_HOST_WIN32 OR CMAKE_SYSTEM_NAME STREQUAL "Windows")
  _cuda_stubs_not_on_windows("cuda-stubs-switch.cmake")
endif()
_cuda_stubs_switch_directory()
# NVIDIA's link names (bare names, -l, find_library(), FindCUDA's variables) name the stubs at the
# end of the top-level directory; find_library() finds the link folder first from now on (the
# newest ABI's until the project's CUDA headers decide).
_cuda_stubs_schedule_link_names("${cuda-stubs_CUDART_NEWEST}")
# For the provider, which runs in the project's directories (a macro sees their
# CMAKE_CURRENT_LIST_DIR, not this file's).
set(_CUDA_STUBS_SWITCH_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL
  "cuda-stubs-switch.cmake's folder")

# A macro, as CMake's documentation asks of providers: FindCUDAToolkit's variables (and the
# switch's) land in the scope that called find_package(CUDAToolkit).
macro(cuda_stubs_provide_dependency _cuda_stubs_method _cuda_stubs_package)
  if("${_cuda_stubs_package}" STREQUAL "CUDAToolkit" OR "${_cuda_stubs_package}" STREQUAL "CUDA")
    # The toolkit is found where it is, not in the link folder (FindCUDAToolkit takes its
    # CUDAToolkit_LIBRARY_DIR from where it finds libcudart.so).
    list(FILTER CMAKE_LIBRARY_PATH EXCLUDE REGEX "/cuda-stubs-link/abi[0-9]+$")
  endif()
  if("${_cuda_stubs_package}" STREQUAL "CUDA")
    # The deprecated FindCUDA (CMake < 3.27, or policy CMP0146 OLD): its result variables name
    # the stubs' files for the headers' CUDA major.
    find_package(CUDA ${ARGN} BYPASS_PROVIDER)
    if(CUDA_FOUND)
      list(FIND cuda-stubs_CUDART_ABIS "${CUDA_VERSION_MAJOR}" _cuda_stubs_at)
      if(_cuda_stubs_at EQUAL -1)
        _cuda_stubs_schedule_link_names("${cuda-stubs_CUDART_NEWEST}")
      else()
        _cuda_stubs_schedule_link_names("${CUDA_VERSION_MAJOR}")
        _cuda_stubs_switch_findcuda_variables("${CUDA_VERSION_MAJOR}")
      endif()
      unset(_cuda_stubs_at)
    endif()
  elseif("${_cuda_stubs_package}" STREQUAL "CUDAToolkit")
    find_package(CUDAToolkit ${ARGN} BYPASS_PROVIDER)
    # GLOBAL: the CUDA:: targets the switch makes or points at link cuda-stubs::*, wherever the
    # project uses them.
    find_package(cuda-stubs CONFIG REQUIRED GLOBAL PATHS "${_CUDA_STUBS_SWITCH_DIR}"
      NO_DEFAULT_PATH)
    # CUDAToolkit_FOUND or not: without a toolkit the switch creates CUDA::cudart & co. itself.
    cuda_stubs_use_for_cuda_toolkit()
  endif()
endmacro()
cmake_language(SET_DEPENDENCY_PROVIDER cuda_stubs_provide_dependency
  SUPPORTED_METHODS FIND_PACKAGE)

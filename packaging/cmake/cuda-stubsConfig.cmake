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
# which switches an existing CMake project to the stubs with two lines: every target that would
# link a CUDA runtime links the cudart stub instead, through CMake's implicit CUDA runtime or
# FindCUDAToolkit's CUDA::cudart / CUDA::cudart_static, and CUDA::cuda_driver, CUDA::nvrtc and
# CUDA::nvJitLink name the other stubs (cuda-stubs-functions.cmake says how). Without editing the
# project: -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=<this folder>/cuda-stubs-switch.cmake (CMake 3.24+).
#
# Relocatable: everything is found relative to this file (<prefix>/lib/cmake/cuda-stubs), as
# installed by `scripts/install.sh` or inside the Python wheel (`python -m cuda_stubs --cmakedir`).
#
# Windows (the win_amd64 wheel, or a prefix installed with CUDA_STUBS_CARGO_TARGET=
# x86_64-pc-windows-gnu): the libraries with a DLL stub only, cuda-stubs::cudart, ::nvrtc,
# ::cuda_driver and ::nvjitlink, each with IMPORTED_LOCATION <prefix>/bin/stubs_<name>.dll and
# IMPORTED_IMPLIB the import library of the project's toolchain: <prefix>/lib/stubs_<name>.lib
# (MSVC, clang-cl) or <prefix>/lib/libstubs_<name>.dll.a (MinGW). For CUDA 12 headers
# cuda-stubs::cudart links stubs_cudart_abi12.lib / libstubs_cudart_abi12.dll.a, which import the
# names whose prototype changed in 13.0 from stubs_cudart.dll's CUDA 12 exports. A program finds
# the DLLs beside itself: copy $<TARGET_RUNTIME_DLLS:app> there (CMake 3.21+).
# cuda_stubs_use_for_cuda_toolkit() and cuda-stubs-switch.cmake are Linux only.

include("${CMAKE_CURRENT_LIST_DIR}/cuda-stubs-functions.cmake")

_cuda_stubs_cudart_abi(cuda-stubs_CUDART_ABI)
# The link folder of that ABI (Linux): NVIDIA's link names (libcudart.so, libcublas.so, ...) as
# linker scripts naming the stubs, for link lines outside CMake's targets (-L${cuda-stubs_LINK_DIR}).
_cuda_stubs_link_dir("${cuda-stubs_CUDART_ABI}" cuda-stubs_LINK_DIR)

# cuda-stubs-libraries.cmake (codegen, from the specs) lists the targets and files.
if(WIN32)
  foreach(_cuda_stubs_pair IN LISTS cuda-stubs_WINDOWS_STUBS)
    string(REPLACE "|" ";" _cuda_stubs_pair "${_cuda_stubs_pair}")
    list(GET _cuda_stubs_pair 0 _cuda_stubs_target)
    list(GET _cuda_stubs_pair 1 _cuda_stubs_file)
    set(_cuda_stubs_dll "${cuda-stubs_DLL_DIR}/${_cuda_stubs_file}.dll")
    if(_cuda_stubs_target STREQUAL "cudart")
      _cuda_stubs_cudart_file("${cuda-stubs_CUDART_ABI}" _cuda_stubs_lib)
      if(_cuda_stubs_lib STREQUAL "")
        _cuda_stubs_unusable_cudart()
        continue()
      endif()
    else()
      _cuda_stubs_import_library("${_cuda_stubs_file}" _cuda_stubs_lib)
    endif()
    _cuda_stubs_add_imported("${_cuda_stubs_target}" "${_cuda_stubs_dll}" IMPORTED_IMPLIB
      "${_cuda_stubs_lib}" " (the Windows stubs: the win_amd64 wheel, or an install with \
CUDA_STUBS_CARGO_TARGET=x86_64-pc-windows-gnu)")
  endforeach()
  set(cuda-stubs_FOUND TRUE)
  unset(_cuda_stubs_pair)
  unset(_cuda_stubs_target)
  unset(_cuda_stubs_file)
  unset(_cuda_stubs_dll)
  unset(_cuda_stubs_lib)
  return()
endif()
foreach(_cuda_stubs_pair IN LISTS cuda-stubs_IMPORTED_TARGETS)
  string(REPLACE "|" ";" _cuda_stubs_pair "${_cuda_stubs_pair}")
  list(GET _cuda_stubs_pair 0 _cuda_stubs_target)
  list(GET _cuda_stubs_pair 1 _cuda_stubs_file)
  set(_cuda_stubs_lib "${cuda-stubs_LIBRARY_DIR}/${_cuda_stubs_file}")
  if(_cuda_stubs_target STREQUAL "cudart")
    _cuda_stubs_cudart_file("${cuda-stubs_CUDART_ABI}" _cuda_stubs_lib)
    if(_cuda_stubs_lib STREQUAL "")
      _cuda_stubs_unusable_cudart()
      continue()
    endif()
  endif()
  # The runtime stub's SONAME (the link-time stub has it too): what DT_NEEDED records.
  _cuda_stubs_add_imported("${_cuda_stubs_target}" "${_cuda_stubs_lib}" IMPORTED_SONAME
    "${_cuda_stubs_file}" "")
endforeach()

set(cuda-stubs_FOUND TRUE)
unset(_cuda_stubs_pair)
unset(_cuda_stubs_target)
unset(_cuda_stubs_file)
unset(_cuda_stubs_lib)

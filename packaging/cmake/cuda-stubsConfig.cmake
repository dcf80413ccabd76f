# find_package(cuda-stubs CONFIG): the cuda-stubs libraries as imported targets.
#
#   cuda-stubs::cudart       libstubs_cudart.so  (stands for libcudart)
#   cuda-stubs::nvrtc        libstubs_nvrtc.so   (stands for libnvrtc)
#   cuda-stubs::cuda_driver  libstubs_cuda.so    (stands for libcuda)
#   cuda-stubs::nvjitlink    libstubs_nvjitlink.so (stands for libnvJitLink)
#
# each with cuda_stubs.h's folder as an include directory, and
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

foreach(_cuda_stubs_pair IN ITEMS "cudart|cudart" "nvrtc|nvrtc" "cuda_driver|cuda"
                                  "nvjitlink|nvjitlink")
  string(REPLACE "|" ";" _cuda_stubs_pair "${_cuda_stubs_pair}")
  list(GET _cuda_stubs_pair 0 _cuda_stubs_target)
  list(GET _cuda_stubs_pair 1 _cuda_stubs_file)
  set(_cuda_stubs_lib "${cuda-stubs_LIBRARY_DIR}/libstubs_${_cuda_stubs_file}.so")
  if(NOT EXISTS "${_cuda_stubs_lib}")
    set(cuda-stubs_FOUND FALSE)
    set(cuda-stubs_NOT_FOUND_MESSAGE "${_cuda_stubs_lib} is missing")
    return()
  endif()
  if(NOT TARGET cuda-stubs::${_cuda_stubs_target})
    add_library(cuda-stubs::${_cuda_stubs_target} SHARED IMPORTED)
    set_target_properties(cuda-stubs::${_cuda_stubs_target} PROPERTIES
      IMPORTED_LOCATION "${_cuda_stubs_lib}"
      # The stub's SONAME is its file name: what DT_NEEDED records.
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
# the toolkit has it.
function(cuda_stubs_use_for_cuda_toolkit)
  foreach(_pair IN ITEMS "cudart|cudart" "cudart_static|cudart" "cuda_driver|cuda_driver"
                         "nvrtc|nvrtc" "nvJitLink|nvjitlink")
    string(REPLACE "|" ";" _pair "${_pair}")
    list(GET _pair 0 _name)
    list(GET _pair 1 _stub)
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
          IMPORTED_SONAME "libstubs_${_stub}.so")
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

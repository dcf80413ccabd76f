# The CUDA rules override of a project switched to the stubs (CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA,
# set by cuda_stubs_use_for_cuda_toolkit() and by cuda-stubs-switch.cmake).
#
# CMake's CMakeCUDAInformation.cmake includes this file wherever it enables CUDA, right after
# Compiler/<id>-CUDA.cmake has set the implicit runtime: the libraries CMake links into every
# target with CUDA code for its CUDA_RUNTIME_LIBRARY (unset: CMAKE_CUDA_RUNTIME_LIBRARY, else
# the compiler's default, Static for nvcc):
#
#   CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_STATIC  cudadevrt;cudart_static;rt;pthread;dl
#   CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_SHARED  cudadevrt;cudart
#
# Here cudart_static and cudart become the cudart stub (its absolute path, for the cudart ABI
# the project compiles against), so Static and Shared both link the stub; cudadevrt (the device
# runtime, for separable compilation and dynamic parallelism: a static archive with no libcudart
# dependency) stays. CMake reads these lists at generation, for the targets whose link closure
# has CUDA code only, and also when a C or C++ linker links CUDA objects: targets without CUDA
# code are left alone. try_compile() writes CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA into its test
# projects, so CMake's own checks (the CUDA compiler check, check_source_compiles(CUDA),
# FindOpenMP's CUDA) link the stub too.

# A CUDA rules override the project had before the switch runs first (it may set the same lists).
if(NOT "${CUDA_STUBS_PREVIOUS_RULES_OVERRIDE_CUDA}" STREQUAL "")
  include("${CUDA_STUBS_PREVIOUS_RULES_OVERRIDE_CUDA}")
endif()
# try_compile() writes the CUDA override instead of the generic CMAKE_USER_MAKE_RULES_OVERRIDE,
# not besides it: in a test project without the generic one, include the project's.
if(NOT DEFINED CMAKE_USER_MAKE_RULES_OVERRIDE
   AND NOT "${CUDA_STUBS_PREVIOUS_RULES_OVERRIDE}" STREQUAL "")
  include("${CUDA_STUBS_PREVIOUS_RULES_OVERRIDE}")
endif()

# The package's functions and folders, in this scope (a try_compile project, or a directory that
# enables CUDA where find_package(cuda-stubs) did not run).
include("${CMAKE_CURRENT_LIST_DIR}/cuda-stubs-functions.cmake")
_cuda_stubs_switch_runtime_link_options()

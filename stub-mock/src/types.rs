//! The C types of NVIDIA's headers, as codegen writes them for the stubs (CUDA 13.5's
//! `cuda_runtime_api.h`, `cuda.h`, `nvml.h`): the mock implements the same ABI the stubs
//! forward to, so it reads the same declarations, never a copy of them.

#[allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    dead_code,
    unused_imports,
    clippy::all
)]
#[path = "../../stubs-cudart/src/generated/types.rs"]
pub mod cudart;

#[allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    dead_code,
    unused_imports,
    clippy::all
)]
#[path = "../../stubs-cuda/src/generated/types.rs"]
pub mod cuda;

#[allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    dead_code,
    unused_imports,
    clippy::all
)]
#[path = "../../stubs/nvml/src/generated/types.rs"]
pub mod nvml;

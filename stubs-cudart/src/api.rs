// placeholder until codegen writes it
use crate::types::*;
use ::core::ffi::{c_int, c_void};

#[stub_macros::cuda_stubs(library = "cudart")]
unsafe extern "C" {
    #[cuda(majors = [11, 12, 13])]
    pub fn cudaRuntimeGetVersion(v: *mut c_int) -> cudaError_t;
    #[cuda(majors = [11, 12, 13])]
    pub fn cudaDriverGetVersion(v: *mut c_int) -> cudaError_t;
    #[cuda(majors = [11, 12, 13])]
    pub fn cudaGetDeviceCount(v: *mut c_int) -> cudaError_t;
    #[cuda(majors = [11, 12, 13], hand_written)]
    pub fn cudaGetErrorString(error: cudaError_t) -> *const ::core::ffi::c_char;
    #[cuda(majors = [11, 12, 13], hand_written)]
    pub fn cudaGetErrorName(error: cudaError_t) -> *const ::core::ffi::c_char;
    #[cuda(majors = [11, 12])]
    pub fn cudaThreadSynchronize() -> cudaError_t;
    #[cuda(majors = [11, 12, 13])]
    pub fn cudaDeviceSynchronize() -> cudaError_t;
    #[cuda(majors = [11, 12, 13])]
    pub fn cudaMalloc(p: *mut *mut c_void, size: usize) -> cudaError_t;
    #[cuda(majors = [11, 12, 13])]
    pub fn cudaFree(p: *mut c_void) -> cudaError_t;
    #[cuda(majors = [11, 12, 13])]
    pub fn cudaMemcpy(
        dst: *mut c_void,
        src: *const c_void,
        count: usize,
        kind: ::core::ffi::c_uint,
    ) -> cudaError_t;
}

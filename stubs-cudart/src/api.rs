// placeholder until codegen writes it
use crate::types::*;

#[stub_macros::cuda_stubs(library = "cudart")]
unsafe extern "C" {
    #[cuda(majors = [11, 12, 13])]
    pub fn cudaRuntimeGetVersion(v: *mut ::core::ffi::c_int) -> cudaError_t;
    #[cuda(majors = [11, 12, 13])]
    pub fn cudaGetDeviceCount(v: *mut ::core::ffi::c_int) -> cudaError_t;
    #[cuda(majors = [11, 12, 13], hand_written)]
    pub fn cudaGetErrorString(error: cudaError_t) -> *const ::core::ffi::c_char;
    #[cuda(majors = [11, 12, 13], hand_written)]
    pub fn cudaGetErrorName(error: cudaError_t) -> *const ::core::ffi::c_char;
    #[cuda(majors = [11, 12])]
    pub fn cudaThreadSynchronize() -> cudaError_t;
}

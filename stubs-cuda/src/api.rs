// placeholder until codegen writes it
use crate::types::*;

#[stub_macros::cuda_stubs(library = "cuda")]
unsafe extern "C" {
    #[cuda(majors = [11, 12, 13])]
    pub fn cuDriverGetVersion(v: *mut ::core::ffi::c_int) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuInit(flags: ::core::ffi::c_uint) -> CUresult;
    #[cuda(majors = [11, 12, 13], hand_written)]
    pub fn cuGetErrorString(error: CUresult, pStr: *mut *const ::core::ffi::c_char) -> CUresult;
    #[cuda(majors = [11, 12, 13], hand_written)]
    pub fn cuGetErrorName(error: CUresult, pStr: *mut *const ::core::ffi::c_char) -> CUresult;
}

// placeholder until codegen writes it
use crate::types::*;

#[stub_macros::cuda_stubs(library = "nvrtc")]
unsafe extern "C" {
    /// nvrtc.h
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcVersion(
        major: *mut ::core::ffi::c_int,
        minor: *mut ::core::ffi::c_int,
    ) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13], hand_written)]
    pub fn nvrtcGetErrorString(result: nvrtcResult) -> *const ::core::ffi::c_char;
    #[cuda(majors = [11, 12])]
    pub fn nvrtcGetNVVM(prog: nvrtcProgram, nvvm: *mut ::core::ffi::c_char) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcCreateProgram(
        prog: *mut nvrtcProgram,
        src: *const ::core::ffi::c_char,
        name: *const ::core::ffi::c_char,
        numHeaders: ::core::ffi::c_int,
        headers: *const *const ::core::ffi::c_char,
        includeNames: *const *const ::core::ffi::c_char,
    ) -> nvrtcResult;
}

// placeholder until codegen writes it
use crate::types::*;
use ::core::ffi::{c_char, c_int};

#[stub_macros::cuda_stubs(library = "nvrtc")]
unsafe extern "C" {
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcVersion(major: *mut c_int, minor: *mut c_int) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13], hand_written)]
    pub fn nvrtcGetErrorString(result: nvrtcResult) -> *const c_char;
    #[cuda(majors = [11, 12])]
    pub fn nvrtcGetNVVM(prog: nvrtcProgram, nvvm: *mut c_char) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcCreateProgram(
        prog: *mut nvrtcProgram,
        src: *const c_char,
        name: *const c_char,
        n: c_int,
        headers: *const *const c_char,
        names: *const *const c_char,
    ) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcCompileProgram(
        prog: nvrtcProgram,
        n: c_int,
        options: *const *const c_char,
    ) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcDestroyProgram(prog: *mut nvrtcProgram) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcGetProgramLogSize(prog: nvrtcProgram, size: *mut usize) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcGetProgramLog(prog: nvrtcProgram, log: *mut c_char) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcGetPTXSize(prog: nvrtcProgram, size: *mut usize) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcGetPTX(prog: nvrtcProgram, ptx: *mut c_char) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcGetCUBINSize(prog: nvrtcProgram, size: *mut usize) -> nvrtcResult;
    #[cuda(majors = [11, 12, 13])]
    pub fn nvrtcGetCUBIN(prog: nvrtcProgram, cubin: *mut c_char) -> nvrtcResult;
}

// placeholder until codegen writes it
use crate::types::*;
use ::core::ffi::{c_char, c_int, c_uint, c_void};

#[stub_macros::cuda_stubs(library = "cuda")]
unsafe extern "C" {
    #[cuda(majors = [11, 12, 13])]
    pub fn cuDriverGetVersion(v: *mut c_int) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuInit(flags: c_uint) -> CUresult;
    #[cuda(majors = [11, 12, 13], hand_written)]
    pub fn cuGetErrorString(error: CUresult, pStr: *mut *const c_char) -> CUresult;
    #[cuda(majors = [11, 12, 13], hand_written)]
    pub fn cuGetErrorName(error: CUresult, pStr: *mut *const c_char) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuDeviceGet(d: *mut c_int, ordinal: c_int) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuDeviceGetName(name: *mut c_char, len: c_int, d: c_int) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuDeviceGetAttribute(v: *mut c_int, attr: c_uint, d: c_int) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuDevicePrimaryCtxRetain(ctx: *mut *mut c_void, d: c_int) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuDevicePrimaryCtxRelease_v2(d: c_int) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuCtxSetCurrent(ctx: *mut c_void) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuModuleLoadData(m: *mut *mut c_void, image: *const c_void) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuModuleUnload(m: *mut c_void) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuModuleGetFunction(
        f: *mut *mut c_void,
        m: *mut c_void,
        name: *const c_char,
    ) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuMemAlloc_v2(p: *mut u64, size: usize) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuMemFree_v2(p: u64) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuMemcpyHtoD_v2(dst: u64, src: *const c_void, n: usize) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuMemcpyDtoH_v2(dst: *mut c_void, src: u64, n: usize) -> CUresult;
    #[cuda(majors = [11, 12, 13])]
    pub fn cuLaunchKernel(
        f: *mut c_void,
        gx: c_uint,
        gy: c_uint,
        gz: c_uint,
        bx: c_uint,
        by: c_uint,
        bz: c_uint,
        shmem: c_uint,
        stream: *mut c_void,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CUresult;
}

// placeholder until codegen writes it
pub type nvrtcResult = ::core::ffi::c_uint;
#[repr(C)]
pub struct _nvrtcProgram {
    _unused: [u8; 0],
}
pub type nvrtcProgram = *mut _nvrtcProgram;

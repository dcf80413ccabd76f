// placeholder until codegen writes it
pub type CUresult = ::core::ffi::c_uint;

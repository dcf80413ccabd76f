// placeholder until codegen writes it
pub type cudaError_t = ::core::ffi::c_uint;

//! What the runtime and cuBLAS answer through whatever `-lcudart -lcublas` linked.
use std::ffi::c_int;

unsafe extern "C" {
    fn cudaRuntimeGetVersion(version: *mut c_int) -> c_int;
    /// `libraryPropertyType` is an int-sized enum; `MAJOR_VERSION` is 0.
    fn cublasGetProperty(kind: c_int, value: *mut c_int) -> c_int;
}

fn main() {
    let (mut runtime, mut cublas) = (0, 0);
    // SAFETY: both write one int through a valid pointer.
    let rc = unsafe { cudaRuntimeGetVersion(&mut runtime) };
    println!("cudaRuntimeGetVersion rc={rc} version={runtime}");
    // SAFETY: as above.
    let rc = unsafe { cublasGetProperty(0, &mut cublas) };
    println!("cublasGetProperty rc={rc} major={cublas}");
}

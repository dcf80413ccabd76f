//! An injected fault, run on its own with `CUDA_STUBS_FAULT=cuMemAllocAsync=2@1`
//! (tests/tests/packaging.rs): the first allocation fails as the stubs' fault rule says, the
//! next one succeeds.

use cudarc::driver::{CudaContext, DriverError, sys};

#[test]
fn the_first_allocation_fails_as_injected() -> Result<(), DriverError> {
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let err = stream.alloc_zeros::<u8>(1024).unwrap_err();
    assert_eq!(
        err,
        DriverError(sys::cudaError_enum::CUDA_ERROR_OUT_OF_MEMORY)
    );
    assert!(stream.alloc_zeros::<u8>(1024).is_ok());
    Ok(())
}

//! What a cudarc project's tests check, run on the mock device (`CUDA_STUBS_MOCK=h200`): the
//! profile's device, memory round trips, NVRTC (NVIDIA's, real) compiling a kernel that the mock
//! loads and launches, and out of memory at the profile's limit.

use cudarc::driver::{CudaContext, DriverError, LaunchConfig, PushKernelArg, sys};

const SCALE: &str = r#"
extern "C" __global__ void scale(float *x, float a, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
"#;

#[test]
fn the_profiles_device() -> Result<(), DriverError> {
    assert_eq!(CudaContext::device_count()?, 1);
    let ctx = CudaContext::new(0)?;
    assert_eq!(ctx.name()?, "NVIDIA H200");
    assert_eq!(ctx.compute_capability()?, (9, 0));
    Ok(())
}

#[test]
fn host_device_round_trip() -> Result<(), DriverError> {
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let host: Vec<f32> = (0..1000).map(|i| i as f32).collect();
    let dev = stream.clone_htod(&host)?;
    assert_eq!(stream.clone_dtoh(&dev)?, host);
    let zeros = stream.alloc_zeros::<u32>(256)?;
    assert_eq!(stream.clone_dtoh(&zeros)?, vec![0u32; 256]);
    Ok(())
}

#[test]
fn nvrtc_compiles_and_the_kernel_runs() -> Result<(), Box<dyn std::error::Error>> {
    let ptx = cudarc::nvrtc::compile_ptx(SCALE)?;
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let module = ctx.load_module(ptx)?;
    let scale = module.load_function("scale")?;
    let n = 1000u32;
    let mut x = stream.clone_htod(&vec![1.0f32; n as usize])?;
    let mut launch = stream.launch_builder(&scale);
    launch.arg(&mut x).arg(&2.0f32).arg(&n);
    // The mock's kernel executor runs the kernel's PTX on the CPU: x is doubled.
    unsafe { launch.launch(LaunchConfig::for_num_elems(n)) }?;
    stream.synchronize()?;
    assert_eq!(stream.clone_dtoh(&x)?, vec![2.0f32; n as usize]);
    assert!(module.load_function("thrice").is_err());
    Ok(())
}

#[test]
fn out_of_memory_at_the_profiles_limit() -> Result<(), DriverError> {
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let total = ctx.total_mem()?;
    let err = stream.alloc_zeros::<u8>(total + 1).unwrap_err();
    assert_eq!(
        err,
        DriverError(sys::cudaError_enum::CUDA_ERROR_OUT_OF_MEMORY)
    );
    Ok(())
}

//! A launch's shape: what both the launch's checks (`launch.rs`) and the kernel executor
//! (`execute.rs`) read of it.

/// The launch a registered host function is given (`cuda_stubs_mock_launch` in
/// `include/cuda_stubs_mock.h`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Launch {
    /// Blocks in x, y, z.
    pub grid: [u32; 3],
    /// Threads per block in x, y, z.
    pub block: [u32; 3],
    /// Dynamic shared memory, bytes.
    pub shared_mem: u32,
    /// The device's index.
    pub device: i32,
    /// 1 for a cooperative launch (`cudaLaunchCooperativeKernel`, `cuLaunchCooperativeKernel`,
    /// the cooperative launch attribute of `cudaLaunchKernelExC`/`cuLaunchKernelEx`): its
    /// blocks all resident at once, cooperative groups' `grid.sync()` given its grid workspace
    /// (`stub_ptx::Prepared::run_cooperative`); 0 otherwise.
    pub cooperative: u32,
    /// Blocks per cluster in x, y, z as the launch named them (the cluster-dimension launch
    /// attribute of `cudaLaunchKernelExC`/`cuLaunchKernelEx`); all 0 when it named none (a
    /// kernel's `__cluster_dims__` still sets its clusters: `execute.rs`).
    pub cluster: [u32; 3],
}

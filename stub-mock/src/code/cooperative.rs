//! A cooperative launch's checks (`cudaLaunchCooperativeKernel`, `cuLaunchCooperativeKernel`,
//! the cooperative attribute of `cudaLaunchKernelExC`/`cuLaunchKernelEx`): its grid resident all
//! at once ([`co_resident`], over the occupancy calculator); a launch in thread-block clusters
//! ([`cluster_fits`]); and what the launch attributes of both APIs' `Ex` launches ask of the
//! mock ([`attribute`]). The launch itself runs all its
//! blocks interleaved on one thread, `grid.sync()` given its grid workspace (`execute.rs`,
//! `stub_ptx::Prepared::run_cooperative`).

/// Whether a cooperative grid of `grid` blocks of `block` threads with `shared_mem` bytes of
/// dynamic shared memory is resident all at once on the device, as the driver checks it before
/// a cooperative launch: at most the occupancy calculator's blocks per SM
/// (`code/occupancy.rs`) times the SMs.
pub fn co_resident(
    device: &crate::code::occupancy::Device,
    a: &crate::code::kernel_attributes::Attributes,
    s: &crate::code::kernel_attributes::Settings,
    grid: [u32; 3],
    block: [u32; 3],
    shared_mem: u32,
) -> bool {
    let threads: i64 = block.iter().map(|&b| i64::from(b)).product();
    let blocks: i64 = grid.iter().map(|&g| i64::from(g)).product();
    let per_sm =
        crate::code::occupancy::max_active_blocks(device, a, s, threads, i64::from(shared_mem))
            .unwrap_or(0);
    blocks <= per_sm.saturating_mul(device.sms.max(0))
}

/// [`co_resident`] for a module's function `f` (a `CUfunction`) on device `p`: its resources
/// as `cuFuncGetAttribute` reads them (`code/module.rs`; the mock's assumptions for PTX it
/// JIT-compiles), its settings as `cuFuncSetAttribute` left them. `None`: no such function.
pub fn function_co_resident(
    p: &crate::device::profile::DeviceProfile,
    f: usize,
    grid: [u32; 3],
    block: [u32; 3],
    shared_mem: u32,
) -> Option<bool> {
    let device = crate::code::occupancy::Device::of(p);
    let (_, attributes) = crate::code::module::attributes_of(f)?;
    let sm = (device.major * 10 + device.minor) as u32;
    let a = attributes.unwrap_or_else(|| crate::code::kernel_attributes::unknown(sm));
    let s = crate::code::kernel_attributes::settings(false, f);
    Some(co_resident(&device, &a, &s, grid, block, shared_mem))
}

/// What one launch attribute asks of the mock (both APIs lay them out alike:
/// `cudaLaunchAttribute`, `CUlaunchAttribute`: an id, 4 bytes of padding, a 64-byte value).
pub enum Attribute {
    /// `cudaLaunchAttributeCooperative` and its value.
    Cooperative(bool),
    /// `cudaLaunchAttributeClusterDimension`: blocks per cluster (x, y, z).
    Cluster([u32; 3]),
    /// Programmatic and completion events, a device-updatable node: what the mock does not
    /// model (801).
    Unmodelled,
    /// The rest (priority, access policy, synchronization policy and domains, scheduling
    /// preferences, carveout): hints that change no result, ignored.
    Ignored,
    /// An id past the last.
    Unknown,
}

/// Attribute `id` with `value` (the ids are the same in both APIs: `cudaLaunchAttributeID`,
/// `CUlaunchAttributeID`, CUDA 13.5).
pub fn attribute(id: u32, value: &[u32; 16]) -> Attribute {
    match id {
        2 => Attribute::Cooperative(value[0] != 0),
        4 => Attribute::Cluster([value[0], value[1], value[2]]),
        7 | 12 | 13 => Attribute::Unmodelled,
        0..=18 => Attribute::Ignored,
        _ => Attribute::Unknown,
    }
}

/// `cudaErrorInvalidClusterSize` / `CUDA_ERROR_INVALID_CLUSTER_SIZE` (912): "a kernel launch
/// error due to cluster misconfiguration" (driver_types.h, cuda.h).
pub const INVALID_CLUSTER_SIZE: u32 = 912;
/// `cudaErrorNotSupported` / `CUDA_ERROR_NOT_SUPPORTED`.
const NOT_SUPPORTED: u32 = 801;
/// Blocks per cluster a kernel may ask for without
/// `cudaFuncAttributeNonPortableClusterSizeAllowed` (CUDA C++ Programming Guide, "Thread
/// Block Clusters": 8, portable), and with it on sm_90 (16).
pub const PORTABLE_CLUSTER: u32 = 8;
pub const NON_PORTABLE_CLUSTER: u32 = 16;

/// Whether a launch of `grid` blocks in clusters of `cluster` (as the launch attribute gives
/// it; all 0: none named) may run on device `p` for a function with settings `s`, as the
/// driver checks it: 801 on a device without cluster launches (before sm_90); 912
/// (`INVALID_CLUSTER_SIZE`) for a dimension that does not divide the grid's, or more blocks
/// than the portable 8 (16 once `cudaFuncAttributeNonPortableClusterSizeAllowed` is set).
/// A dimension of 0 counts as 1, as the driver reads an unset `clusterDim`.
pub fn cluster_fits(
    p: &crate::device::profile::DeviceProfile,
    s: &crate::code::kernel_attributes::Settings,
    grid: [u32; 3],
    cluster: [u32; 3],
) -> Result<(), u32> {
    let c = cluster.map(|d| d.max(1));
    let blocks: u64 = c.iter().map(|&d| u64::from(d)).product();
    if blocks <= 1 {
        return Ok(());
    }
    if p.named("CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH") == 0 {
        return Err(NOT_SUPPORTED);
    }
    let limit = if s.non_portable_cluster != 0 {
        NON_PORTABLE_CLUSTER
    } else {
        PORTABLE_CLUSTER
    };
    if blocks > u64::from(limit) || (0..3).any(|i| grid[i] % c[i] != 0) {
        return Err(INVALID_CLUSTER_SIZE);
    }
    Ok(())
}

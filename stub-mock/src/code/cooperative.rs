//! A cooperative launch's checks (`cudaLaunchCooperativeKernel`, `cuLaunchCooperativeKernel`,
//! the cooperative attribute of `cudaLaunchKernelExC`/`cuLaunchKernelEx`): its grid resident all
//! at once ([`co_resident`], over the occupancy calculator); and what the launch attributes of
//! both APIs' `Ex` launches ask of the mock ([`attribute`]). The launch itself runs all its
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
    /// `cudaLaunchAttributeClusterDimension`: blocks per cluster.
    Cluster(u64),
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
        4 => Attribute::Cluster(
            u64::from(value[0].max(1)) * u64::from(value[1].max(1)) * u64::from(value[2].max(1)),
        ),
        7 | 12 | 13 => Attribute::Unmodelled,
        0..=18 => Attribute::Ignored,
        _ => Attribute::Unknown,
    }
}

//! A kernel run by the PTX executor (`stub-ptx`) on the model's memory: the launch's
//! arguments packed as its code lays them out, its module variables given storage, its blocks
//! spread over threads, and how it ended turned into what a GPU reports.
//!
//! - Device pointers are the host addresses of the model's allocations: an access is checked
//!   against them (device, managed and page-locked host memory, as a GPU reaches them through
//!   unified addressing) and made in place.
//! - Blocks run on `CUDA_STUBS_MOCK_THREADS` threads (default: the online CPUs), each taking
//!   the next block until none is left or one faults; a kernel that calls `printf` runs its
//!   blocks on one thread, in order, so that its output is the same from run to run.
//! - `CUDA_STUBS_MOCK_TIMEOUT=seconds` ends a launch still running after that long with 702
//!   `cudaErrorLaunchTimeout`, as a display watchdog does; without it a kernel that never ends
//!   never ends here either, as on a GPU without one.
//! - A fault is sticky, as on a GPU: the launch itself answers success (kernels run
//!   asynchronously there) and every later call of the context answers the fault's code (700
//!   illegal address, 716 misaligned address, 710 device-side assert, 719 launch failure, 702
//!   timeout). Code the executor cannot run answers 801 "not supported" at the launch, with
//!   the PTX line in the debug log.

use crate::code::kernels::{Missing, Owner, describe_ptx_error, program};
use crate::code::shape::Launch;
use crate::device::model::{Kind, Model};
use crate::device::profile::DeviceProfile;
use crate::device::{context, heap};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::ffi::c_void;
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use stub_loader::sync::Mutex;
use stub_ptx::{Fault, Prepared, Program};

/// `cudaErrorIllegalAddress` / `CUDA_ERROR_ILLEGAL_ADDRESS`.
const ILLEGAL_ADDRESS: u32 = 700;
/// `cudaErrorLaunchTimeout` / `CUDA_ERROR_LAUNCH_TIMEOUT`.
const LAUNCH_TIMEOUT: u32 = 702;
/// `cudaErrorAssert` / `CUDA_ERROR_ASSERT`.
const ASSERT: u32 = 710;
/// `cudaErrorMisalignedAddress` / `CUDA_ERROR_MISALIGNED_ADDRESS`.
const MISALIGNED_ADDRESS: u32 = 716;
/// `cudaErrorLaunchFailure` / `CUDA_ERROR_LAUNCH_FAILED`: `trap`, a stack overflow.
const LAUNCH_FAILED: u32 = 719;
/// `cudaErrorNotSupported` / `CUDA_ERROR_NOT_SUPPORTED`.
const NOT_SUPPORTED: u32 = 801;
/// `cudaErrorInvalidValue` / `CUDA_ERROR_INVALID_VALUE`.
const INVALID_VALUE: u32 = 1;

/// Module variables' storage of driver modules and of fat-binary variables nvcc did not
/// register (`printf`'s format strings): (owner, device) → name → address.
type Storage = BTreeMap<(Owner, usize), BTreeMap<String, u64>>;
static STORAGE: Mutex<Storage> = Mutex::new(BTreeMap::new());

/// The device as the executor sees it: the model's memory, the launch's variables.
struct Dev<'a> {
    m: &'a Model,
    /// The launch's device.
    d: usize,
    symbols: BTreeMap<String, u64>,
}

impl stub_ptx::Device for Dev<'_> {
    fn global_ok(&self, addr: u64, len: u64) -> bool {
        self.global_range(addr, len).is_some()
    }

    fn global_range(&self, addr: u64, len: u64) -> Option<(u64, u64)> {
        let f = self.m.find(usize::try_from(addr).ok()?)?;
        let end = addr.checked_add(len)?;
        (end <= (f.start + f.size) as u64).then_some((f.start as u64, f.size as u64))
    }

    fn symbol(&self, name: &str) -> Option<u64> {
        self.symbols.get(name).copied()
    }

    fn vprintf(&self, format: u64, args: u64) -> i32 {
        crate::code::printf::vprintf(self.m, format, args)
    }

    fn malloc(&self, size: u64) -> u64 {
        // The heap's size as the context has it when the heap is made (8 MiB unless set).
        let limit = context::limit(self.d, context::MALLOC_HEAP_SIZE).unwrap_or(8 << 20);
        heap::malloc(self.m, self.d, size, limit)
    }

    fn free(&self, ptr: u64) -> bool {
        heap::free(self.d, ptr)
    }

    fn set_conditional(&self, handle: u64, value: u32) -> bool {
        crate::code::conditional::set(handle, value)
    }

    /// A texture or surface object of `crate::device::arrays` as the executor reads it: its
    /// array (a mipmapped array's `level`), linear or pitch2D memory, format and sampling. A
    /// resource view's format reinterpretation is not applied (the resource's format is read).
    fn texture(&self, handle: u64, level: u32) -> Option<stub_ptx::texture::TextureView> {
        use crate::device::arrays::{self, Format, Resource};
        use stub_ptx::texture::{AddressMode, ChannelKind, Sampling, TextureView};
        let o = arrays::object(handle)?;
        let u = |v: usize| u32::try_from(v).ok();
        // (address, pitch, slice, extent, layers, format, levels)
        let (addr, pitch, slice, extent, layers, format, levels) = match o.resource {
            Resource::Array(_) | Resource::Mipmapped(_) => {
                let (a, levels) = match o.resource {
                    Resource::Mipmapped(m) => (
                        arrays::array(arrays::level(m, level as usize)?)?,
                        arrays::levels(m)?.len(),
                    ),
                    Resource::Array(h) if level == 0 => (arrays::array(h)?, 1),
                    _ => return None,
                };
                // cudaArrayLayered 1, cudaArrayCubemap 4: the third extent counts layers
                // (faces), not depth.
                let layered = a.flags & 5 != 0;
                let [w, h, d] = a.extent;
                let (depth, layers) = if layered {
                    (1, d.max(1))
                } else {
                    (d.max(1), 1)
                };
                let extent = [u(w)?, u(h.max(1))?, u(depth)?];
                (
                    a.base,
                    a.pitch,
                    a.slice,
                    extent,
                    u(layers)?,
                    a.format,
                    levels,
                )
            }
            Resource::Linear { ptr, format, bytes } if level == 0 => {
                let w = bytes / format.element()?;
                (ptr, bytes, bytes, [u(w)?, 1, 1], 1, format, 1)
            }
            Resource::Pitch2D {
                ptr,
                format,
                width,
                height,
                pitch,
            } if level == 0 => {
                let slice = pitch.checked_mul(height)?;
                (ptr, pitch, slice, [u(width)?, u(height)?, 1], 1, format, 1)
            }
            _ => return None,
        };
        let Format { bits, kind } = format;
        let channels = bits.iter().take_while(|&&b| b != 0).count();
        let mode = |m: u32| match m {
            0 => AddressMode::Wrap,
            2 => AddressMode::Mirror,
            3 => AddressMode::Border,
            _ => AddressMode::Clamp,
        };
        let sampling = o.sampling.map(|s| Sampling {
            address: s.address.map(mode),
            linear: s.filter == 1,
            normalized_float: s.read_mode == 1,
            normalized_coords: s.normalized,
            border: s.border,
        });
        Some(TextureView {
            addr: addr as u64,
            pitch: pitch as u64,
            slice: slice as u64,
            extent,
            layers,
            levels: u(levels)?,
            channels: u8::try_from(channels).ok()?,
            bits: u8::try_from(bits[0]).ok()?,
            kind: match kind {
                0 => ChannelKind::Signed,
                1 => ChannelKind::Unsigned,
                _ => ChannelKind::Float,
            },
            sampling,
        })
    }
}

/// The SM count and compute capability (`major * 10 + minor`) of device `p`.
fn device_facts(p: &DeviceProfile) -> (u32, u32) {
    let sms = u32::try_from(p.named("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT")).unwrap_or(1);
    let sm = p.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR") as u32 * 10
        + p.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR") as u32;
    (sms.max(1), sm)
}

/// Runs `kernel` of `owner` on the executor. `Err` is the launch's own answer (801: code the
/// executor cannot run; 1: arguments missing); a fault during the run is recorded as the
/// device's sticky fault and the launch answers `Ok`, as a GPU's asynchronous launch does.
///
/// # Safety
/// `params` is what the launch was given: NULL or one pointer per kernel argument, each to
/// that argument's bytes.
pub unsafe fn execute(
    m: &Model,
    owner: Owner,
    kernel: &str,
    params: *mut *mut c_void,
    launch: &Launch,
) -> Result<(), u32> {
    let d = usize::try_from(launch.device).unwrap_or(0);
    let Some(p) = m.device(launch.device as i64) else {
        return Err(INVALID_VALUE);
    };
    let (sm_count, sm) = device_facts(p);
    let refuse = |why: String| {
        stub_loader::debug_line("mock", format_args!("launch of {why}: not supported (801)"));
        Err(NOT_SUPPORTED)
    };
    let program = match program(owner, sm) {
        Ok(p) => p,
        Err(missing) => return refuse(missing.describe(kernel)),
    };
    let code = match program.kernel(kernel) {
        Ok(k) => k,
        Err(e) => return refuse(Missing::Refused(describe_ptx_error(&e)).describe(kernel)),
    };
    // The arguments, packed as the kernel reads them.
    let mut buffer = vec![0u8; code.param_size() as usize];
    for (i, &(offset, size)) in code.param_layout().iter().enumerate() {
        if params.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: one pointer per argument, by the contract.
        let arg = unsafe { *params.add(i) };
        if arg.is_null() {
            return Err(INVALID_VALUE);
        }
        let (offset, size) = (offset as usize, size as usize);
        let Some(dst) = buffer.get_mut(offset..offset + size) else {
            return Err(INVALID_VALUE);
        };
        // SAFETY: argument `i` has the size its code declares (the launch's contract).
        dst.copy_from_slice(unsafe { core::slice::from_raw_parts(arg as *const u8, size) });
    }
    let symbols = match variables(m, owner, &program, d) {
        Ok(s) => s,
        Err(why) => return refuse(format!("{kernel}: {why}")),
    };
    // The clusters: the kernel's own shape (`.reqnctapercluster`, `__cluster_dims__`) or the
    // launch's (whose limits its entry point checked: `cooperative::cluster_fits`).
    let named = launch.cluster != [0; 3];
    let shape = match code.cluster {
        Some(c) if named && launch.cluster.map(|d| d.max(1)) != c => {
            return refuse_cluster(kernel, "names a cluster shape other than its own");
        }
        Some(c) => c,
        None => launch.cluster.map(|d| d.max(1)),
    };
    if shape.iter().product::<u32>() > 1 {
        if p.named("CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH") == 0 {
            return refuse(format!(
                "{kernel}: clusters on a device without cluster launches"
            ));
        }
        if (0..3).any(|i| launch.grid[i] % shape[i] != 0)
            || shape.iter().product::<u32>() > crate::code::cooperative::NON_PORTABLE_CLUSTER
        {
            return refuse_cluster(kernel, "clusters that do not divide its grid");
        }
    }
    let dev = Dev { m, d, symbols };
    let deadline = timeout_ns().map(|t| stub_loader::clock_ns().saturating_add(t));
    let stop = move || deadline.is_some_and(|end| stub_loader::clock_ns() > end);
    let timer = stub_loader::sync::realtime_ns;
    let mut run = stub_ptx::Launch::new(launch.grid, launch.block, &buffer);
    run.dynamic_shared = launch.shared_mem;
    run.sm_count = sm_count;
    run.stop = Some(&stop);
    run.globaltimer = Some(&timer);
    run.cluster = shape;
    run.explicit_cluster = named || code.cluster.is_some();
    let prepared = match Prepared::new(code, &run, &dev) {
        Ok(p) => p,
        Err(fault) => return ended(m, d, kernel, fault),
    };
    let prints = program
        .module()
        .functions
        .iter()
        .any(|f| f.name == "vprintf");
    // A cooperative launch's blocks take turns on this thread, so that a grid barrier releases;
    // a cluster's blocks take turns likewise, clusters spread over threads as blocks are.
    let threads = if prints { 1 } else { threads() };
    let result = if launch.cooperative != 0 {
        prepared.run_cooperative().map_err(|f| ([0; 3], f))
    } else if prepared.clustered() {
        run_blocks(&prepared, prepared.clusters(), threads, true)
    } else {
        run_blocks(&prepared, launch.grid, threads, false)
    };
    match result {
        Ok(()) => Ok(()),
        Err((_, fault)) => {
            if let Fault::Assert { .. } = fault {
                assert_line(&fault);
            }
            ended(m, d, kernel, fault)
        }
    }
}

/// A launch whose cluster shape the grid or the kernel refuses: 912
/// (`cudaErrorInvalidClusterSize`), with the reason in the debug log.
fn refuse_cluster(kernel: &str, why: &str) -> Result<(), u32> {
    let code = crate::code::cooperative::INVALID_CLUSTER_SIZE;
    stub_loader::debug_line("mock", format_args!("launch of {kernel}: {why}: {code}"));
    Err(code)
}

/// The launch's answer for `fault`: sticky faults recorded on device `d`, the others returned.
fn ended(m: &Model, d: usize, kernel: &str, fault: Fault) -> Result<(), u32> {
    let (code, sticky) = match &fault {
        Fault::IllegalAddress { .. } => (ILLEGAL_ADDRESS, true),
        Fault::MisalignedAddress { .. } => (MISALIGNED_ADDRESS, true),
        Fault::Trap { .. } | Fault::StackOverflow { .. } => (LAUNCH_FAILED, true),
        Fault::Assert { .. } => (ASSERT, true),
        Fault::Timeout => (LAUNCH_TIMEOUT, true),
        Fault::InvalidLaunch(_) => (INVALID_VALUE, false),
        // A handle of no running graph: the launch succeeds and the kernel faults with an
        // illegal address, sticky, as an H100 with driver 580.159.04 answered
        // (tests/gpu/conditional_nodes.sh, case `outside`: launch 0, synchronization 700).
        Fault::Conditional { .. } => (ILLEGAL_ADDRESS, true),
        Fault::Unsupported { .. } | Fault::Internal(_) => (NOT_SUPPORTED, false),
    };
    stub_loader::debug_line(
        "mock",
        format_args!("launch of {kernel} ended: {fault:?}: {code}"),
    );
    if sticky {
        m.fault(d, code);
        Ok(())
    } else {
        Err(code)
    }
}

/// The line a GPU's driver prints for a failed device-side `assert`, on standard error.
fn assert_line(fault: &Fault) {
    let Fault::Assert {
        message,
        file,
        source_line,
        function,
        block: [x, y, z],
        thread: [tx, ty, tz],
    } = fault
    else {
        return;
    };
    let line = format!(
        "{file}:{source_line}: {function}: block: [{x},{y},{z}], thread: [{tx},{ty},{tz}] \
         Assertion `{message}` failed.\n"
    );
    stub_loader::sync::write_stderr(line.as_bytes());
}

/// Storage of `program`'s `.global` and `.const` variables on device `d`: a fat binary's
/// variables nvcc registered are the runtime's (`variables.rs`, so `cudaMemcpyToSymbol` and the
/// kernel see one copy), the others the module's own, made on the first launch with their
/// initializers.
fn variables(
    m: &Model,
    owner: Owner,
    program: &Program,
    d: usize,
) -> Result<BTreeMap<String, u64>, String> {
    use stub_ptx::module::Space;
    if let Some(done) = STORAGE.lock().get(&(owner, d)) {
        return Ok(done.clone());
    }
    let mut out = BTreeMap::new();
    let mut fresh = Vec::new();
    for v in program.variables() {
        if !matches!(v.space, Space::Global | Space::Const) || v.external {
            continue;
        }
        if let Owner::Fatbin(binary) = owner {
            if let Some(p) = crate::code::variables::device_storage(m, binary, &v.name, d) {
                out.insert(v.name.clone(), p as u64);
                continue;
            }
        }
        let size = usize::try_from(v.size()).map_err(|_| format!("{}: too large", v.name))?;
        let p = m
            .allocate(size.max(1), Kind::Device(d))
            .map_err(|_| format!("no memory for its variable {}", v.name))?;
        let init = v.init.get(..v.init.len().min(size)).unwrap_or_default();
        // SAFETY: a fresh allocation of `size` bytes (zeroed), `init` at most that long.
        unsafe { core::ptr::copy_nonoverlapping(init.as_ptr(), p as *mut u8, init.len()) };
        out.insert(v.name.clone(), p as u64);
        fresh.push(v);
    }
    // Initializers naming other variables (`.global .u64 p = x;`): their addresses.
    for v in fresh {
        for (offset, name) in &v.init_symbols {
            let (Some(&at), Some(&target)) = (out.get(&v.name), out.get(name)) else {
                continue;
            };
            if offset + 8 <= v.size() {
                // SAFETY: inside the variable's storage (checked just above).
                unsafe { ((at + offset) as *mut u64).write_unaligned(target) };
            }
        }
    }
    let mut storage = STORAGE.lock();
    Ok(storage.entry((owner, d)).or_insert(out).clone())
}

/// Forgets `owner`'s code and its module variables' storage, freeing the module's own (a module
/// unloaded, a fat binary unregistered).
pub fn unload(m: &Model, owner: Owner) {
    crate::code::kernels::forget(owner);
    let gone: Vec<u64> = {
        let mut s = STORAGE.lock();
        let keys: Vec<(Owner, usize)> = s.keys().filter(|(o, _)| *o == owner).copied().collect();
        keys.into_iter()
            .filter_map(|k| s.remove(&k))
            .flat_map(|names| names.into_values())
            .collect()
    };
    for p in gone {
        // Only the module's own storage: the runtime's variables are freed with their binary.
        let _ = m.free(p as usize, |k| matches!(k, Kind::Device(_)));
    }
}

/// `CUDA_STUBS_MOCK_TIMEOUT`, in nanoseconds.
fn timeout_ns() -> Option<u64> {
    let text = stub_loader::sync::env_text(c"CUDA_STUBS_MOCK_TIMEOUT")?;
    let seconds: u64 = text.trim().parse().ok()?;
    Some(seconds.saturating_mul(1_000_000_000))
}

/// The threads a launch's blocks run on: `CUDA_STUBS_MOCK_THREADS`, else the online CPUs.
fn threads() -> u32 {
    if let Some(n) = stub_loader::sync::env_text(c"CUDA_STUBS_MOCK_THREADS")
        .and_then(|t| t.trim().parse::<u32>().ok())
    {
        return n.clamp(1, 256);
    }
    u32::try_from(stub_loader::sync::cpu_count())
        .unwrap_or(1)
        .clamp(1, 256)
}

/// What the threads running one launch share.
struct Work<'a, 'b> {
    prepared: &'a Prepared<'b>,
    /// The blocks, or the clusters of a launch in clusters.
    grid: [u32; 3],
    /// Whether `grid` counts clusters ([`Prepared::run_cluster`]) rather than blocks.
    clusters: bool,
    total: u64,
    next: AtomicU32,
    stop: AtomicBool,
    /// The fault of the lowest-numbered block that faulted.
    fault: Mutex<Option<(u64, [u32; 3], Fault)>>,
}

impl Work<'_, '_> {
    /// Runs blocks until none is left or one faulted.
    fn drain(&self) {
        while !self.stop.load(Ordering::Relaxed) {
            let i = u64::from(self.next.fetch_add(1, Ordering::Relaxed));
            if i >= self.total {
                return;
            }
            let [gx, gy, _] = self.grid.map(u64::from);
            let ctaid = [(i % gx) as u32, (i / gx % gy) as u32, (i / gx / gy) as u32];
            let ran = if self.clusters {
                self.prepared.run_cluster(ctaid)
            } else {
                self.prepared.run_block(ctaid)
            };
            if let Err(f) = ran {
                self.stop.store(true, Ordering::Relaxed);
                let mut first = self.fault.lock();
                if first.as_ref().is_none_or(|(j, _, _)| i < *j) {
                    *first = Some((i, ctaid, f));
                }
                return;
            }
        }
    }
}

/// Runs every block of the launch (`clusters`: every cluster of `grid` clusters) on up to
/// `threads` threads (this one included): the first fault (lowest block or cluster number
/// among those that faulted) with its block or cluster.
fn run_blocks(
    prepared: &Prepared<'_>,
    grid: [u32; 3],
    threads: u32,
    clusters: bool,
) -> Result<(), ([u32; 3], Fault)> {
    let total = grid.iter().map(|&g| u64::from(g)).product::<u64>();
    let work = Work {
        prepared,
        grid,
        clusters,
        total,
        next: AtomicU32::new(0),
        stop: AtomicBool::new(false),
        fault: Mutex::new(None),
    };
    if total > u64::from(u32::MAX) {
        // Blocks are counted in a u32: a grid past 4 billion blocks runs on this thread.
        return prepared.run().map_err(|f| ([0, 0, 0], f));
    }
    let threads = u64::from(threads).min(total).max(1) as usize;
    stub_loader::sync::run_parallel(threads, &|| work.drain());
    match work.fault.lock().take() {
        Some((_, ctaid, f)) => Err((ctaid, f)),
        None => Ok(()),
    }
}

/// The byte sizes of `kernel`'s parameters, in order, from its PTX (as the executor decodes
/// it): what a capture copies of a launch's arguments. `None` when it has no PTX the executor
/// runs.
pub fn param_sizes(m: &Model, owner: Owner, kernel: &str, launch: &Launch) -> Option<Vec<usize>> {
    let (_, sm) = device_facts(m.device(launch.device as i64)?);
    let program = program(owner, sm).ok()?;
    let code = program.kernel(kernel).ok()?;
    Some(
        code.param_layout()
            .iter()
            .map(|&(_, s)| s as usize)
            .collect(),
    )
}

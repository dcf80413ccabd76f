//! The runtime API (`cuda_runtime_api.h`, CUDA 13 ABI) over the device model, one of the
//! mock's three API faces: devices and their properties, memory, streams and events, the
//! per-thread current device and last error (`last_error.rs`); copies and memsets:
//! `copies.rs`; CUDA arrays, their copies, texture and surface objects: `arrays.rs`; device
//! state: `device.rs`; graphs and capture: `graph.rs`, hand-built kernel
//! and event nodes and graph updates: `graph_nodes.rs`; managed and host memory: `memory.rs`;
//! nvcc's registration and kernel launches: `launch.rs`; kernels' attributes and occupancy:
//! `functions.rs`; the driver's entry points: `entry_points.rs`; device variables:
//! `symbols.rs`; memcpy nodes of 3D parameters and graph clones: `graph_copies.rs`; default
//! memory pools and graph memory: `mem_pools.rs`; conditional nodes, `cudaGraphAddNode` and
//! capture into a graph: `graph_conditional.rs`; child graph nodes: `graph_child.rs`; hints (profiler, stream attributes,
//! prefetch): `hints.rs`; per-thread default stream variants: `per_thread.rs`. Every other status
//! function of the API answers `cudaErrorNotSupported` (`unmodelled.rs`). It imports the layers
//! below (`device/`, `code/`, `queue/`), never another face.

use crate::device::context;
use crate::device::device_prop;
use crate::device::handles::{self, Handle};
use crate::device::model::{Kind, Model, model};
use crate::last_error;
use crate::queue;
use crate::types::cudart::*;

mod arrays;
mod copies;
mod device;
mod entry_points;
mod functions;
mod graph;
mod graph_child;
mod graph_conditional;
mod graph_copies;
mod graph_nodes;
mod hints;
mod launch;
mod mem_pools;
mod memory;
mod per_thread;
mod symbols;
use alloc::format;
use core::ffi::{c_char, c_int, c_uint, c_void};

/// The runtime version the mock implements: the ABI of CUDA 13.5's headers (`types.rs`); the
/// release it reports follows the profile's driver (`Model::runtime_version`).
const RUNTIME_VERSION: c_int = crate::device::model::RUNTIME_13;

/// `cudaEventDefault` (a `#define` of `driver_types.h`).
const EVENT_DEFAULT: c_uint = 0;

/// Runs `f` on the model, recording a failure as the thread's last error (the runtime's rule:
/// every failing call sets it, `cudaGetLastError` reads and clears it). No profile: every
/// call fails with `cudaErrorInitializationError`; a driver older than the runtime's major,
/// `cudaErrorInsufficientDriver`, as a real 12.x runtime on an 11.x driver (the mock's runtime
/// is the release its profile's driver runs, `Model::runtime_version`: 12.9 on a 12.x driver).
pub(crate) fn call(f: impl FnOnce(&'static Model) -> cudaError_t) -> cudaError_t {
    let status = match model() {
        Ok(m) if m.profile.cuda_version / 1000 < m.runtime_version() / 1000 => {
            cudaErrorInsufficientDriver
        }
        Ok(m) => {
            // The runtime initializes the driver on its first call.
            context::initialize();
            f(m)
        }
        Err(_) => cudaErrorInitializationError,
    };
    if status != cudaSuccess {
        last_error::set(status);
    }
    status
}

/// The thread's current device: its current context's, else device 0.
fn current_device() -> c_int {
    context::current().map_or(0, |d| d as c_int)
}

/// The thread's current device, checked against the model (and its sticky fault, which is the
/// answer if it had one: `Model::fault`), its primary context made current if none is (as the
/// runtime does on the first call that needs a device).
pub(crate) fn current(m: &Model) -> Result<usize, cudaError_t> {
    let d = current_device() as usize;
    m.device(d as i64).ok_or(cudaErrorInvalidDevice)?;
    // A device's fault is sticky: every call that needs it answers the fault.
    if let Some(code) = m.faulted(d) {
        return Err(code);
    }
    // None current, or the primary context reset since (`cudaDeviceReset`): made again.
    if context::current().is_none() || !context::is_active(d) {
        context::retain(d);
        context::set_current(Some(d));
    }
    Ok(d)
}

macro_rules! out {
    ($ptr:expr, $value:expr) => {{
        if $ptr.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, and by the API's contract the caller's storage for one value.
        unsafe { *$ptr = $value };
    }};
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaRuntimeGetVersion(version: *mut c_int) -> cudaError_t {
    if version.is_null() {
        return cudaErrorInvalidValue;
    }
    let v = model().map_or(RUNTIME_VERSION, |m| m.runtime_version());
    // SAFETY: non-NULL, the caller's int.
    unsafe { *version = v };
    cudaSuccess
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDriverGetVersion(version: *mut c_int) -> cudaError_t {
    if version.is_null() {
        return cudaErrorInvalidValue;
    }
    let v = model().map_or(0, |m| m.profile.cuda_version);
    // SAFETY: non-NULL, the caller's int.
    unsafe { *version = v };
    cudaSuccess
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDeviceCount(count: *mut c_int) -> cudaError_t {
    call(|m| {
        out!(count, m.count() as c_int);
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDevice(device: *mut c_int) -> cudaError_t {
    call(|_| {
        out!(device, current_device());
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaSetDevice(device: c_int) -> cudaError_t {
    call(|m| {
        if m.device(device.into()).is_none() {
            return cudaErrorInvalidDevice;
        }
        if context::current() != Some(device as usize) {
            context::retain(device as usize);
            context::set_current(Some(device as usize));
        }
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDeviceProperties(
    prop: *mut cudaDeviceProp,
    device: c_int,
) -> cudaError_t {
    call(|m| {
        let Some(d) = m.device(device.into()) else {
            return cudaErrorInvalidDevice;
        };
        if prop.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's cudaDeviceProp (CUDA 13 layout: the stub's adapter
        // translates for callers of other headers).
        device_prop::fill(unsafe { &mut *prop }, d);
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetAttribute(
    value: *mut c_int,
    attr: cudaDeviceAttr,
    device: c_int,
) -> cudaError_t {
    call(|m| {
        let Some(d) = m.device(device.into()) else {
            return cudaErrorInvalidDevice;
        };
        // The runtime's attribute numbers are the driver's.
        let Some(v) = d.value(attr as i32) else {
            return cudaErrorInvalidValue;
        };
        out!(value, v);
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetPCIBusId(
    id: *mut c_char,
    len: c_int,
    device: c_int,
) -> cudaError_t {
    call(|m| {
        let Some(d) = m.device(device.into()) else {
            return cudaErrorInvalidDevice;
        };
        // The runtime's spelling: a four-digit domain, hex in upper case, cut to `len - 1`.
        let [domain, bus, dev, function] = d.pci;
        let text = format!("{domain:04X}:{bus:02X}:{dev:02X}.{function:X}");
        let len = usize::try_from(len).unwrap_or(0);
        // SAFETY: the caller's buffer of `len` bytes, by the API's contract.
        if unsafe { crate::c_text::write_cut(&text, id, len) } {
            cudaSuccess
        } else {
            cudaErrorInvalidValue
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceSynchronize() -> cudaError_t {
    crate::code::printf::flush();
    call(
        |m| match queue::graph::unsafe_call().and_then(|()| current(m).map(|_| ())) {
            Ok(()) => cudaSuccess,
            Err(e) => e,
        },
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetLastError() -> cudaError_t {
    last_error::take()
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaPeekAtLastError() -> cudaError_t {
    last_error::peek()
}

/// `size` bytes of `kind` (device or managed memory of the current device) into `*ptr`: an
/// unsafe call during a capture (`graph::unsafe_call`), `cudaErrorMemoryAllocation` past the
/// device's memory.
pub(crate) fn allocate(
    m: &Model,
    ptr: *mut *mut c_void,
    size: usize,
    kind: fn(usize) -> Kind,
) -> cudaError_t {
    if ptr.is_null() {
        return cudaErrorInvalidValue;
    }
    if let Err(code) = queue::graph::unsafe_call() {
        return code;
    }
    let d = match current(m) {
        Ok(d) => d,
        Err(e) => return e,
    };
    match m.allocate(size, kind(d)) {
        Ok(p) => {
            out!(ptr, p as *mut c_void);
            cudaSuccess
        }
        Err(_) => cudaErrorMemoryAllocation,
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMalloc(ptr: *mut *mut c_void, size: usize) -> cudaError_t {
    call(|m| allocate(m, ptr, size, Kind::Device))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFree(ptr: *mut c_void) -> cudaError_t {
    call(|m| {
        if let Err(code) = queue::graph::unsafe_call() {
            return code;
        }
        // A device's sticky fault answers first, as for every further CUDA work.
        if let Err(code) = current(m) {
            return code;
        }
        // A graph's memory stays for its next launch (`graph::owns_allocation`).
        if queue::graph::owns_allocation(ptr as usize) {
            return cudaSuccess;
        }
        match m.free(ptr as usize, |k| k.device().is_some()) {
            Ok(()) => cudaSuccess,
            Err(_) => cudaErrorInvalidValue,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocHost(ptr: *mut *mut c_void, size: usize) -> cudaError_t {
    // SAFETY: the same contract (cudaHostAllocDefault).
    unsafe { cudaHostAlloc(ptr, size, 0) }
}

/// `cudaHostAllocPortable | …Mapped | …WriteCombined`.
const HOST_ALLOC_FLAGS: c_uint = 0x7;

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaHostAlloc(
    ptr: *mut *mut c_void,
    size: usize,
    flags: c_uint,
) -> cudaError_t {
    call(|m| {
        if ptr.is_null() || flags & !HOST_ALLOC_FLAGS != 0 {
            return cudaErrorInvalidValue;
        }
        match m.allocate_host(size, flags) {
            Ok(p) => {
                out!(ptr, p as *mut c_void);
                cudaSuccess
            }
            Err(_) => cudaErrorMemoryAllocation,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFreeHost(ptr: *mut c_void) -> cudaError_t {
    call(|m| match m.free(ptr as usize, |k| k == Kind::Host) {
        Ok(()) => cudaSuccess,
        Err(_) => cudaErrorInvalidValue,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemGetInfo(free: *mut usize, total: *mut usize) -> cudaError_t {
    call(|m| {
        let d = match current(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let (f, t) = m.mem_info(d);
        out!(free, f as usize);
        out!(total, t as usize);
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaPointerGetAttributes(
    attributes: *mut cudaPointerAttributes,
    ptr: *const c_void,
) -> cudaError_t {
    call(|m| {
        if attributes.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: all-zero is a valid cudaPointerAttributes (integers, pointers, a union).
        let mut a: cudaPointerAttributes = unsafe { core::mem::zeroed() };
        a.device = -2;
        match m.find(ptr as usize) {
            Some(f) => match f.kind {
                Kind::Device(d) => {
                    a.type_ = cudaMemoryTypeDevice;
                    a.device = d as c_int;
                    a.devicePointer = ptr as *mut c_void;
                }
                Kind::Managed(d) => {
                    a.type_ = cudaMemoryTypeManaged;
                    a.device = d as c_int;
                    a.devicePointer = ptr as *mut c_void;
                    a.hostPointer = ptr as *mut c_void;
                }
                Kind::Host | Kind::Registered => {
                    a.type_ = cudaMemoryTypeHost;
                    a.device = current_device();
                    a.devicePointer = ptr as *mut c_void;
                    a.hostPointer = ptr as *mut c_void;
                }
            },
            // Memory the runtime does not know: unregistered, no device, no error (CUDA 11+).
            None => a.type_ = cudaMemoryTypeUnregistered,
        }
        // SAFETY: non-NULL, the caller's struct.
        unsafe { *attributes = a };
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamCreate(stream: *mut cudaStream_t) -> cudaError_t {
    // SAFETY: the same contract.
    unsafe { cudaStreamCreateWithPriority(stream, 0, 0) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamCreateWithFlags(
    stream: *mut cudaStream_t,
    flags: c_uint,
) -> cudaError_t {
    // SAFETY: the same contract. The flags (non-blocking) change nothing else when every
    // operation runs when it is issued.
    unsafe { cudaStreamCreateWithPriority(stream, flags, 0) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamCreateWithPriority(
    stream: *mut cudaStream_t,
    flags: c_uint,
    priority: c_int,
) -> cudaError_t {
    call(|m| {
        if stream.is_null() {
            return cudaErrorInvalidValue;
        }
        let d = match current(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        match handles::create_stream(d, flags, priority) {
            Some(s) => {
                out!(stream, s as cudaStream_t);
                cudaSuccess
            }
            None => cudaErrorInvalidValue,
        }
    })
}

/// One field (`read`) of what the runtime knows of `stream` (a default stream is the current
/// device's) into `*value`.
fn stream_field<T>(
    stream: cudaStream_t,
    value: *mut T,
    read: impl FnOnce(handles::Stream) -> T,
) -> cudaError_t {
    call(|m| {
        let d = match current(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        match handles::stream(stream as usize, d) {
            Some(s) => {
                out!(value, read(s));
                cudaSuccess
            }
            None => cudaErrorInvalidResourceHandle,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamGetPriority(
    stream: cudaStream_t,
    priority: *mut c_int,
) -> cudaError_t {
    stream_field(stream, priority, |s| s.priority)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamGetFlags(
    stream: cudaStream_t,
    flags: *mut c_uint,
) -> cudaError_t {
    stream_field(stream, flags, |s| s.flags)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamGetDevice(
    stream: cudaStream_t,
    device: *mut c_int,
) -> cudaError_t {
    stream_field(stream, device, |s| s.device as c_int)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetStreamPriorityRange(
    least: *mut c_int,
    greatest: *mut c_int,
) -> cudaError_t {
    call(|_| {
        let (l, g) = handles::PRIORITY_RANGE;
        // Either may be NULL (the header's "optional").
        // SAFETY: NULL or the caller's int.
        unsafe {
            if let Some(p) = least.as_mut() {
                *p = l;
            }
            if let Some(p) = greatest.as_mut() {
                *p = g;
            }
        }
        cudaSuccess
    })
}

/// The argument a stream callback's trampoline gets: the callback, its stream and data.
struct Callback {
    f: unsafe extern "C" fn(cudaStream_t, cudaError_t, *mut c_void),
    stream: usize,
    data: usize,
}

/// Runs a [`Callback`] (boxed by `cudaStreamAddCallback`) with the stream's status, success:
/// every earlier operation of the stream ran when it was issued.
unsafe extern "C" fn run_callback(arg: *mut c_void) {
    // SAFETY: made by `Box::into_raw` in `cudaStreamAddCallback`; a host operation runs once
    // (outside a capture, which refuses callbacks).
    let c = unsafe { alloc::boxed::Box::from_raw(arg.cast::<Callback>()) };
    // SAFETY: the registrant's function and data, by the API's contract.
    unsafe { (c.f)(c.stream as cudaStream_t, cudaSuccess, c.data as *mut c_void) };
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamAddCallback(
    stream: cudaStream_t,
    callback: cudaStreamCallback_t,
    data: *mut c_void,
    flags: c_uint,
) -> cudaError_t {
    call(|m| {
        let Some(f) = callback else {
            return cudaErrorInvalidValue;
        };
        if flags != 0 {
            return cudaErrorInvalidValue;
        }
        if !handles::is_stream(stream as usize) {
            return cudaErrorInvalidResourceHandle;
        }
        // A callback is not a graph's: the runtime refuses it in a capture.
        if queue::graph::is_capturing(stream as usize) {
            return crate::queue::ops::CAPTURE_UNSUPPORTED;
        }
        let arg = alloc::boxed::Box::into_raw(alloc::boxed::Box::new(Callback {
            f,
            stream: stream as usize,
            data: data as usize,
        }));
        let op = crate::queue::ops::Op::Host {
            f: run_callback,
            data: arg as usize,
        };
        match queue::graph::issue(m, stream as usize, op) {
            Ok(()) => cudaSuccess,
            Err(e) => e,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamDestroy(stream: cudaStream_t) -> cudaError_t {
    call(|_| {
        if handles::destroy(stream as usize, |h| matches!(h, Handle::Stream(_))) {
            queue::stream_attributes::forget(stream as usize);
            cudaSuccess
        } else {
            cudaErrorInvalidResourceHandle
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamSynchronize(stream: cudaStream_t) -> cudaError_t {
    crate::code::printf::flush();
    call(|_| {
        if !handles::is_stream(stream as usize) {
            return cudaErrorInvalidResourceHandle;
        }
        match queue::graph::sync(stream as usize) {
            Ok(()) => cudaSuccess,
            Err(e) => e,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamQuery(stream: cudaStream_t) -> cudaError_t {
    // SAFETY: no pointer is read.
    unsafe { cudaStreamSynchronize(stream) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventCreateWithFlags(
    event: *mut cudaEvent_t,
    flags: c_uint,
) -> cudaError_t {
    call(|_| {
        if event.is_null() {
            return cudaErrorInvalidValue;
        }
        match handles::create_event(flags) {
            Some(h) => {
                out!(event, h as cudaEvent_t);
                cudaSuccess
            }
            None => cudaErrorInvalidValue,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventCreate(event: *mut cudaEvent_t) -> cudaError_t {
    // SAFETY: the same contract.
    unsafe { cudaEventCreateWithFlags(event, EVENT_DEFAULT) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventRecord(event: cudaEvent_t, stream: cudaStream_t) -> cudaError_t {
    // SAFETY: no pointer is read.
    unsafe { cudaEventRecordWithFlags(event, stream, 0) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventRecordWithFlags(
    event: cudaEvent_t,
    stream: cudaStream_t,
    flags: c_uint,
) -> cudaError_t {
    call(|_| {
        let (event, stream) = (event as usize, stream as usize);
        if !handles::is_stream(stream) || !handles::is_event(event) {
            return cudaErrorInvalidResourceHandle;
        }
        // cudaEventRecordDefault, cudaEventRecordExternal (an event record node in a capture;
        // outside one, an H200's runtime answers cudaErrorIllegalState).
        if flags > 1 {
            return cudaErrorInvalidValue;
        }
        if flags == 1 {
            if !queue::graph::is_capturing(stream) {
                return cudaErrorIllegalState;
            }
            // In a capture: an event record node, which the mock's graphs do not have.
            stub_loader::debug_line(
                "mock",
                format_args!(
                    "cudaEventRecordExternal in a capture: not modelled by the mock device"
                ),
            );
            return cudaErrorNotSupported;
        }
        // In a capture the event marks the stream's place in the graph; outside, the time.
        if !queue::graph::record_event(stream, event) {
            handles::record(event);
        }
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamWaitEvent(
    stream: cudaStream_t,
    event: cudaEvent_t,
    flags: c_uint,
) -> cudaError_t {
    call(|_| {
        let (event, stream) = (event as usize, stream as usize);
        if !handles::is_stream(stream) || !handles::is_event(event) {
            return cudaErrorInvalidResourceHandle;
        }
        // cudaEventWaitDefault, cudaEventWaitExternal.
        if flags > 1 {
            return cudaErrorInvalidValue;
        }
        match queue::graph::wait_event(stream, event) {
            Ok(()) => cudaSuccess,
            Err(e) => e,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventSynchronize(event: cudaEvent_t) -> cudaError_t {
    crate::code::printf::flush();
    call(|_| match handles::get(event as usize) {
        Some(Handle::Event { .. }) => cudaSuccess,
        _ => cudaErrorInvalidResourceHandle,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventQuery(event: cudaEvent_t) -> cudaError_t {
    // SAFETY: no pointer is read.
    unsafe { cudaEventSynchronize(event) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventElapsedTime(
    ms: *mut f32,
    start: cudaEvent_t,
    end: cudaEvent_t,
) -> cudaError_t {
    call(|_| {
        // Not events, not recorded yet, or created with cudaEventDisableTiming.
        let Some(elapsed) = handles::elapsed_ms(start as usize, end as usize) else {
            return cudaErrorInvalidResourceHandle;
        };
        out!(ms, elapsed);
        cudaSuccess
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventDestroy(event: cudaEvent_t) -> cudaError_t {
    call(|_| {
        if handles::destroy(event as usize, |h| matches!(h, Handle::Event { .. })) {
            cudaSuccess
        } else {
            cudaErrorInvalidResourceHandle
        }
    })
}

/// `const char *cudaGetErrorName(cudaError_t error)`: the board's runtime's name of the code
/// (`crate::error_texts`), "unrecognized error code" for one it does not know; never NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetErrorName(error: cudaError_t) -> *const c_char {
    crate::error_texts::runtime(error as i32).0.as_ptr()
}

/// `const char *cudaGetErrorString(cudaError_t error)`: the board's runtime's text of the code
/// ("invalid argument" for `cudaErrorInvalidValue`), "unrecognized error code" for one it does
/// not know; never NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetErrorString(error: cudaError_t) -> *const c_char {
    crate::error_texts::runtime(error as i32).1.as_ptr()
}

//! The runtime's copies and memsets (`cuda_runtime_api.h`, CUDA 13 ABI): 1D, 2D (rows at a
//! pitch) and 3D (pitched pointers and CUDA arrays: `arrays.rs`), synchronous and on a
//! stream, between devices (`cudaMemcpyPeer`), and pitched allocations; peer access. Each
//! builds one operation (`queue/ops.rs`) and issues it (`graph::issue`): run now, or added to
//! the stream's capture.
//!
//! Peer access: every two devices of a profile reach each other, as on an NVLink/NVSwitch
//! board (`cudaDeviceCanAccessPeer` answers 1 for two distinct devices); enabling twice answers
//! `cudaErrorPeerAccessAlreadyEnabled`, disabling what is not enabled
//! `cudaErrorPeerAccessNotEnabled`, as the runtime does. A copy between devices needs no peer
//! access (the runtime stages it), so none is checked.

use crate::device::model::Model;
use crate::queue::graph;
use crate::queue::ops::{Extent, Op, Side};
use crate::runtime::{call, current};
use crate::types::cudart::*;
use core::ffi::{c_int, c_uint, c_void};

/// The legacy default stream, on which the synchronous calls run.
const LEGACY: usize = 0;

/// The sides of a copy of `kind` from `src` to `dst` (each pointer and its pitch): which lie in
/// device memory, or `cudaErrorInvalidValue` for a device side that is not, and
/// `cudaErrorInvalidMemcpyDirection` for no direction of the header's.
#[allow(non_upper_case_globals)] // The header's names, matched as constants.
pub(crate) fn sides(
    m: &Model,
    (dst, dst_pitch): (usize, usize),
    (src, src_pitch): (usize, usize),
    kind: cudaMemcpyKind,
) -> Result<(Side, Side), cudaError_t> {
    let (want_dst, want_src) = match kind {
        cudaMemcpyHostToHost => (Some(false), Some(false)),
        cudaMemcpyHostToDevice => (Some(true), Some(false)),
        cudaMemcpyDeviceToHost => (Some(false), Some(true)),
        cudaMemcpyDeviceToDevice => (Some(true), Some(true)),
        cudaMemcpyDefault => (None, None),
        _ => return Err(cudaErrorInvalidMemcpyDirection),
    };
    // With unified addressing the runtime takes a device pointer where the direction says host
    // (it knows the pointer), never a host pointer where it says device.
    let side = |ptr: usize, pitch: usize, want: Option<bool>| {
        let device = m.is_device(ptr);
        if want == Some(true) && !device {
            return Err(cudaErrorInvalidValue);
        }
        Ok(Side {
            ptr,
            pitch,
            slice: 0,
            device,
        })
    };
    Ok((
        side(dst, dst_pitch, want_dst)?,
        side(src, src_pitch, want_src)?,
    ))
}

/// [`graph::submit`] as the runtime answers; a device's sticky fault first (`Model::fault`:
/// after a kernel's 700, "any further CUDA work will return the same error", copies and
/// memsets too).
pub(super) fn issue(m: &Model, stream: usize, sync: bool, op: Op) -> cudaError_t {
    if let Err(code) = super::current(m) {
        return code;
    }
    match graph::submit(m, stream, sync, op) {
        Ok(()) => cudaSuccess,
        Err(code) => code,
    }
}

/// A 2D copy (`count` bytes is one row of `count`).
#[allow(clippy::too_many_arguments)]
fn copy_2d(
    m: &Model,
    (dst, dpitch): (usize, usize),
    (src, spitch): (usize, usize),
    width: usize,
    height: usize,
    kind: cudaMemcpyKind,
    stream: usize,
    sync: bool,
) -> cudaError_t {
    if width == 0 || height == 0 {
        return cudaSuccess;
    }
    if height > 1 && (dpitch < width || spitch < width) {
        return cudaErrorInvalidPitchValue;
    }
    let (dst, src) = match sides(m, (dst, dpitch), (src, spitch), kind) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let extent = Extent {
        width,
        height,
        depth: 1,
    };
    issue(m, stream, sync, Op::Copy { dst, src, extent })
}

/// A memset of `width` bytes in each of `height` rows at `pitch`.
fn memset_2d(
    m: &Model,
    (dst, pitch): (usize, usize),
    value: c_int,
    width: usize,
    height: usize,
    stream: usize,
    sync: bool,
) -> cudaError_t {
    if width == 0 || height == 0 {
        return cudaSuccess;
    }
    if height > 1 && pitch < width {
        return cudaErrorInvalidPitchValue;
    }
    let op = Op::memset(dst, pitch, value as u8 as u32, 1, (width, height));
    issue(m, stream, sync, op)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: cudaMemcpyKind,
) -> cudaError_t {
    call(|m| {
        let (d, s) = ((dst as usize, count), (src as usize, count));
        copy_2d(m, d, s, count, 1, kind, LEGACY, true)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpyAsync(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|m| {
        let (d, s) = ((dst as usize, count), (src as usize, count));
        copy_2d(m, d, s, count, 1, kind, stream as usize, false)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy2D(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: cudaMemcpyKind,
) -> cudaError_t {
    call(|m| {
        let (d, s) = ((dst as usize, dpitch), (src as usize, spitch));
        copy_2d(m, d, s, width, height, kind, LEGACY, true)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy2DAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|m| {
        let (d, s) = ((dst as usize, dpitch), (src as usize, spitch));
        copy_2d(m, d, s, width, height, kind, stream as usize, false)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemset(dst: *mut c_void, value: c_int, count: usize) -> cudaError_t {
    call(|m| memset_2d(m, (dst as usize, count), value, count, 1, LEGACY, true))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemsetAsync(
    dst: *mut c_void,
    value: c_int,
    count: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|m| {
        let d = (dst as usize, count);
        memset_2d(m, d, value, count, 1, stream as usize, false)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemset2D(
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
) -> cudaError_t {
    call(|m| memset_2d(m, (dst as usize, pitch), value, width, height, LEGACY, true))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemset2DAsync(
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|m| {
        let d = (dst as usize, pitch);
        memset_2d(m, d, value, width, height, stream as usize, false)
    })
}

/// `rows` rows of `width` bytes on the current device (`Model::allocate_pitched`): the
/// allocation and its pitch.
fn allocate_pitched(m: &Model, width: usize, rows: usize) -> Result<(usize, usize), cudaError_t> {
    graph::unsafe_call()?;
    let d = current(m)?;
    m.allocate_pitched(width, rows, d)
        .map_err(|_| cudaErrorMemoryAllocation)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocPitch(
    ptr: *mut *mut c_void,
    pitch: *mut usize,
    width: usize,
    height: usize,
) -> cudaError_t {
    call(|m| {
        if ptr.is_null() || pitch.is_null() {
            return cudaErrorInvalidValue;
        }
        match allocate_pitched(m, width, height) {
            Ok((p, row)) => {
                // SAFETY: both non-NULL, the caller's storage.
                unsafe {
                    *ptr = p as *mut c_void;
                    *pitch = row;
                }
                cudaSuccess
            }
            Err(e) => e,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMalloc3D(
    pitched: *mut cudaPitchedPtr,
    extent: cudaExtent,
) -> cudaError_t {
    call(|m| {
        if pitched.is_null() {
            return cudaErrorInvalidValue;
        }
        let Some(rows) = extent.height.checked_mul(extent.depth) else {
            return cudaErrorMemoryAllocation;
        };
        match allocate_pitched(m, extent.width, rows) {
            Ok((p, pitch)) => {
                let out = cudaPitchedPtr {
                    ptr: p as *mut c_void,
                    pitch,
                    xsize: extent.width,
                    ysize: extent.height,
                };
                // SAFETY: non-NULL, the caller's struct.
                unsafe { *pitched = out };
                cudaSuccess
            }
            Err(e) => e,
        }
    })
}

/// A pitched pointer's side at `pos`: its first byte, row pitch, slice pitch (`pitch ×
/// ysize`).
fn pitched_side(p: &cudaPitchedPtr, pos: &cudaPos, device: bool) -> Option<Side> {
    let slice = p.pitch.checked_mul(p.ysize)?;
    let offset = pos
        .z
        .checked_mul(slice)?
        .checked_add(pos.y.checked_mul(p.pitch)?)?
        .checked_add(pos.x)?;
    Some(Side {
        ptr: (p.ptr as usize).checked_add(offset)?,
        pitch: p.pitch,
        slice,
        device,
    })
}

/// `cudaMemcpy3D` and `…Async`: between pitched pointers and CUDA arrays; an empty extent
/// copies nothing.
fn copy_3d(m: &Model, p: *const cudaMemcpy3DParms, stream: usize, sync: bool) -> cudaError_t {
    match copy_3d_op(m, p) {
        Ok(Some(op)) => issue(m, stream, sync, op),
        Ok(None) => cudaSuccess,
        Err(e) => e,
    }
}

/// The copy `p` describes (`cudaMemcpy3DParms`: pitched pointers or CUDA arrays on either
/// side), checked: `None` for an empty extent; `cudaErrorInvalidValue` for NULL parameters or
/// a side outside its memory, `cudaErrorInvalidResourceHandle` for an array that is not one,
/// `cudaErrorInvalidPitchValue` for a row wider than its pitch.
pub(super) fn copy_3d_op(
    m: &Model,
    p: *const cudaMemcpy3DParms,
) -> Result<Option<Op>, cudaError_t> {
    if p.is_null() {
        return Err(cudaErrorInvalidValue);
    }
    // SAFETY: non-NULL, the caller's parameters.
    let p = unsafe { &*p };
    let e = p.extent;
    if e.width == 0 || e.height == 0 || e.depth == 0 {
        return Ok(None);
    }
    // With a CUDA array in the copy, the extent and its position are in its elements
    // (`device/arrays.rs`); the direction is checked with its storage's first byte.
    let array = |a: cudaArray_t| crate::device::arrays::array(a as usize);
    let (dst_array, src_array) = (array(p.dstArray), array(p.srcArray));
    if (!p.dstArray.is_null() && dst_array.is_none())
        || (!p.srcArray.is_null() && src_array.is_none())
    {
        return Err(cudaErrorInvalidResourceHandle);
    }
    let element = dst_array.or(src_array).map_or(1, |a| a.element);
    let width = e.width.saturating_mul(element);
    let memory = |a: Option<crate::device::arrays::Array>, ptr: &cudaPitchedPtr| {
        a.map_or((ptr.ptr as usize, ptr.pitch), |a| (a.base, a.pitch))
    };
    let (dst0, src0) = sides(
        m,
        memory(dst_array, &p.dstPtr),
        memory(src_array, &p.srcPtr),
        p.kind,
    )?;
    let side = |a: Option<crate::device::arrays::Array>,
                ptr: &cudaPitchedPtr,
                pos: &cudaPos,
                device: bool| match a {
        Some(a) => {
            let at = (pos.x.saturating_mul(element), pos.y, pos.z);
            a.window(at, (width, e.height, e.depth)).map(|ptr| Side {
                ptr,
                pitch: a.pitch,
                slice: a.slice,
                device: true,
            })
        }
        None => pitched_side(ptr, pos, device),
    };
    let (Some(dst), Some(src)) = (
        side(dst_array, &p.dstPtr, &p.dstPos, dst0.device),
        side(src_array, &p.srcPtr, &p.srcPos, src0.device),
    ) else {
        return Err(cudaErrorInvalidValue);
    };
    if dst.pitch < width || src.pitch < width {
        return Err(cudaErrorInvalidPitchValue);
    }
    let extent = Extent {
        width,
        height: e.height,
        depth: e.depth,
    };
    Ok(Some(Op::Copy { dst, src, extent }))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy3D(p: *const cudaMemcpy3DParms) -> cudaError_t {
    call(|m| copy_3d(m, p, LEGACY, true))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy3DAsync(
    p: *const cudaMemcpy3DParms,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|m| copy_3d(m, p, stream as usize, false))
}

/// `cudaMemset3D` and `…Async`: `extent.width` bytes of each row of each slice.
fn memset_3d(
    m: &Model,
    p: cudaPitchedPtr,
    value: c_int,
    e: cudaExtent,
    stream: usize,
    sync: bool,
) -> cudaError_t {
    if e.width == 0 || e.height == 0 || e.depth == 0 {
        return cudaSuccess;
    }
    let Some(dst) = pitched_side(&p, &cudaPos::default(), true) else {
        return cudaErrorInvalidValue;
    };
    if dst.pitch < e.width {
        return cudaErrorInvalidPitchValue;
    }
    // One memset per slice: a memset operation is 2D.
    for z in 0..e.depth {
        let op = Op::Memset {
            dst: Side {
                ptr: dst.ptr + z * dst.slice,
                ..dst
            },
            value: value as u8 as u32,
            element: 1,
            extent: Extent {
                width: e.width,
                height: e.height,
                depth: 1,
            },
        };
        let status = issue(m, stream, sync, op);
        if status != cudaSuccess {
            return status;
        }
    }
    cudaSuccess
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemset3D(
    pitched: cudaPitchedPtr,
    value: c_int,
    extent: cudaExtent,
) -> cudaError_t {
    call(|m| memset_3d(m, pitched, value, extent, LEGACY, true))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemset3DAsync(
    pitched: cudaPitchedPtr,
    value: c_int,
    extent: cudaExtent,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|m| memset_3d(m, pitched, value, extent, stream as usize, false))
}

/// `cudaMemcpyPeer` and `…Async`: `count` bytes from device `src_device`'s `src` to device
/// `dst_device`'s `dst` (each must be memory of its device: `cudaErrorInvalidValue`).
#[allow(clippy::too_many_arguments)]
fn copy_peer(
    m: &Model,
    dst: usize,
    dst_device: c_int,
    src: usize,
    src_device: c_int,
    count: usize,
    stream: usize,
    sync: bool,
) -> cudaError_t {
    if m.device(dst_device.into()).is_none() || m.device(src_device.into()).is_none() {
        return cudaErrorInvalidDevice;
    }
    if count == 0 {
        return cudaSuccess;
    }
    for (ptr, device) in [(dst, dst_device), (src, src_device)] {
        match m.find(ptr) {
            Some(f) if f.kind.device() == Some(device as usize) => {}
            _ => return cudaErrorInvalidValue,
        }
    }
    let op = Op::Copy {
        dst: Side::linear(dst, true),
        src: Side::linear(src, true),
        extent: Extent::linear(count),
    };
    issue(m, stream, sync, op)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpyPeer(
    dst: *mut c_void,
    dst_device: c_int,
    src: *const c_void,
    src_device: c_int,
    count: usize,
) -> cudaError_t {
    call(|m| {
        let (d, s) = (dst as usize, src as usize);
        copy_peer(m, d, dst_device, s, src_device, count, LEGACY, true)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpyPeerAsync(
    dst: *mut c_void,
    dst_device: c_int,
    src: *const c_void,
    src_device: c_int,
    count: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    call(|m| {
        let (d, s) = (dst as usize, src as usize);
        copy_peer(
            m,
            d,
            dst_device,
            s,
            src_device,
            count,
            stream as usize,
            false,
        )
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceCanAccessPeer(
    can: *mut c_int,
    device: c_int,
    peer: c_int,
) -> cudaError_t {
    call(|m| {
        if m.device(device.into()).is_none() || m.device(peer.into()).is_none() {
            return cudaErrorInvalidDevice;
        }
        if can.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's int.
        unsafe { *can = c_int::from(device != peer) };
        cudaSuccess
    })
}

/// `cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int
/// srcDevice, int dstDevice)`: what the mock's peers are (`attributes::p2p`);
/// `cudaErrorInvalidDevice` for no such device or one device twice (a device is no peer of
/// itself, as `cudaDeviceCanAccessPeer` answers), `cudaErrorInvalidValue` for a NULL value or
/// another attribute.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetP2PAttribute(
    value: *mut c_int,
    attr: cudaDeviceP2PAttr,
    src_device: c_int,
    dst_device: c_int,
) -> cudaError_t {
    call(|m| {
        if m.device(src_device.into()).is_none()
            || m.device(dst_device.into()).is_none()
            || src_device == dst_device
        {
            return cudaErrorInvalidDevice;
        }
        match crate::device::attributes::p2p(attr) {
            Some(v) if !value.is_null() => {
                // SAFETY: non-NULL, the caller's int.
                unsafe { *value = v };
                cudaSuccess
            }
            _ => cudaErrorInvalidValue,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceEnablePeerAccess(peer: c_int, flags: c_uint) -> cudaError_t {
    call(|m| {
        let d = match current(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        if m.device(peer.into()).is_none() || peer as usize == d {
            return cudaErrorInvalidDevice;
        }
        if flags != 0 {
            return cudaErrorInvalidValue;
        }
        if crate::device::context::set_peer(d, peer as usize, true) {
            cudaSuccess
        } else {
            cudaErrorPeerAccessAlreadyEnabled
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceDisablePeerAccess(peer: c_int) -> cudaError_t {
    call(|m| {
        let d = match current(m) {
            Ok(d) => d,
            Err(e) => return e,
        };
        if m.device(peer.into()).is_none() || peer as usize == d {
            return cudaErrorInvalidDevice;
        }
        if crate::device::context::set_peer(d, peer as usize, false) {
            cudaSuccess
        } else {
            cudaErrorPeerAccessNotEnabled
        }
    })
}

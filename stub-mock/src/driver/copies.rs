//! The driver's copies and memsets (`cuda.h`, CUDA 13 ABI): 1D in each direction and unified
//! (`cuMemcpy`), 2D and 3D between host, device and unified memory (`CUDA_MEMCPY2D`,
//! `CUDA_MEMCPY3D`, and CUDA arrays: `device/arrays.rs`, its offsets and widths in bytes),
//! memsets of 8-, 16-
//! and 32-bit elements in 1D and 2D, synchronous and on a stream, between contexts
//! (`cuMemcpyPeer`), and pitched allocations; peer access (`runtime/copies.rs` says how the
//! mock models it). Each builds one operation (`queue/ops.rs`) and issues it (`graph::submit`):
//! run now, or added to the stream's capture.

use crate::device::context;
use crate::device::model::Model;
use crate::driver::{in_context, status};
use crate::queue::graph;
use crate::queue::ops::{Extent, Op, Side};
use crate::types::cuda::*;
use core::ffi::{c_int, c_uchar, c_uint, c_ushort, c_void};

/// The legacy default stream, on which the synchronous calls run.
const LEGACY: usize = 0;

/// Issues `op` on `stream` in the current context ([`graph::submit`]).
fn issue(stream: usize, sync: bool, op: impl FnOnce(&Model) -> Result<Op, CUresult>) -> CUresult {
    in_context(|m, _| match op(m) {
        Ok(op) => status(graph::submit(m, stream, sync, op)),
        Err(code) => code,
    })
}

/// A copy of `n` bytes; `device`: whether each side must lie in device memory.
fn linear(dst: (usize, bool), src: (usize, bool), n: usize) -> Result<Op, CUresult> {
    Ok(Op::Copy {
        dst: Side::linear(dst.0, dst.1),
        src: Side::linear(src.0, src.1),
        extent: Extent::linear(n),
    })
}

/// A memset of `width` `element`-byte elements in each of `height` rows at `pitch`.
fn memset(
    dst: CUdeviceptr,
    pitch: usize,
    value: u32,
    element: usize,
    width: usize,
    height: usize,
) -> Op {
    Op::memset(dst as usize, pitch, value, element, (width, height))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpyHtoD_v2(
    dst: CUdeviceptr,
    src: *const c_void,
    n: usize,
) -> CUresult {
    issue(LEGACY, true, |_| {
        linear((dst as usize, true), (src as usize, false), n)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpyDtoH_v2(dst: *mut c_void, src: CUdeviceptr, n: usize) -> CUresult {
    issue(LEGACY, true, |_| {
        linear((dst as usize, false), (src as usize, true), n)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpyDtoD_v2(dst: CUdeviceptr, src: CUdeviceptr, n: usize) -> CUresult {
    issue(LEGACY, true, |_| {
        linear((dst as usize, true), (src as usize, true), n)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpyHtoDAsync_v2(
    dst: CUdeviceptr,
    src: *const c_void,
    n: usize,
    stream: CUstream,
) -> CUresult {
    issue(stream as usize, false, |_| {
        linear((dst as usize, true), (src as usize, false), n)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpyDtoHAsync_v2(
    dst: *mut c_void,
    src: CUdeviceptr,
    n: usize,
    stream: CUstream,
) -> CUresult {
    issue(stream as usize, false, |_| {
        linear((dst as usize, false), (src as usize, true), n)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpyDtoDAsync_v2(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    n: usize,
    stream: CUstream,
) -> CUresult {
    issue(stream as usize, false, |_| {
        linear((dst as usize, true), (src as usize, true), n)
    })
}

/// A unified copy: each side is device memory if the model knows it as such.
fn unified(m: &Model, dst: CUdeviceptr, src: CUdeviceptr, n: usize) -> Result<Op, CUresult> {
    let (dst, src) = (dst as usize, src as usize);
    linear((dst, m.is_device(dst)), (src, m.is_device(src)), n)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpy(dst: CUdeviceptr, src: CUdeviceptr, n: usize) -> CUresult {
    issue(LEGACY, true, |m| unified(m, dst, src, n))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpyAsync(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    n: usize,
    stream: CUstream,
) -> CUresult {
    issue(stream as usize, false, |m| unified(m, dst, src, n))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD8_v2(dst: CUdeviceptr, value: c_uchar, n: usize) -> CUresult {
    issue(LEGACY, true, |_| Ok(memset(dst, 0, value.into(), 1, n, 1)))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD16_v2(dst: CUdeviceptr, value: c_ushort, n: usize) -> CUresult {
    issue(LEGACY, true, |_| Ok(memset(dst, 0, value.into(), 2, n, 1)))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD32_v2(dst: CUdeviceptr, value: c_uint, n: usize) -> CUresult {
    issue(LEGACY, true, |_| Ok(memset(dst, 0, value, 4, n, 1)))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD8Async(
    dst: CUdeviceptr,
    value: c_uchar,
    n: usize,
    stream: CUstream,
) -> CUresult {
    issue(stream as usize, false, |_| {
        Ok(memset(dst, 0, value.into(), 1, n, 1))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD16Async(
    dst: CUdeviceptr,
    value: c_ushort,
    n: usize,
    stream: CUstream,
) -> CUresult {
    issue(stream as usize, false, |_| {
        Ok(memset(dst, 0, value.into(), 2, n, 1))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD32Async(
    dst: CUdeviceptr,
    value: c_uint,
    n: usize,
    stream: CUstream,
) -> CUresult {
    issue(stream as usize, false, |_| {
        Ok(memset(dst, 0, value, 4, n, 1))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD2D8_v2(
    dst: CUdeviceptr,
    pitch: usize,
    value: c_uchar,
    width: usize,
    height: usize,
) -> CUresult {
    issue(LEGACY, true, |_| {
        Ok(memset(dst, pitch, value.into(), 1, width, height))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD2D16_v2(
    dst: CUdeviceptr,
    pitch: usize,
    value: c_ushort,
    width: usize,
    height: usize,
) -> CUresult {
    issue(LEGACY, true, |_| {
        Ok(memset(dst, pitch, value.into(), 2, width, height))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD2D32_v2(
    dst: CUdeviceptr,
    pitch: usize,
    value: c_uint,
    width: usize,
    height: usize,
) -> CUresult {
    issue(LEGACY, true, |_| {
        Ok(memset(dst, pitch, value, 4, width, height))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD2D8Async(
    dst: CUdeviceptr,
    pitch: usize,
    value: c_uchar,
    width: usize,
    height: usize,
    stream: CUstream,
) -> CUresult {
    issue(stream as usize, false, |_| {
        Ok(memset(dst, pitch, value.into(), 1, width, height))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemsetD2D32Async(
    dst: CUdeviceptr,
    pitch: usize,
    value: c_uint,
    width: usize,
    height: usize,
    stream: CUstream,
) -> CUresult {
    issue(stream as usize, false, |_| {
        Ok(memset(dst, pitch, value, 4, width, height))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemAllocPitch_v2(
    ptr: *mut CUdeviceptr,
    pitch: *mut usize,
    width: usize,
    height: usize,
    element: c_uint,
) -> CUresult {
    if let Err(code) = graph::unsafe_call() {
        return code;
    }
    in_context(|m, d| {
        // The element sizes `cuda.h` allows (the pitch then suits texture fetches of them).
        if ptr.is_null() || pitch.is_null() || ![4, 8, 16].contains(&element) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if width == 0 || height == 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        match m.allocate_pitched(width, height, d) {
            Ok((p, row)) => {
                // SAFETY: both non-NULL, the caller's storage.
                unsafe {
                    *ptr = p as CUdeviceptr;
                    *pitch = row;
                }
                CUDA_SUCCESS
            }
            Err(_) => CUDA_ERROR_OUT_OF_MEMORY,
        }
    })
}

/// One side of a 2D or 3D copy: its memory type, host and device pointers, offset in bytes
/// and row and slice pitches. Host memory is the caller's; device memory must be the model's;
/// unified memory is device memory if the model knows it as such.
#[allow(non_upper_case_globals)] // The header's names, matched as constants.
fn side(
    m: &Model,
    kind: CUmemorytype,
    (host, device): (usize, CUdeviceptr),
    array: bool,
    (offset, pitch, slice): (Option<usize>, usize, usize),
) -> Result<Side, CUresult> {
    let base = match kind {
        CU_MEMORYTYPE_HOST => (host, false),
        CU_MEMORYTYPE_DEVICE => (device as usize, true),
        CU_MEMORYTYPE_UNIFIED => (device as usize, m.is_device(device as usize)),
        CU_MEMORYTYPE_ARRAY if array => return Err(CUDA_ERROR_NOT_SUPPORTED),
        _ => return Err(CUDA_ERROR_INVALID_VALUE),
    };
    let ptr = offset
        .and_then(|o| base.0.checked_add(o))
        .ok_or(CUDA_ERROR_INVALID_VALUE)?;
    Ok(Side {
        ptr,
        pitch,
        slice,
        device: base.1,
    })
}

/// The side of a copy in the CUDA array `array` at byte `x`, row `y`, slice `z`, for `shape`
/// (bytes, rows, slices): `CUDA_ERROR_INVALID_HANDLE` for no array, `CUDA_ERROR_INVALID_VALUE`
/// past its extent (`device/arrays.rs`).
fn array_side(
    array: CUarray,
    at: (usize, usize, usize),
    shape: (usize, usize, usize),
) -> Result<Side, CUresult> {
    let a = crate::device::arrays::array(array as usize).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    let ptr = a.window(at, shape).ok_or(CUDA_ERROR_INVALID_VALUE)?;
    Ok(Side {
        ptr,
        pitch: a.pitch,
        slice: a.slice,
        device: true,
    })
}

/// `CUDA_MEMCPY2D` as an operation.
fn copy_2d(m: &Model, p: *const CUDA_MEMCPY2D) -> Result<Op, CUresult> {
    // SAFETY: NULL or the caller's parameters.
    let p = unsafe { p.as_ref() }.ok_or(CUDA_ERROR_INVALID_VALUE)?;
    let at = |x: usize, y: usize, pitch: usize| y.checked_mul(pitch)?.checked_add(x);
    let shape = (p.WidthInBytes, p.Height, 1);
    let src = if p.srcMemoryType == CU_MEMORYTYPE_ARRAY {
        array_side(p.srcArray, (p.srcXInBytes, p.srcY, 0), shape)?
    } else {
        side(
            m,
            p.srcMemoryType,
            (p.srcHost as usize, p.srcDevice),
            true,
            (at(p.srcXInBytes, p.srcY, p.srcPitch), p.srcPitch, 0),
        )?
    };
    let dst = if p.dstMemoryType == CU_MEMORYTYPE_ARRAY {
        array_side(p.dstArray, (p.dstXInBytes, p.dstY, 0), shape)?
    } else {
        side(
            m,
            p.dstMemoryType,
            (p.dstHost as usize, p.dstDevice),
            true,
            (at(p.dstXInBytes, p.dstY, p.dstPitch), p.dstPitch, 0),
        )?
    };
    if p.Height > 1 && (src.pitch < p.WidthInBytes || dst.pitch < p.WidthInBytes) {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    Ok(Op::Copy {
        dst,
        src,
        extent: Extent {
            width: p.WidthInBytes,
            height: p.Height,
            depth: 1,
        },
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpy2D_v2(p: *const CUDA_MEMCPY2D) -> CUresult {
    issue(LEGACY, true, |m| copy_2d(m, p))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpy2DUnaligned_v2(p: *const CUDA_MEMCPY2D) -> CUresult {
    issue(LEGACY, true, |m| copy_2d(m, p))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpy2DAsync_v2(p: *const CUDA_MEMCPY2D, stream: CUstream) -> CUresult {
    issue(stream as usize, false, |m| copy_2d(m, p))
}

/// `CUDA_MEMCPY3D` as an operation (levels of detail other than 0 belong to arrays).
pub(super) fn copy_3d(m: &Model, p: *const CUDA_MEMCPY3D) -> Result<Op, CUresult> {
    // SAFETY: NULL or the caller's parameters.
    let p = unsafe { p.as_ref() }.ok_or(CUDA_ERROR_INVALID_VALUE)?;
    if p.srcLOD != 0 || p.dstLOD != 0 {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let at = |x: usize, y: usize, z: usize, pitch: usize, height: usize| {
        z.checked_mul(pitch.checked_mul(height)?)?
            .checked_add(y.checked_mul(pitch)?)?
            .checked_add(x)
    };
    let src_slice = p
        .srcPitch
        .checked_mul(p.srcHeight)
        .ok_or(CUDA_ERROR_INVALID_VALUE)?;
    let dst_slice = p
        .dstPitch
        .checked_mul(p.dstHeight)
        .ok_or(CUDA_ERROR_INVALID_VALUE)?;
    let shape = (p.WidthInBytes, p.Height, p.Depth);
    let src = if p.srcMemoryType == CU_MEMORYTYPE_ARRAY {
        array_side(p.srcArray, (p.srcXInBytes, p.srcY, p.srcZ), shape)?
    } else {
        side(
            m,
            p.srcMemoryType,
            (p.srcHost as usize, p.srcDevice),
            true,
            (
                at(p.srcXInBytes, p.srcY, p.srcZ, p.srcPitch, p.srcHeight),
                p.srcPitch,
                src_slice,
            ),
        )?
    };
    let dst = if p.dstMemoryType == CU_MEMORYTYPE_ARRAY {
        array_side(p.dstArray, (p.dstXInBytes, p.dstY, p.dstZ), shape)?
    } else {
        side(
            m,
            p.dstMemoryType,
            (p.dstHost as usize, p.dstDevice),
            true,
            (
                at(p.dstXInBytes, p.dstY, p.dstZ, p.dstPitch, p.dstHeight),
                p.dstPitch,
                dst_slice,
            ),
        )?
    };
    let multi = p.Height > 1 || p.Depth > 1;
    let rows_fit = src.pitch >= p.WidthInBytes && dst.pitch >= p.WidthInBytes;
    // An array's slices hold its rows; memory's must hold the copy's.
    let slices_fit = p.Depth <= 1
        || ((p.srcMemoryType == CU_MEMORYTYPE_ARRAY || p.srcHeight >= p.Height)
            && (p.dstMemoryType == CU_MEMORYTYPE_ARRAY || p.dstHeight >= p.Height));
    if multi && !(rows_fit && slices_fit) {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    Ok(Op::Copy {
        dst,
        src,
        extent: Extent {
            width: p.WidthInBytes,
            height: p.Height,
            depth: p.Depth,
        },
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpy3D_v2(p: *const CUDA_MEMCPY3D) -> CUresult {
    issue(LEGACY, true, |m| copy_3d(m, p))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpy3DAsync_v2(p: *const CUDA_MEMCPY3D, stream: CUstream) -> CUresult {
    issue(stream as usize, false, |m| copy_3d(m, p))
}

/// A copy of `n` bytes from `src` of context `src_ctx` to `dst` of `dst_ctx`: each pointer
/// must be memory of its context's device (`CUDA_ERROR_INVALID_VALUE`), each context a
/// primary one (`CUDA_ERROR_INVALID_CONTEXT`).
fn peer(
    m: &Model,
    (dst, dst_ctx): (CUdeviceptr, CUcontext),
    (src, src_ctx): (CUdeviceptr, CUcontext),
    n: usize,
) -> Result<Op, CUresult> {
    for (ptr, ctx) in [(dst, dst_ctx), (src, src_ctx)] {
        let d = context::device_of(ctx as usize)
            .filter(|&d| m.device(d as i64).is_some())
            .ok_or(CUDA_ERROR_INVALID_CONTEXT)?;
        match m.find(ptr as usize) {
            Some(f) if f.kind.device() == Some(d) || n == 0 => {}
            _ => return Err(CUDA_ERROR_INVALID_VALUE),
        }
    }
    linear((dst as usize, true), (src as usize, true), n)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpyPeer(
    dst: CUdeviceptr,
    dst_ctx: CUcontext,
    src: CUdeviceptr,
    src_ctx: CUcontext,
    n: usize,
) -> CUresult {
    issue(LEGACY, true, |m| peer(m, (dst, dst_ctx), (src, src_ctx), n))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMemcpyPeerAsync(
    dst: CUdeviceptr,
    dst_ctx: CUcontext,
    src: CUdeviceptr,
    src_ctx: CUcontext,
    n: usize,
    stream: CUstream,
) -> CUresult {
    issue(stream as usize, false, |m| {
        peer(m, (dst, dst_ctx), (src, src_ctx), n)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceCanAccessPeer(
    can: *mut c_int,
    dev: CUdevice,
    peer_dev: CUdevice,
) -> CUresult {
    in_context(|m, _| {
        if m.device(dev.into()).is_none() || m.device(peer_dev.into()).is_none() {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        if can.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: non-NULL, the caller's int.
        unsafe { *can = c_int::from(dev != peer_dev) };
        CUDA_SUCCESS
    })
}

/// `CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice
/// srcDevice, CUdevice dstDevice)`: what the mock's peers are (`attributes::p2p`);
/// `CUDA_ERROR_INVALID_DEVICE` for no such device or one device twice,
/// `CUDA_ERROR_INVALID_VALUE` for a NULL value or another attribute.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuDeviceGetP2PAttribute(
    value: *mut c_int,
    attrib: CUdevice_P2PAttribute,
    src_device: CUdevice,
    dst_device: CUdevice,
) -> CUresult {
    in_context(|m, _| {
        if m.device(src_device.into()).is_none()
            || m.device(dst_device.into()).is_none()
            || src_device == dst_device
        {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        match crate::device::attributes::p2p(attrib) {
            Some(v) if !value.is_null() => {
                // SAFETY: non-NULL, the caller's int.
                unsafe { *value = v };
                CUDA_SUCCESS
            }
            _ => CUDA_ERROR_INVALID_VALUE,
        }
    })
}

/// `cuCtxEnablePeerAccess` / `cuCtxDisablePeerAccess` of the current context to `peer`.
fn set_peer(peer: CUcontext, enable: bool, refused: CUresult) -> CUresult {
    in_context(|m, d| {
        let Some(p) = context::device_of(peer as usize).filter(|&p| m.device(p as i64).is_some())
        else {
            return CUDA_ERROR_INVALID_CONTEXT;
        };
        if p == d {
            return CUDA_ERROR_INVALID_DEVICE;
        }
        if context::set_peer(d, p, enable) {
            CUDA_SUCCESS
        } else {
            refused
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuCtxEnablePeerAccess(peer: CUcontext, flags: c_uint) -> CUresult {
    if flags != 0 {
        return CUDA_ERROR_INVALID_VALUE;
    }
    set_peer(peer, true, CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuCtxDisablePeerAccess(peer: CUcontext) -> CUresult {
    set_peer(peer, false, CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)
}

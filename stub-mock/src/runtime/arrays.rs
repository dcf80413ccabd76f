//! The runtime's CUDA arrays, mipmapped arrays, copies to and from them, and texture and surface
//! objects (cuda_runtime_api.h, CUDA 13 ABI), over the registry both APIs share
//! (`device/arrays.rs`, which says how an array is laid out and where the kernel executor finds
//! an object). An array is device memory of the current device; a copy to or from one is a 2D
//! copy of rows at the array's pitch (`queue/ops.rs`), its offsets and widths in bytes as the
//! runtime takes them, checked against the array's extent (`cudaErrorInvalidValue` past it).
//! `cudaCreateChannelDesc`, which returns no status, is here too: nvcc's programs call it for
//! every `cudaCreateChannelDesc<T>()`.

// NVIDIA's parameter names (cuda_runtime_api.h).
#![allow(non_snake_case)]

use crate::device::arrays::{self, Array, Format, Object, Resource, Sampling, View};
use crate::device::model::{Kind, Model};
use crate::queue::ops::{Extent, Op, Side};
use crate::runtime::copies::{issue, sides};
use crate::runtime::{call, current};
use crate::types::cudart::*;
use alloc::vec::Vec;
use core::ffi::{c_int, c_uint, c_void};

/// The legacy default stream, on which the synchronous calls run.
const LEGACY: usize = 0;

fn format_of(d: &cudaChannelFormatDesc) -> Format {
    Format {
        bits: [d.x, d.y, d.z, d.w],
        kind: d.f,
    }
}

fn desc_of(f: &Format) -> cudaChannelFormatDesc {
    cudaChannelFormatDesc {
        x: f.bits[0],
        y: f.bits[1],
        z: f.bits[2],
        w: f.bits[3],
        f: f.kind,
    }
}

/// `struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum
/// cudaChannelFormatKind f)`: the fields as given.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaCreateChannelDesc(
    x: c_int,
    y: c_int,
    z: c_int,
    w: c_int,
    f: cudaChannelFormatKind,
) -> cudaChannelFormatDesc {
    cudaChannelFormatDesc { x, y, z, w, f }
}

/// An array of `extent` elements of `desc` on the current device, its handle into `*out`.
fn create(
    m: &Model,
    out: *mut cudaArray_t,
    desc: *const cudaChannelFormatDesc,
    extent: [usize; 3],
    flags: c_uint,
) -> Result<usize, cudaError_t> {
    // SAFETY: NULL or the caller's descriptor.
    let desc = unsafe { desc.as_ref() }.ok_or(cudaErrorInvalidValue)?;
    if out.is_null() || extent[0] == 0 || (extent[1] == 0 && extent[2] != 0) {
        return Err(cudaErrorInvalidValue);
    }
    let d = current(m)?;
    let mut array =
        Array::new(d, format_of(desc), extent, flags).ok_or(cudaErrorInvalidChannelDescriptor)?;
    array.base = m
        .allocate(array.bytes(), Kind::Device(d))
        .map_err(|_| cudaErrorMemoryAllocation)?;
    let h = arrays::add(array);
    // SAFETY: non-NULL, the caller's handle.
    unsafe { *out = h as cudaArray_t };
    Ok(h)
}

/// `cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
/// size_t width, size_t height, unsigned int flags)`: a 1D array when `height` is 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocArray(
    array: *mut cudaArray_t,
    desc: *const cudaChannelFormatDesc,
    width: usize,
    height: usize,
    flags: c_uint,
) -> cudaError_t {
    call(
        |m| match create(m, array, desc, [width, height, 0], flags) {
            Ok(_) => cudaSuccess,
            Err(code) => code,
        },
    )
}

/// `cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc
/// *desc, struct cudaExtent extent, unsigned int flags)`: extent in elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMalloc3DArray(
    array: *mut cudaArray_t,
    desc: *const cudaChannelFormatDesc,
    extent: cudaExtent,
    flags: c_uint,
) -> cudaError_t {
    let e = [extent.width, extent.height, extent.depth];
    call(|m| match create(m, array, desc, e, flags) {
        Ok(_) => cudaSuccess,
        Err(code) => code,
    })
}

/// `cudaError_t cudaFreeArray(cudaArray_t array)`: NULL is nothing to free.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFreeArray(array: cudaArray_t) -> cudaError_t {
    call(|m| {
        if array.is_null() {
            return cudaSuccess;
        }
        match arrays::remove(array as usize) {
            Some(base) => {
                m.free(base, |_| true).ok();
                cudaSuccess
            }
            None => cudaErrorInvalidResourceHandle,
        }
    })
}

/// `cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
/// unsigned int *flags, cudaArray_t array)`: each output that is not NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaArrayGetInfo(
    desc: *mut cudaChannelFormatDesc,
    extent: *mut cudaExtent,
    flags: *mut c_uint,
    array: cudaArray_t,
) -> cudaError_t {
    call(|_| {
        let Some(a) = arrays::array(array as usize) else {
            return cudaErrorInvalidResourceHandle;
        };
        // SAFETY: each NULL or the caller's.
        unsafe {
            if let Some(d) = desc.as_mut() {
                *d = desc_of(&a.format);
            }
            if let Some(e) = extent.as_mut() {
                *e = cudaExtent {
                    width: a.extent[0],
                    height: a.extent[1],
                    depth: a.extent[2],
                };
            }
            if let Some(f) = flags.as_mut() {
                *f = a.flags;
            }
        }
        cudaSuccess
    })
}

/// `cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t
/// array)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetChannelDesc(
    desc: *mut cudaChannelFormatDesc,
    array: cudaArray_const_t,
) -> cudaError_t {
    call(|_| {
        let Some(a) = arrays::array(array as usize) else {
            return cudaErrorInvalidResourceHandle;
        };
        if desc.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's descriptor.
        unsafe { *desc = desc_of(&a.format) };
        cudaSuccess
    })
}

/// The side of a copy at byte `x`, row `y`, slice `z` of `array` for `width` bytes, `height`
/// rows and `depth` slices, or `cudaErrorInvalidValue` past its extent.
pub(super) fn array_side(
    array: usize,
    at: (usize, usize, usize),
    shape: (usize, usize, usize),
) -> Result<Side, cudaError_t> {
    let a = arrays::array(array).ok_or(cudaErrorInvalidResourceHandle)?;
    let ptr = a.window(at, shape).ok_or(cudaErrorInvalidValue)?;
    Ok(Side {
        ptr,
        pitch: a.pitch,
        slice: a.slice,
        device: true,
    })
}

/// A 2D copy between `dst` and `src`, either an array's side or memory of `kind`.
#[allow(clippy::too_many_arguments)]
fn copy(
    m: &Model,
    dst: Result<Side, (usize, usize)>,
    src: Result<Side, (usize, usize)>,
    (width, height): (usize, usize),
    kind: cudaMemcpyKind,
    stream: usize,
    sync: bool,
) -> cudaError_t {
    // Memory sides: checked for their direction as `cudaMemcpy2D` checks them.
    let (d, s) = match (dst, src) {
        (Ok(d), Ok(s)) => (d, s),
        (Ok(d), Err(s)) => match sides(m, (d.ptr, d.pitch), s, kind) {
            Ok((_, s)) => (d, s),
            Err(e) => return e,
        },
        (Err(d), Ok(s)) => match sides(m, d, (s.ptr, s.pitch), kind) {
            Ok((d, _)) => (d, s),
            Err(e) => return e,
        },
        (Err(_), Err(_)) => return cudaErrorInvalidValue,
    };
    if height > 1 && (d.pitch < width || s.pitch < width) {
        return cudaErrorInvalidPitchValue;
    }
    let extent = Extent {
        width,
        height,
        depth: 1,
    };
    if width == 0 || height == 0 {
        return cudaSuccess;
    }
    issue(
        m,
        stream,
        sync,
        Op::Copy {
            dst: d,
            src: s,
            extent,
        },
    )
}

/// `cudaMemcpy2DToArray` and its stream form.
#[allow(clippy::too_many_arguments)]
fn to_array(
    dst: cudaArray_t,
    (wOffset, hOffset): (usize, usize),
    (src, spitch): (usize, usize),
    (width, height): (usize, usize),
    kind: cudaMemcpyKind,
    stream: usize,
    sync: bool,
) -> cudaError_t {
    call(|m| {
        let d = match array_side(dst as usize, (wOffset, hOffset, 0), (width, height, 1)) {
            Ok(d) => d,
            Err(e) => return e,
        };
        copy(
            m,
            Ok(d),
            Err((src, spitch)),
            (width, height),
            kind,
            stream,
            sync,
        )
    })
}

/// `cudaMemcpy2DFromArray` and its stream form.
#[allow(clippy::too_many_arguments)]
fn from_array(
    (dst, dpitch): (usize, usize),
    src: cudaArray_const_t,
    (wOffset, hOffset): (usize, usize),
    (width, height): (usize, usize),
    kind: cudaMemcpyKind,
    stream: usize,
    sync: bool,
) -> cudaError_t {
    call(|m| {
        let s = match array_side(src as usize, (wOffset, hOffset, 0), (width, height, 1)) {
            Ok(s) => s,
            Err(e) => return e,
        };
        copy(
            m,
            Err((dst, dpitch)),
            Ok(s),
            (width, height),
            kind,
            stream,
            sync,
        )
    })
}

/// `cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void
/// *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy2DToArray(
    dst: cudaArray_t,
    wOffset: usize,
    hOffset: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: cudaMemcpyKind,
) -> cudaError_t {
    let s = (src as usize, spitch);
    to_array(
        dst,
        (wOffset, hOffset),
        s,
        (width, height),
        kind,
        LEGACY,
        true,
    )
}

/// `cudaMemcpy2DToArrayAsync`: the above on `stream`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy2DToArrayAsync(
    dst: cudaArray_t,
    wOffset: usize,
    hOffset: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    let s = (src as usize, spitch);
    to_array(
        dst,
        (wOffset, hOffset),
        s,
        (width, height),
        kind,
        stream as usize,
        false,
    )
}

/// `cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t
/// wOffset, size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy2DFromArray(
    dst: *mut c_void,
    dpitch: usize,
    src: cudaArray_const_t,
    wOffset: usize,
    hOffset: usize,
    width: usize,
    height: usize,
    kind: cudaMemcpyKind,
) -> cudaError_t {
    let d = (dst as usize, dpitch);
    from_array(
        d,
        src,
        (wOffset, hOffset),
        (width, height),
        kind,
        LEGACY,
        true,
    )
}

/// `cudaMemcpy2DFromArrayAsync`: the above on `stream`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy2DFromArrayAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: cudaArray_const_t,
    wOffset: usize,
    hOffset: usize,
    width: usize,
    height: usize,
    kind: cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    let d = (dst as usize, dpitch);
    from_array(
        d,
        src,
        (wOffset, hOffset),
        (width, height),
        kind,
        stream as usize,
        false,
    )
}

/// `cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void
/// *src, size_t count, enum cudaMemcpyKind kind)` (deprecated): `count` bytes from row
/// `hOffset`, byte `wOffset`, on into the next rows as the board copies them (NVIDIA's
/// simpleTexture copies a whole image with one call): a first partial row, whole rows, a last
/// partial row ([`spans`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpyToArray(
    dst: cudaArray_t,
    wOffset: usize,
    hOffset: usize,
    src: *const c_void,
    count: usize,
    kind: cudaMemcpyKind,
) -> cudaError_t {
    let Some(parts) = spans(dst as usize, (wOffset, hOffset), count) else {
        let s = (src as usize, count);
        return to_array(dst, (wOffset, hOffset), s, (count, 1), kind, LEGACY, true);
    };
    for (at, (x, y), (width, rows)) in parts {
        let s = (src as usize + at, width);
        let rc = to_array(dst, (x, y), s, (width, rows), kind, LEGACY, true);
        if rc != cudaSuccess {
            return rc;
        }
    }
    cudaSuccess
}

/// One of the copies a linear copy to or from an array makes: its offset in the linear side,
/// (byte, row) in the array, (bytes per row, rows).
type Span = (usize, (usize, usize), (usize, usize));

/// The copies a linear `count`-byte copy at byte `x` of row `y` of array `array` makes; `None`
/// when it stays within its row (one copy) or the array is unknown.
fn spans(array: usize, (x, y): (usize, usize), count: usize) -> Option<Vec<Span>> {
    let a = arrays::array(array)?;
    let row = a.extent[0].checked_mul(a.element)?;
    if row == 0 || x.checked_add(count)? <= row {
        return None;
    }
    let mut parts = Vec::new();
    let (mut at, mut x, mut y, mut left) = (0, x, y, count);
    if x != 0 {
        let first = row.checked_sub(x)?;
        parts.push((0, (x, y), (first, 1)));
        (at, x, y, left) = (first, 0, y + 1, left - first);
    }
    let whole = left / row;
    if whole > 0 {
        parts.push((at, (x, y), (row, whole)));
        (at, y, left) = (at + whole * row, y + whole, left - whole * row);
    }
    if left > 0 {
        parts.push((at, (0, y), (left, 1)));
    }
    Some(parts)
}

/// `cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t
/// hOffset, size_t count, enum cudaMemcpyKind kind)` (deprecated): as
/// [`cudaMemcpyToArray`], row after row.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpyFromArray(
    dst: *mut c_void,
    src: cudaArray_const_t,
    wOffset: usize,
    hOffset: usize,
    count: usize,
    kind: cudaMemcpyKind,
) -> cudaError_t {
    let Some(parts) = spans(src as usize, (wOffset, hOffset), count) else {
        let d = (dst as usize, count);
        return from_array(d, src, (wOffset, hOffset), (count, 1), kind, LEGACY, true);
    };
    for (at, (x, y), (width, rows)) in parts {
        let d = (dst as usize + at, width);
        let rc = from_array(d, src, (x, y), (width, rows), kind, LEGACY, true);
        if rc != cudaSuccess {
            return rc;
        }
    }
    cudaSuccess
}

/// `cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t
/// hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t
/// height, enum cudaMemcpyKind kind)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy2DArrayToArray(
    dst: cudaArray_t,
    wOffsetDst: usize,
    hOffsetDst: usize,
    src: cudaArray_const_t,
    wOffsetSrc: usize,
    hOffsetSrc: usize,
    width: usize,
    height: usize,
    kind: cudaMemcpyKind,
) -> cudaError_t {
    call(|m| {
        let shape = (width, height, 1);
        let d = array_side(dst as usize, (wOffsetDst, hOffsetDst, 0), shape);
        let s = array_side(src as usize, (wOffsetSrc, hOffsetSrc, 0), shape);
        let (d, s) = match (d, s) {
            (Ok(d), Ok(s)) => (d, s),
            (Err(e), _) | (_, Err(e)) => return e,
        };
        if kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault {
            return cudaErrorInvalidMemcpyDirection;
        }
        copy(m, Ok(d), Ok(s), (width, height), kind, LEGACY, true)
    })
}

/// `cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray, const struct
/// cudaChannelFormatDesc *desc, struct cudaExtent extent, unsigned int numLevels, unsigned int
/// flags)`: `numLevels` arrays, each half the last in every dimension (at least 1), as many as
/// the extent allows.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocMipmappedArray(
    mipmappedArray: *mut cudaMipmappedArray_t,
    desc: *const cudaChannelFormatDesc,
    extent: cudaExtent,
    numLevels: c_uint,
    flags: c_uint,
) -> cudaError_t {
    call(|m| {
        if mipmappedArray.is_null() || numLevels == 0 {
            return cudaErrorInvalidValue;
        }
        let mut e = [extent.width, extent.height, extent.depth];
        let largest = e.iter().copied().max().unwrap_or(0).max(1);
        let most = usize::BITS - largest.leading_zeros();
        let mut levels = Vec::new();
        for _ in 0..numLevels.min(most) {
            let mut handle: cudaArray_t = core::ptr::null_mut();
            match create(m, &mut handle, desc, e, flags) {
                Ok(h) => levels.push(h),
                Err(code) => {
                    for l in levels {
                        if let Some(base) = arrays::remove(l) {
                            m.free(base, |_| true).ok();
                        }
                    }
                    return code;
                }
            }
            e = e.map(|v| if v == 0 { 0 } else { (v / 2).max(1) });
        }
        let h = arrays::add_mipmapped(levels);
        // SAFETY: non-NULL, the caller's handle.
        unsafe { *mipmappedArray = h as cudaMipmappedArray_t };
        cudaSuccess
    })
}

/// `cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t
/// mipmappedArray, unsigned int level)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetMipmappedArrayLevel(
    levelArray: *mut cudaArray_t,
    mipmappedArray: cudaMipmappedArray_const_t,
    level: c_uint,
) -> cudaError_t {
    call(|_| {
        if levelArray.is_null() {
            return cudaErrorInvalidValue;
        }
        if arrays::levels(mipmappedArray as usize).is_none() {
            return cudaErrorInvalidResourceHandle;
        }
        match arrays::level(mipmappedArray as usize, level as usize) {
            Some(a) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *levelArray = a as cudaArray_t };
                cudaSuccess
            }
            None => cudaErrorInvalidValue,
        }
    })
}

/// `cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFreeMipmappedArray(
    mipmappedArray: cudaMipmappedArray_t,
) -> cudaError_t {
    call(|m| {
        if mipmappedArray.is_null() {
            return cudaSuccess;
        }
        match arrays::remove_mipmapped(mipmappedArray as usize) {
            Some(bases) => {
                for b in bases {
                    m.free(b, |_| true).ok();
                }
                cudaSuccess
            }
            None => cudaErrorInvalidResourceHandle,
        }
    })
}

/// The resource `desc` names, checked: a live array or mipmapped array, or device memory
/// holding the linear or pitched extent of a valid format.
#[allow(non_upper_case_globals)] // The header's names, matched as constants.
fn resource_of(m: &Model, desc: &cudaResourceDesc) -> Result<Resource, cudaError_t> {
    // SAFETY: the member `resType` names, as the API's contract says.
    let r = unsafe {
        match desc.resType {
            cudaResourceTypeArray => Resource::Array(desc.res.array.array as usize),
            cudaResourceTypeMipmappedArray => Resource::Mipmapped(desc.res.mipmap.mipmap as usize),
            cudaResourceTypeLinear => Resource::Linear {
                ptr: desc.res.linear.devPtr as usize,
                format: format_of(&desc.res.linear.desc),
                bytes: desc.res.linear.sizeInBytes,
            },
            cudaResourceTypePitch2D => Resource::Pitch2D {
                ptr: desc.res.pitch2D.devPtr as usize,
                format: format_of(&desc.res.pitch2D.desc),
                width: desc.res.pitch2D.width,
                height: desc.res.pitch2D.height,
                pitch: desc.res.pitch2D.pitchInBytes,
            },
            _ => return Err(cudaErrorInvalidValue),
        }
    };
    let ok = match r {
        Resource::Array(a) => arrays::array(a).is_some(),
        Resource::Mipmapped(a) => arrays::levels(a).is_some(),
        Resource::Linear { ptr, format, bytes } => {
            format.element().is_some() && bytes > 0 && m.device_range(ptr, bytes).is_ok()
        }
        Resource::Pitch2D {
            ptr,
            format,
            width,
            height,
            pitch,
        } => format.element().is_some_and(|e| {
            width > 0
                && height > 0
                && pitch >= width * e
                && m.device_range(ptr, pitch * (height - 1) + width * e)
                    .is_ok()
        }),
    };
    if ok {
        Ok(r)
    } else {
        Err(cudaErrorInvalidValue)
    }
}

/// The runtime's resource descriptor of `r`.
fn resource_desc(r: &Resource) -> cudaResourceDesc {
    let mut d = cudaResourceDesc::default();
    match *r {
        Resource::Array(a) => {
            d.resType = cudaResourceTypeArray;
            d.res.array.array = a as cudaArray_t;
        }
        Resource::Mipmapped(a) => {
            d.resType = cudaResourceTypeMipmappedArray;
            d.res.mipmap.mipmap = a as cudaMipmappedArray_t;
        }
        Resource::Linear { ptr, format, bytes } => {
            d.resType = cudaResourceTypeLinear;
            d.res.linear.devPtr = ptr as *mut c_void;
            d.res.linear.desc = desc_of(&format);
            d.res.linear.sizeInBytes = bytes;
        }
        Resource::Pitch2D {
            ptr,
            format,
            width,
            height,
            pitch,
        } => {
            d.resType = cudaResourceTypePitch2D;
            d.res.pitch2D.devPtr = ptr as *mut c_void;
            d.res.pitch2D.desc = desc_of(&format);
            d.res.pitch2D.width = width;
            d.res.pitch2D.height = height;
            d.res.pitch2D.pitchInBytes = pitch;
        }
    }
    d
}

/// `cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct
/// cudaResourceDesc *pResDesc, const struct cudaTextureDesc *pTexDesc, const struct
/// cudaResourceViewDesc *pResViewDesc)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaCreateTextureObject(
    pTexObject: *mut cudaTextureObject_t,
    pResDesc: *const cudaResourceDesc,
    pTexDesc: *const cudaTextureDesc,
    pResViewDesc: *const cudaResourceViewDesc,
) -> cudaError_t {
    call(|m| {
        // SAFETY: each NULL or the caller's.
        let (Some(res), Some(tex)) = (unsafe { pResDesc.as_ref() }, unsafe { pTexDesc.as_ref() })
        else {
            return cudaErrorInvalidValue;
        };
        if pTexObject.is_null() {
            return cudaErrorInvalidValue;
        }
        let resource = match resource_of(m, res) {
            Ok(r) => r,
            Err(e) => return e,
        };
        let sampling = Sampling {
            address: tex.addressMode,
            filter: tex.filterMode,
            read_mode: tex.readMode,
            normalized: tex.normalizedCoords != 0,
            srgb: tex.sRGB != 0,
            border: tex.borderColor,
            mipmap_filter: tex.mipmapFilterMode,
            mipmap_bias: tex.mipmapLevelBias,
            mipmap_clamp: [tex.minMipmapLevelClamp, tex.maxMipmapLevelClamp],
            max_anisotropy: tex.maxAnisotropy,
        };
        if sampling.address.iter().any(|&a| a > 3) || sampling.filter > 1 || sampling.read_mode > 1
        {
            return cudaErrorInvalidValue;
        }
        // SAFETY: NULL or the caller's view.
        let view = unsafe { pResViewDesc.as_ref() }.map(|v| View {
            format: v.format,
            extent: [v.width, v.height, v.depth],
            levels: [v.firstMipmapLevel, v.lastMipmapLevel],
            layers: [v.firstLayer, v.lastLayer],
        });
        let h = arrays::add_object(Object {
            resource,
            sampling: Some(sampling),
            view,
        });
        // SAFETY: non-NULL, the caller's handle.
        unsafe { *pTexObject = h };
        cudaSuccess
    })
}

/// `cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)`: 0 is nothing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDestroyTextureObject(texObject: cudaTextureObject_t) -> cudaError_t {
    call(|_| {
        if texObject == 0 || arrays::remove_object(texObject) {
            cudaSuccess
        } else {
            cudaErrorInvalidValue
        }
    })
}

/// `cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
/// cudaTextureObject_t texObject)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetTextureObjectResourceDesc(
    pResDesc: *mut cudaResourceDesc,
    texObject: cudaTextureObject_t,
) -> cudaError_t {
    call(|_| {
        let Some(o) = arrays::object(texObject).filter(|o| o.sampling.is_some()) else {
            return cudaErrorInvalidValue;
        };
        if pResDesc.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's descriptor.
        unsafe { *pResDesc = resource_desc(&o.resource) };
        cudaSuccess
    })
}

/// `cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
/// cudaTextureObject_t texObject)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetTextureObjectTextureDesc(
    pTexDesc: *mut cudaTextureDesc,
    texObject: cudaTextureObject_t,
) -> cudaError_t {
    call(|_| {
        let Some(s) = arrays::object(texObject).and_then(|o| o.sampling) else {
            return cudaErrorInvalidValue;
        };
        if pTexDesc.is_null() {
            return cudaErrorInvalidValue;
        }
        let d = cudaTextureDesc {
            addressMode: s.address,
            filterMode: s.filter,
            readMode: s.read_mode,
            sRGB: c_int::from(s.srgb),
            borderColor: s.border,
            normalizedCoords: c_int::from(s.normalized),
            maxAnisotropy: s.max_anisotropy,
            mipmapFilterMode: s.mipmap_filter,
            mipmapLevelBias: s.mipmap_bias,
            minMipmapLevelClamp: s.mipmap_clamp[0],
            maxMipmapLevelClamp: s.mipmap_clamp[1],
            ..cudaTextureDesc::default()
        };
        // SAFETY: non-NULL, the caller's descriptor.
        unsafe { *pTexDesc = d };
        cudaSuccess
    })
}

/// `cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct
/// cudaResourceDesc *pResDesc)`: an array only. One made without `cudaArraySurfaceLoadStore`
/// (2) is taken as well, as an H100 with driver 580 takes it (tests/gpu/occupancy.sh).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaCreateSurfaceObject(
    pSurfObject: *mut cudaSurfaceObject_t,
    pResDesc: *const cudaResourceDesc,
) -> cudaError_t {
    call(|m| {
        // SAFETY: NULL or the caller's descriptor.
        let Some(res) = (unsafe { pResDesc.as_ref() }) else {
            return cudaErrorInvalidValue;
        };
        if pSurfObject.is_null() {
            return cudaErrorInvalidValue;
        }
        let resource = match resource_of(m, res) {
            Ok(r @ Resource::Array(a)) if arrays::array(a).is_some() => r,
            Ok(_) => return cudaErrorInvalidValue,
            Err(e) => return e,
        };
        let h = arrays::add_object(Object {
            resource,
            sampling: None,
            view: None,
        });
        // SAFETY: non-NULL, the caller's handle.
        unsafe { *pSurfObject = h };
        cudaSuccess
    })
}

/// `cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)`: 0 is nothing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDestroySurfaceObject(surfObject: cudaSurfaceObject_t) -> cudaError_t {
    call(|_| {
        if surfObject == 0 || arrays::remove_object(surfObject) {
            cudaSuccess
        } else {
            cudaErrorInvalidValue
        }
    })
}

/// `cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
/// cudaSurfaceObject_t surfObject)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetSurfaceObjectResourceDesc(
    pResDesc: *mut cudaResourceDesc,
    surfObject: cudaSurfaceObject_t,
) -> cudaError_t {
    call(|_| {
        let Some(o) = arrays::object(surfObject).filter(|o| o.sampling.is_none()) else {
            return cudaErrorInvalidValue;
        };
        if pResDesc.is_null() {
            return cudaErrorInvalidValue;
        }
        // SAFETY: non-NULL, the caller's descriptor.
        unsafe { *pResDesc = resource_desc(&o.resource) };
        cudaSuccess
    })
}

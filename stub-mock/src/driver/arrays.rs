//! The driver's CUDA arrays, mipmapped arrays and texture and surface objects (cuda.h, CUDA 13
//! ABI), over the registry both APIs share (`device/arrays.rs`): an array is device memory of
//! the current context's device; its format is a `CUarray_format` and a channel count (1, 2 or
//! 4), which the registry keeps as the runtime's channel description. Copies to and from arrays
//! are `cuMemcpy2D`'s and `cuMemcpy3D`'s (`copies.rs`).

// NVIDIA's parameter names (cuda.h).
#![allow(non_snake_case)]

use crate::device::arrays::{self, Array, Format, Object, Resource, Sampling, View};
use crate::device::model::{Kind, Model};
use crate::driver::in_context;
use crate::types::cuda::*;
use alloc::vec::Vec;
use core::ffi::c_uint;

/// `CU_TRSF_READ_AS_INTEGER`, `CU_TRSF_NORMALIZED_COORDINATES`, `CU_TRSF_SRGB`.
const READ_AS_INTEGER: c_uint = 1;
const NORMALIZED_COORDINATES: c_uint = 2;
const SRGB: c_uint = 0x10;

/// The format of `channels` components of `format`; `None` for a format the mock does not
/// model (the packed and block-compressed ones) or a channel count other than 1, 2, 4.
#[allow(non_upper_case_globals)] // The header's names, matched as constants.
fn format_of(format: CUarray_format, channels: c_uint) -> Option<Format> {
    let (bits, kind) = match format {
        CU_AD_FORMAT_UNSIGNED_INT8 => (8, 1),
        CU_AD_FORMAT_UNSIGNED_INT16 => (16, 1),
        CU_AD_FORMAT_UNSIGNED_INT32 => (32, 1),
        CU_AD_FORMAT_SIGNED_INT8 => (8, 0),
        CU_AD_FORMAT_SIGNED_INT16 => (16, 0),
        CU_AD_FORMAT_SIGNED_INT32 => (32, 0),
        CU_AD_FORMAT_HALF => (16, 2),
        CU_AD_FORMAT_FLOAT => (32, 2),
        _ => return None,
    };
    if !matches!(channels, 1 | 2 | 4) {
        return None;
    }
    let mut b = [0; 4];
    for slot in b.iter_mut().take(channels as usize) {
        *slot = bits;
    }
    Some(Format { bits: b, kind })
}

/// The driver's format and channel count of `f` (the inverse of [`format_of`]).
fn driver_format(f: &Format) -> (CUarray_format, c_uint) {
    let channels = f.bits.iter().filter(|&&b| b != 0).count() as c_uint;
    let format = match (f.bits[0], f.kind) {
        (8, 1) => CU_AD_FORMAT_UNSIGNED_INT8,
        (16, 1) => CU_AD_FORMAT_UNSIGNED_INT16,
        (32, 1) => CU_AD_FORMAT_UNSIGNED_INT32,
        (8, 0) => CU_AD_FORMAT_SIGNED_INT8,
        (16, 0) => CU_AD_FORMAT_SIGNED_INT16,
        (32, 0) => CU_AD_FORMAT_SIGNED_INT32,
        (16, 2) => CU_AD_FORMAT_HALF,
        _ => CU_AD_FORMAT_FLOAT,
    };
    (format, channels)
}

/// An array of `extent` elements on device `d`, its handle into `*out`.
fn create(
    m: &Model,
    d: usize,
    out: *mut CUarray,
    format: Option<Format>,
    extent: [usize; 3],
    flags: c_uint,
) -> Result<usize, CUresult> {
    if out.is_null() || extent[0] == 0 || (extent[1] == 0 && extent[2] != 0) {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let format = format.ok_or(CUDA_ERROR_INVALID_VALUE)?;
    let mut array = Array::new(d, format, extent, flags).ok_or(CUDA_ERROR_INVALID_VALUE)?;
    array.base = m
        .allocate(array.bytes(), Kind::Device(d))
        .map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
    let h = arrays::add(array);
    // SAFETY: non-NULL, the caller's handle.
    unsafe { *out = h as CUarray };
    Ok(h)
}

fn result(r: Result<usize, CUresult>) -> CUresult {
    r.map_or_else(|code| code, |_| CUDA_SUCCESS)
}

/// `CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray)`:
/// a 1D array when `Height` is 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuArrayCreate_v2(
    pHandle: *mut CUarray,
    pAllocateArray: *const CUDA_ARRAY_DESCRIPTOR,
) -> CUresult {
    in_context(|m, d| {
        // SAFETY: NULL or the caller's descriptor.
        let Some(a) = (unsafe { pAllocateArray.as_ref() }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        let format = format_of(a.Format, a.NumChannels);
        result(create(m, d, pHandle, format, [a.Width, a.Height, 0], 0))
    })
}

/// `CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR
/// *pAllocateArray)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuArray3DCreate_v2(
    pHandle: *mut CUarray,
    pAllocateArray: *const CUDA_ARRAY3D_DESCRIPTOR,
) -> CUresult {
    in_context(|m, d| {
        // SAFETY: NULL or the caller's descriptor.
        let Some(a) = (unsafe { pAllocateArray.as_ref() }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        let format = format_of(a.Format, a.NumChannels);
        let extent = [a.Width, a.Height, a.Depth];
        result(create(m, d, pHandle, format, extent, a.Flags))
    })
}

/// `CUresult cuArrayDestroy(CUarray hArray)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuArrayDestroy(hArray: CUarray) -> CUresult {
    in_context(|m, _| match arrays::remove(hArray as usize) {
        Some(base) => {
            m.free(base, |_| true).ok();
            CUDA_SUCCESS
        }
        None => CUDA_ERROR_INVALID_HANDLE,
    })
}

/// `CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuArrayGetDescriptor_v2(
    pArrayDescriptor: *mut CUDA_ARRAY_DESCRIPTOR,
    hArray: CUarray,
) -> CUresult {
    in_context(|_, _| {
        let Some(a) = arrays::array(hArray as usize) else {
            return CUDA_ERROR_INVALID_HANDLE;
        };
        if pArrayDescriptor.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let (Format, NumChannels) = driver_format(&a.format);
        let out = CUDA_ARRAY_DESCRIPTOR {
            Width: a.extent[0],
            Height: a.extent[1],
            Format,
            NumChannels,
        };
        // SAFETY: non-NULL, the caller's descriptor.
        unsafe { *pArrayDescriptor = out };
        CUDA_SUCCESS
    })
}

/// `CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray
/// hArray)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuArray3DGetDescriptor_v2(
    pArrayDescriptor: *mut CUDA_ARRAY3D_DESCRIPTOR,
    hArray: CUarray,
) -> CUresult {
    in_context(|_, _| {
        let Some(a) = arrays::array(hArray as usize) else {
            return CUDA_ERROR_INVALID_HANDLE;
        };
        if pArrayDescriptor.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let (Format, NumChannels) = driver_format(&a.format);
        let out = CUDA_ARRAY3D_DESCRIPTOR {
            Width: a.extent[0],
            Height: a.extent[1],
            Depth: a.extent[2],
            Format,
            NumChannels,
            Flags: a.flags,
        };
        // SAFETY: non-NULL, the caller's descriptor.
        unsafe { *pArrayDescriptor = out };
        CUDA_SUCCESS
    })
}

/// `CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR
/// *pMipmappedArrayDesc, unsigned int numMipmapLevels)`: each level half the last in every
/// dimension (at least 1), as many as the extent allows.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMipmappedArrayCreate(
    pHandle: *mut CUmipmappedArray,
    pMipmappedArrayDesc: *const CUDA_ARRAY3D_DESCRIPTOR,
    numMipmapLevels: c_uint,
) -> CUresult {
    in_context(|m, d| {
        // SAFETY: NULL or the caller's descriptor.
        let Some(a) = (unsafe { pMipmappedArrayDesc.as_ref() }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if pHandle.is_null() || numMipmapLevels == 0 {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let format = format_of(a.Format, a.NumChannels);
        let mut e = [a.Width, a.Height, a.Depth];
        let largest = e.iter().copied().max().unwrap_or(0).max(1);
        let most = usize::BITS - largest.leading_zeros();
        let mut levels = Vec::new();
        for _ in 0..numMipmapLevels.min(most) {
            let mut handle: CUarray = core::ptr::null_mut();
            match create(m, d, &mut handle, format, e, a.Flags) {
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
        unsafe { *pHandle = h as CUmipmappedArray };
        CUDA_SUCCESS
    })
}

/// `CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray,
/// unsigned int level)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMipmappedArrayGetLevel(
    pLevelArray: *mut CUarray,
    hMipmappedArray: CUmipmappedArray,
    level: c_uint,
) -> CUresult {
    in_context(|_, _| {
        if pLevelArray.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if arrays::levels(hMipmappedArray as usize).is_none() {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        match arrays::level(hMipmappedArray as usize, level as usize) {
            Some(a) => {
                // SAFETY: non-NULL, the caller's handle.
                unsafe { *pLevelArray = a as CUarray };
                CUDA_SUCCESS
            }
            None => CUDA_ERROR_INVALID_VALUE,
        }
    })
}

/// `CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuMipmappedArrayDestroy(hMipmappedArray: CUmipmappedArray) -> CUresult {
    in_context(
        |m, _| match arrays::remove_mipmapped(hMipmappedArray as usize) {
            Some(bases) => {
                for b in bases {
                    m.free(b, |_| true).ok();
                }
                CUDA_SUCCESS
            }
            None => CUDA_ERROR_INVALID_HANDLE,
        },
    )
}

/// The resource `desc` names, checked as the runtime's face checks its own.
#[allow(non_upper_case_globals)] // The header's names, matched as constants.
fn resource_of(m: &Model, desc: &CUDA_RESOURCE_DESC) -> Result<Resource, CUresult> {
    // SAFETY: the member `resType` names, as the API's contract says.
    let r = unsafe {
        match desc.resType {
            CU_RESOURCE_TYPE_ARRAY => Resource::Array(desc.res.array.hArray as usize),
            CU_RESOURCE_TYPE_MIPMAPPED_ARRAY => {
                Resource::Mipmapped(desc.res.mipmap.hMipmappedArray as usize)
            }
            CU_RESOURCE_TYPE_LINEAR => Resource::Linear {
                ptr: desc.res.linear.devPtr as usize,
                format: format_of(desc.res.linear.format, desc.res.linear.numChannels)
                    .ok_or(CUDA_ERROR_INVALID_VALUE)?,
                bytes: desc.res.linear.sizeInBytes,
            },
            CU_RESOURCE_TYPE_PITCH2D => Resource::Pitch2D {
                ptr: desc.res.pitch2D.devPtr as usize,
                format: format_of(desc.res.pitch2D.format, desc.res.pitch2D.numChannels)
                    .ok_or(CUDA_ERROR_INVALID_VALUE)?,
                width: desc.res.pitch2D.width,
                height: desc.res.pitch2D.height,
                pitch: desc.res.pitch2D.pitchInBytes,
            },
            _ => return Err(CUDA_ERROR_INVALID_VALUE),
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
        Err(CUDA_ERROR_INVALID_VALUE)
    }
}

/// The driver's resource descriptor of `r`.
fn resource_desc(r: &Resource) -> CUDA_RESOURCE_DESC {
    let mut d = CUDA_RESOURCE_DESC::default();
    match *r {
        Resource::Array(a) => {
            d.resType = CU_RESOURCE_TYPE_ARRAY;
            d.res.array.hArray = a as CUarray;
        }
        Resource::Mipmapped(a) => {
            d.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
            d.res.mipmap.hMipmappedArray = a as CUmipmappedArray;
        }
        Resource::Linear { ptr, format, bytes } => {
            let (f, c) = driver_format(&format);
            d.resType = CU_RESOURCE_TYPE_LINEAR;
            d.res.linear.devPtr = ptr as CUdeviceptr;
            d.res.linear.format = f;
            d.res.linear.numChannels = c;
            d.res.linear.sizeInBytes = bytes;
        }
        Resource::Pitch2D {
            ptr,
            format,
            width,
            height,
            pitch,
        } => {
            let (f, c) = driver_format(&format);
            d.resType = CU_RESOURCE_TYPE_PITCH2D;
            d.res.pitch2D.devPtr = ptr as CUdeviceptr;
            d.res.pitch2D.format = f;
            d.res.pitch2D.numChannels = c;
            d.res.pitch2D.width = width;
            d.res.pitch2D.height = height;
            d.res.pitch2D.pitchInBytes = pitch;
        }
    }
    d
}

/// `CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
/// const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuTexObjectCreate(
    pTexObject: *mut CUtexObject,
    pResDesc: *const CUDA_RESOURCE_DESC,
    pTexDesc: *const CUDA_TEXTURE_DESC,
    pResViewDesc: *const CUDA_RESOURCE_VIEW_DESC,
) -> CUresult {
    in_context(|m, _| {
        // SAFETY: each NULL or the caller's.
        let (Some(res), Some(tex)) = (unsafe { pResDesc.as_ref() }, unsafe { pTexDesc.as_ref() })
        else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if pTexObject.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let resource = match resource_of(m, res) {
            Ok(r) => r,
            Err(e) => return e,
        };
        let sampling = Sampling {
            address: tex.addressMode,
            filter: tex.filterMode,
            read_mode: u32::from(tex.flags & READ_AS_INTEGER == 0),
            normalized: tex.flags & NORMALIZED_COORDINATES != 0,
            srgb: tex.flags & SRGB != 0,
            border: tex.borderColor,
            mipmap_filter: tex.mipmapFilterMode,
            mipmap_bias: tex.mipmapLevelBias,
            mipmap_clamp: [tex.minMipmapLevelClamp, tex.maxMipmapLevelClamp],
            max_anisotropy: tex.maxAnisotropy,
        };
        if sampling.address.iter().any(|&a| a > 3) || sampling.filter > 1 {
            return CUDA_ERROR_INVALID_VALUE;
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
        CUDA_SUCCESS
    })
}

/// `CUresult cuTexObjectDestroy(CUtexObject texObject)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuTexObjectDestroy(texObject: CUtexObject) -> CUresult {
    in_context(|_, _| {
        if arrays::remove_object(texObject) {
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_VALUE
        }
    })
}

/// `CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuTexObjectGetResourceDesc(
    pResDesc: *mut CUDA_RESOURCE_DESC,
    texObject: CUtexObject,
) -> CUresult {
    in_context(|_, _| {
        let Some(o) = arrays::object(texObject).filter(|o| o.sampling.is_some()) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if pResDesc.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: non-NULL, the caller's descriptor.
        unsafe { *pResDesc = resource_desc(&o.resource) };
        CUDA_SUCCESS
    })
}

/// `CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuTexObjectGetTextureDesc(
    pTexDesc: *mut CUDA_TEXTURE_DESC,
    texObject: CUtexObject,
) -> CUresult {
    in_context(|_, _| {
        let Some(s) = arrays::object(texObject).and_then(|o| o.sampling) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if pTexDesc.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let flags = if s.read_mode == 0 { READ_AS_INTEGER } else { 0 }
            | if s.normalized {
                NORMALIZED_COORDINATES
            } else {
                0
            }
            | if s.srgb { SRGB } else { 0 };
        let d = CUDA_TEXTURE_DESC {
            addressMode: s.address,
            filterMode: s.filter,
            flags,
            maxAnisotropy: s.max_anisotropy,
            mipmapFilterMode: s.mipmap_filter,
            mipmapLevelBias: s.mipmap_bias,
            minMipmapLevelClamp: s.mipmap_clamp[0],
            maxMipmapLevelClamp: s.mipmap_clamp[1],
            borderColor: s.border,
            ..CUDA_TEXTURE_DESC::default()
        };
        // SAFETY: non-NULL, the caller's descriptor.
        unsafe { *pTexDesc = d };
        CUDA_SUCCESS
    })
}

/// `CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC
/// *pResDesc)`: an array only. One made without `CUDA_ARRAY3D_SURFACE_LDST` (2) is taken as
/// well, as an H100 with driver 580 takes it (tests/gpu/occupancy.sh).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuSurfObjectCreate(
    pSurfObject: *mut CUsurfObject,
    pResDesc: *const CUDA_RESOURCE_DESC,
) -> CUresult {
    in_context(|m, _| {
        // SAFETY: NULL or the caller's descriptor.
        let Some(res) = (unsafe { pResDesc.as_ref() }) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if pSurfObject.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        let resource = match resource_of(m, res) {
            Ok(r @ Resource::Array(a)) if arrays::array(a).is_some() => r,
            Ok(_) => return CUDA_ERROR_INVALID_VALUE,
            Err(e) => return e,
        };
        let h = arrays::add_object(Object {
            resource,
            sampling: None,
            view: None,
        });
        // SAFETY: non-NULL, the caller's handle.
        unsafe { *pSurfObject = h };
        CUDA_SUCCESS
    })
}

/// `CUresult cuSurfObjectDestroy(CUsurfObject surfObject)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuSurfObjectDestroy(surfObject: CUsurfObject) -> CUresult {
    in_context(|_, _| {
        if arrays::remove_object(surfObject) {
            CUDA_SUCCESS
        } else {
            CUDA_ERROR_INVALID_VALUE
        }
    })
}

/// `CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject
/// surfObject)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuSurfObjectGetResourceDesc(
    pResDesc: *mut CUDA_RESOURCE_DESC,
    surfObject: CUsurfObject,
) -> CUresult {
    in_context(|_, _| {
        let Some(o) = arrays::object(surfObject).filter(|o| o.sampling.is_none()) else {
            return CUDA_ERROR_INVALID_VALUE;
        };
        if pResDesc.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: non-NULL, the caller's descriptor.
        unsafe { *pResDesc = resource_desc(&o.resource) };
        CUDA_SUCCESS
    })
}

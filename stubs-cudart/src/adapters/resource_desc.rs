//! Field-by-field conversions of the texture / surface descriptors between the 11.8 / 12.9
//! layouts and 13.x's (driver_types.h `cudaResourceDesc`, `cudaResourceViewDesc`;
//! texture_types.h `cudaTextureDesc`), shared by both versions of the texture / surface calls
//! (`cuda_create_texture_object.rs`, which gives the layouts and sizes) and by
//! `cuda_get_texture_object_texture_desc.rs`. Each direction is one function, so a field the
//! two versions convert is spelled once.

use crate::abi_types::{v11, v12};
use crate::types::{cudaResourceDesc, cudaResourceViewDesc, cudaTextureDesc};

/// `cudaResourceType` values (driver_types.h, the same in every major), short names for the
/// matches below.
const RES_ARRAY: u32 = crate::types::cudaResourceTypeArray;
const RES_MIPMAP: u32 = crate::types::cudaResourceTypeMipmappedArray;
const RES_LINEAR: u32 = crate::types::cudaResourceTypeLinear;
const RES_PITCH2D: u32 = crate::types::cudaResourceTypePitch2D;

/// 12.9 / 11.8 layout from 13.x's; `None` when `flags` is set (no older equivalent).
pub(super) fn res_to_old(d: &cudaResourceDesc) -> Option<v12::cudaResourceDesc> {
    if d.flags != 0 {
        return None;
    }
    let mut o = v12::cudaResourceDesc {
        resType: d.resType,
        ..Default::default()
    };
    // SAFETY: the member read is the one `resType` selects (the API contract); the others are
    // never read.
    unsafe {
        match d.resType {
            RES_ARRAY => o.res.array.array = d.res.array.array,
            RES_MIPMAP => o.res.mipmap.mipmap = d.res.mipmap.mipmap,
            RES_LINEAR => {
                let s = &d.res.linear;
                o.res.linear.devPtr = s.devPtr;
                o.res.linear.desc = s.desc;
                o.res.linear.sizeInBytes = s.sizeInBytes;
            }
            RES_PITCH2D => {
                let s = &d.res.pitch2D;
                o.res.pitch2D.devPtr = s.devPtr;
                o.res.pitch2D.desc = s.desc;
                o.res.pitch2D.width = s.width;
                o.res.pitch2D.height = s.height;
                o.res.pitch2D.pitchInBytes = s.pitchInBytes;
            }
            _ => {}
        }
    }
    Some(o)
}

/// 13.x layout from 12.9's / 11.8's (`flags` and the rest of the union zero).
pub(super) fn res_from_old(o: &v12::cudaResourceDesc) -> cudaResourceDesc {
    let mut d = cudaResourceDesc {
        resType: o.resType,
        ..Default::default()
    };
    // SAFETY: as in `res_to_old`, the member `resType` selects, written by the runtime.
    unsafe {
        match o.resType {
            RES_ARRAY => d.res.array.array = o.res.array.array,
            RES_MIPMAP => d.res.mipmap.mipmap = o.res.mipmap.mipmap,
            RES_LINEAR => {
                let s = &o.res.linear;
                d.res.linear.devPtr = s.devPtr;
                d.res.linear.desc = s.desc;
                d.res.linear.sizeInBytes = s.sizeInBytes;
            }
            RES_PITCH2D => {
                let s = &o.res.pitch2D;
                d.res.pitch2D.devPtr = s.devPtr;
                d.res.pitch2D.desc = s.desc;
                d.res.pitch2D.width = s.width;
                d.res.pitch2D.height = s.height;
                d.res.pitch2D.pitchInBytes = s.pitchInBytes;
            }
            _ => {}
        }
    }
    d
}

/// 12.9 / 11.8 layout from 13.x's; `None` when a `reserved` word is set.
pub(super) fn view_to_old(d: &cudaResourceViewDesc) -> Option<v12::cudaResourceViewDesc> {
    if d.reserved.iter().any(|w| *w != 0) {
        return None;
    }
    Some(v12::cudaResourceViewDesc {
        format: d.format,
        width: d.width,
        height: d.height,
        depth: d.depth,
        firstMipmapLevel: d.firstMipmapLevel,
        lastMipmapLevel: d.lastMipmapLevel,
        firstLayer: d.firstLayer,
        lastLayer: d.lastLayer,
    })
}

pub(super) fn view_from_old(o: &v12::cudaResourceViewDesc) -> cudaResourceViewDesc {
    cudaResourceViewDesc {
        format: o.format,
        width: o.width,
        height: o.height,
        depth: o.depth,
        firstMipmapLevel: o.firstMipmapLevel,
        lastMipmapLevel: o.lastMipmapLevel,
        firstLayer: o.firstLayer,
        lastLayer: o.lastLayer,
        reserved: [0; 16],
    }
}

/// 11.8's 68-byte plain layout; `None` when `seamlessCubemap` is set (it has no such field).
pub(super) fn tex_to_v11(t: &cudaTextureDesc) -> Option<v11::cudaTextureDesc> {
    if t.seamlessCubemap != 0 {
        return None;
    }
    Some(v11::cudaTextureDesc {
        addressMode: t.addressMode,
        filterMode: t.filterMode,
        readMode: t.readMode,
        sRGB: t.sRGB,
        borderColor: t.borderColor,
        normalizedCoords: t.normalizedCoords,
        maxAnisotropy: t.maxAnisotropy,
        mipmapFilterMode: t.mipmapFilterMode,
        mipmapLevelBias: t.mipmapLevelBias,
        minMipmapLevelClamp: t.minMipmapLevelClamp,
        maxMipmapLevelClamp: t.maxMipmapLevelClamp,
        disableTrilinearOptimization: t.disableTrilinearOptimization,
    })
}

pub(super) fn tex_from_v11(o: &v11::cudaTextureDesc) -> cudaTextureDesc {
    cudaTextureDesc {
        addressMode: o.addressMode,
        filterMode: o.filterMode,
        readMode: o.readMode,
        sRGB: o.sRGB,
        borderColor: o.borderColor,
        normalizedCoords: o.normalizedCoords,
        maxAnisotropy: o.maxAnisotropy,
        mipmapFilterMode: o.mipmapFilterMode,
        mipmapLevelBias: o.mipmapLevelBias,
        minMipmapLevelClamp: o.minMipmapLevelClamp,
        maxMipmapLevelClamp: o.maxMipmapLevelClamp,
        disableTrilinearOptimization: o.disableTrilinearOptimization,
        seamlessCubemap: 0,
    }
}

/// Converts an optional input: NULL stays NULL; `Err` when it cannot be expressed.
///
/// # Safety
/// `p` is NULL or readable.
pub(super) unsafe fn convert_in<T, U>(
    p: *const T,
    f: impl FnOnce(&T) -> Option<U>,
) -> Result<Option<U>, ()> {
    // SAFETY: NULL or readable by the caller's contract.
    match unsafe { p.as_ref() } {
        None => Ok(None),
        Some(v) => f(v).map(Some).ok_or(()),
    }
}

pub(super) fn ptr_of<U>(v: &Option<U>) -> *const U {
    v.as_ref().map_or(core::ptr::null(), |r| r as *const U)
}

//! Texture and surface objects (cuda_runtime_api.h, driver_types.h / texture_types.h):
//! `cudaCreateTextureObject`, `cudaCreateSurfaceObject`, `cudaGetTextureObjectResourceDesc`,
//! `cudaGetTextureObjectResourceViewDesc`, `cudaGetSurfaceObjectResourceDesc`. Their resource
//! and view descriptors differ between 12.x and 13.x (the conversions, both ways, are
//! `resource_desc.rs`'s), so each name is exported once per ABI.
//!
//! ## The CUDA 13 version (`@@CUDA_STUBS_CUDART_13`)
//!
//! Texture and surface objects in their CUDA 13 version (`@@CUDA_STUBS_CUDART_13`)
//! (cuda_runtime_api.h; driver_types.h `cudaResourceDesc`, `cudaResourceViewDesc`;
//! texture_types.h `cudaTextureDesc`): `cudaCreateTextureObject`,
//! `cudaGetTextureObjectResourceDesc`, `cudaGetTextureObjectResourceViewDesc`,
//! `cudaCreateSurfaceObject`, `cudaGetSurfaceObjectResourceDesc` (`cudaGetTextureObjectTextureDesc`,
//! whose 12.x and 13.x layouts agree, is `cuda_get_texture_object_texture_desc.rs`). Same
//! prototypes in every major; the structs differ:
//!
//! | struct | 11.8 | 12.9 | 13.x |
//! |---|---|---|---|
//! | `cudaResourceDesc` | 64 B | 64 B | 144 B: the `res` union gained `int reserved[32]` (56 → 128 B) and a trailing `unsigned int flags` ("must be zero") |
//! | `cudaResourceViewDesc` | 48 B | 48 B | 112 B: trailing `unsigned int reserved[16]` ("must be zero") |
//! | `cudaTextureDesc` | 68 B (no `seamlessCubemap`; 11.8's `cudaTextureDesc_v2` is 72 B with it) | 72 B | 72 B |
//!
//! On 11.x / 12.x inputs are copied field by field into the older layouts (locals): the
//! `res` member the `resType` selects (array, mipmap, linear, pitch 2D; an unknown type is
//! passed with an empty union, for the runtime's own error). What the older layout cannot
//! carry is refused with `cudaErrorNotSupported` (801) before any call: a non-zero
//! `cudaResourceDesc.flags` or `cudaResourceViewDesc.reserved`. Texture descriptors: 12.x has
//! 13.x's layout (passed as is); 11.x takes it through `cudaCreateTextureObject_v2` (11.x's
//! `cudaTextureDesc_v2`, 13.x's layout), and
//! through the 68-byte plain form only when the runtime lacks `_v2` (then a non-zero
//! `seamlessCubemap` is refused; returned as 0). Queries convert back: `reserved` and `flags`
//! are zero; outputs are written only on success. 13.x: forwarded.
//!
//! ## The CUDA 12 version (`@CUDA_STUBS_CUDART_12`)
//!
//! Texture and surface objects in their CUDA 12 version (`@CUDA_STUBS_CUDART_12`)
//! (cuda_runtime_api.h; driver_types.h `cudaResourceDesc`, `cudaResourceViewDesc`; texture_types.h
//! `cudaTextureDesc`): `cudaCreateTextureObject`, `cudaGetTextureObjectResourceDesc`,
//! `cudaGetTextureObjectResourceViewDesc`, `cudaCreateSurfaceObject`,
//! `cudaGetSurfaceObjectResourceDesc` (`cudaGetTextureObjectTextureDesc`, whose 12.x and 13.x
//! layouts agree, is `cuda_get_texture_object_texture_desc.rs`). Same prototypes in every
//! major; the structs differ:
//!
//! | struct | 11.8 | 12.9 (this version) | 13.x |
//! |---|---|---|---|
//! | `cudaResourceDesc` | 64 B | 64 B | 144 B: the `res` union grew to 128 B, trailing `unsigned int flags` |
//! | `cudaResourceViewDesc` | 48 B | 48 B | 112 B: trailing `unsigned int reserved[16]` |
//! | `cudaTextureDesc` | 68 B plain (72 B `cudaTextureDesc_v2`) | 72 B | 72 B |
//!
//! 12.x: forwarded. 13.x: inputs are widened field by field into locals (the `res` member the
//! `resType` selects; `flags` and `reserved` zero, 13.x's "must be zero"), the texture
//! descriptor passed as is; queries fill a 13.x local, narrowed on success (13.x's `flags` /
//! `reserved`, zero by its contract, have no 12.x place). 11.x: the resource layouts are
//! 12.9's (queries forwarded); `cudaCreateTextureObject` goes to 11.x's
//! `cudaCreateTextureObject_v2` (the 72-byte descriptor), or, on a runtime without it, to the
//! plain 68-byte form, refusing a non-zero `seamlessCubemap` (801, nothing called). A NULL
//! descriptor is passed on as NULL (the runtime's own error); outputs are written only on
//! success.

use super::resource_desc::{
    convert_in, ptr_of, res_from_old, res_to_old, tex_to_v11, view_from_old, view_to_old,
};
use super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::abi_types::{v11, v12};
use crate::types::{
    cudaError_t, cudaResourceDesc, cudaResourceViewDesc, cudaSurfaceObject_t, cudaTextureDesc,
    cudaTextureObject_t,
};
use core::mem::size_of;

// The CUDA 13 version: 13.x's prototypes, forwarded to 13.x, translated for 11.x / 12.x.

// descriptors are laid out as 12.x's (`abi_types` holds both), so the 12.x conversions serve
// it: 12.9's prototypes where only those descriptors differ, and pointer casts where an 11.x
// prototype is named.

// 11.8 and 12.9 share the resource layouts: the 12.9 types serve both majors.
const _: () = assert!(size_of::<v11::cudaResourceDesc>() == size_of::<v12::cudaResourceDesc>());
const _: () =
    assert!(size_of::<v11::cudaResourceViewDesc>() == size_of::<v12::cudaResourceViewDesc>());

static CREATE_TEX: RawFn = RawFn::new(c"cudaCreateTextureObject");
static CREATE_TEX_V2: RawFn = RawFn::new(c"cudaCreateTextureObject_v2");
static GET_TEX_RES: RawFn = RawFn::new(c"cudaGetTextureObjectResourceDesc");
static GET_VIEW: RawFn = RawFn::new(c"cudaGetTextureObjectResourceViewDesc");
static CREATE_SURF: RawFn = RawFn::new(c"cudaCreateSurfaceObject");
static GET_SURF_RES: RawFn = RawFn::new(c"cudaGetSurfaceObjectResourceDesc");

/// The loaded major when it is 11 or 12 (the ones translated here).
fn older_major() -> Option<u32> {
    match target() {
        Target::Major(m @ (11 | 12)) => Some(m),
        _ => None,
    }
}

/// `cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc, const struct cudaTextureDesc *pTexDesc, const struct cudaResourceViewDesc *pResViewDesc)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaCreateTextureObject`.
pub(crate) unsafe extern "C" fn cudaCreateTextureObject_abi13(
    pTexObject: *mut cudaTextureObject_t,
    pResDesc: *const cudaResourceDesc,
    pTexDesc: *const cudaTextureDesc,
    pResViewDesc: *const cudaResourceViewDesc,
) -> cudaError_t {
    let Some(m) = older_major() else {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::cudaCreateTextureObject_abi13::Forward::call(
                pTexObject,
                pResDesc,
                pTexDesc,
                pResViewDesc,
            )
        };
    };
    // SAFETY: each input is NULL or readable by contract.
    let (Ok(res), Ok(view)) = (unsafe {
        (
            convert_in(pResDesc, res_to_old),
            convert_in(pResViewDesc, view_to_old),
        )
    }) else {
        return refusal();
    };
    let (res, view) = (ptr_of(&res), ptr_of(&view));
    if m == 12 {
        return call_raw!(
            CREATE_TEX,
            abi_fns::v12::cudaCreateTextureObject,
            (pTexObject, res, pTexDesc, view)
        );
    }
    if CREATE_TEX_V2.get().is_some() {
        // 11.x's cudaTextureDesc_v2 is 13.x's cudaTextureDesc.
        return call_raw!(
            CREATE_TEX_V2,
            abi_fns::v11::cudaCreateTextureObject_v2,
            (pTexObject, res.cast(), pTexDesc.cast(), view.cast())
        );
    }
    // SAFETY: NULL or readable by contract.
    let Ok(tex) = (unsafe { convert_in(pTexDesc, tex_to_v11) }) else {
        return refusal();
    };
    call_raw!(
        CREATE_TEX,
        abi_fns::v11::cudaCreateTextureObject,
        (pTexObject, res.cast(), ptr_of(&tex), view.cast())
    )
}

/// Resource-descriptor query on 11.x / 12.x: the runtime fills a local, converted on success.
///
/// # Safety
/// `out` is NULL or writable for one 13.x `cudaResourceDesc`.
unsafe fn get_res_older(raw: &RawFn, out: *mut cudaResourceDesc, object: u64) -> cudaError_t {
    if out.is_null() {
        return call_raw!(
            raw,
            abi_fns::v12::cudaGetTextureObjectResourceDesc,
            (core::ptr::null_mut(), object)
        );
    }
    let mut old = v12::cudaResourceDesc::default();
    let status = call_raw!(
        raw,
        abi_fns::v12::cudaGetTextureObjectResourceDesc,
        (&mut old, object)
    );
    if status == SUCCESS {
        // SAFETY: non-NULL and writable by contract.
        unsafe { out.write(res_from_old(&old)) };
    }
    status
}

/// `cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaGetTextureObjectResourceDesc`.
pub(crate) unsafe extern "C" fn cudaGetTextureObjectResourceDesc_abi13(
    pResDesc: *mut cudaResourceDesc,
    texObject: cudaTextureObject_t,
) -> cudaError_t {
    if older_major().is_some() {
        // SAFETY: forwarded contract.
        return unsafe { get_res_older(&GET_TEX_RES, pResDesc, texObject) };
    }
    // SAFETY: forwarded contract (13.x, or the typed refusal).
    unsafe {
        crate::api::cudaGetTextureObjectResourceDesc_abi13::Forward::call(pResDesc, texObject)
    }
}

/// `cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaGetSurfaceObjectResourceDesc`.
pub(crate) unsafe extern "C" fn cudaGetSurfaceObjectResourceDesc_abi13(
    pResDesc: *mut cudaResourceDesc,
    surfObject: cudaSurfaceObject_t,
) -> cudaError_t {
    if older_major().is_some() {
        // SAFETY: forwarded contract.
        return unsafe { get_res_older(&GET_SURF_RES, pResDesc, surfObject) };
    }
    // SAFETY: forwarded contract (13.x, or the typed refusal).
    unsafe {
        crate::api::cudaGetSurfaceObjectResourceDesc_abi13::Forward::call(pResDesc, surfObject)
    }
}

/// `cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc, cudaTextureObject_t texObject)` (13.0 ABI, 112 bytes; 48 on 11.x / 12.x, converted).
///
/// # Safety
/// The CUDA API contract of `cudaGetTextureObjectResourceViewDesc`.
pub(crate) unsafe extern "C" fn cudaGetTextureObjectResourceViewDesc_abi13(
    pResViewDesc: *mut cudaResourceViewDesc,
    texObject: cudaTextureObject_t,
) -> cudaError_t {
    if older_major().is_none() {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::cudaGetTextureObjectResourceViewDesc_abi13::Forward::call(
                pResViewDesc,
                texObject,
            )
        };
    }
    if pResViewDesc.is_null() {
        return call_raw!(
            GET_VIEW,
            abi_fns::v12::cudaGetTextureObjectResourceViewDesc,
            (core::ptr::null_mut(), texObject)
        );
    }
    let mut old = v12::cudaResourceViewDesc::default();
    let status = call_raw!(
        GET_VIEW,
        abi_fns::v12::cudaGetTextureObjectResourceViewDesc,
        (&mut old, texObject)
    );
    if status == SUCCESS {
        // SAFETY: non-NULL and writable by contract.
        unsafe { pResViewDesc.write(view_from_old(&old)) };
    }
    status
}

/// `cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)` (13.0 ABI).
///
/// # Safety
/// The CUDA API contract of `cudaCreateSurfaceObject`.
pub(crate) unsafe extern "C" fn cudaCreateSurfaceObject_abi13(
    pSurfObject: *mut cudaSurfaceObject_t,
    pResDesc: *const cudaResourceDesc,
) -> cudaError_t {
    if older_major().is_none() {
        // SAFETY: forwarded contract (13.x, or the typed refusal).
        return unsafe {
            crate::api::cudaCreateSurfaceObject_abi13::Forward::call(pSurfObject, pResDesc)
        };
    }
    // SAFETY: NULL or readable by contract.
    let Ok(res) = (unsafe { convert_in(pResDesc, res_to_old) }) else {
        return refusal();
    };
    call_raw!(
        CREATE_SURF,
        abi_fns::v12::cudaCreateSurfaceObject,
        (pSurfObject, ptr_of(&res))
    )
}

// The CUDA 12 version: 12.9's prototypes, forwarded to 11.x / 12.x, translated for 13.x.

// descriptors are laid out as the exported 12.x ones (`abi_types` holds both): its calls pass
// the caller's pointers cast.

/// Widens an optional 12.x input for 13.x (always expressible).
///
/// # Safety
/// `p` is NULL or readable.
unsafe fn widen<T, U>(p: *const T, f: impl FnOnce(&T) -> U) -> Option<U> {
    // SAFETY: NULL or readable by the caller's contract.
    unsafe { p.as_ref() }.map(f)
}

/// `cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc, const struct cudaTextureDesc *pTexDesc, const struct cudaResourceViewDesc *pResViewDesc)`
/// (12.9 ABI: 64-byte resource, 72-byte texture, 48-byte view descriptors).
///
/// # Safety
/// The CUDA API contract of `cudaCreateTextureObject`.
pub(crate) unsafe extern "C" fn cudaCreateTextureObject_abi12(
    pTexObject: *mut cudaTextureObject_t,
    pResDesc: *const v12::cudaResourceDesc,
    pTexDesc: *const cudaTextureDesc,
    pResViewDesc: *const v12::cudaResourceViewDesc,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => {
            // SAFETY: each input is NULL or readable by contract.
            let (res, view) = unsafe {
                (
                    widen(pResDesc, res_from_old),
                    widen(pResViewDesc, view_from_old),
                )
            };
            call_raw!(
                CREATE_TEX,
                abi_fns::v13::cudaCreateTextureObject,
                (pTexObject, ptr_of(&res), pTexDesc, ptr_of(&view))
            )
        }
        Target::Major(11) => {
            if CREATE_TEX_V2.get().is_some() {
                // 11.x's cudaTextureDesc_v2 is 12.x's cudaTextureDesc; the resource layouts match.
                return call_raw!(
                    CREATE_TEX_V2,
                    abi_fns::v11::cudaCreateTextureObject_v2,
                    (
                        pTexObject,
                        pResDesc.cast(),
                        pTexDesc.cast(),
                        pResViewDesc.cast()
                    )
                );
            }
            // SAFETY: NULL or readable by contract.
            let Ok(tex) = (unsafe { convert_in(pTexDesc, tex_to_v11) }) else {
                return refusal();
            };
            call_raw!(
                CREATE_TEX,
                abi_fns::v11::cudaCreateTextureObject,
                (
                    pTexObject,
                    pResDesc.cast(),
                    ptr_of(&tex),
                    pResViewDesc.cast()
                )
            )
        }
        // SAFETY: forwarded contract (12.x, or the typed refusal).
        Target::Major(_) => unsafe {
            crate::api::cudaCreateTextureObject_abi12::Forward::call(
                pTexObject,
                pResDesc.cast(),
                pTexDesc,
                pResViewDesc.cast(),
            )
        },
    }
}

/// Resource-descriptor query on 13.x: the runtime fills a 144-byte local, narrowed on success.
///
/// # Safety
/// `out` is NULL or writable for one 12.x `cudaResourceDesc`.
unsafe fn get_res_13(raw: &RawFn, out: *mut v12::cudaResourceDesc, object: u64) -> cudaError_t {
    if out.is_null() {
        return call_raw!(
            raw,
            abi_fns::v13::cudaGetTextureObjectResourceDesc,
            (core::ptr::null_mut(), object)
        );
    }
    let mut new = cudaResourceDesc::default();
    let status = call_raw!(
        raw,
        abi_fns::v13::cudaGetTextureObjectResourceDesc,
        (&mut new, object)
    );
    if status != SUCCESS {
        return status;
    }
    // `flags` is "must be zero" in 13.x and has no 12.x place (so the conversion cannot fail).
    new.flags = 0;
    let Some(old) = res_to_old(&new) else {
        return refusal();
    };
    // SAFETY: non-NULL and writable by contract.
    unsafe { out.write(old) };
    SUCCESS
}

/// `cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject)`
/// (12.9 ABI, 64 bytes).
///
/// # Safety
/// The CUDA API contract of `cudaGetTextureObjectResourceDesc`.
pub(crate) unsafe extern "C" fn cudaGetTextureObjectResourceDesc_abi12(
    pResDesc: *mut v12::cudaResourceDesc,
    texObject: cudaTextureObject_t,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        // SAFETY: forwarded contract.
        Target::Major(13) => unsafe { get_res_13(&GET_TEX_RES, pResDesc, texObject) },
        // SAFETY: forwarded contract (11.x / 12.x have the exported layout).
        Target::Major(_) => unsafe {
            crate::api::cudaGetTextureObjectResourceDesc_abi12::Forward::call(
                pResDesc.cast(),
                texObject,
            )
        },
    }
}

/// `cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject)`
/// (12.9 ABI, 64 bytes).
///
/// # Safety
/// The CUDA API contract of `cudaGetSurfaceObjectResourceDesc`.
pub(crate) unsafe extern "C" fn cudaGetSurfaceObjectResourceDesc_abi12(
    pResDesc: *mut v12::cudaResourceDesc,
    surfObject: cudaSurfaceObject_t,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        // SAFETY: forwarded contract.
        Target::Major(13) => unsafe { get_res_13(&GET_SURF_RES, pResDesc, surfObject) },
        // SAFETY: forwarded contract (11.x / 12.x have the exported layout).
        Target::Major(_) => unsafe {
            crate::api::cudaGetSurfaceObjectResourceDesc_abi12::Forward::call(
                pResDesc.cast(),
                surfObject,
            )
        },
    }
}

/// `cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc, cudaTextureObject_t texObject)`
/// (12.9 ABI, 48 bytes; 112 on 13.x, narrowed).
///
/// # Safety
/// The CUDA API contract of `cudaGetTextureObjectResourceViewDesc`.
pub(crate) unsafe extern "C" fn cudaGetTextureObjectResourceViewDesc_abi12(
    pResViewDesc: *mut v12::cudaResourceViewDesc,
    texObject: cudaTextureObject_t,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => {
            if pResViewDesc.is_null() {
                return call_raw!(
                    GET_VIEW,
                    abi_fns::v13::cudaGetTextureObjectResourceViewDesc,
                    (core::ptr::null_mut(), texObject)
                );
            }
            let mut new = cudaResourceViewDesc::default();
            let status = call_raw!(
                GET_VIEW,
                abi_fns::v13::cudaGetTextureObjectResourceViewDesc,
                (&mut new, texObject)
            );
            if status != SUCCESS {
                return status;
            }
            // `reserved` is "must be zero" in 13.x and has no 12.x place (so the conversion
            // cannot fail).
            new.reserved = [0; 16];
            let Some(old) = view_to_old(&new) else {
                return refusal();
            };
            // SAFETY: non-NULL and writable by contract.
            unsafe { pResViewDesc.write(old) };
            SUCCESS
        }
        // SAFETY: forwarded contract (11.x / 12.x have the exported layout).
        Target::Major(_) => unsafe {
            crate::api::cudaGetTextureObjectResourceViewDesc_abi12::Forward::call(
                pResViewDesc.cast(),
                texObject,
            )
        },
    }
}

/// `cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)`
/// (12.9 ABI, 64 bytes; widened for 13.x).
///
/// # Safety
/// The CUDA API contract of `cudaCreateSurfaceObject`.
pub(crate) unsafe extern "C" fn cudaCreateSurfaceObject_abi12(
    pSurfObject: *mut cudaSurfaceObject_t,
    pResDesc: *const v12::cudaResourceDesc,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(13) => {
            // SAFETY: NULL or readable by contract.
            let res = unsafe { widen(pResDesc, res_from_old) };
            call_raw!(
                CREATE_SURF,
                abi_fns::v13::cudaCreateSurfaceObject,
                (pSurfObject, ptr_of(&res))
            )
        }
        // SAFETY: forwarded contract (11.x / 12.x have the exported layout).
        Target::Major(_) => unsafe {
            crate::api::cudaCreateSurfaceObject_abi12::Forward::call(pSurfObject, pResDesc.cast())
        },
    }
}

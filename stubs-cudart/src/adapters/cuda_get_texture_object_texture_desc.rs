//! `cudaGetTextureObjectTextureDesc` (cuda_runtime_api.h; texture_types.h `cudaTextureDesc`):
//! one export for 12.x and 13.x headers, whose 72-byte `cudaTextureDesc` agree; 11.8's plain
//! export takes a 68-byte one (no `seamlessCubemap`), its `cudaTextureDesc_v2` the 72-byte one.

use super::resource_desc::tex_from_v11;
use super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::abi_types::v11;
use crate::types::{cudaError_t, cudaTextureDesc, cudaTextureObject_t};

static GET_TEX: RawFn = RawFn::new(c"cudaGetTextureObjectTextureDesc");
static GET_TEX_V2: RawFn = RawFn::new(c"cudaGetTextureObjectTextureDesc_v2");

/// `cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject)`
/// (12.9 and 13.0 ABI, 72 bytes). 12.x / 13.x: forwarded. 11.x: `_v2` (72 bytes), else the
/// plain 68-byte form converted (`seamlessCubemap` 0).
///
/// # Safety
/// The CUDA API contract of `cudaGetTextureObjectTextureDesc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetTextureObjectTextureDesc(
    pTexDesc: *mut cudaTextureDesc,
    texObject: cudaTextureObject_t,
) -> cudaError_t {
    match target() {
        Target::NoLibrary => refusal(),
        Target::Major(11) if GET_TEX_V2.get().is_some() => {
            // 11.x's cudaTextureDesc_v2 is 12.x's cudaTextureDesc.
            call_raw!(
                GET_TEX_V2,
                abi_fns::v11::cudaGetTextureObjectTextureDesc_v2,
                (pTexDesc.cast(), texObject)
            )
        }
        Target::Major(11) => {
            if pTexDesc.is_null() {
                return call_raw!(
                    GET_TEX,
                    abi_fns::v11::cudaGetTextureObjectTextureDesc,
                    (core::ptr::null_mut(), texObject)
                );
            }
            let mut old = v11::cudaTextureDesc::default();
            let status = call_raw!(
                GET_TEX,
                abi_fns::v11::cudaGetTextureObjectTextureDesc,
                (&mut old, texObject)
            );
            if status == SUCCESS {
                // SAFETY: non-NULL and writable by contract.
                unsafe { pTexDesc.write(tex_from_v11(&old)) };
            }
            status
        }
        // SAFETY: forwarded contract (12.x / 13.x have the exported layout).
        Target::Major(_) => unsafe {
            crate::api::cudaGetTextureObjectTextureDesc::Forward::call(pTexDesc, texObject)
        },
    }
}

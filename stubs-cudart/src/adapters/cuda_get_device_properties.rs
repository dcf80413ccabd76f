//! `cudaGetDeviceProperties` and `cudaGetDeviceProperties_v2` (cuda_runtime_api.h,
//! driver_types.h `struct cudaDeviceProp`).
//!
//! | runtime | entry point the application's header names | `cudaDeviceProp` |
//! |---|---|---|
//! | 11.x (11.8 header) | `cudaGetDeviceProperties(cudaDeviceProp *prop, int device)` | 728 bytes |
//! | 12.x (12.9 header) | `cudaGetDeviceProperties_v2(cudaDeviceProp *prop, int device)` (the header `#define`s the plain name to it; the plain export keeps 11.x's 728-byte layout) | 1032 bytes |
//! | 13.x (13.0 header) | `cudaGetDeviceProperties(cudaDeviceProp *prop, int device)` | 1008 bytes |
//!
//! The stub exports `cudaGetDeviceProperties_v2` with 12.9's layout (what a program built
//! against CUDA 12 calls) and the plain name once per ABI: `@@CUDA_STUBS_CUDART_13` with 13.0's
//! layout (what a program built against CUDA 13 calls, [`cudaGetDeviceProperties_abi13`]),
//! `@CUDA_STUBS_CUDART_12` as a real 12.x runtime exports it, with 11.8's 728-byte layout (what
//! binaries built against 11.x call; 12.x headers redirect to `_v2`,
//! [`cudaGetDeviceProperties_abi12`]). Each asks the loaded runtime in its own layout, into a
//! local struct, and converts field by field with the conversions below, shared by the three
//! entry points and by `cudaChooseDevice`; the caller's struct is written only on success.
//!
//! Fields the loaded runtime's layout lacks are read with `cudaDeviceGetAttribute`, by the
//! `cudaDevAttr*` constants of the generated `types.rs` (13.x's `cudaDeviceAttr`; the enum never
//! renumbers: 96, 12.9's `cudaDevAttrCooperativeMultiDeviceLaunch`, is 13.x's
//! `cudaDevAttrReserved96`); a failing query leaves the field 0:
//! - 13.0 fields new since 12.9: `deviceNumaConfig` (130), `deviceNumaId` (131), `mpsEnabled`
//!   (133), `hostNumaId` (134), `gpuPciDeviceID` (139), `gpuPciSubsystemID` (140),
//!   `hostNumaMultinodeIpcSupported` (143);
//! - 12.x fields 11.8 lacks: `hostRegisterSupported` (99), `sparseCudaArraySupported` (112),
//!   `hostRegisterReadOnlySupported` (113), `timelineSemaphoreInteropSupported` (114),
//!   `memoryPoolsSupported` (115), `gpuDirectRDMASupported` (116),
//!   `gpuDirectRDMAFlushWritesOptions` (117), `gpuDirectRDMAWritesOrdering` (118),
//!   `memoryPoolSupportedHandleTypes` (119), `clusterLaunch` (120),
//!   `deferredMappingCudaArraySupported` (121), `ipcEventSupported` (125);
//!   `unifiedFunctionPointers` has no attribute: 0;
//! - 12.9 fields 13.0 removed (for `_v2` on a 13.x runtime): `clockRate` (13), `deviceOverlap`
//!   (15), `kernelExecTimeoutEnabled` (17), `computeMode` (20), `memoryClockRate` (36),
//!   `maxTexture1DLinear` (69), `singleToDoublePrecisionPerfRatio` (87),
//!   `cooperativeMultiDeviceLaunch` (96).
//!
//! `reserved` is always zero.

use super::{RawFn, SUCCESS, Target, call_raw, refusal, target};
use crate::abi_fns;
use crate::abi_types::{v11, v12};
use crate::types::{cudaDeviceAttr, cudaDeviceProp, cudaError_t, cudaErrorInvalidValue};
use core::ffi::c_int;

/// 11.8 (and 12.x's legacy plain export): `cudaGetDeviceProperties`, 728-byte layout.
pub(super) static V11_GET: RawFn = RawFn::new(c"cudaGetDeviceProperties");
/// 12.x: `cudaGetDeviceProperties_v2`, 1032-byte layout.
pub(super) static V12_GET: RawFn = RawFn::new(c"cudaGetDeviceProperties_v2");
/// 13.x: `cudaGetDeviceProperties`, 1008-byte layout.
pub(super) static V13_GET: RawFn = RawFn::new(c"cudaGetDeviceProperties");

/// Copies the named fields (same name, same type in both layouts).
macro_rules! copy_fields {
    ($dst:expr, $src:expr, [$($f:ident),* $(,)?]) => {
        $( $dst.$f = $src.$f; )*
    };
}

/// Fields of all three layouts (11.8, 12.9, 13.0).
macro_rules! copy_shared {
    ($dst:expr, $src:expr) => {
        copy_fields!(
            $dst,
            $src,
            [
                name,
                uuid,
                luid,
                luidDeviceNodeMask,
                totalGlobalMem,
                sharedMemPerBlock,
                regsPerBlock,
                warpSize,
                memPitch,
                maxThreadsPerBlock,
                maxThreadsDim,
                maxGridSize,
                totalConstMem,
                major,
                minor,
                textureAlignment,
                texturePitchAlignment,
                multiProcessorCount,
                integrated,
                canMapHostMemory,
                maxTexture1D,
                maxTexture1DMipmap,
                maxTexture2D,
                maxTexture2DMipmap,
                maxTexture2DLinear,
                maxTexture2DGather,
                maxTexture3D,
                maxTexture3DAlt,
                maxTextureCubemap,
                maxTexture1DLayered,
                maxTexture2DLayered,
                maxTextureCubemapLayered,
                maxSurface1D,
                maxSurface2D,
                maxSurface3D,
                maxSurface1DLayered,
                maxSurface2DLayered,
                maxSurfaceCubemap,
                maxSurfaceCubemapLayered,
                surfaceAlignment,
                concurrentKernels,
                ECCEnabled,
                pciBusID,
                pciDeviceID,
                pciDomainID,
                tccDriver,
                asyncEngineCount,
                unifiedAddressing,
                memoryBusWidth,
                l2CacheSize,
                persistingL2CacheMaxSize,
                maxThreadsPerMultiProcessor,
                streamPrioritiesSupported,
                globalL1CacheSupported,
                localL1CacheSupported,
                sharedMemPerMultiprocessor,
                regsPerMultiprocessor,
                managedMemory,
                isMultiGpuBoard,
                multiGpuBoardGroupID,
                hostNativeAtomicSupported,
                pageableMemoryAccess,
                concurrentManagedAccess,
                computePreemptionSupported,
                canUseHostPointerForRegisteredMem,
                cooperativeLaunch,
                sharedMemPerBlockOptin,
                pageableMemoryAccessUsesHostPageTables,
                directManagedMemAccessFromHost,
                maxBlocksPerMultiProcessor,
                accessPolicyMaxWindowSize,
                reservedSharedMemPerBlock,
            ]
        )
    };
}

/// Fields 12.x added after 11.8 and 13.0 kept.
macro_rules! copy_since_12 {
    ($dst:expr, $src:expr) => {
        copy_fields!(
            $dst,
            $src,
            [
                hostRegisterSupported,
                sparseCudaArraySupported,
                hostRegisterReadOnlySupported,
                timelineSemaphoreInteropSupported,
                memoryPoolsSupported,
                gpuDirectRDMASupported,
                gpuDirectRDMAFlushWritesOptions,
                gpuDirectRDMAWritesOrdering,
                memoryPoolSupportedHandleTypes,
                deferredMappingCudaArraySupported,
                ipcEventSupported,
                clusterLaunch,
                unifiedFunctionPointers,
            ]
        )
    };
}

/// Fields 11.8 and 12.9 have and 13.0 removed.
macro_rules! copy_removed_in_13 {
    ($dst:expr, $src:expr) => {
        copy_fields!(
            $dst,
            $src,
            [
                clockRate,
                deviceOverlap,
                kernelExecTimeoutEnabled,
                computeMode,
                maxTexture1DLinear,
                memoryClockRate,
                singleToDoublePrecisionPerfRatio,
                cooperativeMultiDeviceLaunch,
            ]
        )
    };
}

/// `cudaDeviceGetAttribute(attr, device)` through the loaded runtime, `None` on error.
fn attribute(attr: cudaDeviceAttr, device: c_int) -> Option<c_int> {
    let mut value: c_int = 0;
    // SAFETY: `value` is a valid out pointer; the prototype is the same in every major.
    let status =
        unsafe { crate::api::cudaDeviceGetAttribute::Forward::call(&mut value, attr, device) };
    (status == SUCCESS).then_some(value)
}

/// Sets each `field` from its attribute (a `crate::types::cudaDevAttr*` name); a failing query
/// leaves the field as it is (0).
macro_rules! fill_from_attributes {
    ($dst:expr, $device:expr, [$($f:ident => $attr:ident),* $(,)?]) => {
        $(
            if let Some(v) = attribute(crate::types::$attr, $device) {
                #[allow(clippy::cast_sign_loss)]
                { $dst.$f = v as _; }
            }
        )*
    };
}

fn fill_new_in_13(p: &mut cudaDeviceProp, device: c_int) {
    fill_from_attributes!(
        p,
        device,
        [
            deviceNumaConfig => cudaDevAttrNumaConfig,
            deviceNumaId => cudaDevAttrNumaId,
            mpsEnabled => cudaDevAttrMpsEnabled,
            hostNumaId => cudaDevAttrHostNumaId,
            gpuPciDeviceID => cudaDevAttrGpuPciDeviceId,
            gpuPciSubsystemID => cudaDevAttrGpuPciSubsystemId,
            hostNumaMultinodeIpcSupported => cudaDevAttrHostNumaMultinodeIpcSupported,
        ]
    );
}

/// The 12.x fields 11.8 lacks (`unifiedFunctionPointers` has no attribute and stays 0).
macro_rules! fill_since_12 {
    ($dst:expr, $device:expr) => {
        fill_from_attributes!(
            $dst,
            $device,
            [
                hostRegisterSupported => cudaDevAttrHostRegisterSupported,
                sparseCudaArraySupported => cudaDevAttrSparseCudaArraySupported,
                hostRegisterReadOnlySupported => cudaDevAttrHostRegisterReadOnlySupported,
                timelineSemaphoreInteropSupported => cudaDevAttrTimelineSemaphoreInteropSupported,
                memoryPoolsSupported => cudaDevAttrMemoryPoolsSupported,
                gpuDirectRDMASupported => cudaDevAttrGPUDirectRDMASupported,
                gpuDirectRDMAFlushWritesOptions => cudaDevAttrGPUDirectRDMAFlushWritesOptions,
                gpuDirectRDMAWritesOrdering => cudaDevAttrGPUDirectRDMAWritesOrdering,
                memoryPoolSupportedHandleTypes => cudaDevAttrMemoryPoolSupportedHandleTypes,
                clusterLaunch => cudaDevAttrClusterLaunch,
                deferredMappingCudaArraySupported => cudaDevAttrDeferredMappingCudaArraySupported,
                ipcEventSupported => cudaDevAttrIpcEventSupport,
            ]
        )
    };
}

/// The 11.8 / 12.9 fields 13.0 removed (`cooperativeMultiDeviceLaunch`: attribute 96, which
/// 13.x's enum calls `cudaDevAttrReserved96`).
macro_rules! fill_removed_in_13 {
    ($dst:expr, $device:expr) => {
        fill_from_attributes!(
            $dst,
            $device,
            [
                clockRate => cudaDevAttrClockRate,
                deviceOverlap => cudaDevAttrGpuOverlap,
                kernelExecTimeoutEnabled => cudaDevAttrKernelExecTimeout,
                computeMode => cudaDevAttrComputeMode,
                memoryClockRate => cudaDevAttrMemoryClockRate,
                maxTexture1DLinear => cudaDevAttrMaxTexture1DLinearWidth,
                singleToDoublePrecisionPerfRatio => cudaDevAttrSingleToDoublePrecisionPerfRatio,
                cooperativeMultiDeviceLaunch => cudaDevAttrReserved96,
            ]
        )
    };
}

/// 13.0 layout from 12.9's.
pub(super) fn v13_from_v12(src: &v12::cudaDeviceProp, device: c_int) -> cudaDeviceProp {
    let mut p = cudaDeviceProp::default();
    copy_shared!(p, src);
    copy_since_12!(p, src);
    fill_new_in_13(&mut p, device);
    p
}

/// 13.0 layout from 11.8's.
pub(super) fn v13_from_v11(src: &v11::cudaDeviceProp, device: c_int) -> cudaDeviceProp {
    let mut p = cudaDeviceProp::default();
    copy_shared!(p, src);
    fill_since_12!(p, device);
    fill_new_in_13(&mut p, device);
    p
}

/// 12.9 layout from 13.0's.
fn v12_from_v13(src: &cudaDeviceProp, device: c_int) -> v12::cudaDeviceProp {
    let mut p = v12::cudaDeviceProp::default();
    copy_shared!(p, src);
    copy_since_12!(p, src);
    fill_removed_in_13!(p, device);
    p
}

/// 12.9 layout from 11.8's.
fn v12_from_v11(src: &v11::cudaDeviceProp, device: c_int) -> v12::cudaDeviceProp {
    let mut p = v12::cudaDeviceProp::default();
    copy_shared!(p, src);
    copy_removed_in_13!(p, src);
    fill_since_12!(p, device);
    p
}

/// 12.9 layout from 13.0's for an input (`cudaChooseDevice`): no attribute queries; the fields
/// 13.0 removed stay 0, which `cudaChooseDevice` reads as "no preference".
pub(super) fn v12_input_from_v13(src: &cudaDeviceProp) -> v12::cudaDeviceProp {
    let mut p = v12::cudaDeviceProp::default();
    copy_shared!(p, src);
    copy_since_12!(p, src);
    p
}

/// 11.8 layout from 13.0's for an input (`cudaChooseDevice`): the fields both share; those
/// 13.0 removed stay 0 ("no preference"), those 11.8 lacks are dropped.
pub(super) fn v11_input_from_v13(src: &cudaDeviceProp) -> v11::cudaDeviceProp {
    let mut p = v11::cudaDeviceProp::default();
    copy_shared!(p, src);
    p
}

/// 11.8 layout (12.x's legacy plain export) from 13.0's: the fields 13.0 removed read from
/// attributes, as for `_v2`; the 12.x / 13.x additions have no place in it.
pub(super) fn v11_from_v13(src: &cudaDeviceProp, device: c_int) -> v11::cudaDeviceProp {
    let mut p = v11::cudaDeviceProp::default();
    copy_shared!(p, src);
    fill_removed_in_13!(p, device);
    p
}

/// 13.0 layout from 12.9's for an input (`cudaChooseDevice@CUDA_STUBS_CUDART_12`): the fields
/// both share; those 12.9 lacks stay 0 ("no preference"), those 13.0 removed are dropped (a
/// 13.x runtime could not match on them).
pub(super) fn v13_input_from_v12(src: &v12::cudaDeviceProp) -> cudaDeviceProp {
    let mut p = cudaDeviceProp::default();
    copy_shared!(p, src);
    copy_since_12!(p, src);
    p
}

/// 11.8 layout from 12.9's for an input (`cudaChooseDevice@CUDA_STUBS_CUDART_12`): the
/// fields both share, those 12.x added dropped.
pub(super) fn v11_input_from_v12(src: &v12::cudaDeviceProp) -> v11::cudaDeviceProp {
    let mut p = v11::cudaDeviceProp::default();
    copy_shared!(p, src);
    copy_removed_in_13!(p, src);
    p
}

/// The loaded 11.x runtime's answer in its own layout.
pub(super) fn query_v11(device: c_int) -> Result<v11::cudaDeviceProp, cudaError_t> {
    let mut raw = v11::cudaDeviceProp::default();
    let status = call_raw!(
        V11_GET,
        abi_fns::v11::cudaGetDeviceProperties,
        (&mut raw, device)
    );
    if status == SUCCESS {
        Ok(raw)
    } else {
        Err(status)
    }
}

/// `cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device)`, CUDA 12.x
/// layout (12.9 header, 1032 bytes): what a program built against CUDA 12 calls.
/// 12.x: forwarded. 13.x: the runtime's `cudaGetDeviceProperties` (1008 bytes) converted, the
/// fields 13.0 removed read from attributes. 11.x: the runtime's `cudaGetDeviceProperties`
/// (728 bytes) converted.
///
/// # Safety
/// `prop` is NULL or points to writable storage for one CUDA 12 `cudaDeviceProp`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDeviceProperties_v2(
    prop: *mut v12::cudaDeviceProp,
    device: c_int,
) -> cudaError_t {
    let out = match target() {
        Target::NoLibrary => return refusal(),
        Target::Major(13) => {
            if prop.is_null() {
                // What every runtime returns for a NULL `prop`.
                return cudaErrorInvalidValue;
            }
            let mut raw = cudaDeviceProp::default();
            let status = call_raw!(
                V13_GET,
                abi_fns::v13::cudaGetDeviceProperties,
                (&mut raw, device)
            );
            if status != SUCCESS {
                return status;
            }
            v12_from_v13(&raw, device)
        }
        Target::Major(11) => {
            if prop.is_null() {
                // What every runtime returns for a NULL `prop`.
                return cudaErrorInvalidValue;
            }
            match query_v11(device) {
                Ok(raw) => v12_from_v11(&raw, device),
                Err(status) => return status,
            }
        }
        Target::Major(_) => {
            // SAFETY: forwarded contract; on 12.x the declared (12.9) prototype and layout.
            return unsafe {
                crate::api::cudaGetDeviceProperties_v2::Forward::call(prop.cast(), device)
            };
        }
    };
    // SAFETY: `prop` is non-NULL and, by contract, writable for one struct.
    unsafe { prop.write(out) };
    SUCCESS
}

// The CUDA 13 version: 13.x's prototypes, forwarded to 13.x, translated for 11.x / 12.x.

/// `cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)`, CUDA 13.0
/// layout (1008 bytes). 13.x: forwarded. 12.x: the runtime's `cudaGetDeviceProperties_v2`
/// (1032 bytes) converted. 11.x: the runtime's `cudaGetDeviceProperties` (728 bytes)
/// converted. See the module documentation for the fields filled from attributes.
///
/// # Safety
/// `prop` is NULL or points to writable storage for one CUDA 13 `cudaDeviceProp`.
pub(crate) unsafe extern "C" fn cudaGetDeviceProperties_abi13(
    prop: *mut cudaDeviceProp,
    device: c_int,
) -> cudaError_t {
    let out = match target() {
        Target::NoLibrary => return refusal(),
        Target::Major(12) => {
            if prop.is_null() {
                // What every runtime returns for a NULL `prop`.
                return cudaErrorInvalidValue;
            }
            let mut raw = v12::cudaDeviceProp::default();
            let status = call_raw!(
                V12_GET,
                abi_fns::v12::cudaGetDeviceProperties_v2,
                (&mut raw, device)
            );
            if status != SUCCESS {
                return status;
            }
            v13_from_v12(&raw, device)
        }
        Target::Major(11) => {
            if prop.is_null() {
                // What every runtime returns for a NULL `prop`.
                return cudaErrorInvalidValue;
            }
            match query_v11(device) {
                Ok(raw) => v13_from_v11(&raw, device),
                Err(status) => return status,
            }
        }
        // 13.x and anything else: the gated slot (forwards on 13, refuses elsewhere).
        // SAFETY: forwarded contract; same prototype and layout.
        Target::Major(_) => {
            return unsafe {
                crate::api::cudaGetDeviceProperties_abi13::Forward::call(prop, device)
            };
        }
    };
    // SAFETY: `prop` is non-NULL and, by contract, writable for one struct.
    unsafe { prop.write(out) };
    SUCCESS
}

// The CUDA 12 version: 12.9's prototypes, forwarded to 11.x / 12.x, translated for 13.x.

/// `cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)` (12.x ABI):
/// what a real 12.x runtime exports under the plain name (12.x headers `#define` the
/// call to `_v2`; the plain symbol serves binaries built against 11.x), i.e. 11.8's 728-byte
/// layout. 11.x / 12.x: their own plain export, same layout. 13.x: the runtime's
/// `cudaGetDeviceProperties` (1008 bytes) converted, the fields 13.0 removed read from
/// attributes (a failing query leaves 0).
///
/// # Safety
/// `prop` is NULL or points to writable storage for one CUDA 11 `cudaDeviceProp`.
pub(crate) unsafe extern "C" fn cudaGetDeviceProperties_abi12(
    prop: *mut v11::cudaDeviceProp,
    device: c_int,
) -> cudaError_t {
    let out = match target() {
        Target::NoLibrary => return refusal(),
        Target::Major(11 | 12) => {
            return call_raw!(
                V11_GET,
                abi_fns::v11::cudaGetDeviceProperties,
                (prop, device)
            );
        }
        Target::Major(13) => {
            if prop.is_null() {
                // What every runtime returns for a NULL `prop`.
                return cudaErrorInvalidValue;
            }
            let mut raw = cudaDeviceProp::default();
            let status = call_raw!(
                V13_GET,
                abi_fns::v13::cudaGetDeviceProperties,
                (&mut raw, device)
            );
            if status != SUCCESS {
                return status;
            }
            v11_from_v13(&raw, device)
        }
        // An unknown major: the gated slot's typed refusal.
        // SAFETY: the slot refuses without calling anything on a major it does not know.
        Target::Major(_) => {
            return unsafe {
                crate::api::cudaGetDeviceProperties_abi12::Forward::call(prop.cast(), device)
            };
        }
    };
    // SAFETY: `prop` is non-NULL and, by contract, writable for one struct.
    unsafe { prop.write(out) };
    SUCCESS
}

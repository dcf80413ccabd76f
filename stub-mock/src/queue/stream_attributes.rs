//! Streams' attributes (`cudaStreamSetAttribute` / `cuStreamSetAttribute`, CUDA 13 ABI): the
//! value last set for each stream and attribute, given back as set. They are hints to the
//! hardware (L2 persistence, synchronization policy, memory synchronization domain): the
//! mock's results never depend on them. Both APIs share one value type (`cudaLaunchAttributeValue`
//! is `CUlaunchAttributeValue`, one C union: `cuda_runtime_api.h`, `cuda.h`), kept here as its
//! bytes.
// C names, as the headers spell them (parameters, and constants matched in patterns).
#![allow(non_snake_case, non_upper_case_globals)]

use crate::types::cudart::*;
use alloc::collections::BTreeMap;
use stub_loader::sync::Mutex;

/// A value's bytes (`sizeof(cudaLaunchAttributeValue)`, 64 in CUDA 12 and 13).
pub type Value = [u8; core::mem::size_of::<cudaLaunchAttributeValue>()];

// The driver's union is the runtime's: one size.
const _: () = assert!(
    core::mem::size_of::<cudaLaunchAttributeValue>()
        == core::mem::size_of::<crate::types::cuda::CUlaunchAttributeValue>()
);

/// Set values by (stream handle, attribute id).
static VALUES: Mutex<BTreeMap<(usize, u32), Value>> = Mutex::new(BTreeMap::new());

/// Whether `attr` is one a stream takes (`cudaStreamAttrID`: access policy window 1,
/// synchronization policy 3, priority 8, memory synchronization domain map 9 and domain 10;
/// driver_types.h's `cudaStreamAttribute…` defines).
pub fn is_stream_attribute(attr: u32) -> bool {
    matches!(
        attr,
        cudaLaunchAttributeAccessPolicyWindow
            | cudaLaunchAttributeSynchronizationPolicy
            | cudaLaunchAttributePriority
            | cudaLaunchAttributeMemSyncDomainMap
            | cudaLaunchAttributeMemSyncDomain
    )
}

/// Checks `value` for `attr`: an access policy window's hit ratio within [0, 1] and its
/// properties `cudaAccessPropertyNormal` (0), `…Streaming` (1) or `…Persisting` (2); a
/// synchronization policy `cudaSyncPolicyAuto` (1) … `…BlockingSync` (4); a domain 0 or 1
/// (`cudaLaunchMemSyncDomainDefault`, `…Remote`).
pub fn is_valid(attr: u32, value: &cudaLaunchAttributeValue) -> bool {
    // SAFETY: each arm reads the member its attribute sets; every member is plain data.
    unsafe {
        match attr {
            cudaLaunchAttributeAccessPolicyWindow => {
                let w = value.accessPolicyWindow;
                (0.0..=1.0).contains(&w.hitRatio) && w.hitProp <= 2 && w.missProp <= 2
            }
            cudaLaunchAttributeSynchronizationPolicy => (1..=4).contains(&value.syncPolicy),
            cudaLaunchAttributeMemSyncDomain => value.memSyncDomain <= 1,
            _ => true,
        }
    }
}

/// Keeps `value` as `stream`'s `attr`.
pub fn set(stream: usize, attr: u32, value: Value) {
    VALUES.lock().insert((stream, attr), value);
}

/// `stream`'s `attr` as last set, if it was.
pub fn get(stream: usize, attr: u32) -> Option<Value> {
    VALUES.lock().get(&(stream, attr)).copied()
}

/// Forgets a destroyed stream's attributes.
pub fn forget(stream: usize) {
    VALUES.lock().retain(|&(s, _), _| s != stream);
}

//! The fat binaries an nvcc-built program registers with the runtime (`__cudaRegisterFatBinary`,
//! `__cudaRegisterFunction` of crt/host_runtime.h): each one's entries, read from their headers
//! when registered, where its image lies, and its kernels by their host functions. The runtime's
//! launches choose their code here (`runtime/launch.rs`), its device variables their initial
//! values (`variables.rs`).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use stub_loader::device_code::FatbinEntry;
use stub_loader::sync::{Mutex, MutexGuard};

#[derive(Debug, Default)]
struct Registry {
    /// Registered fat binaries by handle: their entries.
    binaries: BTreeMap<usize, Vec<FatbinEntry>>,
    /// Registered fat binaries by handle: where they lie (the program's, for its lifetime).
    images: BTreeMap<usize, (usize, usize)>,
    /// Registered kernels by host function: their fat binary's handle, the device name.
    functions: BTreeMap<usize, (usize, String)>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    binaries: BTreeMap::new(),
    images: BTreeMap::new(),
    functions: BTreeMap::new(),
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock()
}

/// Records the fat binary `handle` with its `entries` and, when its wrapper gave one, its
/// `image` (the program's, never freed while it runs).
pub fn register(handle: usize, entries: Vec<FatbinEntry>, image: Option<&[u8]>) {
    let mut r = registry();
    r.binaries.insert(handle, entries);
    if let Some(image) = image {
        r.images
            .insert(handle, (image.as_ptr() as usize, image.len()));
    }
}

/// Forgets the fat binary `handle` and its kernels: `true` when it was registered.
pub fn unregister(handle: usize) -> bool {
    let mut r = registry();
    r.images.remove(&handle);
    if r.binaries.remove(&handle).is_some() {
        r.functions.retain(|_, (h, _)| *h != handle);
        return true;
    }
    false
}

/// Records kernel `name` of the fat binary `handle`, launched by its host stub `host`.
pub fn register_function(handle: usize, host: usize, name: String) {
    registry().functions.insert(host, (handle, name));
}

/// Whether `host` is the host function of a registered kernel.
pub fn is_function(host: usize) -> bool {
    registry().functions.contains_key(&host)
}

/// The kernel whose host function is `host`: its fat binary's entries, its device name, the fat
/// binary's handle; `None` for a function no fat binary registered.
pub fn kernel_of(host: usize) -> Option<(Vec<FatbinEntry>, String, usize)> {
    let r = registry();
    let (handle, kernel) = r.functions.get(&host)?;
    Some((
        r.binaries.get(handle).cloned().unwrap_or_default(),
        kernel.clone(),
        *handle,
    ))
}

/// The image of the fat binary registered as `handle` (its header included).
pub fn image_of(handle: usize) -> Option<&'static [u8]> {
    let (ptr, len) = registry().images.get(&handle).copied()?;
    // SAFETY: nvcc's fat binary, part of the program's image: it lives as long as the process.
    Some(unsafe { core::slice::from_raw_parts(ptr as *const u8, len) })
}

/// The CUBIN for `sm_<arch>` of the fat binary registered as `handle`, if it holds one
/// uncompressed (`stub_loader::device_code::fatbin_cubin`).
pub fn cubin_of(handle: usize, arch: u32) -> Option<&'static [u8]> {
    stub_loader::device_code::fatbin_cubin(image_of(handle)?, arch)
}

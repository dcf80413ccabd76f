//! What one compatibility library binds: its exports' names, the stub version each one takes,
//! and the slots its trampolines jump through ([`Table`]); [`bind`] fills one slot on the
//! first call of its export.

use crate::glibc::{dladdr, dlopen, dlsym, dlvsym};
use core::ffi::{CStr, c_int, c_void};
use core::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use stub_loader::debug_enabled;

/// One compatibility library: written by [`compat_library!`](crate::compat_library) from the
/// name list codegen generates (`compat/<lib><major>/src/generated/compat_exports.rs`).
#[derive(Debug)]
pub struct Table {
    /// The library's short name, for the debug log: `cudart`.
    pub library: &'static str,
    /// NVIDIA's soname this file carries, which is also its one version node:
    /// `libcudart.so.12`.
    pub soname: &'static CStr,
    /// The stub it forwards to, by SONAME: `libstubs_cudart.so` (its `DT_NEEDED`, so already
    /// loaded when a call arrives).
    pub stub: &'static CStr,
    /// The stub's version node of this major's prototypes (`CUDA_STUBS_CUDART_12`), asked
    /// with `dlvsym` for the names in [`Table::versioned`]; `None` for a library whose stub
    /// exports one ABI.
    pub node: Option<&'static CStr>,
    /// Every export, in slot order.
    pub names: &'static [&'static CStr],
    /// Whether the stub exports each name once per ABI (then `dlvsym` with [`Table::node`]).
    pub versioned: &'static [bool],
    /// The slots the exports jump through, each starting at the resolver.
    pub slots: &'static [AtomicPtr<()>],
    /// What a name the stub does not export runs: returns the stub's "absent" status.
    pub refusal: unsafe extern "C" fn() -> c_int,
    /// The stub's handle, once opened.
    pub handle: AtomicPtr<c_void>,
    /// Whether the first call has written its debug line.
    pub announced: AtomicBool,
}

/// Binds export `index` of `table` and returns what its slot now holds: the stub's
/// definition of the name (its version of this major's prototype where it exports two), or
/// [`Table::refusal`] when the stub has none (a stub older than this file): a typed error,
/// never a jump through NULL. Called by the resolver on the first call of each export; racing
/// threads store the same value.
///
/// The lookup goes through the stub's own handle (`dlopen` of its SONAME with
/// `RTLD_NOLOAD`): `dlsym` on a handle searches that object and its dependencies, never this
/// file, which defines every one of these names too (a lookup in the global scope could find
/// this file's own export and call itself).
pub fn bind(table: &Table, index: u32) -> *mut () {
    let i = usize::try_from(index).unwrap_or(usize::MAX);
    let (Some(name), Some(slot)) = (table.names.get(i), table.slots.get(i)) else {
        return table.refusal as *mut ();
    };
    let handle = stub_handle(table);
    let found = if handle.is_null() {
        core::ptr::null_mut()
    } else {
        match (table.versioned.get(i), table.node) {
            // SAFETY: a handle dlopen returned, NUL-terminated names.
            (Some(true), Some(node)) => unsafe { dlvsym(handle, name.as_ptr(), node.as_ptr()) },
            // SAFETY: as above.
            _ => unsafe { dlsym(handle, name.as_ptr()) },
        }
    };
    let target = if found.is_null() {
        if debug_enabled() {
            crate::debug::line(
                table,
                format_args!(
                    "{}: not exported by {}: refused with the stub's \"absent\" status",
                    name.to_string_lossy(),
                    table.stub.to_string_lossy()
                ),
            );
        }
        table.refusal as *mut ()
    } else {
        found.cast::<()>()
    };
    slot.store(target, Ordering::Release);
    target
}

/// The stub's handle: its SONAME with `RTLD_NOLOAD` (it is this file's `DT_NEEDED`, loaded
/// before this file), else a plain `dlopen` (the file's own RUNPATH, `$ORIGIN/..`). NULL when
/// neither works: every call is refused.
fn stub_handle(table: &Table) -> *mut c_void {
    let known = table.handle.load(Ordering::Acquire);
    if !known.is_null() {
        return known;
    }
    let flags = libc::RTLD_LAZY | libc::RTLD_LOCAL;
    // SAFETY: a NUL-terminated name; the handle is never closed.
    let mut handle = unsafe { dlopen(table.stub.as_ptr(), flags | libc::RTLD_NOLOAD) };
    if handle.is_null() {
        // SAFETY: as above.
        handle = unsafe { dlopen(table.stub.as_ptr(), flags) };
    }
    table.handle.store(handle, Ordering::Release);
    if debug_enabled() && !table.announced.swap(true, Ordering::AcqRel) {
        announce(table, handle);
    }
    handle
}

/// The debug line of the first call: which file this is, and the stub it forwards to.
fn announce(table: &Table, handle: *mut c_void) {
    let own = object_of(table as *const Table as *const c_void);
    let stub = if handle.is_null() {
        None
    } else {
        // SAFETY: a handle dlopen returned.
        let symbol = unsafe { dlsym(handle, stub_loader::STUB_MARKER.as_ptr()) };
        object_of(symbol)
    };
    crate::debug::line(
        table,
        format_args!(
            "{} is cuda-stubs' compatibility library ({}): forwards {} names to {} ({}), which binds the one runtime of the process",
            table.soname.to_string_lossy(),
            own.map_or("?".into(), |p| p.to_string_lossy()),
            table.names.len(),
            table.stub.to_string_lossy(),
            stub.map_or("not loaded: every call refused".into(), |p| p
                .to_string_lossy()),
        ),
    );
}

/// The file of the loaded object holding `address`.
fn object_of(address: *const c_void) -> Option<&'static CStr> {
    if address.is_null() {
        return None;
    }
    // SAFETY: Dl_info is plain data.
    let mut info: libc::Dl_info = unsafe { core::mem::zeroed() };
    // SAFETY: a valid out-pointer; dladdr only reads the address.
    if unsafe { dladdr(address, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: the object's name, kept by the loader while the object stays loaded (a stub and
    // a compatibility library are never unloaded once called).
    Some(unsafe { CStr::from_ptr(info.dli_fname) })
}

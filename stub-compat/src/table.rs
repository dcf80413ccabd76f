//! What one compatibility library binds: its exports' names, the stub version each one takes,
//! the slots its trampolines jump through and what each answers when the stub lacks it
//! ([`Table`]); [`bind`] fills one slot on the first call of its export.

use crate::last_error::{LastError, divert_bound};
use crate::refusal::Refusal;
use core::ffi::{CStr, c_int};
use core::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use stub_loader::{ForwardTarget, debug_enabled};

/// One compatibility library: written by [`compat_library!`](crate::compat_library) from the
/// name list codegen generates (`stubs/compat/<lib><major>/src/generated/compat_exports.rs`).
pub struct Table {
    /// The library's short name, for the debug log: `cudart` (`cuda-stubs[cudart-compat]`).
    pub library: &'static str,
    /// NVIDIA's soname this file carries, which is also its one version node:
    /// `libcudart.so.12`.
    pub soname: &'static CStr,
    /// The stub it forwards to, by SONAME: `libstubs_cudart.so` (its `DT_NEEDED`, so already
    /// loaded when a call arrives).
    pub stub: ForwardTarget,
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
    /// What each export runs when the stub does not export its name: a refusal of its return
    /// kind ([`crate::refusal`]).
    pub refusals: &'static [Refusal],
    /// The stub's "absent" status (`cudaErrorNotSupported`, NVRTC's 7): what a refused
    /// status-returning export returns, and the last error a refusal records.
    pub absent: c_int,
    /// The library's last-error readers, where it has a last error (the runtime).
    pub last_error: Option<LastError>,
    /// Whether the first call has written its debug line.
    pub announced: AtomicBool,
}

/// Binds export `index` of `table` and returns what its slot now holds: the stub's
/// definition of the name (its version of this major's prototype where it exports two), or
/// the export's refusal ([`Table::refusals`]) when the stub has none (a stub older than this
/// file): an answer of the export's own return type, never a jump through NULL. Called by the
/// resolver on the first call of each export; racing threads store the same value.
///
/// The lookup goes through the stub's own handle ([`ForwardTarget::symbol`]), never the
/// global scope, where this file defines every one of these names too.
pub fn bind(table: &Table, index: u32) -> *mut () {
    let i = usize::try_from(index).unwrap_or(usize::MAX);
    let (Some(name), Some(slot), Some(refusal)) = (
        table.names.get(i),
        table.slots.get(i),
        table.refusals.get(i),
    ) else {
        // Not reachable: every trampoline passes its own index, and the three lists have one
        // entry per export (the macro writes them from one list).
        return table
            .refusals
            .first()
            .map_or(core::ptr::null_mut(), |r| r.function.cast_mut());
    };
    announce_once(table);
    let version = match table.versioned.get(i) {
        Some(true) => table.node,
        _ => None,
    };
    let target = match table.stub.symbol(name, version) {
        Some(found) => found,
        None => {
            debug(
                table,
                format_args!(
                    "{}: not exported by {}: {}",
                    name.to_string_lossy(),
                    table.stub.soname().to_string_lossy(),
                    refusal.kind.answer()
                ),
            );
            refusal.function.cast_mut()
        }
    };
    slot.store(target, Ordering::SeqCst);
    divert_bound(table, index, target)
}

/// The debug line of the first call: which file this is, and the stub it forwards to.
fn announce_once(table: &Table) {
    if !debug_enabled() || table.announced.swap(true, Ordering::AcqRel) {
        return;
    }
    let own = stub_loader::file_of(table as *const Table as *const ());
    debug(
        table,
        format_args!(
            "{} is cuda-stubs' compatibility library ({}): forwards {} names to {} ({}), which binds the one runtime of the process",
            table.soname.to_string_lossy(),
            own.as_deref()
                .map_or("?".into(), alloc::string::String::from_utf8_lossy),
            table.names.len(),
            table.stub.soname().to_string_lossy(),
            table
                .stub
                .path()
                .map_or("not loaded: every call refused".into(), |p| p
                    .to_string_lossy()),
        ),
    );
}

/// Writes one debug line tagged `<library>-compat` (`cuda-stubs[cudart-compat]: …`) when
/// `CUDA_STUBS_DEBUG` is on.
fn debug(table: &Table, text: core::fmt::Arguments<'_>) {
    if debug_enabled() {
        stub_loader::debug_line(&alloc::format!("{}-compat", table.library), text);
    }
}

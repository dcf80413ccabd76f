//! The per-library table the `cuda_stubs` macro emits: every exported function's name, gate,
//! return kind and slot, as offsets and small integers, so that the table itself needs no
//! relocations (only the slots, which start at each function's first-call thunk, do).

use crate::gating::SymbolGate;
use crate::names::name_at;
use core::ffi::CStr;
use core::sync::atomic::AtomicPtr;
pub use stub_spec::RetKind;
/// Lowest CUDA major a [`FnMeta`] mask can hold: bit 0 is major 10 (the macro builds the masks
/// with the same constant).
pub use stub_spec::majors::MASK_BASE;

/// One function of the table.
#[derive(Debug, Clone, Copy)]
pub struct FnMeta {
    /// Offset of the NUL-terminated C name in [`FnTable::names`].
    pub name: u32,
    /// Majors whose library has the symbol, bit `m - 10` for major `m`.
    pub majors: u16,
    /// Majors where the symbol has the exported ABI, same bits.
    pub abi: u16,
    /// What it returns.
    pub ret: RetKind,
    /// Its arguments fit the traced entry's copy of the stack (at most 16 eight-byte words in
    /// all), so tracing and fault injection may select it.
    pub traceable: bool,
}

impl FnMeta {
    /// The gate as 32-bit masks (bit `m` = major `m`).
    pub fn gate(&self) -> SymbolGate {
        SymbolGate {
            majors: u32::from(self.majors) << MASK_BASE,
            abi: u32::from(self.abi) << MASK_BASE,
        }
    }
}

/// Every function one stub exports, emitted by the `cuda_stubs` macro.
#[derive(Debug)]
pub struct FnTable {
    /// The C names, each NUL-terminated.
    pub names: &'static [u8],
    /// One per function, in export order.
    pub meta: &'static [FnMeta],
    /// One per function: what its export jumps through.
    pub slots: &'static [AtomicPtr<()>],
    /// Returns the "library not found" status.
    pub no_library: *mut (),
    /// Returns the "function absent or refused" status.
    pub absent: *mut (),
    /// Returns zero / NULL (for `void` and pointer results).
    pub zero: *mut (),
    /// Returns the "library not found" status negated, as `isize` ([`RetKind::NegatedStatus`]).
    pub negated_no_library: *mut (),
    /// Returns the "function absent or refused" status negated, as `isize`.
    pub negated_absent: *mut (),
    /// `(index, fallback)` of [`RetKind::Custom`] functions, sorted by index.
    pub custom: &'static [(u32, *mut ())],
    /// The tracing and fault-injection entry (see [`crate::shared_resolver`]).
    pub traced: *mut (),
}

// SAFETY: the raw pointers are code addresses, immutable and valid from every thread.
unsafe impl Sync for FnTable {}

impl FnTable {
    /// The C name of a function.
    pub fn name(&self, meta: &FnMeta) -> &'static CStr {
        name_at(self.names, meta.name)
    }

    /// The fallback of function `index` when the real one cannot be called.
    pub(crate) fn fallback(&self, index: usize, meta: &FnMeta, no_library: bool) -> *mut () {
        match meta.ret {
            RetKind::Status | RetKind::Opaque if no_library => self.no_library,
            RetKind::Status | RetKind::Opaque => self.absent,
            RetKind::Void | RetKind::Pointer => self.zero,
            RetKind::NegatedStatus if no_library => self.negated_no_library,
            RetKind::NegatedStatus => self.negated_absent,
            RetKind::Custom => self
                .custom
                .binary_search_by_key(&index, |(i, _)| *i as usize)
                .ok()
                .and_then(|i| self.custom.get(i))
                .map_or(self.zero, |(_, f)| *f),
        }
    }
}

//! What a declared function returns, which decides its fallback and how a trace shows it.

/// A declaration's return kind, derived from its prototype and `opaque`; stored in each entry of
/// the stubs' function table (`stub_loader::FnMeta::ret`, one byte). The macro emits
/// `::stub_loader::RetKind::<variant>` (this enum, re-exported) by its variant name
/// ([`RetKind::variant`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum RetKind {
    /// The library's status type (`cudaError_t`, `CUresult`, `nvrtcResult`): the stub's typed
    /// errors.
    Status,
    /// Nothing to return.
    Void,
    /// A pointer: NULL.
    Pointer,
    /// Anything else (a struct by value, a plain integer): its `Default`, all zero.
    Custom,
    /// A signed count whose negative values are the library's status codes negated
    /// ([`crate::Library::counts_negate_status`]: cuFile's `ssize_t` I/O calls, a byte count or
    /// `-CU_FILE_*`): the typed error negated, never 0, which would read as "0 bytes".
    NegatedStatus,
    /// Exported by the real library but declared in no header: the status fallback, never
    /// traced (the prototype is unknown).
    Opaque,
}

impl RetKind {
    /// The variant's name, as the macro spells it.
    pub fn variant(self) -> &'static str {
        match self {
            Self::Status => "Status",
            Self::Void => "Void",
            Self::Pointer => "Pointer",
            Self::Custom => "Custom",
            Self::NegatedStatus => "NegatedStatus",
            Self::Opaque => "Opaque",
        }
    }
}

//! What a declared function returns, which decides its fallback and how a trace shows it.

/// A declaration's return kind, derived from its prototype and `opaque`. The macro emits
/// `::stub_loader::RetKind::<variant>` by this enum's variant name ([`RetKind::variant`]): the
/// runtime's `stub_loader::RetKind` (which cannot depend on this crate's `syn`) mirrors it, and
/// a variant missing there fails to compile; this crate's tests check the converse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetKind {
    /// The library's status type: the stub's typed errors.
    Status,
    /// Nothing to return.
    Void,
    /// A pointer: NULL.
    Pointer,
    /// Anything else (a struct by value, a plain integer): its `Default`, all zero.
    Custom,
    /// Exported by the real library but declared in no header: the status fallback, never
    /// traced (the prototype is unknown).
    Opaque,
}

impl RetKind {
    /// The variant's name, the same in `stub_loader::RetKind`.
    pub fn variant(self) -> &'static str {
        match self {
            Self::Status => "Status",
            Self::Void => "Void",
            Self::Pointer => "Pointer",
            Self::Custom => "Custom",
            Self::Opaque => "Opaque",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RetKind;
    use stub_loader::RetKind as Runtime;

    #[test]
    fn the_runtime_mirrors_every_return_kind() {
        // Exhaustive both ways: a variant added on either side fails to compile here.
        let to_runtime = |k: RetKind| match k {
            RetKind::Status => Runtime::Status,
            RetKind::Void => Runtime::Void,
            RetKind::Pointer => Runtime::Pointer,
            RetKind::Custom => Runtime::Custom,
            RetKind::Opaque => Runtime::Opaque,
        };
        let from_runtime = |k: Runtime| match k {
            Runtime::Status => RetKind::Status,
            Runtime::Void => RetKind::Void,
            Runtime::Pointer => RetKind::Pointer,
            Runtime::Custom => RetKind::Custom,
            Runtime::Opaque => RetKind::Opaque,
        };
        for k in [
            RetKind::Status,
            RetKind::Void,
            RetKind::Pointer,
            RetKind::Custom,
            RetKind::Opaque,
        ] {
            assert_eq!(from_runtime(to_runtime(k)), k);
            assert_eq!(format!("{:?}", to_runtime(k)), k.variant());
        }
    }
}

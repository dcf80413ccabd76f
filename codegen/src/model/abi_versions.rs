//! The names a stub exports once per ABI (ELF symbol versions): those whose prototype, or a
//! struct reachable from it, differs between CUDA 12's headers and the newest major's
//! (`cudaMemAdvise(…, int device)` in 12.9, `(…, cudaMemLocation)` in 13.x). A program compiled
//! against 12.x headers and one compiled against 13.x headers both call the plain name; each
//! link records the version node of its ABI (`CUDA_STUBS_CUDART_12`, `CUDA_STUBS_CUDART_13`),
//! and the stub binds each to its own implementation. Names whose 12.x and 13.x ABIs agree keep
//! one unversioned definition (whatever 11.x has: the stub serves 12.x and 13.x headers).
//!
//! Derived from the same comparison as the manifest's `abi_identical` (the ABI key of each
//! major's prototype), for libraries with a CUDA 12 hand-written list
//! ([`crate::read::libraries::Library::abi12_hand_written`]): cudart. The driver keeps one definition
//! per name: its 12.x / 13.x differences are struct fields carved from reserved space, which a
//! single real `libcuda.so.1` serves to callers of both headers.

use crate::model::library_data::LibraryData;
use crate::model::symbol::Symbol;
use crate::read::cache::NEWEST;
use std::collections::BTreeMap;
use stub_model::LibraryKind;

/// The older ABI exported beside the newest one (the spec's).
pub use stub_model::OLDER_ABI as OLDER;

/// One library's versioned names.
pub struct AbiVersions {
    /// Name → its declaration with CUDA 12's prototype (the newest one is `LibraryData`'s).
    older: BTreeMap<String, Symbol>,
    /// The library, for node names.
    kind: LibraryKind,
}

impl AbiVersions {
    /// The versioned names of `data`'s library (none without a CUDA 12 hand-written list).
    pub fn of(data: &LibraryData) -> Self {
        let kind = data.library.kind;
        let Some(hand_written) = data.library.abi12_hand_written else {
            return AbiVersions {
                older: BTreeMap::new(),
                kind,
            };
        };
        let older = for_exported_abi(data, OLDER, hand_written)
            .into_iter()
            .zip(&data.symbols)
            .filter(|(old, new)| {
                let key = |s: &Symbol, m: u32| s.prototypes.get(&m).map(|p| p.key.clone());
                debug_assert_eq!(old.name, new.name);
                // Both majors declare it, with different ABIs.
                matches!((key(new, OLDER), key(new, NEWEST)), (Some(a), Some(b)) if a != b)
            })
            .map(|(old, _)| (old.name.clone(), old))
            .collect();
        AbiVersions { older, kind }
    }

    /// The declaration of `name` with CUDA 12's ABI, when `name` is versioned.
    pub fn older(&self, name: &str) -> Option<&Symbol> {
        self.older.get(name)
    }

    /// The versioned names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.older.keys().map(String::as_str)
    }

    /// Whether the library exports any name once per ABI.
    pub fn is_empty(&self) -> bool {
        self.older.is_empty()
    }

    /// The version node of `major`'s ABI (`CUDA_STUBS_CUDART_12`).
    pub fn node(&self, major: u32) -> String {
        self.kind.version_node(major)
    }

    /// The exported ABIs, newest first: the version index order of the version script.
    pub fn majors(&self) -> [u32; 2] {
        [NEWEST, OLDER]
    }
}

/// The symbols as a stub exporting `exported`'s ABI declares them: each symbol's reference
/// prototype is that of the newest major up to `exported` that has one (else the newest), and
/// its `abi` the majors with the same ABI key. For the CUDA 12 versions of the names exported
/// once per ABI.
fn for_exported_abi(data: &LibraryData, exported: u32, hand_written: &[&str]) -> Vec<Symbol> {
    data.symbols
        .iter()
        .map(|s| {
            let mut s = s.clone();
            let capped = s
                .prototypes
                .keys()
                .copied()
                .filter(|m| *m <= exported)
                .max();
            s.reference = capped.or_else(|| s.prototypes.keys().next_back().copied());
            if let Some(key) = s.reference.map(|r| s.prototypes[&r].key.clone()) {
                s.abi = s
                    .majors
                    .iter()
                    .copied()
                    .filter(|m| s.prototypes.get(m).is_some_and(|p| p.key == key))
                    .collect();
            }
            s.hand_written = hand_written.contains(&s.name.as_str());
            s
        })
        .collect()
}

//! Rule: a self-sized struct behind a pointer (NCCL's `ncclConfig_t`: `size`, `magic`, `version`
//! first; CUPTI's `CUpti_Profiler_*_Params`: `structSize` first) is read by the library up to
//! what its size field says, so it may grow at its end without changing the ABI (its ABI key
//! is `*self-sized`). A struct whose majors disagree before the end of the shorter layout did
//! not only grow, and keeps its full key.

use super::TypeTable;
use super::layout::primitive;
use std::collections::BTreeSet;

/// The first fields that make a struct self-sized, each `(name, offset, size)`.
const HEADERS: &[&[(&str, u64, u64)]] = &[
    // NCCL (`ncclConfig_t`, `ncclSimInfo_t`, `ncclCommProperties_t` …), set by their
    // `*_INITIALIZER` to `sizeof`, `NCCL_API_MAGIC` and `NCCL_VERSION_CODE`.
    &[("size", 0, 8), ("magic", 8, 4), ("version", 12, 4)],
    // NVIDIA's profiling interfaces (CUPTI's `CUpti_Profiler_*_Params`, `CUpti_SubscriberParams`
    // …): `size_t structSize` set by the caller to its header's `<type>_STRUCT_SIZE`, the end
    // of the last field it knows ("used in CUPTI to check what fields are available in the
    // structure", cupti_profiler_host.h).
    &[("structSize", 0, 8)],
];

impl TypeTable {
    /// Whether `ty` is a self-sized struct: one whose first fields are one of [`HEADERS`] and
    /// which [`TypeTable::not_only_grown`] did not find changed before its end.
    pub(super) fn is_self_sized(&self, ty: &syn::Type) -> bool {
        let Some((name, def)) = self.aggregate_of(ty) else {
            return false;
        };
        !def.is_union && has_header(def) && !self.not_self_sized.contains(name)
    }

    /// Whether the struct `name` is self-sized (as [`TypeTable::is_self_sized`]): what the ABI
    /// report says of a struct whose layout differs between majors.
    pub fn grows_at_end(&self, name: &str) -> bool {
        self.structs
            .get(name)
            .is_some_and(|d| !d.is_union && has_header(d) && !self.not_self_sized.contains(name))
    }

    /// The self-sized structs (by their first fields) whose layouts, over `tables` (every
    /// major's), differ before the end of the shorter one: a field of another name, offset or
    /// ABI key where both have one. A library reading such a struct up to its size field would
    /// read another major's fields as its own, so their keys stay whole (the prototypes taking
    /// them are refused where the layout differs).
    ///
    /// Call after the other rules are installed ([`TypeTable::set_reserved_tails`],
    /// [`TypeTable::set_union_common`], [`TypeTable::set_widened`]): fields are compared by
    /// their keys under them.
    pub fn not_only_grown<'a>(
        tables: impl Iterator<Item = &'a TypeTable> + Clone,
    ) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for a in tables.clone() {
            for (name, def) in a
                .structs
                .iter()
                .filter(|(_, d)| !d.is_union && has_header(d))
            {
                for b in tables.clone() {
                    let Some(other) = b.structs.get(name) else {
                        continue;
                    };
                    let same_prefix = def.fields.iter().zip(&other.fields).all(|(f, g)| {
                        f.name == g.name
                            && f.offset == g.offset
                            && f.offset.is_some()
                            && a.abi_key(&f.ty) == b.abi_key(&g.ty)
                    });
                    if !same_prefix {
                        out.insert(name.clone());
                    }
                }
            }
        }
        out
    }

    /// Installs the result of [`TypeTable::not_only_grown`] before keys are computed.
    pub fn set_not_only_grown(&mut self, names: &BTreeSet<String>) {
        self.not_self_sized = names.clone();
    }
}

/// Whether `def` begins with one of [`HEADERS`]: the fields' names, offsets and primitive sizes.
fn has_header(def: &super::StructDef) -> bool {
    HEADERS.iter().any(|header| {
        def.fields.len() >= header.len()
            && def
                .fields
                .iter()
                .zip(header.iter())
                .all(|(f, &(name, offset, size))| {
                    let syn::Type::Path(p) = &f.ty else {
                        return false;
                    };
                    let primitive_size = p
                        .path
                        .segments
                        .last()
                        .and_then(|s| primitive(&s.ident.to_string()))
                        .map(|(_, size)| size);
                    f.name == name && f.offset == Some(offset) && primitive_size == Some(size)
                })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bindgen-like output: `params` with `size_t structSize; void *pPriv;` and the given
    /// further fields (`name: type @ offset`), of `size` bytes.
    fn table(fields: &[(&str, &str, u64)], size: u64) -> TypeTable {
        let mut decl = String::from(
            "pub struct params { pub structSize: usize, pub pPriv: *mut ::core::ffi::c_void",
        );
        let mut checks = format!(
            "[\"Size of params\"][::core::mem::size_of::<params>() - {size}usize];
             [\"Alignment of params\"][::core::mem::align_of::<params>() - 8usize];
             [\"Offset of field: params::structSize\"][::core::mem::offset_of!(params, structSize) - 0usize];
             [\"Offset of field: params::pPriv\"][::core::mem::offset_of!(params, pPriv) - 8usize];"
        );
        for (name, ty, offset) in fields {
            decl.push_str(&format!(", pub {name}: {ty}"));
            checks.push_str(&format!(
                "[\"Offset of field: params::{name}\"][::core::mem::offset_of!(params, {name}) - {offset}usize];"
            ));
        }
        let src = format!("{decl} }} const _: () = {{ {checks} }};");
        let file = syn::parse_file(&src).expect("test source parses");
        TypeTable::from_items(file.items.iter())
    }

    /// Whether a pointer to `params` has one key in both tables once the rule is installed.
    fn same_key(mut old: TypeTable, mut new: TypeTable) -> bool {
        let changed = TypeTable::not_only_grown([&old, &new].into_iter());
        old.set_not_only_grown(&changed);
        new.set_not_only_grown(&changed);
        let ty: syn::Type = syn::parse_str("*mut params").expect("a type");
        old.abi_key(&ty) == new.abi_key(&ty)
    }

    const INT: &str = "::core::ffi::c_int";

    /// CUPTI's `CUpti_RangeProfiler_Enable_Params`: 12.9's 32 bytes, 13.4's 40 with a field
    /// appended; one key.
    #[test]
    fn a_struct_size_first_struct_grown_at_its_end_keeps_the_abi() {
        let old = table(
            &[
                ("ctx", "*mut ::core::ffi::c_void", 16),
                ("obj", "*mut u8", 24),
            ],
            32,
        );
        let new = table(
            &[
                ("ctx", "*mut ::core::ffi::c_void", 16),
                ("obj", "*mut u8", 24),
                ("mode", INT, 32),
            ],
            40,
        );
        assert!(new.grows_at_end("params"));
        assert!(same_key(old, new));
    }

    /// A field retyped or renamed before the end of the shorter layout is not growth: the
    /// struct keeps its whole key, and the prototypes taking it differ.
    #[test]
    fn a_struct_changed_before_its_end_keeps_its_whole_key() {
        let old = table(&[("a", INT, 16), ("b", INT, 20)], 24);
        let retyped = table(&[("a", "u64", 16), ("b", INT, 24)], 32);
        assert!(!same_key(old, retyped));
        let old = table(&[("a", INT, 16), ("b", INT, 20)], 24);
        let renamed = table(&[("a", INT, 16), ("c", INT, 20), ("d", INT, 24)], 32);
        assert!(!same_key(old, renamed));
    }
}

//! What the hand-written ABI adapters reach (a spec's `adapter_structs`: the runtime's, the
//! driver's), which both of their generated files need: the entry points they call
//! ([`candidates`]), the structs those prototypes take ([`prototype_structs`]), and the adapted
//! structs whose layout differs in an older major ([`differing_structs`]). The generated
//! `abi_fns.rs` types the calls with them, `abi_types.rs` defines the older layouts and checks
//! the sizes; here, so that neither emitter reads the other.
//!
//! Which names: every hand-written export, of either ABI version (`Library::hand_written`,
//! `Library::abi12_hand_written`), with its siblings — the base name (suffixes `_ptsz` and `_vN`
//! removed) and its `_v2` / `_v3` versions, each also with `_ptsz` — plus the spec's
//! `adapter_calls`.

use crate::model::library_data::LibraryData;
use crate::model::type_table::{StructDef, TypeTable};
use crate::read::cache::NEWEST;
use std::collections::{BTreeMap, BTreeSet};

/// `name` without a `_ptsz` and then a `_vN` suffix.
fn base_name(name: &str) -> &str {
    let name = name.strip_suffix("_ptsz").unwrap_or(name);
    match name.rsplit_once("_v") {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => name,
    }
}

/// The candidate names (see the module documentation), before filtering per major.
pub fn candidates(data: &LibraryData) -> BTreeSet<String> {
    let hand_written = data
        .library
        .hand_written
        .iter()
        .chain(data.library.abi12_hand_written.unwrap_or_default());
    let mut names = BTreeSet::new();
    for name in hand_written.chain(data.library.adapter_calls) {
        let base = base_name(name);
        for version in ["", "_v2", "_v3"] {
            for stream in ["", "_ptsz"] {
                names.insert(format!("{base}{version}{stream}"));
            }
        }
    }
    names
}

/// The struct and union types (as the prototypes spell them: `cudaGraphEdgeData`, not its
/// `cudaGraphEdgeData_st`) that the prototypes `abi_fns.rs` holds, of any major, take by value or
/// through pointers, with their size as `types.rs` defines them: what the adapters pass to, or
/// convert for, a runtime. `abi_types.rs` checks these sizes.
pub fn prototype_structs(data: &LibraryData) -> BTreeMap<String, u64> {
    let names = candidates(data);
    // Where `types.rs` takes each type from: the newest header, else the newest older one that
    // defines it (`cudaExternalSemaphoreSignalParams_v1`, what 12.x's plain names take).
    let mut views: Vec<_> = data.views.iter().collect();
    views.sort_by_key(|((major, _), _)| std::cmp::Reverse(*major));
    let newest: Vec<&TypeTable> = views.into_iter().map(|(_, view)| &view.types).collect();
    let mut found = BTreeMap::new();
    for symbol in data.symbols.iter().filter(|s| names.contains(&s.name)) {
        for proto in symbol.prototypes.values() {
            for input in &proto.item.sig.inputs {
                let syn::FnArg::Typed(pt) = input else {
                    continue;
                };
                let mut ty = &*pt.ty;
                while let syn::Type::Ptr(p) = ty {
                    ty = &p.elem;
                }
                let syn::Type::Path(path) = ty else {
                    continue;
                };
                let Some(last) = path.path.segments.last() else {
                    continue;
                };
                // A struct or union (directly or through typedefs) with a known size: its
                // first reached struct is itself.
                let sized = newest.iter().find_map(|table| {
                    let reached = table.reached_structs(ty);
                    table.structs.get(reached.first()?)?.size
                });
                if let Some(size) = sized {
                    found.insert(last.ident.to_string(), size);
                }
            }
        }
    }
    found
}

/// The structs the library's adapters translate between layouts (its spec's `adapter_structs`).
pub fn adapted_structs(data: &LibraryData) -> &'static [&'static str] {
    data.library.adapter_structs.unwrap_or_default()
}

/// The structs of the spec's `adapter_structs` whose `major` layout differs from the newest major's:
/// those `abi_types::v{major}` defines (none for the newest major itself).
pub fn differing_structs(data: &LibraryData, major: u32) -> Vec<&'static str> {
    if major == NEWEST {
        return Vec::new();
    }
    let newest = data.types(NEWEST);
    let table = data.types(major);
    adapted_structs(data)
        .iter()
        .copied()
        .filter(
            |name| match (table.structs.get(*name), newest.structs.get(*name)) {
                (Some(def), Some(n)) => !same_layout(newest, n, table, def),
                (Some(_), None) => true,
                _ => false,
            },
        )
        .collect()
}

/// Whether two layouts of a struct (`a` of `a_types`' header, `b` of `b_types`') have the same
/// size and the same fields: names, offsets and ABI keys (a field retyped to a struct of
/// another layout at the same offset is a different layout).
pub fn same_layout(a_types: &TypeTable, a: &StructDef, b_types: &TypeTable, b: &StructDef) -> bool {
    a.size == b.size
        && a.fields.len() == b.fields.len()
        && a.fields.iter().zip(&b.fields).all(|(x, y)| {
            x.name == y.name
                && x.offset == y.offset
                && a_types.abi_key(&x.ty) == b_types.abi_key(&y.ty)
        })
}

#[cfg(test)]
mod tests {
    use super::base_name;

    #[test]
    fn base_names() {
        assert_eq!(
            base_name("cudaStreamGetCaptureInfo_v3_ptsz"),
            "cudaStreamGetCaptureInfo"
        );
        assert_eq!(base_name("cudaMemAdvise_v2"), "cudaMemAdvise");
        assert_eq!(
            base_name("cudaGetDriverEntryPoint_ptsz"),
            "cudaGetDriverEntryPoint"
        );
        assert_eq!(base_name("__cudaLaunchKernel"), "__cudaLaunchKernel");
        assert_eq!(base_name("cudaGraphAddNode_v"), "cudaGraphAddNode_v");
    }
}

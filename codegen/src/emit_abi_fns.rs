//! Writes `src/generated/abi_fns.rs` of each stub crate with adapters (its spec's
//! `adapter_structs`: the runtime's, the driver's): every major's own prototype, as a
//! function-pointer type, of the entry points the hand-written adapters call (`pub mod v11`,
//! `v12`, `v13`), so that an adapter calling an older runtime through `call_raw!` never retypes a
//! prototype.
//!
//! Which names: every hand-written export, of either ABI version (`Library::hand_written`,
//! `Library::abi12_hand_written`), with its siblings — the base name (suffixes `_ptsz` and `_vN`
//! removed) and its `_v2` / `_v3` versions, each also with `_ptsz` — plus
//! [`ALSO_CALLED`]; a name appears in a major's module when that major's library exports it and
//! codegen knows its prototype there (the prototype the stub declarations use: header view in
//! preference order, else codegen's internal table). Struct types whose layout differs in that
//! major are `crate::abi_types::vNN`'s, the rest `crate::types`'; a parameter struct whose ABI
//! differs in that major but that `abi_types` lacks keeps CUDA 13's layout, and the type's
//! documentation says so. The `abi_coverage` test (tests/) checks that every name an adapter
//! looks up has a type here.

use crate::cache::{MAJORS, NEWEST};
use crate::emit_abi_types::differing_structs;
use crate::symbols::{LibraryData, Origin};
use quote::{format_ident, quote};
use std::collections::{BTreeMap, BTreeSet};

/// Entry points the adapters call that are no hand-written export's sibling: 11.4+'s
/// `cudaGraphInstantiateWithFlags` (the 11.x path of `cudaGraphInstantiate`).
const ALSO_CALLED: &[&str] = &["cudaGraphInstantiateWithFlags"];

/// `name` without a `_ptsz` and then a `_vN` suffix.
fn base_name(name: &str) -> &str {
    let name = name.strip_suffix("_ptsz").unwrap_or(name);
    match name.rsplit_once("_v") {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => name,
    }
}

/// The candidate names (see the module documentation), before filtering per major.
fn candidates(data: &LibraryData) -> BTreeSet<String> {
    let hand_written = data
        .library
        .hand_written
        .iter()
        .chain(data.library.abi12_hand_written.unwrap_or_default());
    let mut names = BTreeSet::new();
    for name in hand_written.chain(ALSO_CALLED) {
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
    let newest: Vec<&crate::type_table::TypeTable> =
        views.into_iter().map(|(_, view)| &view.types).collect();
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

/// Structs whose ABI in `major` differs from the newest major's (`TypeTable::abi_key`, so the
/// widenings the manifest accepts count as equal).
fn abi_differs(data: &LibraryData, major: u32) -> BTreeSet<String> {
    let (table, newest) = (data.types(major), data.types(NEWEST));
    table
        .structs
        .keys()
        .filter(|name| newest.structs.contains_key(*name))
        .filter(|name| {
            let ty: syn::Type = syn::parse_str(name).expect("struct names are idents");
            table.abi_key(&ty) != newest.abi_key(&ty)
        })
        .cloned()
        .collect()
}

/// The text of `abi_fns.rs`, or `None` for a library without adapters.
pub fn abi_fns_rs(data: &LibraryData) -> Result<Option<String>, String> {
    if data.library.adapter_structs.is_none() {
        return Ok(None);
    }
    let names = candidates(data);
    let mut modules = Vec::new();
    for major in MAJORS {
        let version = data.layout(major).short_version();
        let module = format_ident!("v{major}");
        let own_layouts = differing_structs(data, major);
        let structs: Vec<_> = own_layouts.iter().map(|s| format_ident!("{s}")).collect();
        let differs = abi_differs(data, major);
        let own = if structs.is_empty() {
            quote! {}
        } else {
            // Explicit imports shadow the glob: this major's layouts win over CUDA 13's.
            quote! {
                #[allow(unused_imports)]
                use crate::abi_types::#module::{#(#structs),*};
            }
        };
        let mut items = Vec::new();
        for symbol in data.symbols.iter().filter(|s| names.contains(&s.name)) {
            let Some(proto) = symbol.prototypes.get(&major) else {
                continue;
            };
            let sig = &proto.item.sig;
            if sig.variadic.is_some() {
                return Err(format!("abi_fns: {} is variadic", symbol.name));
            }
            let params = sig.inputs.iter().map(|input| match input {
                syn::FnArg::Typed(pt) => {
                    let (pat, ty) = (&pt.pat, &pt.ty);
                    quote! { #pat: #ty }
                }
                syn::FnArg::Receiver(_) => unreachable!("a C prototype has no receiver"),
            });
            let output = &sig.output;
            let from = match proto.origin {
                Origin::Header(view) => format!("the CUDA {version} header ({} view)", view.name()),
                Origin::InternalTable => {
                    format!("codegen's internal prototypes (exported by CUDA {version})")
                }
            };
            // A struct this major lays out differently that `abi_types` lacks would silently
            // take CUDA 13's layout here: said in the type's documentation.
            let text = quote!(#(#params),* #output).to_string();
            let params = sig.inputs.iter().map(|input| match input {
                syn::FnArg::Typed(pt) => {
                    let (pat, ty) = (&pt.pat, &pt.ty);
                    quote! { #pat: #ty }
                }
                syn::FnArg::Receiver(_) => unreachable!("a C prototype has no receiver"),
            });
            let foreign: BTreeSet<&str> = text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| differs.contains(*w) && !own_layouts.contains(w))
                .collect();
            let mut docs = vec![format!(" `{}` as {from} declares it.", symbol.name)];
            for name in foreign {
                docs.push(String::new());
                docs.push(format!(
                    " `{name}` is CUDA {NEWEST}'s layout here: CUDA {version}'s differs and is not"
                ));
                docs.push(" in `abi_types`: an adapter passing one checks that this major reads it alike.".to_owned());
            }
            let ident = format_ident!("{}", symbol.name);
            items.push(quote! {
                #(#[doc = #docs])*
                pub type #ident = unsafe extern "C" fn(#(#params),*) #output;
            });
        }
        let doc = format!(
            " CUDA {version}'s prototypes of the entry points the adapters call (see the file header)."
        );
        modules.push(quote! {
            #[doc = #doc]
            pub mod #module {
                #[allow(unused_imports)]
                use crate::types::*;
                #own
                #(#items)*
            }
        });
    }
    let file: syn::File = syn::parse2(quote! { #(#modules)* })
        .map_err(|e| format!("abi_fns.rs did not parse: {e}"))?;
    let note = "//! Per-major function-pointer types of the entry points the hand-written adapters call\n\
                //! (`codegen/src/emit_abi_fns.rs` says which): hand-written export names, their\n\
                //! `_v2`/`_v3`/`_ptsz` siblings, and `cudaGraphInstantiateWithFlags`.\n";
    Ok(Some(
        crate::emit_decls::banner(data) + note + &prettyplease::unparse(&file),
    ))
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

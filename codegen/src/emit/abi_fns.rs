//! Writes `src/generated/abi_fns.rs` of each stub crate with adapters (its spec's
//! `adapter_structs`: the runtime's, the driver's): every major's own prototype, as a
//! function-pointer type, of the entry points the hand-written adapters call (`pub mod v11`,
//! `v12`, `v13`), so that an adapter calling an older runtime through `call_raw!` never retypes a
//! prototype.
//!
//! Which names: [`crate::model::adapter_abi`]'s candidates (every hand-written export, of either
//! ABI version, with its siblings); a name appears in a major's module when that major's library
//! exports it and codegen knows its prototype there (the prototype the stub declarations use: header view in
//! preference order, else codegen's internal table). Struct types whose layout differs in that
//! major are `crate::abi_types::vNN`'s, the rest `crate::types`'; a parameter struct whose ABI
//! differs in that major but that `abi_types` lacks keeps CUDA 13's layout, and the type's
//! documentation says so. The `abi_coverage` test (tests/) checks that every name an adapter
//! looks up has a type here.

use crate::emit::decls::banner;
use crate::model::adapter_abi::{candidates, differing_structs};
use crate::model::library_data::LibraryData;
use crate::model::symbol::Origin;
use crate::read::cache::{MAJORS, NEWEST};
use quote::{format_ident, quote};
use std::collections::BTreeSet;

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
                //! (`codegen/src/model/adapter_abi.rs` says which): hand-written export names, their\n\
                //! `_v2`/`_v3`/`_ptsz` siblings, and `cudaGraphInstantiateWithFlags`.\n";
    Ok(Some(banner(data) + note + &prettyplease::unparse(&file)))
}

//! Writes `src/generated/abi_types.rs` of each stub crate with adapters (its spec's
//! `adapter_structs`: the runtime's, the driver's): the older majors' layouts of the structs the
//! hand-written adapters translate (`pub mod v11`, `pub mod v12`), as bindgen reads them from
//! the 11.8 / 12.9 headers, with compile-time size checks. A struct whose layout equals the
//! newest major's is left out of that major's module (the adapter uses `crate::types`). The
//! newest major's sizes of those structs and of every struct the adapters' prototypes
//! (`abi_fns.rs`, [`prototype_structs`]) name are checked too, so that no adapter repeats a size by hand.

use crate::emit::decls::banner;
use crate::model::adapter_abi::{adapted_structs, prototype_structs, same_layout};
use crate::model::library_data::LibraryData;
use crate::read::cache::NEWEST;
use crate::read::headers::View;
use quote::{ToTokens, format_ident, quote};
use std::collections::BTreeMap;

/// The older majors whose layouts are emitted.
const OLDER: [u32; 2] = [11, 12];

/// Whether `ident` is `name` or one of the anonymous members bindgen names after it
/// (`cudaResourceDesc__bindgen_ty_1`): a struct's nested unions change with it.
fn is_or_nested(ident: &syn::Ident, name: &str) -> bool {
    let ident = ident.to_string();
    ident == name
        || ident
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with("__"))
}

fn defines_or_belongs(item: &syn::Item, name: &str) -> bool {
    match item {
        syn::Item::Struct(s) => is_or_nested(&s.ident, name),
        syn::Item::Union(u) => is_or_nested(&u.ident, name),
        syn::Item::Impl(i) => match &*i.self_ty {
            syn::Type::Path(p) => p.path.get_ident().is_some_and(|id| is_or_nested(id, name)),
            _ => false,
        },
        _ => false,
    }
}

/// The text of `abi_types.rs`, or `None` for a library without adapters.
pub fn abi_types_rs(data: &LibraryData) -> Result<Option<String>, String> {
    if data.library.adapter_structs.is_none() {
        return Ok(None);
    }
    let newest = data.types(NEWEST);
    let mut modules = Vec::new();
    let mut asserts = Vec::new();
    for major in OLDER {
        let table = data.types(major);
        let items = &data.views[&(major, View::Default)].type_items;
        let module = format_ident!("v{major}");
        let version = data.layout(major).short_version();
        let mut body = Vec::new();
        for name in adapted_structs(data) {
            let def = table
                .structs
                .get(*name)
                .ok_or_else(|| format!("abi_types: {name} missing from the CUDA {major} header"))?;
            if newest
                .structs
                .get(*name)
                .is_some_and(|n| same_layout(newest, n, table, def))
            {
                continue;
            }
            let size = def
                .size
                .ok_or_else(|| format!("abi_types: {name} has no size in CUDA {major}"))?;
            let ident = format_ident!("{name}");
            let found: Vec<&syn::Item> = items
                .iter()
                .filter(|i| defines_or_belongs(i, name))
                .collect();
            body.extend(found.into_iter().cloned().map(|i| i.into_token_stream()));
            let ty = quote!(#module::#ident);
            asserts.extend(size_asserts(data, major, name, &ty, size)?);
        }
        let doc =
            format!(" Layouts of the CUDA {version} headers that differ from CUDA {NEWEST}'s.");
        modules.push(quote! {
            #[doc = #doc]
            pub mod #module {
                #[allow(unused_imports)]
                use crate::types::*;
                #(#body)*
            }
        });
    }
    // The newest layouts the adapters convert or pass: their sizes, checked once here.
    let mut newest_sizes: BTreeMap<String, u64> = prototype_structs(data);
    for name in adapted_structs(data) {
        if let Some(size) = newest.structs.get(*name).and_then(|def| def.size) {
            newest_sizes.insert((*name).to_owned(), size);
        }
    }
    for (name, size) in &newest_sizes {
        let ident = format_ident!("{name}");
        let ty = quote!(crate::types::#ident);
        asserts.extend(size_asserts(data, NEWEST, name, &ty, *size)?);
    }
    let file: syn::File = syn::parse2(quote! {
        #(#modules)*
        #(#asserts)*
    })
    .map_err(|e| format!("abi_types.rs did not parse: {e}"))?;
    Ok(Some(banner(data) + &prettyplease::unparse(&file)))
}

/// The size check of struct `name` (Rust type `ty`) of CUDA `major`: `size` as the headers lay
/// it out on Linux; for a library with a Windows stub, the Windows x64 size too, under
/// `cfg(windows)` when it differs (LLP64: `cudaPointerAttributes` holds `long reserved[8]`,
/// 88 bytes on Linux, 56 on Windows). The Rust declarations use `c_long`, so they take the
/// target's layout; the check proves it is the one clang computes for that target.
fn size_asserts(
    data: &LibraryData,
    major: u32,
    name: &str,
    ty: &proc_macro2::TokenStream,
    size: u64,
) -> Result<Vec<proc_macro2::TokenStream>, String> {
    let linux = proc_macro2::Literal::u64_unsuffixed(size);
    let windows = if data.windows_types.is_empty() {
        None
    } else {
        // `major`'s header, else the newest that defines it, as `types.rs` takes its
        // declaration (`cudaExternalSemaphoreSignalParams_v1` only in 12.x's).
        let newest_first = std::iter::once(major).chain(data.windows_types.keys().rev().copied());
        let named: syn::Type = syn::parse_str(name).map_err(|e| format!("{name}: {e}"))?;
        let found = newest_first
            .filter_map(|m| {
                // Through typedefs, as the Linux sizes were found (`cudaGraphEdgeData` is
                // `struct cudaGraphEdgeData_st`).
                let table = data.windows_types.get(&m)?;
                let reached = table.reached_structs(&named);
                table.structs.get(reached.first()?)?.size
            })
            .next()
            .ok_or_else(|| format!("abi_types: {name} has no Windows size in CUDA {major}"))?;
        Some(found)
    };
    let Some(windows) = windows.filter(|w| *w != size) else {
        return Ok(vec![quote! {
            const _: () = assert!(::core::mem::size_of::<#ty>() == #linux);
        }]);
    };
    let windows = proc_macro2::Literal::u64_unsuffixed(windows);
    Ok(vec![
        quote! {
            #[cfg(not(windows))]
            const _: () = assert!(::core::mem::size_of::<#ty>() == #linux);
        },
        quote! {
            #[cfg(windows)]
            const _: () = assert!(::core::mem::size_of::<#ty>() == #windows);
        },
    ])
}

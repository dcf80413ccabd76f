//! Writes `<stub crate>/src/generated/types.rs`: bindgen's types of the newest header, plus the types that
//! only older headers define and the declarations still use.

use crate::model::library_data::LibraryData;
use crate::read::cache::NEWEST;
use crate::read::headers::View;
use quote::ToTokens;
use std::collections::BTreeSet;

/// The name an item defines, and whether it is a constant (an enum value).
fn defines(item: &syn::Item) -> Option<String> {
    match item {
        syn::Item::Struct(s) => Some(s.ident.to_string()),
        syn::Item::Union(u) => Some(u.ident.to_string()),
        syn::Item::Enum(e) => Some(e.ident.to_string()),
        syn::Item::Type(t) => Some(t.ident.to_string()),
        syn::Item::Const(c) => Some(c.ident.to_string()),
        syn::Item::Use(u) => match &u.tree {
            syn::UseTree::Path(p) => match &*p.tree {
                syn::UseTree::Rename(r) => Some(r.rename.to_string()),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// The type an item belongs to: an `impl`'s self type, an enum constant's type.
fn belongs_to(item: &syn::Item) -> Option<String> {
    let ty = match item {
        syn::Item::Impl(i) => &*i.self_ty,
        syn::Item::Const(c) => &*c.ty,
        _ => return None,
    };
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

fn idents(tokens: proc_macro2::TokenStream, out: &mut BTreeSet<String>) {
    for tt in tokens {
        match tt {
            proc_macro2::TokenTree::Ident(i) => {
                out.insert(i.to_string());
            }
            proc_macro2::TokenTree::Group(g) => idents(g.stream(), out),
            _ => {}
        }
    }
}

/// The text of `types.rs`; `api` is the generated declarations, whose types it must define.
pub fn types_rs(data: &LibraryData, api: &syn::File) -> String {
    // The newest major that has the library: NEWEST, or an older one for a library that
    // ended before it (NVTX 2's libnvToolsExt, last in 12.8).
    let newest = data.majors().last().copied().unwrap_or(NEWEST);
    let mut items: Vec<syn::Item> = data.views[&(newest, View::Default)].type_items.clone();
    let mut have: BTreeSet<String> = items.iter().filter_map(defines).collect();
    let mut wanted = BTreeSet::new();
    idents(api.to_token_stream(), &mut wanted);
    let mut sources = Vec::new();
    for major in data.majors().iter().rev() {
        for view in View::ALL {
            // A view the library's headers do not key on was not read (`View::applies`).
            match data.views.get(&(*major, view)) {
                Some(hv) if (*major, view) != (newest, View::Default) => {
                    sources.push(&hv.type_items)
                }
                _ => {}
            }
        }
    }
    let mut todo: Vec<String> = wanted.into_iter().filter(|n| !have.contains(n)).collect();
    while let Some(name) = todo.pop() {
        if have.contains(&name) {
            continue;
        }
        for source in &sources {
            let found: Vec<&syn::Item> = source
                .iter()
                .filter(|i| {
                    defines(i).as_deref() == Some(name.as_str())
                        || belongs_to(i).as_deref() == Some(name.as_str())
                })
                .filter(|i| defines(i).is_none_or(|d| d == name || !have.contains(&d)))
                .collect();
            if found
                .iter()
                .any(|i| defines(i).as_deref() == Some(name.as_str()))
            {
                have.insert(name.clone());
                for item in found {
                    if let Some(d) = defines(item) {
                        have.insert(d);
                    }
                    let mut refs = BTreeSet::new();
                    idents(item.to_token_stream(), &mut refs);
                    todo.extend(refs.into_iter().filter(|r| !have.contains(r)));
                    items.push(item.clone());
                }
                break;
            }
        }
    }
    let file = syn::File {
        shebang: None,
        attrs: Vec::new(),
        items,
    };
    crate::emit::decls::banner(data) + &prettyplease::unparse(&file)
}

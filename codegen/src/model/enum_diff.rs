//! Enumerators whose value differs between majors: a caller built against one major's header
//! passes the number, and a library of another major reads it as its own (ABI-REPORT.md's
//! "Enumerators with another value" section; a renumbered one needs an adapter).

use crate::model::library_data::LibraryData;
use crate::read::headers::View;
use quote::ToTokens;
use std::collections::BTreeMap;

/// Every enumerator (a constant whose type is not a primitive: bindgen's `Consts` enum style
/// types them with their enum, `#define`s with an integer) that two majors' default views define
/// with different values: its name and each major's value, oldest first.
pub fn renumbered(data: &LibraryData) -> Vec<(String, Vec<(u32, String)>)> {
    let mut values: BTreeMap<String, Vec<(u32, String)>> = BTreeMap::new();
    for major in data.majors() {
        let Some(view) = data.views.get(&(major, View::Default)) else {
            continue;
        };
        for item in &view.type_items {
            let syn::Item::Const(c) = item else { continue };
            if !is_enum_type(&c.ty) {
                continue;
            }
            let value = c.expr.to_token_stream().to_string();
            values
                .entry(c.ident.to_string())
                .or_default()
                .push((major, value));
        }
    }
    values
        .into_iter()
        .filter(|(_, v)| v.windows(2).any(|w| w[0].1 != w[1].1))
        .collect()
}

/// Whether a constant's type names an enum: a path that is no primitive (codegen's table of
/// them, [`crate::model::type_table::primitive`]); string `#define`s are references.
fn is_enum_type(ty: &syn::Type) -> bool {
    let syn::Type::Path(p) = ty else { return false };
    p.path
        .segments
        .last()
        .is_some_and(|last| crate::model::type_table::primitive(&last.ident.to_string()).is_none())
}

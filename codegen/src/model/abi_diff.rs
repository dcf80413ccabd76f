//! Cross-major differences: functions whose ABI changed, and why; structs whose layout changed.

use crate::model::library_data::LibraryData;
use crate::model::spelling;
use crate::model::symbol::{Origin, Prototype, Symbol};
use crate::model::type_table::TypeTable;
use crate::read::headers::View;
use quote::ToTokens;
use serde::Serialize;
use std::collections::BTreeMap;

/// A struct's own layout in one major: size and field offsets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// `sizeof`.
    pub size: u64,
    /// `alignof`.
    pub align: u64,
    /// Fields in order.
    pub fields: Vec<FieldOffset>,
}

/// One field of a [`Layout`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldOffset {
    /// The field name.
    pub name: String,
    /// Its type, as bindgen spells it.
    #[serde(rename = "type")]
    pub ty: String,
    /// Byte offset; absent for bitfield storage.
    pub offset: Option<u64>,
}

/// A struct whose layout is not the same in every major that defines it.
#[derive(Debug, Clone, Serialize)]
pub struct StructDiff {
    /// The bindgen name.
    pub name: String,
    /// Its layout per major (majors that do not define it are absent).
    pub layouts: BTreeMap<u32, Layout>,
}

fn layout_of(types: &TypeTable, name: &str) -> Option<Layout> {
    let def = types.structs.get(name)?;
    Some(Layout {
        size: def.size?,
        align: def.align.unwrap_or(0),
        fields: def
            .fields
            .iter()
            .map(|f| FieldOffset {
                name: f.name.clone(),
                ty: spelling::rust(&f.ty),
                offset: f.offset,
            })
            .collect(),
    })
}

/// Structs (default views) whose size, field offsets or field types differ between majors.
pub fn struct_diffs(data: &LibraryData) -> Vec<StructDiff> {
    let majors = data.majors();
    let mut names: Vec<&String> = majors
        .iter()
        .flat_map(|m| data.types(*m).structs.keys())
        .collect();
    names.sort();
    names.dedup();
    let mut out = Vec::new();
    for name in names {
        let layouts: BTreeMap<u32, Layout> = majors
            .iter()
            .filter_map(|m| Some((*m, layout_of(data.types(*m), name)?)))
            .collect();
        let mut keys = majors.iter().filter(|m| layouts.contains_key(m)).map(|m| {
            let ty: syn::Type = syn::parse_str(name).expect("struct names are idents");
            data.types(*m).abi_key(&ty)
        });
        let first = keys.next();
        if keys.any(|k| Some(k) != first) {
            out.push(StructDiff {
                name: name.clone(),
                layouts,
            });
        }
    }
    out
}

/// The type table a prototype's key was computed with.
pub fn table_of<'a>(data: &'a LibraryData, major: u32, p: &Prototype) -> &'a TypeTable {
    let view = match p.origin {
        Origin::Header(v) => v,
        Origin::InternalTable => View::Default,
    };
    &data.views[&(major, view)].types
}

/// Why one major's ABI of a function differs from the declared one.
#[derive(Debug, Clone)]
pub enum Change {
    /// The major has the symbol but no known prototype for it.
    Unknown,
    /// Parameter count or spelled types differ.
    Prototype {
        /// The major's prototype, C-like.
        old: String,
    },
    /// Same spelling, but these reachable structs are laid out differently.
    Layout {
        /// Struct names with their size in that major and in the reference.
        structs: Vec<(String, Option<u64>, Option<u64>)>,
    },
}

/// A C-like one-line prototype.
pub fn c_prototype(name: &str, item: &syn::ForeignItemFn) -> String {
    let ret = match &item.sig.output {
        syn::ReturnType::Default => "void".to_owned(),
        syn::ReturnType::Type(_, t) => spelling::c(t),
    };
    let params: Vec<String> = item
        .sig
        .inputs
        .iter()
        .filter_map(|i| match i {
            syn::FnArg::Typed(pt) => {
                let ty = spelling::c(&pt.ty);
                let sep = if ty.ends_with('*') { "" } else { " " };
                Some(format!("{ty}{sep}{}", pt.pat.to_token_stream()))
            }
            _ => None,
        })
        .collect();
    format!("{ret} {name}({})", params.join(", "))
}

fn spelled(item: &syn::ForeignItemFn) -> Vec<String> {
    let mut out: Vec<String> = item
        .sig
        .inputs
        .iter()
        .filter_map(|i| match i {
            syn::FnArg::Typed(pt) => Some(spelling::rust(&pt.ty)),
            _ => None,
        })
        .collect();
    if let syn::ReturnType::Type(_, t) = &item.sig.output {
        out.push(spelling::rust(t));
    }
    out
}

/// The majors of `s` outside its `abi` list, each with what changed.
pub fn function_changes(data: &LibraryData, s: &Symbol) -> Vec<(u32, Change)> {
    let Some(reference) = s.reference else {
        return Vec::new();
    };
    let refp = &s.prototypes[&reference];
    let ref_types = table_of(data, reference, refp);
    let mut out = Vec::new();
    for &m in s.majors.iter().filter(|m| !s.abi.contains(m)) {
        let Some(p) = s.prototypes.get(&m) else {
            out.push((m, Change::Unknown));
            continue;
        };
        if spelled(&p.item) != spelled(&refp.item) {
            out.push((
                m,
                Change::Prototype {
                    old: c_prototype(&s.name, &p.item),
                },
            ));
            continue;
        }
        let types = table_of(data, m, p);
        let mut reached = Vec::new();
        for input in &refp.item.sig.inputs {
            if let syn::FnArg::Typed(pt) = input {
                reached.extend(ref_types.reached_structs(&pt.ty));
            }
        }
        reached.sort();
        reached.dedup();
        let structs = reached
            .into_iter()
            .filter_map(|name| {
                let ty: syn::Type = syn::parse_str(&name).ok()?;
                if types.abi_key(&ty) == ref_types.abi_key(&ty) {
                    return None;
                }
                let size_m = types.structs.get(&name).and_then(|d| d.size);
                let size_r = ref_types.structs.get(&name).and_then(|d| d.size);
                Some((name, size_m, size_r))
            })
            .collect();
        out.push((m, Change::Layout { structs }));
    }
    out
}

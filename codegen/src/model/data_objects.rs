//! The data objects a library exports besides its functions (cuTENSOR's
//! `CUTENSOR_COMPUTE_DESC_32F` …: `extern const cutensorComputeDescriptor_t`, pointers into the
//! library), which the stub exports as stand-ins (`stub_loader::StandIns`): each must be
//! declared by a header with a pointer type (a stand-in is an address the stub owns), and every
//! function whose prototype names that type must be hand-written, so that a stand-in is
//! translated to the real library's value before the call, never passed on as it is.

use crate::model::library_data::HeaderView;
use crate::model::symbol::Symbol;
use crate::read::headers::View;
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};

/// One exported data object.
#[derive(Debug, Clone)]
pub struct DataObject {
    /// The C name.
    pub name: String,
    /// Majors whose real library exports it.
    pub exported_by: Vec<u32>,
    /// The newest major whose header declares it.
    pub declared_major: u32,
    /// Its type in that header, as bindgen spells it (`cutensorComputeDescriptor_t`).
    pub ty: syn::Type,
}

impl DataObject {
    /// The type as written in Rust (`cutensorComputeDescriptor_t`).
    pub fn type_name(&self) -> String {
        self.ty.to_token_stream().to_string()
    }
}

/// The data objects of `exports` (each major's), with their declarations from `views`; checks
/// the rules of the module documentation against `symbols`.
pub fn collect(
    exports: &BTreeMap<u32, BTreeSet<String>>,
    views: &BTreeMap<(u32, View), HeaderView>,
    symbols: &[Symbol],
) -> Result<Vec<DataObject>, String> {
    let names: BTreeSet<&String> = exports.values().flatten().collect();
    let mut objects = Vec::new();
    for name in names {
        let exported_by: Vec<u32> = exports
            .iter()
            .filter(|(_, e)| e.contains(name))
            .map(|(m, _)| *m)
            .collect();
        let declared: Vec<(u32, &syn::ForeignItemStatic, &HeaderView)> = views
            .iter()
            .filter(|((_, view), _)| *view == View::Default)
            .filter_map(|((m, _), hv)| hv.statics.get(name).map(|s| (*m, s, hv)))
            .collect();
        let Some(&(declared_major, item, _)) = declared.last() else {
            return Err(format!(
                "{name}: an exported data object no header declares: its type is unknown, so \
                 the stub cannot stand in for it"
            ));
        };
        for (m, s, hv) in &declared {
            if !hv.types.abi_key(&s.ty).starts_with('*') {
                return Err(format!(
                    "{name}: declared as {} in CUDA {m}, not a pointer: the stub's stand-ins \
                     are addresses (stub_loader::StandIns)",
                    s.ty.to_token_stream()
                ));
            }
        }
        objects.push(DataObject {
            name: name.clone(),
            exported_by,
            declared_major,
            ty: (*item.ty).clone(),
        });
    }
    let types: BTreeSet<String> = objects.iter().map(DataObject::type_name).collect();
    let unguarded: Vec<String> = symbols
        .iter()
        .filter(|s| !s.hand_written)
        .filter_map(|s| {
            let ty = s
                .prototypes
                .values()
                .find_map(|p| names_type(&p.item, &types))?;
            Some(format!("{} ({ty})", s.name))
        })
        .collect();
    if !unguarded.is_empty() {
        return Err(format!(
            "these functions take or return a type the stub exports stand-ins of, yet are not \
             hand-written (the spec's `hand_written`), so a stand-in would reach the real \
             library untranslated: {}",
            unguarded.join(", ")
        ));
    }
    Ok(objects)
}

/// The first of `types` that `item`'s return or parameter types name (also behind a pointer).
fn names_type<'a>(item: &syn::ForeignItemFn, types: &'a BTreeSet<String>) -> Option<&'a String> {
    let mut words = BTreeSet::new();
    let mut add = |ty: &syn::Type| {
        let text = ty.to_token_stream().to_string();
        words.extend(
            text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .map(str::to_owned),
        );
    };
    if let syn::ReturnType::Type(_, t) = &item.sig.output {
        add(t);
    }
    for input in &item.sig.inputs {
        if let syn::FnArg::Typed(pt) = input {
            add(&pt.ty);
        }
    }
    types.iter().find(|t| words.contains(*t))
}

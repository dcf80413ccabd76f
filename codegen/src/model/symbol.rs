//! One exported symbol as the stubs see it: each major's prototype, where it came from, and its
//! ABI key ([`prototype_key`]), compared to the declared one.

use crate::model::type_table::TypeTable;
use crate::read::headers::View;
use std::collections::BTreeMap;

/// Where a major's prototype of a symbol came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The library's header in this view.
    Header(View),
    /// codegen's table of prototypes declared outside the header (crt/host_runtime.h, ...).
    InternalTable,
}

/// One major's prototype of a symbol.
#[derive(Debug, Clone)]
pub struct Prototype {
    /// Where it was found.
    pub origin: Origin,
    /// The declaration as bindgen spells it.
    pub item: syn::ForeignItemFn,
    /// The ABI key of return and parameter types (see [`TypeTable::abi_key`]).
    pub key: String,
}

/// One exported (or, for the driver, declared) symbol.
#[derive(Debug, Clone)]
pub struct Symbol {
    /// The C symbol name.
    pub name: String,
    /// The majors the stub forwards to (the macro's `majors`).
    pub majors: Vec<u32>,
    /// Majors whose real library exports it (driver: empty, one export list covers all).
    pub exported_by: Vec<u32>,
    /// Majors whose header declares it, in any view.
    pub declared_by: Vec<u32>,
    /// Each major's prototype, where known.
    pub prototypes: BTreeMap<u32, Prototype>,
    /// The major whose prototype is declared: the newest one with a prototype.
    pub reference: Option<u32>,
    /// Majors of `majors` whose ABI equals the reference's.
    pub abi: Vec<u32>,
    /// The stub crate implements it by hand.
    pub hand_written: bool,
}

impl Symbol {
    /// No prototype is known in any major: the stub only tail-jumps.
    pub fn opaque(&self) -> bool {
        self.reference.is_none()
    }

    /// The declared prototype.
    pub fn declared(&self) -> Option<&Prototype> {
        self.prototypes.get(&self.reference?)
    }
}

/// The ABI key of a whole prototype under `types`.
pub fn prototype_key(item: &syn::ForeignItemFn, types: &TypeTable) -> String {
    let mut key = match &item.sig.output {
        syn::ReturnType::Default => "void".to_owned(),
        syn::ReturnType::Type(_, t) => types.abi_key(t),
    };
    key.push('(');
    for input in &item.sig.inputs {
        if let syn::FnArg::Typed(pt) = input {
            key.push_str(&types.abi_key(&pt.ty));
            key.push(',');
        }
    }
    key.push(')');
    key
}

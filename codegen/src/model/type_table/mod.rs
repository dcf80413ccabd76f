//! Typedefs and struct layouts from bindgen's output, reduced to ABI keys: two types have the
//! same key when they are passed the same way and every struct they reach has the same size and
//! field offsets, whatever their names.
//!
//! One file per part: [`from_bindgen`] reads bindgen's output into the table, [`layout`] measures
//! types, [`abi_key`] writes the key; each rule that lets a key ignore a difference NVIDIA made
//! without changing the ABI is its own file, computed over every major's tables and installed
//! (`set_*`) before any key is taken: [`reserved_tails`], [`union_members`], [`widened_fields`],
//! [`opaque_storage`], [`self_sized`].

mod abi_key;
mod from_bindgen;
mod layout;
mod opaque_storage;
mod reserved_tails;
mod self_sized;
mod union_members;
mod widened_fields;

pub use layout::ByValue;
pub(crate) use layout::primitive;
use std::collections::{BTreeMap, BTreeSet};
pub use widened_fields::Widening;

/// A struct or union as clang laid it out.
#[derive(Debug, Clone, Default)]
pub struct StructDef {
    /// `sizeof`, absent for opaque (declared, never defined) structs.
    pub size: Option<u64>,
    /// `alignof`.
    pub align: Option<u64>,
    /// Fields in declaration order.
    pub fields: Vec<Field>,
    /// A C union.
    pub is_union: bool,
}

/// One field of a [`StructDef`].
#[derive(Debug, Clone)]
pub struct Field {
    /// The field name as bindgen spells it.
    pub name: String,
    /// Its type as bindgen spells it.
    pub ty: syn::Type,
    /// Its byte offset (bitfield units have none from clang's checks; derived from order).
    pub offset: Option<u64>,
}

/// All typedefs and structs of one header view.
#[derive(Debug, Default)]
pub struct TypeTable {
    aliases: BTreeMap<String, syn::Type>,
    /// Structs and unions by bindgen name.
    pub structs: BTreeMap<String, StructDef>,
    /// Per struct, the offset from which every known major has only `reserved*` fields (see
    /// [`TypeTable::reserved_tails`]); fields there are left out of ABI keys.
    reserved_from: BTreeMap<String, u64>,
    /// Per union, the members every known major has (see [`TypeTable::common_union_members`]);
    /// the others are left out of ABI keys.
    union_common: BTreeMap<String, BTreeSet<String>>,
    /// Per (struct, field offset), the member of a widened field whose key stands for the whole
    /// field (see [`TypeTable::widened_fields`]).
    widened: BTreeMap<(String, u64), String>,
    /// Structs that begin like self-sized ones but whose majors differ before the end of the
    /// shorter layout (see [`TypeTable::not_only_grown`]): keyed whole.
    not_self_sized: BTreeSet<String>,
}

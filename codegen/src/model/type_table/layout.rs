//! Sizes and alignments of by-value types (LP64, as clang laid the structs out), the aggregate a
//! type names through typedefs, and the structs a type reaches: what every ABI rule measures with.

use super::{StructDef, TypeTable};
use quote::ToTokens;

impl TypeTable {
    /// The alignment of a by-value `ty`, where known.
    pub(super) fn align_of(&self, ty: &syn::Type) -> Option<u64> {
        match ty {
            syn::Type::Ptr(_) | syn::Type::BareFn(_) => Some(8),
            syn::Type::Array(a) => self.align_of(&a.elem),
            syn::Type::Path(p) => {
                let last = p.path.segments.last()?;
                if !matches!(last.arguments, syn::PathArguments::None) {
                    return None;
                }
                let name = last.ident.to_string();
                if let Some((_, size)) = primitive(&name) {
                    return Some(size.max(1));
                }
                if let Some(target) = self.aliases.get(&name) {
                    return self.align_of(target);
                }
                self.structs.get(&name)?.align
            }
            _ => None,
        }
    }

    /// The struct or union `ty` names (through typedefs), with its definition.
    pub(super) fn aggregate_of(&self, ty: &syn::Type) -> Option<(&str, &StructDef)> {
        let syn::Type::Path(p) = ty else { return None };
        let last = p.path.segments.last()?;
        if !matches!(last.arguments, syn::PathArguments::None) {
            return None;
        }
        let name = last.ident.to_string();
        if let Some(target) = self.aliases.get(&name) {
            return self.aggregate_of(target);
        }
        let (name, def) = self.structs.get_key_value(&name)?;
        Some((name.as_str(), def))
    }

    /// The names of the structs `ty` reaches, through pointers, arrays and fields.
    pub fn reached_structs(&self, ty: &syn::Type) -> Vec<String> {
        let mut seen = Vec::new();
        self.reach(ty, &mut seen);
        seen
    }

    fn reach(&self, ty: &syn::Type, seen: &mut Vec<String>) {
        match ty {
            syn::Type::Ptr(p) => self.reach(&p.elem, seen),
            syn::Type::Array(a) => self.reach(&a.elem, seen),
            syn::Type::Paren(p) => self.reach(&p.elem, seen),
            syn::Type::Path(p) => {
                let Some(last) = p.path.segments.last() else {
                    return;
                };
                if let syn::PathArguments::AngleBracketed(args) = &last.arguments {
                    for arg in &args.args {
                        if let syn::GenericArgument::Type(t) = arg {
                            self.reach(t, seen);
                        }
                    }
                }
                let name = last.ident.to_string();
                if let Some(target) = self.aliases.get(&name) {
                    self.reach(target, seen);
                } else if let Some(def) = self.structs.get(&name) {
                    if seen.contains(&name) {
                        return;
                    }
                    seen.push(name);
                    for f in &def.fields {
                        self.reach(&f.ty, seen);
                    }
                }
            }
            syn::Type::BareFn(f) => {
                for input in &f.inputs {
                    self.reach(&input.ty, seen);
                }
                if let syn::ReturnType::Type(_, t) = &f.output {
                    self.reach(t, seen);
                }
            }
            _ => {}
        }
    }

    /// The size of a by-value `ty`, where known.
    pub fn size_of(&self, ty: &syn::Type) -> Option<u64> {
        match ty {
            syn::Type::Ptr(_) | syn::Type::BareFn(_) => Some(8),
            syn::Type::Array(a) => {
                let n: u64 = a
                    .len
                    .to_token_stream()
                    .to_string()
                    .trim_end_matches("usize")
                    .trim()
                    .parse()
                    .ok()?;
                Some(n * self.size_of(&a.elem)?)
            }
            syn::Type::Path(p) => {
                let last = p.path.segments.last()?;
                let name = last.ident.to_string();
                if name == "Option" {
                    return Some(8);
                }
                if let Some(size) = primitive(&name).map(|(_, s)| s) {
                    return Some(size);
                }
                if let Some(target) = self.aliases.get(&name) {
                    return self.size_of(target);
                }
                self.structs.get(&name)?.size
            }
            _ => None,
        }
    }
}

/// How a function returns a by-value type, where x86-64 (System V) and aarch64 (AAPCS64) agree
/// in a way a refusal of unknown type can answer ([`TypeTable::returned_by_value`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByValue {
    /// An integer of at most 8 bytes: in the first integer register (`rax`, `x0`).
    Integer,
    /// A struct of this many bytes (more than 16, no floating-point member): in memory, at an
    /// address the caller passes (`rdi`, `x8`).
    Memory(u64),
}

impl TypeTable {
    /// How a function returning `ty` by value returns it ([`ByValue`]); `None` for the types
    /// the two conventions return in other ways (floating point, small structs in registers,
    /// aarch64's floating-point aggregates up to 32 bytes), or of unknown layout.
    pub fn returned_by_value(&self, ty: &syn::Type) -> Option<ByValue> {
        if let syn::Type::Path(p) = ty {
            let last = p.path.segments.last()?;
            let name = last.ident.to_string();
            if let Some(target) = self.aliases.get(&name) {
                return self.returned_by_value(target);
            }
            if let Some((key, size)) = primitive(&name) {
                let integer = key.starts_with('i') || key.starts_with('u');
                return (integer && (1..=8).contains(&size)).then_some(ByValue::Integer);
            }
        }
        let (_, def) = self.aggregate_of(ty)?;
        let size = def.size?;
        (size > 16 && !def.fields.iter().any(|f| self.has_float(&f.ty)))
            .then_some(ByValue::Memory(size))
    }

    /// Whether a by-value `ty` holds a floating-point scalar anywhere (through arrays and
    /// member structs), or is of unknown layout.
    fn has_float(&self, ty: &syn::Type) -> bool {
        match ty {
            syn::Type::Ptr(_) | syn::Type::BareFn(_) => false,
            syn::Type::Array(a) => self.has_float(&a.elem),
            syn::Type::Path(p) => {
                let Some(last) = p.path.segments.last() else {
                    return true;
                };
                let name = last.ident.to_string();
                if name == "Option" {
                    return false; // a nullable function pointer
                }
                if let Some((key, _)) = primitive(&name) {
                    return key.starts_with('f');
                }
                if let Some(target) = self.aliases.get(&name) {
                    return self.has_float(target);
                }
                match self.structs.get(&name) {
                    Some(def) => def.fields.iter().any(|f| self.has_float(&f.ty)),
                    None => true,
                }
            }
            _ => true,
        }
    }
}

/// ABI key and size of C scalar types as bindgen spells them (LP64).
pub(crate) fn primitive(name: &str) -> Option<(&'static str, u64)> {
    Some(match name {
        "c_char" | "c_schar" | "i8" => ("i8", 1),
        "c_uchar" | "u8" | "bool" => ("u8", 1),
        "c_short" | "i16" => ("i16", 2),
        "c_ushort" | "u16" => ("u16", 2),
        "c_int" | "i32" => ("i32", 4),
        "c_uint" | "u32" => ("u32", 4),
        "c_long" | "c_longlong" | "i64" | "isize" => ("i64", 8),
        "c_ulong" | "c_ulonglong" | "u64" | "usize" => ("u64", 8),
        "i128" => ("i128", 16),
        "u128" => ("u128", 16),
        "c_float" | "f32" => ("f32", 4),
        "c_double" | "f64" => ("f64", 8),
        "c_void" => ("void", 0),
        _ => return None,
    })
}

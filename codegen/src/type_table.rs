//! Typedefs and struct layouts from bindgen's output, reduced to ABI keys: two types have the
//! same key when they are passed the same way and every struct they reach has the same size and
//! field offsets, whatever their names.

use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};

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
}

impl TypeTable {
    /// Collects aliases, structs and the layout checks bindgen emitted for them.
    pub fn from_items(items: &[syn::Item]) -> Self {
        let mut table = TypeTable::default();
        for item in items {
            match item {
                syn::Item::Type(t) => {
                    table.aliases.insert(t.ident.to_string(), (*t.ty).clone());
                }
                syn::Item::Use(u) => table.add_use_alias(&u.tree),
                syn::Item::Struct(s) => {
                    let fields = s
                        .fields
                        .iter()
                        .filter_map(|f| {
                            Some(Field {
                                name: f.ident.as_ref()?.to_string(),
                                ty: f.ty.clone(),
                                offset: None,
                            })
                        })
                        .collect();
                    let def = table.structs.entry(s.ident.to_string()).or_default();
                    def.fields = fields;
                }
                syn::Item::Union(u) => {
                    let fields = u
                        .fields
                        .named
                        .iter()
                        .filter_map(|f| {
                            Some(Field {
                                name: f.ident.as_ref()?.to_string(),
                                ty: f.ty.clone(),
                                offset: Some(0),
                            })
                        })
                        .collect();
                    let def = table.structs.entry(u.ident.to_string()).or_default();
                    def.fields = fields;
                    def.is_union = true;
                }
                _ => {}
            }
        }
        for item in items {
            if let syn::Item::Const(c) = item {
                if c.ident == "_" {
                    table.read_layout_checks(&c.expr);
                }
            }
        }
        table
    }

    fn add_use_alias(&mut self, tree: &syn::UseTree) {
        // bindgen spells `typedef enum X Y;` as `pub use self::X as Y;`.
        match tree {
            syn::UseTree::Path(p) => self.add_use_alias(&p.tree),
            syn::UseTree::Rename(r) => {
                let target: syn::Type = syn::parse_str(&r.ident.to_string()).expect("ident");
                self.aliases.insert(r.rename.to_string(), target);
            }
            _ => {}
        }
    }

    /// Reads `["Size of X"][size_of::<X>() - 8usize];`-style checks.
    fn read_layout_checks(&mut self, expr: &syn::Expr) {
        let syn::Expr::Block(block) = expr else {
            return;
        };
        for stmt in &block.block.stmts {
            let syn::Stmt::Expr(syn::Expr::Index(index), _) = stmt else {
                continue;
            };
            let syn::Expr::Array(label) = &*index.expr else {
                continue;
            };
            let Some(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(label),
                ..
            })) = label.elems.first()
            else {
                continue;
            };
            let syn::Expr::Binary(bin) = &*index.index else {
                continue;
            };
            let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(value),
                ..
            }) = &*bin.right
            else {
                continue;
            };
            let Ok(value) = value.base10_parse::<u64>() else {
                continue;
            };
            let label = label.value();
            if let Some(name) = label.strip_prefix("Size of ") {
                self.structs.entry(name.to_owned()).or_default().size = Some(value);
            } else if let Some(name) = label.strip_prefix("Alignment of ") {
                self.structs.entry(name.to_owned()).or_default().align = Some(value);
            } else if let Some(rest) = label.strip_prefix("Offset of field: ") {
                if let Some((name, field)) = rest.split_once("::") {
                    if let Some(def) = self.structs.get_mut(name) {
                        if let Some(f) = def.fields.iter_mut().find(|f| f.name == field) {
                            f.offset = Some(value);
                        }
                    }
                }
            }
        }
    }

    /// For each struct, the smallest offset, over all `tables` (one per major and view), at which
    /// a trailing run of fields named `reserved*` begins. NVIDIA grows structs by carving new
    /// fields out of that run (13.5's `cudaFuncAttributes.sharedMemoryMode` from 12.9's
    /// `reserved[16]`); an older runtime leaves those bytes zero, which the headers define as
    /// the default, so such a change keeps the ABI. Sizes and every field before the run are
    /// still compared.
    pub fn reserved_tails<'a>(
        tables: impl Iterator<Item = &'a TypeTable>,
    ) -> BTreeMap<String, u64> {
        let mut out: BTreeMap<String, u64> = BTreeMap::new();
        for table in tables {
            for (name, def) in &table.structs {
                let mut start = None;
                for f in def.fields.iter().rev() {
                    match (f.name.starts_with("reserved"), f.offset) {
                        (true, Some(o)) => start = Some(o),
                        _ => break,
                    }
                }
                if let Some(o) = start {
                    let e = out.entry(name.clone()).or_insert(o);
                    *e = (*e).min(o);
                }
            }
        }
        out
    }

    /// For each union, the member names present in every table (major, view) defining it.
    /// NVIDIA grows tagged unions by adding members of no greater size
    /// (`cudaLaunchAttributeValue` gained `sharedMemoryMode` … in 13.x, still 64 bytes): the
    /// tag (`cudaLaunchAttribute.id`) picks the member, and an older runtime rejects a tag it
    /// does not know with an error instead of misreading memory. Sizes and the common members'
    /// types are still compared.
    pub fn common_union_members<'a>(
        tables: impl Iterator<Item = &'a TypeTable>,
    ) -> BTreeMap<String, BTreeSet<String>> {
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for table in tables {
            for (name, def) in table
                .structs
                .iter()
                .filter(|(_, d)| d.is_union && d.size.is_some())
            {
                let members: BTreeSet<String> = def.fields.iter().map(|f| f.name.clone()).collect();
                out.entry(name.clone())
                    .and_modify(|common| common.retain(|m| members.contains(m)))
                    .or_insert(members);
            }
        }
        out
    }

    /// Installs the result of [`TypeTable::common_union_members`] before keys are computed.
    pub fn set_union_common(&mut self, common: &BTreeMap<String, BTreeSet<String>>) {
        self.union_common = common.clone();
    }

    /// Installs the result of [`TypeTable::reserved_tails`] before keys are computed.
    pub fn set_reserved_tails(&mut self, tails: &BTreeMap<String, u64>) {
        self.reserved_from = tails.clone();
    }

    /// The ABI key of `ty`: how it is passed, and the layout of every struct it reaches.
    pub fn abi_key(&self, ty: &syn::Type) -> String {
        let mut out = String::new();
        self.key_into(ty, &mut Vec::new(), &mut out);
        out
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

    fn key_into(&self, ty: &syn::Type, stack: &mut Vec<String>, out: &mut String) {
        match ty {
            syn::Type::Ptr(p) => {
                out.push('*');
                self.key_into(&p.elem, stack, out);
            }
            syn::Type::Array(a) => {
                out.push('[');
                self.key_into(&a.elem, stack, out);
                out.push(';');
                out.push_str(
                    a.len
                        .to_token_stream()
                        .to_string()
                        .trim_end_matches("usize")
                        .trim(),
                );
                out.push(']');
            }
            syn::Type::Paren(p) => self.key_into(&p.elem, stack, out),
            syn::Type::BareFn(f) => {
                out.push_str("fn(");
                for input in &f.inputs {
                    self.key_into(&input.ty, stack, out);
                    out.push(',');
                }
                out.push(')');
                if let syn::ReturnType::Type(_, t) = &f.output {
                    out.push_str("->");
                    self.key_into(t, stack, out);
                }
            }
            syn::Type::Path(p) => self.path_key(p, stack, out),
            other => out.push_str(&other.to_token_stream().to_string()),
        }
    }

    fn path_key(&self, p: &syn::TypePath, stack: &mut Vec<String>, out: &mut String) {
        let Some(last) = p.path.segments.last() else {
            return;
        };
        let name = last.ident.to_string();
        if let syn::PathArguments::AngleBracketed(args) = &last.arguments {
            // `Option<unsafe extern "C" fn ..>`, `__BindgenBitfieldUnit<[u8; 4]>`, ...
            out.push_str(&name);
            out.push('<');
            for arg in &args.args {
                if let syn::GenericArgument::Type(t) = arg {
                    self.key_into(t, stack, out);
                }
            }
            out.push('>');
            return;
        }
        if let Some((key, _)) = primitive(&name) {
            out.push_str(key);
        } else if let Some(target) = self.aliases.get(&name) {
            self.key_into(target, stack, out);
        } else if let Some(def) = self.structs.get(&name) {
            let Some(size) = def.size else {
                // Only ever behind a pointer: the pointee's shape is the library's business.
                out.push_str("opaque");
                return;
            };
            if stack.contains(&name) {
                out.push_str("rec:");
                out.push_str(&name);
                return;
            }
            let reserved_from = self.reserved_from.get(&name).copied().unwrap_or(u64::MAX);
            let common = if def.is_union {
                self.union_common.get(&name)
            } else {
                None
            };
            stack.push(name);
            out.push_str(if def.is_union { "union{" } else { "struct{" });
            out.push_str(&size.to_string());
            for f in def
                .fields
                .iter()
                .filter(|f| f.offset.is_none_or(|o| o < reserved_from))
                .filter(|f| common.is_none_or(|c| c.contains(&f.name)))
            {
                out.push(';');
                match f.offset {
                    Some(o) => out.push_str(&o.to_string()),
                    None => out.push('?'),
                }
                out.push(':');
                self.key_into(&f.ty, stack, out);
            }
            out.push('}');
            stack.pop();
        } else {
            out.push_str(&name);
        }
    }
}

/// ABI key and size of C scalar types as bindgen spells them (LP64).
fn primitive(name: &str) -> Option<(&'static str, u64)> {
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

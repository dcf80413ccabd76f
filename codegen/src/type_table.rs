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
    /// Per (struct, field offset), the member of a widened field whose key stands for the whole
    /// field (see [`TypeTable::widened_fields`]).
    widened: BTreeMap<(String, u64), String>,
}

/// Evidence that a field was widened into a same-size aggregate that still holds it: CUDA 13.5
/// turned `cudaMemLocation.id` (`int`, offset 4) into an anonymous 4-byte union whose member
/// `id` is that `int` at the union's offset 0.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Widening {
    /// The struct holding the field (bindgen name).
    #[serde(rename = "struct")]
    pub strukt: String,
    /// Byte offset of the field in the struct, the same in every major.
    pub offset: u64,
    /// The plain field's name in the older headers (`id`).
    pub field: String,
    /// Its type, as bindgen spells it (`c_int`).
    #[serde(rename = "type")]
    pub ty: String,
    /// Size of the field and of the aggregate replacing it.
    pub size: u64,
    /// The field's name in the newer headers (`__bindgen_anon_1` for an anonymous union).
    pub widened_field: String,
    /// The aggregate's type (bindgen name) and whether it is a union.
    pub aggregate: String,
    /// `union` or `struct`.
    pub kind: &'static str,
    /// The aggregate's member that is the old field: same name, offset 0, same ABI key.
    pub member: String,
    /// Majors whose headers have the plain field.
    pub plain_in: Vec<u32>,
    /// Majors whose headers have the aggregate.
    pub widened_in: Vec<u32>,
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
        table.derive_anonymous_offsets();
        table
    }

    /// bindgen emits no offset check for an anonymous member (`__bindgen_anon_1`, e.g. 13.5's
    /// `union { int id; .. }` in `cudaMemLocation`); its offset follows from the previous
    /// field's end rounded up to its own alignment, as in C. Left unknown when a size or
    /// alignment is unknown, or when the result would not fit in the struct.
    fn derive_anonymous_offsets(&mut self) {
        let mut derived = Vec::new();
        for (name, def) in self.structs.iter().filter(|(_, d)| !d.is_union) {
            for (i, f) in def.fields.iter().enumerate() {
                if f.offset.is_some() || !f.name.starts_with("__bindgen_anon_") {
                    continue;
                }
                let start = match i.checked_sub(1).map(|j| &def.fields[j]) {
                    None => Some(0),
                    Some(prev) => prev.offset.zip(self.size_of(&prev.ty)).map(|(o, s)| o + s),
                };
                let (Some(start), Some(size), Some(align)) =
                    (start, self.size_of(&f.ty), self.align_of(&f.ty))
                else {
                    continue;
                };
                let offset = start.next_multiple_of(align.max(1));
                if def.size.is_some_and(|total| offset + size <= total) {
                    derived.push((name.clone(), i, offset));
                }
            }
        }
        for (name, i, offset) in derived {
            if let Some(def) = self.structs.get_mut(&name) {
                def.fields[i].offset = Some(offset);
            }
        }
    }

    /// The alignment of a by-value `ty`, where known.
    fn align_of(&self, ty: &syn::Type) -> Option<u64> {
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

    /// Fields that one major declares plainly (`int id;` at offset 4 of `cudaMemLocation` in
    /// 11.8 / 12.9) and another replaces by a union or struct of the same size whose member of
    /// the same name sits at the aggregate's offset 0 with the same ABI key (13.5's anonymous
    /// `union { int id; struct { .. } localized; }`). Such a change keeps the ABI: the bytes a
    /// caller of the newer header writes for the old member are exactly the old field, and the
    /// other members are selected by a tag the older library does not know (`type` =
    /// `cudaMemLocationTypeDeviceLocalityDomain`), which it rejects with an error, as for the
    /// tagged-union rule. The struct's size and every other field are still compared.
    ///
    /// `tables` pairs each table with its major; call after [`TypeTable::set_reserved_tails`]
    /// and [`TypeTable::set_union_common`] so the member keys are compared under those rules.
    pub fn widened_fields<'a>(
        tables: impl Iterator<Item = (u32, &'a TypeTable)> + Clone,
    ) -> Vec<Widening> {
        let mut out: Vec<Widening> = Vec::new();
        for (plain_major, plain) in tables.clone() {
            for (name, def) in plain.structs.iter().filter(|(_, d)| d.size.is_some()) {
                for f in &def.fields {
                    let Some(offset) = f.offset else { continue };
                    let Some(size) = plain.size_of(&f.ty) else {
                        continue;
                    };
                    let plain_key = plain.abi_key(&f.ty);
                    for (wide_major, wide) in tables.clone() {
                        let Some(wdef) = wide.structs.get(name) else {
                            continue;
                        };
                        if wdef.size != def.size {
                            continue;
                        }
                        let Some(g) = wdef.fields.iter().find(|g| g.offset == Some(offset)) else {
                            continue;
                        };
                        let Some((agg_name, agg)) = wide.aggregate_of(&g.ty) else {
                            continue;
                        };
                        if agg.size != Some(size) {
                            continue;
                        }
                        let Some(member) = agg.fields.iter().find(|m| {
                            m.name == f.name
                                && m.offset == Some(0)
                                && wide.abi_key(&m.ty) == plain_key
                        }) else {
                            continue;
                        };
                        let found = out.iter_mut().find(|w| {
                            w.strukt == *name && w.offset == offset && w.member == member.name
                        });
                        let w = match found {
                            Some(w) => w,
                            None => {
                                out.push(Widening {
                                    strukt: name.clone(),
                                    offset,
                                    field: f.name.clone(),
                                    ty: crate::spelling::rust(&f.ty),
                                    size,
                                    widened_field: g.name.clone(),
                                    aggregate: agg_name.to_owned(),
                                    kind: if agg.is_union { "union" } else { "struct" },
                                    member: member.name.clone(),
                                    plain_in: Vec::new(),
                                    widened_in: Vec::new(),
                                });
                                out.last_mut().expect("just pushed")
                            }
                        };
                        for (list, m) in [
                            (&mut w.plain_in, plain_major),
                            (&mut w.widened_in, wide_major),
                        ] {
                            if !list.contains(&m) {
                                list.push(m);
                                list.sort_unstable();
                            }
                        }
                    }
                }
            }
        }
        out.sort_by(|a, b| (&a.strukt, a.offset).cmp(&(&b.strukt, b.offset)));
        out
    }

    /// Installs the result of [`TypeTable::widened_fields`] before keys are computed.
    pub fn set_widened(&mut self, widened: &[Widening]) {
        self.widened = widened
            .iter()
            .map(|w| ((w.strukt.clone(), w.offset), w.member.clone()))
            .collect();
    }

    /// The struct or union `ty` names (through typedefs), with its definition.
    fn aggregate_of(&self, ty: &syn::Type) -> Option<(&str, &StructDef)> {
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

    /// Installs the result of [`TypeTable::common_union_members`] before keys are computed.
    pub fn set_union_common(&mut self, common: &BTreeMap<String, BTreeSet<String>>) {
        self.union_common = common.clone();
    }

    /// Installs the result of [`TypeTable::reserved_tails`] before keys are computed.
    pub fn set_reserved_tails(&mut self, tails: &BTreeMap<String, u64>) {
        self.reserved_from = tails.clone();
    }

    /// Whether `ty` is opaque storage: a struct (not a union) whose one field is an array of
    /// integers, named `data` (NVIDIA's `*Opaque_t` descriptors).
    fn is_opaque_storage(&self, ty: &syn::Type) -> bool {
        let Some((_, def)) = self.aggregate_of(ty) else {
            return false;
        };
        let [field] = def.fields.as_slice() else {
            return false;
        };
        let syn::Type::Array(array) = &field.ty else {
            return false;
        };
        let syn::Type::Path(elem) = &*array.elem else {
            return false;
        };
        !def.is_union
            && field.name == "data"
            && elem
                .path
                .segments
                .last()
                .is_some_and(|s| primitive(&s.ident.to_string()).is_some())
    }

    /// Whether `ty` is a self-sized struct: one whose first fields are `size_t size; unsigned
    /// magic; unsigned version;` at offsets 0, 8 and 12 (NCCL's `ncclConfig_t`,
    /// `ncclSimInfo_t`, `ncclCommProperties_t` …, set by their `*_INITIALIZER` to `sizeof`,
    /// `NCCL_API_MAGIC` and `NCCL_VERSION_CODE`).
    fn is_self_sized(&self, ty: &syn::Type) -> bool {
        let Some((_, def)) = self.aggregate_of(ty) else {
            return false;
        };
        let header = [("size", 0, 8), ("magic", 8, 4), ("version", 12, 4)];
        !def.is_union
            && def.fields.len() >= header.len()
            && def
                .fields
                .iter()
                .zip(header)
                .all(|(f, (name, offset, size))| {
                    let syn::Type::Path(p) = &f.ty else {
                        return false;
                    };
                    let primitive_size = p
                        .path
                        .segments
                        .last()
                        .and_then(|s| primitive(&s.ident.to_string()))
                        .map(|(_, size)| size);
                    f.name == name && f.offset == Some(offset) && primitive_size == Some(size)
                })
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
            syn::Type::Ptr(p) if self.is_opaque_storage(&p.elem) => {
                // NVIDIA's opaque storage (`typedef struct { uint64_t data[32]; }
                // cublasLtMatmulDescOpaque_t`) behind a pointer: the caller never reads it, the
                // library lays it out; where a caller allocates it, its size is passed too
                // (`cublasLtMatmulDescInit_internal(desc, size, ..)`), and the library checks it.
                // Its size grew in every major (184, 192, 256 bytes) without changing the ABI.
                out.push_str("*opaque");
            }
            syn::Type::Ptr(p) if self.is_self_sized(&p.elem) => {
                // A self-sized struct behind a pointer: the library reads `size` first and copies
                // no more than it and its own `sizeof` (NCCL's `parseCommConfig`, 2.14 and
                // later: `memcpy(&internal, config, min(config->size, sizeof))`), and `version`
                // says which fields the caller's header knew. NCCL grew `ncclConfig_t` from 2.21
                // (`ncclConfig_v21700`) to 2.32 (`ncclConfig_v23100`) this way without changing
                // the ABI of `ncclCommInitRankConfig` or `ncclCommSplit`.
                out.push_str("*self-sized");
            }
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
            let widened_at = |o: u64| self.widened.get(&(name.clone(), o));
            let widened: Vec<Option<&syn::Type>> = def
                .fields
                .iter()
                .map(|f| {
                    let member = widened_at(f.offset?)?;
                    let (_, agg) = self.aggregate_of(&f.ty)?;
                    agg.fields.iter().find(|m| m.name == *member).map(|m| &m.ty)
                })
                .collect();
            stack.push(name);
            out.push_str(if def.is_union { "union{" } else { "struct{" });
            out.push_str(&size.to_string());
            for (f, member) in def
                .fields
                .iter()
                .zip(widened)
                .filter(|(f, _)| f.offset.is_none_or(|o| o < reserved_from))
                .filter(|(f, _)| common.is_none_or(|c| c.contains(&f.name)))
            {
                out.push(';');
                match f.offset {
                    Some(o) => out.push_str(&o.to_string()),
                    None => out.push('?'),
                }
                out.push(':');
                // A widened field is keyed as the member all majors share (its aggregate's
                // size equals that member's, checked by `widened_fields`).
                self.key_into(member.unwrap_or(&f.ty), stack, out);
            }
            out.push('}');
            stack.pop();
        } else {
            out.push_str(&name);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// bindgen-like output: `cudaMemLocation` with a plain `int id` (12.9) or the 13.5 anonymous
    /// union, whose member `id` has type `member_ty`; bindgen emits no offset for the anonymous
    /// field, so it is derived.
    fn table(widened: bool, member_ty: &str, union_size: u64) -> TypeTable {
        let src = if widened {
            format!(
                "pub struct loc {{ pub type_: ::core::ffi::c_int, pub __bindgen_anon_1: loc__bindgen_ty_1 }}
                 pub union loc__bindgen_ty_1 {{ pub id: {member_ty}, pub localized: [u8; 2usize] }}
                 const _: () = {{
                     [\"Size of loc\"][::core::mem::size_of::<loc>() - 8usize];
                     [\"Alignment of loc\"][::core::mem::align_of::<loc>() - 4usize];
                     [\"Offset of field: loc::type_\"][::core::mem::offset_of!(loc, type_) - 0usize];
                     [\"Size of loc__bindgen_ty_1\"][::core::mem::size_of::<loc__bindgen_ty_1>() - {union_size}usize];
                     [\"Alignment of loc__bindgen_ty_1\"][::core::mem::align_of::<loc__bindgen_ty_1>() - 4usize];
                 }};"
            )
        } else {
            "pub struct loc { pub type_: ::core::ffi::c_int, pub id: ::core::ffi::c_int }
             const _: () = {
                 [\"Size of loc\"][::core::mem::size_of::<loc>() - 8usize];
                 [\"Alignment of loc\"][::core::mem::align_of::<loc>() - 4usize];
                 [\"Offset of field: loc::type_\"][::core::mem::offset_of!(loc, type_) - 0usize];
                 [\"Offset of field: loc::id\"][::core::mem::offset_of!(loc, id) - 4usize];
             };"
            .to_owned()
        };
        let file = syn::parse_file(&src).expect("test source parses");
        TypeTable::from_items(&file.items)
    }

    fn keys_equal_after_rule(mut old: TypeTable, mut new: TypeTable) -> (bool, Vec<Widening>) {
        let w = TypeTable::widened_fields([(12, &old), (13, &new)].into_iter());
        old.set_widened(&w);
        new.set_widened(&w);
        let ty: syn::Type = syn::parse_str("loc").expect("ident");
        (old.abi_key(&ty) == new.abi_key(&ty), w)
    }

    #[test]
    fn same_size_union_holding_the_old_field_keeps_the_abi() {
        let (equal, w) =
            keys_equal_after_rule(table(false, "", 0), table(true, "::core::ffi::c_int", 4));
        assert!(equal);
        assert_eq!(w.len(), 1);
        let w = &w[0];
        assert_eq!(
            (
                w.strukt.as_str(),
                w.offset,
                w.field.as_str(),
                w.member.as_str()
            ),
            ("loc", 4, "id", "id")
        );
        assert_eq!(
            (w.size, w.kind, w.plain_in.clone(), w.widened_in.clone()),
            (4, "union", vec![12], vec![13])
        );
    }

    #[test]
    fn member_of_another_type_or_a_larger_union_is_a_change() {
        // `id` became unsigned: not the old field.
        let (equal, w) =
            keys_equal_after_rule(table(false, "", 0), table(true, "::core::ffi::c_uint", 4));
        assert!(!equal && w.is_empty());
        // A union larger than the old field is not the old field (it would not even fit).
        let (equal, w) =
            keys_equal_after_rule(table(false, "", 0), table(true, "::core::ffi::c_int", 8));
        assert!(!equal && w.is_empty());
    }
}

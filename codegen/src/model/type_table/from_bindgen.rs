//! Reads bindgen's output into a [`TypeTable`]: typedefs (`type` items and the `pub use X as Y`
//! bindgen writes for `typedef enum`), structs and unions, and the sizes, alignments and field
//! offsets of bindgen's layout checks, which carry clang's own numbers.

use super::{Field, TypeTable};

impl TypeTable {
    /// Collects aliases, structs and the layout checks bindgen emitted for them.
    pub fn from_items<'a>(items: impl Iterator<Item = &'a syn::Item> + Clone) -> Self {
        let mut table = TypeTable::default();
        for item in items.clone() {
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
}

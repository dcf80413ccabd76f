//! The ABI key of a type: how it is passed, and the size and field offsets of every struct it
//! reaches, whatever the names. Two majors' prototypes with equal keys are one ABI; the rules
//! beside this file say which differences the key leaves out (the module documentation lists
//! them).

use super::TypeTable;
use super::layout::primitive;
use quote::ToTokens;

impl TypeTable {
    /// The ABI key of `ty`: how it is passed, and the layout of every struct it reaches.
    pub fn abi_key(&self, ty: &syn::Type) -> String {
        let mut out = String::new();
        self.key_into(ty, &mut Vec::new(), &mut out);
        out
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

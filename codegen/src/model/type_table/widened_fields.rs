//! Rule: a field widened into a same-size union or struct that still holds it, at offset 0 and
//! with the same ABI key, keeps the ABI (13.5's `cudaMemLocation.id`).

use super::TypeTable;

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
                                    ty: crate::model::spelling::rust(&f.ty),
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
        TypeTable::from_items(file.items.iter())
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

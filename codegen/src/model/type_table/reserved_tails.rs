//! Rule: fields carved out of a trailing `reserved*` run keep the ABI.

use super::TypeTable;
use std::collections::BTreeMap;

impl TypeTable {
    /// For each struct, the smallest offset, over all `tables` (one per major and view), at which
    /// a trailing run of reserved fields begins ([`is_reserved`]). NVIDIA grows structs by
    /// carving new fields out of that run (13.5's `cudaFuncAttributes.sharedMemoryMode` from
    /// 12.9's `reserved[16]`; NPP 13.0's `NppStreamContext.hWorkspace`, an anonymous union with
    /// `Npp32u nReserved0`, from 12.x's `int nReserved0`); an older library leaves those bytes
    /// zero, which the headers define as the default (NPP 13: "0 = no workspace"), so such a
    /// change keeps the ABI. Sizes and every field before the run are still compared.
    pub fn reserved_tails<'a>(
        tables: impl Iterator<Item = &'a TypeTable>,
    ) -> BTreeMap<String, u64> {
        let mut out: BTreeMap<String, u64> = BTreeMap::new();
        for table in tables {
            for (name, def) in &table.structs {
                let mut start = None;
                for f in def.fields.iter().rev() {
                    match (is_reserved(&f.name), f.offset) {
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

    /// Installs the result of [`TypeTable::reserved_tails`] before keys are computed.
    pub fn set_reserved_tails(&mut self, tails: &BTreeMap<String, u64>) {
        self.reserved_from = tails.clone();
    }
}

/// Whether a field is one NVIDIA reserves: `reserved`, `reserved[16]` (the runtime's, the
/// driver's), or NPP's Hungarian `nReserved0`.
fn is_reserved(name: &str) -> bool {
    name.starts_with("reserved") || name.starts_with("nReserved")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bindgen-like output of NPP's `NppStreamContext`, cut to its last two fields: 12.x's
    /// `unsigned nStreamFlags; int nReserved0;`, or 13.x's `unsigned nStreamFlags; union {
    /// NppWorkspace hWorkspace; Npp32u nReserved0; };` (bindgen emits no offset for the
    /// anonymous field).
    fn table(widened: bool) -> TypeTable {
        let src = if widened {
            "pub struct ctx { pub nStreamFlags: ::core::ffi::c_uint, pub __bindgen_anon_1: ctx__bindgen_ty_1 }
             pub union ctx__bindgen_ty_1 { pub hWorkspace: ::core::ffi::c_uint, pub nReserved0: ::core::ffi::c_uint }
             const _: () = {
                 [\"Size of ctx\"][::core::mem::size_of::<ctx>() - 8usize];
                 [\"Alignment of ctx\"][::core::mem::align_of::<ctx>() - 4usize];
                 [\"Offset of field: ctx::nStreamFlags\"][::core::mem::offset_of!(ctx, nStreamFlags) - 0usize];
                 [\"Size of ctx__bindgen_ty_1\"][::core::mem::size_of::<ctx__bindgen_ty_1>() - 4usize];
                 [\"Alignment of ctx__bindgen_ty_1\"][::core::mem::align_of::<ctx__bindgen_ty_1>() - 4usize];
             };"
        } else {
            "pub struct ctx { pub nStreamFlags: ::core::ffi::c_uint, pub nReserved0: ::core::ffi::c_int }
             const _: () = {
                 [\"Size of ctx\"][::core::mem::size_of::<ctx>() - 8usize];
                 [\"Alignment of ctx\"][::core::mem::align_of::<ctx>() - 4usize];
                 [\"Offset of field: ctx::nStreamFlags\"][::core::mem::offset_of!(ctx, nStreamFlags) - 0usize];
                 [\"Offset of field: ctx::nReserved0\"][::core::mem::offset_of!(ctx, nReserved0) - 4usize];
             };"
        };
        let file = syn::parse_file(src).expect("test source parses");
        TypeTable::from_items(file.items.iter())
    }

    /// NPP 13.0 carved `hWorkspace` out of the reserved `nReserved0`: the same ABI. Without the
    /// rule the keys differ (the old field is an `int`, the union's member an `Npp32u`).
    #[test]
    fn a_field_carved_out_of_npps_reserved_tail_keeps_the_abi() {
        let (mut old, mut new) = (table(false), table(true));
        let ty: syn::Type = syn::parse_str("ctx").expect("ident");
        assert_ne!(old.abi_key(&ty), new.abi_key(&ty));
        let tails = TypeTable::reserved_tails([&old, &new].into_iter());
        assert_eq!(tails.get("ctx"), Some(&4));
        old.set_reserved_tails(&tails);
        new.set_reserved_tails(&tails);
        assert_eq!(old.abi_key(&ty), new.abi_key(&ty));
        assert!(
            is_reserved("reserved") && is_reserved("nReserved0") && !is_reserved("nStreamFlags")
        );
    }
}

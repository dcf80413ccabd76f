//! Rule: a self-sized struct behind a pointer (NCCL's `ncclConfig_t`: `size`, `magic`,
//! `version` first) is read by the library up to the smaller of its `size` and the library's own
//! `sizeof`, so it may grow without changing the ABI (its ABI key is `*self-sized`).

use super::TypeTable;
use super::layout::primitive;

impl TypeTable {
    /// Whether `ty` is a self-sized struct: one whose first fields are `size_t size; unsigned
    /// magic; unsigned version;` at offsets 0, 8 and 12 (NCCL's `ncclConfig_t`,
    /// `ncclSimInfo_t`, `ncclCommProperties_t` …, set by their `*_INITIALIZER` to `sizeof`,
    /// `NCCL_API_MAGIC` and `NCCL_VERSION_CODE`).
    pub(super) fn is_self_sized(&self, ty: &syn::Type) -> bool {
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
}

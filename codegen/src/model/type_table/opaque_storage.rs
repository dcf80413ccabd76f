//! Rule: NVIDIA's opaque descriptor storage (`cublasLtMatmulDescOpaque_t`, a struct whose one
//! field is an integer array `data`) behind a pointer is the library's own layout, whatever its
//! size (its ABI key is `*opaque`).

use super::TypeTable;
use super::layout::primitive;

impl TypeTable {
    /// Whether `ty` is opaque storage: a struct (not a union) whose one field is an array of
    /// integers, named `data` (NVIDIA's `*Opaque_t` descriptors).
    pub(super) fn is_opaque_storage(&self, ty: &syn::Type) -> bool {
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
}

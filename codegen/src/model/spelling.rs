//! Human-readable spellings of bindgen's types, in Rust and back in C.

use quote::ToTokens;

/// The Rust spelling, compact (`*mut ::core::ffi::c_int`).
pub fn rust(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Ptr(p) => {
            let q = if p.mutability.is_some() {
                "*mut "
            } else {
                "*const "
            };
            format!("{q}{}", rust(&p.elem))
        }
        syn::Type::Array(a) => format!("[{}; {}]", rust(&a.elem), a.len.to_token_stream()),
        syn::Type::Path(p) if p.qself.is_none() => {
            let mut out = String::new();
            if p.path.leading_colon.is_some() {
                out.push_str("::");
            }
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| match &s.arguments {
                    syn::PathArguments::None => s.ident.to_string(),
                    args => format!("{}{}", s.ident, compact(args.to_token_stream())),
                })
                .collect();
            out.push_str(&segs.join("::"));
            out
        }
        other => compact(other.to_token_stream()),
    }
}

fn compact(tokens: proc_macro2::TokenStream) -> String {
    tokens
        .to_string()
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" < ", "<")
        .replace(" >", ">")
        .replace("< ", "<")
        .replace(" ,", ",")
        .replace("* mut", "*mut")
        .replace("* const", "*const")
}

/// The C spelling (`int *`, `const char *`, `cudaStream_t`).
pub fn c(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Ptr(p) => {
            let inner = c(&p.elem);
            let sep = if inner.ends_with('*') { "" } else { " " };
            if p.mutability.is_some() {
                format!("{inner}{sep}*")
            } else if matches!(&*p.elem, syn::Type::Ptr(_)) {
                format!("{inner} const *")
            } else {
                format!("const {inner}{sep}*")
            }
        }
        syn::Type::Array(a) => format!(
            "{}[{}]",
            c(&a.elem),
            a.len
                .to_token_stream()
                .to_string()
                .trim_end_matches("usize")
                .trim()
        ),
        syn::Type::Path(p) => {
            let Some(last) = p.path.segments.last() else {
                return rust(ty);
            };
            let name = last.ident.to_string();
            match name.as_str() {
                "c_char" => "char",
                "c_schar" => "signed char",
                "c_uchar" => "unsigned char",
                "c_short" => "short",
                "c_ushort" => "unsigned short",
                "c_int" => "int",
                "c_uint" => "unsigned int",
                "c_long" => "long",
                "c_ulong" => "unsigned long",
                "c_longlong" => "long long",
                "c_ulonglong" => "unsigned long long",
                "c_float" => "float",
                "c_double" => "double",
                "c_void" => "void",
                "usize" => "size_t",
                "isize" => "ssize_t",
                "Option" => return rust(ty),
                _ => return name,
            }
            .to_owned()
        }
        other => rust(other),
    }
}

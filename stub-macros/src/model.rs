//! The declaration model shared by the `cuda_stubs` proc-macro and `codegen` (which includes
//! this file with `#[path]`), so both read declarations the same way.
//!
//! A declaration file is one `unsafe extern "C"` block under `#[cuda_stubs(library = "...")]`
//! whose functions each carry `#[cuda(majors = [..], abi = [..], hand_written, version = N)]`.
//! A name may be declared several times only with distinct `version`s: once per ABI it is
//! exported under (see [`LibraryKind::version_node`]).

use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{
    Expr, ForeignItem, ForeignItemFn, ItemForeignMod, Lit, LitStr, Meta, ReturnType, Token, Type,
};

/// The real libraries a stub can stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LibraryKind {
    /// The CUDA runtime, libcudart; status type `cudaError_t`.
    Cudart,
    /// NVRTC, libnvrtc; status type `nvrtcResult`.
    Nvrtc,
    /// The driver, libcuda; status type `CUresult`.
    Cuda,
    /// nvJitLink, libnvJitLink; status type `nvJitLinkResult`.
    NvJitLink,
}

impl LibraryKind {
    /// From the `library = "..."` argument.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "cudart" => Some(Self::Cudart),
            "nvrtc" => Some(Self::Nvrtc),
            "cuda" => Some(Self::Cuda),
            "nvjitlink" => Some(Self::NvJitLink),
            _ => None,
        }
    }

    /// The `library = "..."` argument for this kind.
    pub fn name(self) -> &'static str {
        match self {
            Self::Cudart => "cudart",
            Self::Nvrtc => "nvrtc",
            Self::Cuda => "cuda",
            Self::NvJitLink => "nvjitlink",
        }
    }

    /// The ELF version node of this library's exports with CUDA `major`'s ABI, e.g.
    /// `CUDA_STUBS_CUDART_12`: what a program linked for that ABI records for a name whose
    /// prototype differs between majors (`cudaMemAdvise@CUDA_STUBS_CUDART_12`). Not NVIDIA's
    /// node names (`libcudart.so.12`): a stub never claims to be the real library.
    pub fn version_node(self, major: u32) -> String {
        format!("CUDA_STUBS_{}_{major}", self.name().to_uppercase())
    }

    /// The C status type whose functions get typed errors as fallback.
    pub fn status_type(self) -> &'static str {
        match self {
            Self::Cudart => "cudaError_t",
            Self::Nvrtc => "nvrtcResult",
            Self::Cuda => "CUresult",
            Self::NvJitLink => "nvJitLinkResult",
        }
    }
}

/// What a function returns when the real one cannot be called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// The library's status type: the stub's typed errors.
    Status,
    /// Nothing to return.
    Void,
    /// A pointer: NULL.
    Null,
    /// Anything else (a struct by value): its `Default`, all zero.
    Zero,
}

/// One declared C function.
#[derive(Debug, Clone)]
pub struct StubFn {
    /// The declaration as written (attributes other than `#[cuda]` kept, e.g. docs).
    pub item: ForeignItemFn,
    /// Majors whose library has the symbol (sorted, each from 11 to 25: one bit each in a 16-bit mask).
    pub majors: Vec<u32>,
    /// Majors whose ABI for the symbol equals the declared prototype (subset of `majors`).
    pub abi: Vec<u32>,
    /// The stub crate implements the export by hand; the macro only provides the forwarder.
    pub hand_written: bool,
    /// Exported by the real library but declared in no header: the prototype is unknown, so the
    /// stub forwards it with a tail jump that leaves every argument register untouched.
    pub opaque: bool,
    /// What the fallback returns.
    pub fallback: Fallback,
    /// The CUDA major whose ABI this declaration exports, for a name declared once per ABI
    /// (`cudaMemAdvise`: 12.x's `int device`, 13.x's `cudaMemLocation`); `None` for a name
    /// declared once, exported unversioned.
    pub version: Option<u32>,
}

impl StubFn {
    /// The C symbol name.
    pub fn name(&self) -> String {
        self.item.sig.ident.to_string()
    }
}

impl StubBlock {
    /// Whether `f`'s version is the newest one its name is declared with: the `@@` default a
    /// link against the runtime stub records. `false` for an unversioned declaration.
    pub fn is_default_version(&self, f: &StubFn) -> bool {
        let name = &f.item.sig.ident;
        f.version.is_some()
            && self
                .functions
                .iter()
                .filter(|g| g.item.sig.ident == *name)
                .all(|g| g.version <= f.version)
    }
}

/// A parsed declaration block.
#[derive(Debug, Clone)]
pub struct StubBlock {
    /// Which library the block declares.
    pub library: LibraryKind,
    /// Its functions in declaration order.
    pub functions: Vec<StubFn>,
}

/// Parses the attribute arguments (`library = "cudart"`) and the `extern "C"` block.
pub fn parse_block(
    args: proc_macro2::TokenStream,
    block: ItemForeignMod,
) -> syn::Result<StubBlock> {
    let library = parse_library(args)?;
    if block.abi.name.as_ref().map(LitStr::value).as_deref() != Some("C") {
        return Err(syn::Error::new(
            block.abi.span(),
            "cuda_stubs: expected `unsafe extern \"C\"`",
        ));
    }
    let mut functions = Vec::new();
    let mut errors: Option<syn::Error> = None;
    for item in block.items {
        let result = match item {
            ForeignItem::Fn(f) => parse_fn(library, f),
            other => Err(syn::Error::new(
                other.span(),
                "cuda_stubs: only functions may be declared",
            )),
        };
        match result {
            Ok(f) => functions.push(f),
            Err(e) => match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            },
        }
    }
    if let Err(e) = check_versions(&functions) {
        match &mut errors {
            Some(all) => all.combine(e),
            None => errors = Some(e),
        }
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(StubBlock { library, functions }),
    }
}

/// A name is declared once unversioned, or once per `version`.
fn check_versions(functions: &[StubFn]) -> syn::Result<()> {
    let mut seen: std::collections::BTreeMap<String, Vec<Option<u32>>> = Default::default();
    let mut errors: Option<syn::Error> = None;
    for f in functions {
        let versions = seen.entry(f.name()).or_default();
        if !versions.is_empty() && (f.version.is_none() || versions.contains(&f.version)) {
            let e = syn::Error::new(
                f.item.sig.ident.span(),
                "cuda_stubs: a name declared twice needs a distinct `version` on each declaration",
            );
            match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            }
        }
        versions.push(f.version);
    }
    for (name, versions) in &seen {
        if versions.len() > 1 && versions.contains(&None) {
            let e = syn::Error::new(
                proc_macro2::Span::call_site(),
                format!("cuda_stubs: `{name}` is declared versioned and unversioned"),
            );
            match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            }
        }
    }
    errors.map_or(Ok(()), Err)
}

fn parse_library(args: proc_macro2::TokenStream) -> syn::Result<LibraryKind> {
    let span = args.span();
    let metas = Punctuated::<Meta, Token![,]>::parse_terminated.parse2(args)?;
    let mut library = None;
    for meta in metas {
        let nv = match &meta {
            Meta::NameValue(nv) if nv.path.is_ident("library") => nv,
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "cuda_stubs: expected `library = \"cudart\" | \"nvrtc\" | \"cuda\" | \"nvjitlink\"`",
                ));
            }
        };
        let name = match &nv.value {
            Expr::Lit(l) => match &l.lit {
                Lit::Str(s) => s.value(),
                _ => String::new(),
            },
            _ => String::new(),
        };
        library = Some(LibraryKind::from_name(&name).ok_or_else(|| {
            syn::Error::new(
                nv.value.span(),
                "cuda_stubs: library must be \"cudart\", \"nvrtc\", \"cuda\" or \"nvjitlink\"",
            )
        })?);
    }
    library.ok_or_else(|| syn::Error::new(span, "cuda_stubs: missing `library = \"...\"`"))
}

fn parse_fn(library: LibraryKind, mut item: ForeignItemFn) -> syn::Result<StubFn> {
    if let Some(v) = &item.sig.variadic {
        return Err(syn::Error::new(
            v.span(),
            "cuda_stubs: variadic functions cannot be forwarded",
        ));
    }
    if !item.sig.generics.params.is_empty() {
        return Err(syn::Error::new(
            item.sig.generics.span(),
            "cuda_stubs: C functions have no generics",
        ));
    }
    let pos = item
        .attrs
        .iter()
        .position(|a| a.path().is_ident("cuda"))
        .ok_or_else(|| {
            syn::Error::new(
                item.sig.ident.span(),
                "cuda_stubs: missing #[cuda(majors = [...])]",
            )
        })?;
    let attr = item.attrs.remove(pos);
    if let Some(dup) = item.attrs.iter().find(|a| a.path().is_ident("cuda")) {
        return Err(syn::Error::new(
            dup.span(),
            "cuda_stubs: duplicate #[cuda] attribute",
        ));
    }
    let mut majors = None;
    let mut abi = None;
    let mut hand_written = false;
    let mut opaque = false;
    let mut version = None;
    attr.parse_nested_meta(|meta| {
        if meta.path.is_ident("majors") {
            majors = Some(parse_majors(&meta.value()?.parse::<Expr>()?)?);
        } else if meta.path.is_ident("abi") {
            abi = Some(parse_majors(&meta.value()?.parse::<Expr>()?)?);
        } else if meta.path.is_ident("hand_written") {
            hand_written = true;
        } else if meta.path.is_ident("opaque") {
            opaque = true;
        } else if meta.path.is_ident("version") {
            let lit: syn::LitInt = meta.value()?.parse()?;
            match lit.base10_parse::<u32>() {
                Ok(v) if (11..=25).contains(&v) => version = Some(v),
                _ => {
                    return Err(syn::Error::new(
                        lit.span(),
                        "cuda_stubs: a CUDA major is an integer from 11 to 25",
                    ));
                }
            }
        } else {
            return Err(meta.error(
                "cuda_stubs: expected `majors`, `abi`, `hand_written`, `opaque` or `version`",
            ));
        }
        Ok(())
    })?;
    let majors = majors
        .ok_or_else(|| syn::Error::new(attr.span(), "cuda_stubs: missing `majors = [...]`"))?;
    if majors.is_empty() {
        return Err(syn::Error::new(
            attr.span(),
            "cuda_stubs: `majors` is empty",
        ));
    }
    if opaque && version.is_some() {
        return Err(syn::Error::new(
            attr.span(),
            "cuda_stubs: an opaque function has no known ABI to version",
        ));
    }
    if opaque
        && (!item.sig.inputs.is_empty() || item.sig.output != ReturnType::Default || hand_written)
    {
        return Err(syn::Error::new(
            item.sig.span(),
            "cuda_stubs: an opaque function is declared `fn NAME();` (its prototype is unknown) and cannot be hand_written",
        ));
    }
    let abi = abi.unwrap_or_else(|| majors.clone());
    if let Some(m) = abi.iter().find(|m| !majors.contains(m)) {
        return Err(syn::Error::new(
            attr.span(),
            format!("cuda_stubs: abi major {m} is not in `majors`"),
        ));
    }
    let fallback = match &item.sig.output {
        ReturnType::Default => Fallback::Void,
        ReturnType::Type(_, ty) => match &**ty {
            Type::Ptr(_) => Fallback::Null,
            Type::Path(p) if p.path.is_ident(library.status_type()) => Fallback::Status,
            _ => Fallback::Zero,
        },
    };
    Ok(StubFn {
        item,
        majors,
        abi,
        hand_written,
        opaque,
        fallback,
        version,
    })
}

fn parse_majors(expr: &Expr) -> syn::Result<Vec<u32>> {
    let Expr::Array(array) = expr else {
        return Err(syn::Error::new(
            expr.span(),
            "cuda_stubs: expected a list of CUDA majors, e.g. [11, 12, 13]",
        ));
    };
    let mut out = Vec::new();
    for elem in &array.elems {
        let value = match elem {
            Expr::Lit(l) => match &l.lit {
                Lit::Int(i) => i.base10_parse::<u32>().ok(),
                _ => None,
            },
            _ => None,
        };
        match value {
            Some(v) if (11..=25).contains(&v) => out.push(v),
            _ => {
                return Err(syn::Error::new(
                    elem.span(),
                    "cuda_stubs: a CUDA major is an integer from 11 to 25",
                ));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn parse(
        args: proc_macro2::TokenStream,
        body: proc_macro2::TokenStream,
    ) -> syn::Result<StubBlock> {
        parse_block(args, syn::parse2(body).expect("an extern block"))
    }

    /// The error's message (`to_compile_error` places it at the error's span).
    fn error(args: proc_macro2::TokenStream, body: proc_macro2::TokenStream) -> String {
        parse(args, body).expect_err("must be rejected").to_string()
    }

    #[test]
    fn a_good_block_parses() {
        let b = parse(
            quote!(library = "cudart"),
            quote! {
                unsafe extern "C" {
                    #[cuda(majors = [13, 11, 12], abi = [13])]
                    pub fn cudaMemAdvise(p: *const u8, n: usize) -> cudaError_t;
                    #[cuda(majors = [12])]
                    pub fn __cudaX();
                    #[cuda(majors = [11], opaque)]
                    pub fn __cudaY();
                }
            },
        )
        .unwrap();
        assert_eq!(b.library, LibraryKind::Cudart);
        assert_eq!(b.functions[0].majors, [11, 12, 13]);
        assert_eq!(b.functions[0].abi, [13]);
        assert_eq!(b.functions[0].fallback, Fallback::Status);
        assert_eq!(b.functions[1].abi, [12]);
        assert_eq!(b.functions[1].fallback, Fallback::Void);
        assert!(b.functions[2].opaque);
    }

    #[test]
    fn mistakes_point_at_the_bad_item() {
        let cases = [
            (
                quote!(library = "cublas"),
                quote!(
                    unsafe extern "C" {}
                ),
                "library must be",
            ),
            (
                quote!(library = "nvrtc"),
                quote!(
                    unsafe extern "C" {
                        pub fn nvrtcVersion() -> nvrtcResult;
                    }
                ),
                "missing #[cuda(majors",
            ),
            (
                quote!(library = "nvrtc"),
                quote!(
                    unsafe extern "C" {
                        #[cuda(majors = [12], abi = [13])]
                        pub fn f();
                    }
                ),
                "abi major 13 is not in `majors`",
            ),
            (
                quote!(library = "nvrtc"),
                quote!(
                    unsafe extern "C" {
                        #[cuda(majors = [9])]
                        pub fn f();
                    }
                ),
                "a CUDA major is an integer from 11 to 25",
            ),
            (
                quote!(library = "nvrtc"),
                quote!(
                    unsafe extern "C" {
                        #[cuda(majors = [12], inline)]
                        pub fn f();
                    }
                ),
                "expected `majors`, `abi`, `hand_written`, `opaque` or `version`",
            ),
            (
                quote!(library = "nvrtc"),
                quote!(
                    unsafe extern "C" {
                        #[cuda(majors = [12])]
                        pub fn printf(f: *const u8, ...);
                    }
                ),
                "variadic functions cannot be forwarded",
            ),
            (
                quote!(library = "nvrtc"),
                quote!(
                    unsafe extern "C" {
                        #[cuda(majors = [12], opaque)]
                        pub fn f(x: i32);
                    }
                ),
                "an opaque function is declared `fn NAME();`",
            ),
            (
                quote!(library = "nvrtc"),
                quote!(
                    unsafe extern "C" {
                        pub static X: i32;
                    }
                ),
                "only functions may be declared",
            ),
        ];
        for (args, body, want) in cases {
            let msg = error(args, body);
            assert!(msg.contains(want), "{msg:?} lacks {want:?}");
        }
    }

    #[test]
    fn a_name_declared_per_abi_is_versioned_and_the_newest_is_the_default() {
        let b = parse(
            quote!(library = "cudart"),
            quote! {
                unsafe extern "C" {
                    #[cuda(majors = [11, 12, 13], abi = [13], hand_written, version = 13)]
                    pub fn cudaMemAdvise(p: *const u8, n: usize, loc: cudaMemLocation) -> cudaError_t;
                    #[cuda(majors = [11, 12, 13], abi = [11, 12], hand_written, version = 12)]
                    pub fn cudaMemAdvise(p: *const u8, n: usize, device: i32) -> cudaError_t;
                    #[cuda(majors = [11, 12, 13])]
                    pub fn cudaMalloc(p: *mut *mut u8, n: usize) -> cudaError_t;
                }
            },
        )
        .unwrap();
        let [v13, v12, plain] = &b.functions[..] else {
            panic!("three declarations")
        };
        assert_eq!(
            (v13.version, v12.version, plain.version),
            (Some(13), Some(12), None)
        );
        assert!(b.is_default_version(v13));
        assert!(!b.is_default_version(v12));
        assert!(!b.is_default_version(plain));
        assert_eq!(b.library.version_node(12), "CUDA_STUBS_CUDART_12");
    }

    #[test]
    fn a_name_declared_twice_needs_two_versions() {
        let cases = [
            (
                quote! {
                    #[cuda(majors = [12, 13])]
                    pub fn f();
                    #[cuda(majors = [12, 13])]
                    pub fn f();
                },
                "needs a distinct `version`",
            ),
            (
                quote! {
                    #[cuda(majors = [12, 13], version = 12)]
                    pub fn f();
                    #[cuda(majors = [12, 13], version = 12)]
                    pub fn f();
                },
                "needs a distinct `version`",
            ),
            (
                quote! {
                    #[cuda(majors = [12, 13], version = 12)]
                    pub fn f();
                    #[cuda(majors = [12, 13])]
                    pub fn f();
                },
                "needs a distinct `version`",
            ),
            (
                quote! {
                    #[cuda(majors = [12, 13])]
                    pub fn f();
                    #[cuda(majors = [12, 13], version = 13)]
                    pub fn f();
                },
                "declared versioned and unversioned",
            ),
            (
                quote! {
                    #[cuda(majors = [12, 13], opaque, version = 13)]
                    pub fn f();
                },
                "an opaque function has no known ABI to version",
            ),
            (
                quote! {
                    #[cuda(majors = [12, 13], version = 9)]
                    pub fn f();
                },
                "a CUDA major is an integer from 11 to 25",
            ),
        ];
        for (items, want) in cases {
            let msg = error(
                quote!(library = "cudart"),
                quote!(unsafe extern "C" { #items }),
            );
            assert!(msg.contains(want), "{msg:?} lacks {want:?}");
        }
    }

    #[test]
    fn every_bad_item_of_a_block_is_reported() {
        let e = parse(
            quote!(library = "cuda"),
            quote! {
                unsafe extern "C" {
                    pub fn cuA() -> CUresult;
                    #[cuda(majors = [12])]
                    pub fn cuB() -> CUresult;
                    pub fn cuC() -> CUresult;
                }
            },
        )
        .expect_err("two bad items");
        let errors: Vec<String> = e.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
    }
}

//! A declaration block: one `unsafe extern "C"` block under `#[cuda_stubs(library = "...", ..)]`
//! whose functions each carry a `#[cuda(..)]` attribute ([`CudaAttr`]). A name may be declared
//! several times only with distinct `version`s: once per ABI it is exported under (see
//! [`LibraryKind::version_node`]). The other arguments ([`BlockPaths`]) name what the emitted
//! code reaches outside the block: the macro names no crate or item of its own accord.

use crate::{CudaAttr, LibraryKind, RetKind};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{
    Expr, ForeignItem, ForeignItemFn, ItemForeignMod, Lit, LitStr, Meta, ReturnType, Token, Type,
};

/// One declared C function.
#[derive(Debug, Clone)]
pub struct StubFn {
    /// The declaration as written (attributes other than `#[cuda]` kept, e.g. docs).
    pub item: ForeignItemFn,
    /// Its `#[cuda(..)]` arguments.
    pub attr: CudaAttr,
    /// What it returns, which decides its fallback.
    pub ret: RetKind,
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
        f.attr.version.is_some()
            && self
                .functions
                .iter()
                .filter(|g| g.item.sig.ident == *name)
                .all(|g| g.attr.version <= f.attr.version)
    }
}

/// A parsed declaration block.
#[derive(Debug, Clone)]
pub struct StubBlock {
    /// Which library the block declares.
    pub library: LibraryKind,
    /// What the emitted code names outside the block.
    pub paths: BlockPaths,
    /// Its functions in declaration order.
    pub functions: Vec<StubFn>,
}

/// The paths a block's invocation gives the macro, so that the code it emits names only what
/// the invocation names (a stub crate spells its own items; the macro assumes none of them).
/// Each is optional here, where codegen and the tests read declarations; the macro requires
/// those its expansion uses.
#[derive(Debug, Clone, Default)]
pub struct BlockPaths {
    /// `loader = stub_loader`: the loader crate (`FnTable`, `FnMeta`, the asm macros).
    pub loader: Option<syn::Path>,
    /// `real = crate::LIBRARY`: the stub's `stub_loader::Library` (`stub_library!` defines
    /// it), which binds slots and records refusals.
    pub real: Option<syn::Path>,
    /// `status_texts = crate::generated::status_texts::STATUS_TEXTS`: the generated status table
    /// of a library with error-text exports (the spec's `error_texts`).
    pub status_texts: Option<syn::Path>,
    /// `adapters = crate::adapters`: the module where a hand-written version of a name declared
    /// once per ABI is, as `NAME_abi<major>` (`cudaMemAdvise_abi12`).
    pub adapters: Option<syn::Path>,
}

/// Parses the attribute arguments (`library = "cudart"`, then [`BlockPaths`]' `key = path`s)
/// and the `extern "C"` block.
pub fn parse_block(
    args: proc_macro2::TokenStream,
    block: ItemForeignMod,
) -> syn::Result<StubBlock> {
    let (library, paths) = parse_args(args)?;
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
        None => Ok(StubBlock {
            library,
            paths,
            functions,
        }),
    }
}

/// A name is declared once unversioned, or once per `version`.
fn check_versions(functions: &[StubFn]) -> syn::Result<()> {
    let mut seen: std::collections::BTreeMap<String, Vec<Option<u32>>> = Default::default();
    let mut errors: Option<syn::Error> = None;
    for f in functions {
        let versions = seen.entry(f.name()).or_default();
        if !versions.is_empty() && (f.attr.version.is_none() || versions.contains(&f.attr.version))
        {
            let e = syn::Error::new(
                f.item.sig.ident.span(),
                "cuda_stubs: a name declared twice needs a distinct `version` on each declaration",
            );
            match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            }
        }
        versions.push(f.attr.version);
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

fn parse_args(args: proc_macro2::TokenStream) -> syn::Result<(LibraryKind, BlockPaths)> {
    let span = args.span();
    let metas = Punctuated::<Meta, Token![,]>::parse_terminated.parse2(args)?;
    let mut library = None;
    let mut paths = BlockPaths::default();
    for meta in metas {
        let Meta::NameValue(nv) = &meta else {
            return Err(syn::Error::new(
                meta.span(),
                "cuda_stubs: expected `library = \"<name>\"` (a spec of stub_spec::libraries::ALL: \"cudart\", \"cublas\", …) or `key = path`",
            ));
        };
        let slot = match nv.path.get_ident().map(ToString::to_string).as_deref() {
            Some("library") => None,
            Some("loader") => Some(&mut paths.loader),
            Some("real") => Some(&mut paths.real),
            Some("status_texts") => Some(&mut paths.status_texts),
            Some("adapters") => Some(&mut paths.adapters),
            _ => {
                return Err(syn::Error::new(
                    nv.path.span(),
                    "cuda_stubs: expected `library`, `loader`, `real`, `status_texts` or `adapters`",
                ));
            }
        };
        if let Some(slot) = slot {
            match &nv.value {
                Expr::Path(p) if p.qself.is_none() => *slot = Some(p.path.clone()),
                other => {
                    return Err(syn::Error::new(other.span(), "cuda_stubs: expected a path"));
                }
            }
            continue;
        }
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
                "cuda_stubs: library must be the name of a spec of stub_spec::libraries::ALL (\"cudart\", \"nvrtc\", \"cublas\", …)",
            )
        })?);
    }
    let library =
        library.ok_or_else(|| syn::Error::new(span, "cuda_stubs: missing `library = \"...\"`"))?;
    Ok((library, paths))
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
    let cuda = CudaAttr::parse(&attr)?;
    if cuda.opaque
        && (!item.sig.inputs.is_empty()
            || item.sig.output != ReturnType::Default
            || cuda.hand_written)
    {
        return Err(syn::Error::new(
            item.sig.span(),
            "cuda_stubs: an opaque function is declared `fn NAME();` (its prototype is unknown) and cannot be hand_written",
        ));
    }
    let ret = if cuda.opaque {
        RetKind::Opaque
    } else {
        ret_kind(&item.sig.output, library)
    };
    Ok(StubFn {
        item,
        attr: cuda,
        ret,
    })
}

/// What a function declared with return type `output` returns, for `library`, when its
/// prototype is known (an `opaque` declaration is [`RetKind::Opaque`]): the macro's fallback
/// of each stub and codegen's refusal of each compatibility library's export read it alike.
pub fn ret_kind(output: &ReturnType, library: LibraryKind) -> RetKind {
    match output {
        ReturnType::Default => RetKind::Void,
        ReturnType::Type(_, ty) => match &**ty {
            Type::Ptr(_) => RetKind::Pointer,
            Type::Path(p) if is_status_type(p, library.status_type()) => RetKind::Status,
            // `ssize_t`: a count, or the library's status negated where its spec says so.
            Type::Path(p) if p.path.is_ident("isize") && library.spec().counts_negate_status => {
                RetKind::NegatedStatus
            }
            _ => RetKind::Custom,
        },
    }
}
/// Whether `ty` is the spec's status type: a C type's name (`cudaError_t`), or the path bindgen
/// writes for a plain C type serving as one (`::core::ffi::c_int`: NVTX's push/pop levels).
fn is_status_type(ty: &syn::TypePath, status: &str) -> bool {
    if ty.path.is_ident(status) {
        return true;
    }
    let path = &ty.path;
    status.starts_with("::") && quote::quote!(#path).to_string().replace(' ', "") == status
}

/// Every function a generated declaration file (`stubs-<lib>/src/generated/api.rs`) declares,
/// in file order: each `#[cuda_stubs(..)]` block of `text`, parsed as the macro parses it (for
/// the tests and the mock device's build, which read what the macro reads).
pub fn parse_declarations(text: &str) -> syn::Result<Vec<StubFn>> {
    let file = syn::parse_file(text)?;
    let mut out = Vec::new();
    for item in file.items {
        let syn::Item::ForeignMod(mut block) = item else {
            continue;
        };
        let Some(pos) = block.attrs.iter().position(|a| {
            a.path()
                .segments
                .last()
                .is_some_and(|s| s.ident == "cuda_stubs")
        }) else {
            continue;
        };
        let attr = block.attrs.remove(pos);
        let Meta::List(list) = attr.meta else {
            return Err(syn::Error::new(
                attr.span(),
                "cuda_stubs: #[cuda_stubs] without arguments",
            ));
        };
        out.extend(parse_block(list.tokens, block)?.functions);
    }
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
        assert!(b.paths.loader.is_none() && b.paths.adapters.is_none());
        assert_eq!(b.functions[0].attr.majors, [11, 12, 13]);
        assert_eq!(b.functions[0].attr.abi, [13]);
        assert_eq!(b.functions[0].ret, RetKind::Status);
        assert_eq!(b.functions[1].attr.abi, [12]);
        assert_eq!(b.functions[1].ret, RetKind::Void);
        assert!(b.functions[2].attr.opaque);
        assert_eq!(b.functions[2].ret, RetKind::Opaque);
    }

    /// A `ssize_t` (`isize`) return is a count that fails with the status negated where the
    /// spec says so (cuFile), a plain integer elsewhere (its fallback 0).
    #[test]
    fn a_count_negates_the_status_where_the_spec_says_so() {
        let block = |library: &str| {
            parse(
                quote!(library = #library),
                quote! {
                    unsafe extern "C" {
                        #[cuda(majors = [12, 13])]
                        pub fn count(n: usize) -> isize;
                        #[cuda(majors = [12, 13])]
                        pub fn other(n: usize) -> ::core::ffi::c_long;
                    }
                },
            )
            .unwrap()
        };
        let cufile = block("cufile");
        assert_eq!(cufile.functions[0].ret, RetKind::NegatedStatus);
        assert_eq!(cufile.functions[1].ret, RetKind::Custom);
        assert_eq!(block("cudart").functions[0].ret, RetKind::Custom);
    }

    #[test]
    fn the_blocks_paths_parse() {
        let b = parse(
            quote!(
                library = "cudart",
                loader = stub_loader,
                real = crate::LIBRARY,
                adapters = crate::adapters
            ),
            quote!(
                unsafe extern "C" {}
            ),
        )
        .unwrap();
        let path = |p: Option<syn::Path>| p.map(|p| quote!(#p).to_string());
        assert_eq!(path(b.paths.loader).as_deref(), Some("stub_loader"));
        assert_eq!(path(b.paths.real).as_deref(), Some("crate :: LIBRARY"));
        assert_eq!(path(b.paths.adapters).as_deref(), Some("crate :: adapters"));
        assert!(b.paths.status_texts.is_none());
        assert!(
            error(
                quote!(library = "cudart", lodaer = stub_loader),
                quote!(
                    unsafe extern "C" {}
                )
            )
            .contains("expected `library`")
        );
    }

    #[test]
    fn mistakes_point_at_the_bad_item() {
        let cases = [
            (
                quote!(library = "not_a_library"),
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
            (v13.attr.version, v12.attr.version, plain.attr.version),
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

//! Code emitted for a declared block. Everything about how a symbol is bound lives here and in
//! the `stub_loader` asm macros it calls.
//!
//! The emitted code names nothing outside the block but what the invocation gives
//! ([`stub_model::BlockPaths`]): the loader crate (`loader = stub_loader`), the stub's
//! `Library` (`real = crate::LIBRARY`), its status table and its adapters' module. The typed
//! errors the fallbacks return are the spec's values, written as literals.
//!
//! For function number `i`, `cudaMalloc`, the macro emits:
//! - the export `cudaMalloc`, a naked `jmp *SLOTS[i](%rip)` (`stub_loader::slot_jump!`): one
//!   instruction, no branch, on every call;
//! - its first-call thunk `thunks::cudaMalloc`, `mov $i, %r11d; jmp resolver`, where
//!   `SLOTS[i]` starts;
//! - a line in the block's `FUNCTIONS` table (name offset, majors, ABI majors, return kind).
//!
//! Once per block: `SLOTS`, `FUNCTIONS`, the resolver and traced entry (asm from
//! `stub_loader`) and the three shared fallbacks (library missing, function absent, zero), each
//! recording the refusal (`Library::note_refusal`) before it returns.
//! A hand-written export gets `cudaMalloc::Forward::call(..)` instead of the naked export.
//! An error-text export the spec lists (`error_texts`: `cudaGetErrorString`, `cuGetErrorName` …)
//! gets a body calling `stub_loader::ErrorTexts` with the crate's generated status table: one
//! implementation for every library, and never NULL.
//!
//! A name declared once per ABI (`version = 12`, `version = 13`) is exported once per version,
//! through `stub_loader::versioned_export!`: `cudaMemAdvise@CUDA_STUBS_CUDART_12` and
//! `cudaMemAdvise@@CUDA_STUBS_CUDART_13` (`@@`, the default a link records, on the newest).
//! Each version has its own slot and table line (gated by its own `abi`), its forwarder at
//! `cudaMemAdvise_abi12::Forward` beside the block, and its implementation at
//! `<adapters>::cudaMemAdvise_abi12` when hand-written (its arity, return type and C ABI
//! checked against the declaration), else the naked slot jump.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use stub_model::{ErrorText, RetKind, StubBlock, StubFn, TextAbi, TextKind, majors};
use syn::{FnArg, Pat};

pub fn expand(block: &StubBlock) -> TokenStream {
    match Paths::of(block) {
        Ok(paths) => expand_with(block, &paths),
        Err(e) => e.to_compile_error(),
    }
}

/// The invocation's paths the expansion uses, each required where it is used.
struct Paths {
    loader: syn::Path,
    real: syn::Path,
    status_texts: Option<syn::Path>,
    adapters: Option<syn::Path>,
}

impl Paths {
    fn of(block: &StubBlock) -> syn::Result<Paths> {
        let missing = |what: &str| {
            syn::Error::new(
                proc_macro2::Span::call_site(),
                format!("cuda_stubs: missing {what}"),
            )
        };
        let p = &block.paths;
        let needs_texts = block.functions.iter().any(|f| {
            f.attr.version.is_none()
                && block
                    .library
                    .spec()
                    .error_texts
                    .iter()
                    .any(|t| f.name() == t.function)
        });
        let needs_adapters = block
            .functions
            .iter()
            .any(|f| f.attr.hand_written && f.attr.version.is_some());
        if needs_texts && p.status_texts.is_none() {
            return Err(missing(
                "`status_texts = <the generated STATUS_TEXTS>` (the spec lists error-text exports)",
            ));
        }
        if needs_adapters && p.adapters.is_none() {
            return Err(missing(
                "`adapters = <module>` (a hand-written version is `<module>::NAME_abi<major>`)",
            ));
        }
        Ok(Paths {
            loader: p
                .loader
                .clone()
                .ok_or_else(|| missing("`loader = stub_loader`"))?,
            real: p
                .real
                .clone()
                .ok_or_else(|| missing("`real = <the stub's Library>`"))?,
            status_texts: p.status_texts.clone(),
            adapters: p.adapters.clone(),
        })
    }
}

fn expand_with(block: &StubBlock, paths: &Paths) -> TokenStream {
    let Paths { loader, real, .. } = paths;
    // A C type's name (`cudaError_t`), or a path (`::core::ffi::c_int`: NVTX's `int` levels).
    let status: syn::Type =
        syn::parse_str(block.library.status_type()).expect("a spec's status type is a type");
    let errors = block.library.spec().errors;
    // Unsuffixed: the status type's (`c_uint`, or `c_int` for NPP's negative codes).
    let no_library = Literal::i32_unsuffixed(errors.no_library.value);
    let absent = Literal::i32_unsuffixed(errors.absent.value);
    let mut names = Vec::new();
    let mut items = TokenStream::new();
    let mut thunks = TokenStream::new();
    let mut slots = Vec::new();
    let mut meta = Vec::new();
    let mut custom = Vec::new();
    let mut fallbacks = TokenStream::new();
    let mut versioned_exports = TokenStream::new();
    for (i, f) in block.functions.iter().enumerate() {
        let name = &f.item.sig.ident;
        // Thunks and fallbacks are items of their own: a versioned declaration's carry its
        // version, as its name is declared once per ABI.
        let item_name = match f.attr.version {
            Some(v) => format_ident!("{}_abi{}", name, v),
            None => name.clone(),
        };
        let offset = u32::try_from(names.len()).unwrap_or(u32::MAX);
        names.extend_from_slice(name.to_string().as_bytes());
        names.push(0);
        // `stub_loader::RetKind` is this very enum (stub-spec's), re-exported.
        let ret = format_ident!("{}", f.ret.variant());
        let (majors, abi) = (majors::mask(&f.attr.majors), majors::mask(&f.attr.abi));
        let (arg_names, arg_types) = args(f);
        // The traced entry copies TRACED_ARG_WORDS stack words: a prototype whose arguments
        // could need more (a struct by value, e.g. cudaEglFrame) is never traced.
        let traceable = if f.attr.opaque {
            quote!(false)
        } else {
            quote!(0 #(+ ::core::mem::size_of::<#arg_types>().div_ceil(8))* <= #loader::TRACED_ARG_WORDS)
        };
        meta.push(quote! {
            #loader::FnMeta {
                name: #offset, majors: #majors, abi: #abi, ret: #loader::RetKind::#ret,
                traceable: #traceable,
            }
        });
        slots.push(quote! {
            ::core::sync::atomic::AtomicPtr::new(thunks::#item_name as *mut ())
        });
        thunks.extend(quote! {
            #[unsafe(naked)]
            pub(super) unsafe extern "C" fn #item_name() {
                #loader::first_call_thunk!(#i, super::resolver)
            }
        });
        if f.ret == RetKind::Custom {
            let index = u32::try_from(i).unwrap_or(u32::MAX);
            let output = &f.item.sig.output;
            custom.push(quote! { (#index, fallbacks::#item_name as *mut ()) });
            fallbacks.extend(quote! {
                #[allow(unused_variables, clippy::too_many_arguments)]
                pub(super) unsafe extern "C" fn #item_name(#(#arg_names: #arg_types),*) #output {
                    #real.note_refusal();
                    ::core::default::Default::default()
                }
            });
        }
        match f.attr.version {
            None => {
                let text = block
                    .library
                    .spec()
                    .error_texts
                    .iter()
                    .find(|t| f.name() == t.function);
                items.extend(match text {
                    Some(text) => error_text(paths, block, f, i, text, &arg_names, &arg_types),
                    None => expand_fn(paths, f, i, &arg_names, &arg_types),
                })
            }
            Some(_) => {
                // The forwarder of each version is `NAME_abiN::Forward`, beside the others.
                items.extend(forward(f, &item_name, i, &arg_names, &arg_types));
                versioned_exports
                    .extend(versioned_export(paths, block, f, i, &item_name, &arg_types));
            }
        }
    }
    let names = Literal::byte_string(&names);
    let n = block.functions.len();
    quote! {
        #items

        /// The table of this stub's functions (see `stub_loader::FnTable`).
        pub(crate) static FUNCTIONS: #loader::FnTable = #loader::FnTable {
            names: #names,
            meta: &[#(#meta),*],
            slots: &__cuda_stubs::SLOTS,
            no_library: __cuda_stubs::no_library as *mut (),
            absent: __cuda_stubs::absent as *mut (),
            zero: __cuda_stubs::zero as *mut (),
            negated_no_library: __cuda_stubs::negated_no_library as *mut (),
            negated_absent: __cuda_stubs::negated_absent as *mut (),
            custom: &[#(#custom),*],
            traced: __cuda_stubs::traced as *mut (),
        };

        #[doc(hidden)]
        mod __cuda_stubs {
            #[allow(unused_imports)]
            use super::*;

            /// What each export jumps through; starts at the function's first-call thunk.
            pub(crate) static SLOTS: [::core::sync::atomic::AtomicPtr<()>; #n] = [#(#slots),*];

            // Each fallback records the refusal as the thread's last error, where the API has
            // one (the runtime): `void`, pointer and ignored results must not be silent.
            // The spec's codes in the status type, built at compile time: the code of a C enum,
            // or of a status struct returned by value (`status_value`).
            pub(super) unsafe extern "C" fn no_library() -> #status {
                #real.note_refusal();
                // SAFETY: the library's status type (`status_value`'s contract).
                const { unsafe { #loader::status_value::<#status>(#no_library) } }
            }
            pub(super) unsafe extern "C" fn absent() -> #status {
                #real.note_refusal();
                // SAFETY: as `no_library`.
                const { unsafe { #loader::status_value::<#status>(#absent) } }
            }
            pub(super) unsafe extern "C" fn zero() -> usize {
                #real.note_refusal();
                0
            }
            // A count that fails with the status negated (`RetKind::NegatedStatus`, `ssize_t`).
            pub(super) unsafe extern "C" fn negated_no_library() -> isize {
                #real.note_refusal();
                -#no_library
            }
            pub(super) unsafe extern "C" fn negated_absent() -> isize {
                #real.note_refusal();
                -#absent
            }

            extern "C" fn bind(index: u32) -> *mut () {
                #real.bind_index(index)
            }
            unsafe extern "C" fn enter(index: u32, state: *mut u64) -> *mut () {
                // SAFETY: the traced entry passes its own frame slot.
                unsafe { #real.hook_enter(index, state) }
            }
            extern "C" fn exit(index: u32, start: u64, raw: u64) {
                #real.hook_exit(index, start, raw)
            }

            #[unsafe(naked)]
            unsafe extern "C" fn resolver() {
                #loader::resolver_body!(bind, resolver)
            }

            #[unsafe(naked)]
            pub(super) unsafe extern "C" fn traced() {
                #loader::traced_body!(enter, exit, traced)
            }

            #[allow(non_snake_case)]
            pub(super) mod thunks {
                #thunks
            }

            /// The code of versioned exports that are not hand-written: the slot jump.
            #[allow(non_snake_case, dead_code)]
            pub(super) mod versioned {
                #[allow(unused_imports)]
                use super::*;
                #versioned_exports
            }
        }

        /// Fallbacks of functions returning neither a status nor a pointer: zero of their type.
        #[allow(non_snake_case, dead_code)]
        mod fallbacks {
            #[allow(unused_imports)]
            use super::*;
            #fallbacks
        }
    }
}

fn args(f: &StubFn) -> (Vec<syn::Ident>, Vec<syn::Type>) {
    let mut arg_names = Vec::new();
    let mut arg_types = Vec::new();
    for (i, input) in f.item.sig.inputs.iter().enumerate() {
        if let FnArg::Typed(pt) = input {
            let ident = match &*pt.pat {
                Pat::Ident(p) => p.ident.clone(),
                _ => format_ident!("arg{}", i),
            };
            arg_names.push(ident);
            arg_types.push((*pt.ty).clone());
        }
    }
    (arg_names, arg_types)
}

fn expand_fn(
    paths: &Paths,
    f: &StubFn,
    index: usize,
    arg_names: &[syn::Ident],
    arg_types: &[syn::Type],
) -> TokenStream {
    let loader = &paths.loader;
    let sig = &f.item.sig;
    let name = &sig.ident;
    let docs: Vec<_> = f
        .item
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .collect();
    let other_attrs: Vec<_> = f
        .item
        .attrs
        .iter()
        .filter(|a| !a.path().is_ident("doc"))
        .collect();
    let vis = &f.item.vis;

    let forward = forward(f, name, index, arg_names, arg_types);
    if f.attr.hand_written {
        return forward;
    }
    let safety = if f.attr.opaque {
        quote! {
            /// A C ABI entry point with a prototype no header declares: forwarded untouched.
        }
    } else {
        quote! {
            /// A C ABI entry point: the caller upholds the CUDA API contract of this function.
        }
    };
    quote! {
        #forward

        #(#docs)*
        ///
        /// # Safety
        #safety
        #(#other_attrs)*
        #[unsafe(no_mangle)]
        #[unsafe(naked)]
        #vis unsafe extern "C" fn #name() {
            #loader::slot_jump!(__cuda_stubs::SLOTS, #index)
        }
    }
}

/// The export of an error-text function (`text`, from the spec): the shared implementation
/// (`stub_loader::ErrorTexts`) with the crate's generated status table (the invocation's
/// `status_texts`), calling the real function through its slot
/// (`NAME::Forward`: traced, fault injection applies). Its prototype is checked against `text.abi`: `(status) -> *const c_char` or
/// `(status, *mut *const c_char) -> status`.
fn error_text(
    paths: &Paths,
    block: &StubBlock,
    f: &StubFn,
    index: usize,
    text: &ErrorText,
    arg_names: &[syn::Ident],
    arg_types: &[syn::Type],
) -> TokenStream {
    let Paths {
        loader,
        real,
        status_texts,
        ..
    } = paths;
    let no_library = Literal::i64_unsuffixed(block.library.spec().errors.no_library.value.into());
    let sig = &f.item.sig;
    let name = &sig.ident;
    let output = &sig.output;
    let vis = &f.item.vis;
    let docs: Vec<_> = f
        .item
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .collect();
    let forward = forward(f, name, index, arg_names, arg_types);
    let kind = match text.text {
        TextKind::Name => quote!(#loader::TextKind::Name),
        TextKind::Description => quote!(#loader::TextKind::Description),
    };
    let symbol = Literal::c_string(&std::ffi::CString::new(text.function).unwrap_or_default());
    let texts = quote! {
        #loader::ErrorTexts {
            library: &#real,
            table: #status_texts,
            no_library: #no_library,
        }
    };
    let (body, doc) = match (text.abi, arg_names) {
        (TextAbi::Returned, [code]) => (
            quote! {
                #texts.returned(#symbol, #kind, #code as i64, || {
                    // SAFETY: the slot's call; the C API accepts any code.
                    unsafe { #name::Forward::call(#code) }
                })
            },
            "Never NULL: the real library's text where it is bound, has the function and answers \
             one; else the stub's (`stub_loader::ErrorTexts::returned`).",
        ),
        (TextAbi::OutParam { unknown }, [code, out]) => {
            let unknown = i64::from(unknown.value);
            (
                quote! {
                    // SAFETY: `out` is the caller's, as the C API's contract has it.
                    unsafe {
                        #texts.out_param(#symbol, #kind, #unknown, #code as i64, #out, || {
                            #name::Forward::call(#code, #out) as i64
                        }) as _
                    }
                },
                "A non-NULL out-pointer always gets a text: the real library's where it is bound, \
                 has the function and succeeds; else the stub's, with the status NVIDIA documents \
                 (`stub_loader::ErrorTexts::out_param`).",
            )
        }
        _ => {
            return syn::Error::new_spanned(
                sig,
                "an error-text function of another prototype than its spec's `abi`",
            )
            .to_compile_error();
        }
    };
    quote! {
        #forward

        #(#docs)*
        ///
        #[doc = #doc]
        ///
        /// # Safety
        /// None beyond the C API's: any code is accepted; an out-pointer is NULL or writable.
        #[unsafe(no_mangle)]
        #vis unsafe extern "C" fn #name(#(#arg_names: #arg_types),*) #output {
            #body
        }
    }
}

/// `NAME::Forward::call(..)` (`NAME_abiN` for a version of a name declared once per ABI): the
/// call through slot `index` that hand-written exports and adapters use (nothing for an opaque
/// function, whose prototype is unknown). `NAME` is a module re-exporting `__Forward_NAME`.
fn forward(
    f: &StubFn,
    name: &syn::Ident,
    index: usize,
    arg_names: &[syn::Ident],
    arg_types: &[syn::Type],
) -> TokenStream {
    if f.attr.opaque {
        return quote! {};
    }
    let output = &f.item.sig.output;
    let fn_ty = quote! { unsafe extern "C" fn(#(#arg_types),*) #output };
    // The struct lives beside the declarations, where their types resolve; the module only
    // re-exports it. A module holding the forwarder itself would need `use super::*` for the
    // types, and one such glob per function, each importing the thousands of names beside it,
    // made rustc's name resolution quadratic: 4 of the 6 minutes of compiling stubs-nppist
    // (3366 functions) and ~1.5 GB of its memory (issue 38).
    let forward = format_ident!("__Forward_{}", name);
    quote! {
        /// Namespace of the forwarder Rust code calls (hand-written exports, adapters) as
        /// `NAME::Forward`.
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        pub(crate) struct #forward;

        #[allow(dead_code, non_snake_case)]
        impl #forward {
            /// Calls the real function (or its typed fallback) through the slot.
            #[inline]
            #[allow(clippy::too_many_arguments)]
            pub(crate) unsafe fn call(#(#arg_names: #arg_types),*) #output {
                // Relaxed: the slot holds only code addresses, each valid whenever seen.
                let entry = __cuda_stubs::SLOTS[#index]
                    .load(::core::sync::atomic::Ordering::Relaxed);
                // SAFETY: the slot holds the thunk, the real entry point of this
                // prototype, or a fallback that ignores its arguments.
                let entry: #fn_ty = unsafe { ::core::mem::transmute::<*mut (), #fn_ty>(entry) };
                // SAFETY: forwarded contract.
                unsafe { entry(#(#arg_names),*) }
            }
        }

        #[doc(hidden)]
        #[allow(non_snake_case)]
        pub(crate) mod #name {
            pub(crate) use super::#forward as Forward;
        }
    }
}

/// The export `NAME@NODE` (`@@` for the name's newest version) of a versioned declaration,
/// emitted inside `__cuda_stubs::versioned`: bound to `<adapters>::NAME_abiN` (`item_name`) when
/// hand-written (checked: `unsafe extern "C"`, the declared arity and return type; parameter
/// types may name that major's own layouts, `abi_types::vNN`), else to a naked jump through
/// slot `index`.
fn versioned_export(
    paths: &Paths,
    block: &StubBlock,
    f: &StubFn,
    index: usize,
    item_name: &syn::Ident,
    arg_types: &[syn::Type],
) -> TokenStream {
    let Some(version) = f.attr.version else {
        return quote! {};
    };
    let name = f.name();
    let node = block.library.version_node(version);
    let at = if block.is_default_version(f) {
        "@@"
    } else {
        "@"
    };
    let symbol = Literal::string(&format!("{name}{at}{node}"));
    // Windows has no symbol versions: the default version is the plain name, the others an
    // export of their own that `stubs_cudart_abi12.lib` imports under the plain name.
    let windows = Literal::string(&if at == "@@" {
        name.to_string()
    } else {
        block.library.windows_export(&name, version)
    });
    let label = Literal::string(&format!(
        "__cuda_stubs_{}{version}_{name}",
        block.library.name()
    ));
    let loader = &paths.loader;
    if let (true, Some(adapters)) = (f.attr.hand_written, &paths.adapters) {
        let holes = arg_types.iter().map(|_| quote!(_));
        let output = match &f.item.sig.output {
            syn::ReturnType::Default => quote!(),
            syn::ReturnType::Type(_, t) => quote!(-> #t),
        };
        quote! {
            const _: () = {
                let _: unsafe extern "C" fn(#(#holes),*) #output = #adapters::#item_name;
            };
            #loader::versioned_export!(#label, #symbol, #windows, #adapters::#item_name);
        }
    } else {
        quote! {
            #[unsafe(naked)]
            pub(crate) unsafe extern "C" fn #item_name() {
                #loader::slot_jump!(super::SLOTS, #index)
            }
            #loader::versioned_export!(#label, #symbol, #windows, #item_name);
        }
    }
}

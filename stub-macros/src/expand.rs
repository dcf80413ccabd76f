//! Code emitted for a declared block. Everything about how a symbol is bound lives here and in
//! the `stub_loader` asm macros it calls.
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

use crate::model::{Fallback, StubBlock, StubFn};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use syn::{FnArg, Pat};

pub fn expand(block: &StubBlock) -> TokenStream {
    let status = syn::Ident::new(block.library.status_type(), proc_macro2::Span::call_site());
    let mut names = Vec::new();
    let mut items = TokenStream::new();
    let mut thunks = TokenStream::new();
    let mut slots = Vec::new();
    let mut meta = Vec::new();
    let mut custom = Vec::new();
    let mut fallbacks = TokenStream::new();
    for (i, f) in block.functions.iter().enumerate() {
        let name = &f.item.sig.ident;
        let offset = u32::try_from(names.len()).unwrap_or(u32::MAX);
        names.extend_from_slice(name.to_string().as_bytes());
        names.push(0);
        let ret = match (f.opaque, f.fallback) {
            (true, _) => quote!(Opaque),
            (_, Fallback::Status) => quote!(Status),
            (_, Fallback::Void) => quote!(Void),
            (_, Fallback::Null) => quote!(Pointer),
            (_, Fallback::Zero) => quote!(Custom),
        };
        let (majors, abi) = (mask(&f.majors), mask(&f.abi));
        let (arg_names, arg_types) = args(f);
        // The traced entry copies TRACED_ARG_WORDS stack words: a prototype whose arguments
        // could need more (a struct by value, e.g. cudaEglFrame) is never traced.
        let traceable = if f.opaque {
            quote!(false)
        } else {
            quote!(0 #(+ ::core::mem::size_of::<#arg_types>().div_ceil(8))* <= ::stub_loader::TRACED_ARG_WORDS)
        };
        meta.push(quote! {
            ::stub_loader::FnMeta {
                name: #offset, majors: #majors, abi: #abi, ret: ::stub_loader::RetKind::#ret,
                traceable: #traceable,
            }
        });
        slots.push(quote! {
            ::core::sync::atomic::AtomicPtr::new(thunks::#name as *mut ())
        });
        thunks.extend(quote! {
            #[unsafe(naked)]
            pub(super) unsafe extern "C" fn #name() {
                ::stub_loader::first_call_thunk!(#i, super::resolver)
            }
        });
        if !f.opaque && f.fallback == Fallback::Zero {
            let index = u32::try_from(i).unwrap_or(u32::MAX);
            let output = &f.item.sig.output;
            custom.push(quote! { (#index, fallbacks::#name as *mut ()) });
            fallbacks.extend(quote! {
                #[allow(unused_variables, clippy::too_many_arguments)]
                pub(super) unsafe extern "C" fn #name(#(#arg_names: #arg_types),*) #output {
                    crate::LIBRARY.note_refusal();
                    ::core::default::Default::default()
                }
            });
        }
        items.extend(expand_fn(f, i, &arg_names, &arg_types));
    }
    let names = Literal::byte_string(&names);
    let n = block.functions.len();
    quote! {
        #items

        /// The table of this stub's functions (see `stub_loader::FnTable`).
        pub(crate) static FUNCTIONS: ::stub_loader::FnTable = ::stub_loader::FnTable {
            names: #names,
            meta: &[#(#meta),*],
            slots: &__cuda_stubs::SLOTS,
            no_library: __cuda_stubs::no_library as *mut (),
            absent: __cuda_stubs::absent as *mut (),
            zero: __cuda_stubs::zero as *mut (),
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
            pub(super) unsafe extern "C" fn no_library() -> #status {
                crate::LIBRARY.note_refusal();
                crate::STATUS_NO_LIBRARY
            }
            pub(super) unsafe extern "C" fn absent() -> #status {
                crate::LIBRARY.note_refusal();
                crate::STATUS_ABSENT
            }
            pub(super) unsafe extern "C" fn zero() -> usize {
                crate::LIBRARY.note_refusal();
                0
            }

            extern "C" fn bind(index: u32) -> *mut () {
                crate::LIBRARY.bind_index(index)
            }
            unsafe extern "C" fn enter(index: u32, state: *mut u64) -> *mut () {
                // SAFETY: the traced entry passes its own frame slot.
                unsafe { crate::LIBRARY.hook_enter(index, state) }
            }
            extern "C" fn exit(index: u32, start: u64, raw: u64) {
                crate::LIBRARY.hook_exit(index, start, raw)
            }

            #[unsafe(naked)]
            unsafe extern "C" fn resolver() {
                ::stub_loader::resolver_body!(bind)
            }

            #[unsafe(naked)]
            pub(super) unsafe extern "C" fn traced() {
                ::stub_loader::traced_body!(enter, exit)
            }

            #[allow(non_snake_case)]
            pub(super) mod thunks {
                #thunks
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

/// Bit `m - 10` for each major `m` (the model keeps majors within 11..=25).
fn mask(majors: &[u32]) -> u16 {
    majors.iter().fold(0, |m, v| {
        m | v.checked_sub(10).map_or(0, |b| 1u16 << b.min(15))
    })
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
    f: &StubFn,
    index: usize,
    arg_names: &[syn::Ident],
    arg_types: &[syn::Type],
) -> TokenStream {
    let sig = &f.item.sig;
    let name = &sig.ident;
    let output = &sig.output;
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

    let forward = if f.opaque {
        quote! {}
    } else {
        let fn_ty = quote! { unsafe extern "C" fn(#(#arg_types),*) #output };
        quote! {
            #[doc(hidden)]
            #[allow(non_snake_case)]
            pub(crate) mod #name {
                #[allow(unused_imports)]
                use super::*;

                /// Namespace of the forwarder Rust code calls (hand-written exports, adapters).
                pub(crate) struct Forward;

                #[allow(dead_code)]
                impl Forward {
                    /// Calls the real function (or its typed fallback) through the slot.
                    #[inline]
                    #[allow(clippy::too_many_arguments)]
                    pub(crate) unsafe fn call(#(#arg_names: #arg_types),*) #output {
                        // Relaxed: the slot holds only code addresses, each valid whenever seen.
                        let entry = super::__cuda_stubs::SLOTS[#index]
                            .load(::core::sync::atomic::Ordering::Relaxed);
                        // SAFETY: the slot holds the thunk, the real entry point of this
                        // prototype, or a fallback that ignores its arguments.
                        let entry: #fn_ty = unsafe { ::core::mem::transmute::<*mut (), #fn_ty>(entry) };
                        // SAFETY: forwarded contract.
                        unsafe { entry(#(#arg_names),*) }
                    }
                }
            }
        }
    };
    if f.hand_written {
        return forward;
    }
    let safety = if f.opaque {
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
            ::stub_loader::slot_jump!(__cuda_stubs::SLOTS, #index)
        }
    }
}

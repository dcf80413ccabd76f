//! Code emitted per declared function. Everything about how a symbol is bound lives here.
//!
//! For `cudaMalloc` the macro emits:
//! - `pub unsafe extern "C" fn cudaMalloc(..)`, exported (`no_mangle`): it loads the slot and
//!   tail-calls it, which optimises to `mov slot, %rax; jmp *%rax` — no branch on the hot path;
//! - `mod cudaMalloc { SLOT, resolve, fallback }`: the slot starts at `resolve`, a thunk with the
//!   same prototype that asks the loader for the real entry point (or the fallback), stores it
//!   and tail-calls it. Every later call goes straight to the real function.

use crate::model::{Fallback, StubBlock, StubFn};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{FnArg, Pat};

pub fn expand(block: &StubBlock) -> TokenStream {
    let status: syn::Ident =
        syn::Ident::new(block.library.status_type(), proc_macro2::Span::call_site());
    block
        .functions
        .iter()
        .map(|f| {
            if f.opaque {
                expand_opaque(f, &status)
            } else {
                expand_fn(f)
            }
        })
        .collect()
}

/// An export whose prototype is unknown: a naked `jmp *slot`, and a per-function naked stub
/// that hands its descriptor to the loader's shared resolver, which saves and restores every
/// argument register around the lookup. No tracing (the arguments cannot be read).
fn expand_opaque(f: &StubFn, status: &syn::Ident) -> TokenStream {
    let name = &f.item.sig.ident;
    let name_c = syn::LitCStr::new(
        &std::ffi::CString::new(name.to_string()).unwrap_or_default(),
        name.span(),
    );
    let docs: Vec<_> = f
        .item
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .collect();
    let majors = mask(&f.majors);
    let abi = mask(&f.abi);
    quote! {
        #(#docs)*
        ///
        /// # Safety
        /// A C ABI entry point with a prototype no header declares: forwarded untouched.
        #[unsafe(no_mangle)]
        #[unsafe(naked)]
        pub unsafe extern "C" fn #name() {
            ::stub_loader::opaque_jump!(#name::SLOT)
        }

        #[doc(hidden)]
        #[allow(non_snake_case)]
        pub(crate) mod #name {
            #[allow(unused_imports)]
            use super::*;

            pub(crate) static SLOT: ::core::sync::atomic::AtomicPtr<()> =
                ::core::sync::atomic::AtomicPtr::new(resolve as *mut ());

            static DESC: ::stub_loader::OpaqueDesc = ::stub_loader::OpaqueDesc {
                library: &crate::LIBRARY,
                slot: &SLOT,
                name: #name_c,
                gate: ::stub_loader::SymbolGate { majors: #majors, abi: #abi },
                fallback: fallback as *mut (),
            };

            #[unsafe(naked)]
            unsafe extern "C" fn resolve() {
                ::stub_loader::opaque_resolve_stub!(DESC)
            }

            unsafe extern "C" fn fallback() -> #status {
                if crate::LIBRARY.loaded().is_bound() { crate::STATUS_ABSENT } else { crate::STATUS_NO_LIBRARY }
            }
        }
    }
}

fn mask(majors: &[u32]) -> u32 {
    majors.iter().fold(0, |m, v| m | (1 << v))
}

fn expand_fn(f: &StubFn) -> TokenStream {
    let sig = &f.item.sig;
    let name = &sig.ident;
    let name_c = syn::LitCStr::new(
        &std::ffi::CString::new(name.to_string()).unwrap_or_default(),
        name.span(),
    );
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
    let output = &sig.output;

    let mut arg_names = Vec::new();
    let mut arg_types = Vec::new();
    for (i, input) in sig.inputs.iter().enumerate() {
        if let FnArg::Typed(pt) = input {
            let ident = match &*pt.pat {
                Pat::Ident(p) => p.ident.clone(),
                _ => format_ident!("arg{}", i),
            };
            arg_names.push(ident);
            arg_types.push((*pt.ty).clone());
        }
    }
    let fn_ty = quote! { unsafe extern "C" fn(#(#arg_types),*) #output };
    let majors = mask(&f.majors);
    let abi = mask(&f.abi);
    let fallback_body = match f.fallback {
        Fallback::Status => quote! {
            if crate::LIBRARY.loaded().is_bound() { crate::STATUS_ABSENT } else { crate::STATUS_NO_LIBRARY }
        },
        Fallback::Void => quote! {},
        Fallback::Null => quote! { ::core::ptr::null_mut::<()>() as _ },
        Fallback::Zero => quote! { ::core::default::Default::default() },
    };
    let (record_ok, injected) = match f.fallback {
        Fallback::Status => (
            quote! { ::stub_loader::TraceResult::Status(__cuda_stubs_result as i64) },
            quote! {
                if let ::core::option::Option::Some(__cuda_stubs_code) = crate::LIBRARY.inject(&HOOK) {
                    crate::LIBRARY.record(&HOOK, __cuda_stubs_start, ::stub_loader::TraceResult::Injected(__cuda_stubs_code));
                    return __cuda_stubs_code as _;
                }
            },
        ),
        Fallback::Null => (
            quote! { ::stub_loader::TraceResult::Pointer(__cuda_stubs_result as usize) },
            quote! {},
        ),
        Fallback::Void | Fallback::Zero => (quote! { ::stub_loader::TraceResult::Void }, quote! {}),
    };
    let call_slot = quote! {
        // Relaxed: the slot holds only code addresses, each valid whenever it is seen.
        let __cuda_stubs_entry: #fn_ty = unsafe {
            ::core::mem::transmute::<*mut (), #fn_ty>(#name::SLOT.load(::core::sync::atomic::Ordering::Relaxed))
        };
        unsafe { __cuda_stubs_entry(#(#arg_names),*) }
    };
    let entry = if f.hand_written {
        quote! {
            impl #name::Forward {
                /// Calls the real function (or its typed fallback) through the slot.
                #[inline]
                pub(crate) unsafe fn call(#(#arg_names: #arg_types),*) #output { #call_slot }
            }
        }
    } else {
        quote! {
            #(#docs)*
            ///
            /// # Safety
            /// A C ABI entry point: the caller upholds the CUDA API contract of this function.
            #(#other_attrs)*
            #[unsafe(no_mangle)]
            #vis unsafe extern "C" fn #name(#(#arg_names: #arg_types),*) #output { #call_slot }
        }
    };
    quote! {
        #entry

        #[doc(hidden)]
        #[allow(non_snake_case)]
        pub(crate) mod #name {
            #[allow(unused_imports)]
            use super::*;

            /// Namespace of the hand-written forwarder.
            #[allow(dead_code)]
            pub(crate) struct Forward;

            pub(crate) static SLOT: ::core::sync::atomic::AtomicPtr<()> =
                ::core::sync::atomic::AtomicPtr::new(resolve as *mut ());

            const GATE: ::stub_loader::SymbolGate = ::stub_loader::SymbolGate { majors: #majors, abi: #abi };

            unsafe extern "C" fn resolve(#(#arg_names: #arg_types),*) #output {
                let __cuda_stubs_entry: #fn_ty = unsafe {
                    ::core::mem::transmute::<*mut (), #fn_ty>(
                        crate::LIBRARY.bind(&SLOT, #name_c, GATE, fallback as *mut (), &HOOK, hooked as *mut ()),
                    )
                };
                unsafe { __cuda_stubs_entry(#(#arg_names),*) }
            }

            pub(crate) static HOOK: ::stub_loader::Hook = ::stub_loader::Hook::new(#name_c);

            /// Stored in the slot instead of the real function only when tracing or fault
            /// injection selects this function.
            #[allow(clippy::unnecessary_cast, clippy::let_unit_value)]
            unsafe extern "C" fn hooked(#(#arg_names: #arg_types),*) #output {
                let __cuda_stubs_start = ::stub_loader::clock_ns();
                #injected
                let __cuda_stubs_entry: #fn_ty = unsafe {
                    ::core::mem::transmute::<*mut (), #fn_ty>(HOOK.real.load(::core::sync::atomic::Ordering::Acquire))
                };
                let __cuda_stubs_result = unsafe { __cuda_stubs_entry(#(#arg_names),*) };
                crate::LIBRARY.record(&HOOK, __cuda_stubs_start, #record_ok);
                __cuda_stubs_result
            }

            #[allow(unused_variables)]
            unsafe extern "C" fn fallback(#(#arg_names: #arg_types),*) #output { #fallback_body }
        }
    }
}

//! Code emitted per declared function. Everything about how a symbol is bound lives here.
//!
//! For `cudaMalloc` the macro emits:
//! - `pub unsafe extern "C" fn cudaMalloc(..)`, exported (`no_mangle`): it loads the slot and
//!   tail-calls it, which optimises to `mov slot(%rip),%rax; jmp *%rax` — no branch on the hot
//!   path;
//! - `mod cudaMalloc { SLOT, DESC, resolve, fallback, HOOK, hooked }`: the slot starts at
//!   `resolve`, a 12-byte naked stub that hands `DESC` to the loader's shared resolver, which
//!   binds the slot (real entry point, typed fallback, or `hooked` when tracing or fault
//!   injection selects the function) and jumps there with every argument register intact.

use crate::model::{Fallback, StubBlock, StubFn};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{FnArg, Pat};

pub fn expand(block: &StubBlock) -> TokenStream {
    let status = syn::Ident::new(block.library.status_type(), proc_macro2::Span::call_site());
    block
        .functions
        .iter()
        .map(|f| expand_fn(f, &status))
        .collect()
}

fn mask(majors: &[u32]) -> u32 {
    majors.iter().fold(0, |m, v| m | (1 << v))
}

fn expand_fn(f: &StubFn, status: &syn::Ident) -> TokenStream {
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
    let majors = mask(&f.majors);
    let abi = mask(&f.abi);

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

    // What runs when the real function cannot be called. Extra arguments from the caller are
    // ignored, as the C ABI allows (the caller cleans up).
    let (fallback_sig, fallback_body) = if f.opaque {
        (quote! { () -> #status }, status_fallback())
    } else {
        let body = match f.fallback {
            Fallback::Status => status_fallback(),
            Fallback::Void => quote! {},
            Fallback::Null => quote! { ::core::ptr::null_mut::<()>() as _ },
            Fallback::Zero => quote! { ::core::default::Default::default() },
        };
        (quote! { (#(#arg_names: #arg_types),*) #output }, body)
    };

    let export = if f.opaque {
        // The prototype is unknown: a naked jump leaves every argument where the caller put it.
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
        }
    } else {
        let call_slot = quote! {
            // Relaxed: the slot holds only code addresses, each valid whenever it is seen.
            let __cuda_stubs_entry: #fn_ty = unsafe {
                ::core::mem::transmute::<*mut (), #fn_ty>(#name::SLOT.load(::core::sync::atomic::Ordering::Relaxed))
            };
            unsafe { __cuda_stubs_entry(#(#arg_names),*) }
        };
        if f.hand_written {
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
        }
    };

    let (hook_field, hooked) = if f.opaque {
        (quote! { ::core::option::Option::None }, quote! {})
    } else {
        (
            quote! { ::core::option::Option::Some((&HOOK, hooked as *mut ())) },
            hooked_wrapper(f, &arg_names, &arg_types, output, &fn_ty),
        )
    };

    quote! {
        #export

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

            static DESC: ::stub_loader::BindDesc = ::stub_loader::BindDesc {
                library: &crate::LIBRARY,
                slot: &SLOT,
                name: #name_c,
                gate: ::stub_loader::SymbolGate { majors: #majors, abi: #abi },
                fallback: fallback as *mut (),
                hook: #hook_field,
            };

            #[unsafe(naked)]
            unsafe extern "C" fn resolve() {
                ::stub_loader::resolve_stub!(DESC)
            }

            #[allow(unused_variables)]
            unsafe extern "C" fn fallback #fallback_sig { #fallback_body }

            #hooked
        }
    }
}

fn status_fallback() -> TokenStream {
    quote! {
        if crate::LIBRARY.loaded().is_bound() { crate::STATUS_ABSENT } else { crate::STATUS_NO_LIBRARY }
    }
}

/// Stored in the slot instead of the real function only when tracing or fault injection
/// selects this function.
fn hooked_wrapper(
    f: &StubFn,
    arg_names: &[syn::Ident],
    arg_types: &[syn::Type],
    output: &syn::ReturnType,
    fn_ty: &TokenStream,
) -> TokenStream {
    let (record_ok, injected) = match f.fallback {
        Fallback::Status => (
            quote! { ::stub_loader::TraceResult::Status(__cuda_stubs_result as i64) },
            quote! {
                if let ::core::option::Option::Some(__cuda_stubs_code) = __cuda_stubs_inject {
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
    quote! {
        pub(crate) static HOOK: ::stub_loader::Hook = ::stub_loader::Hook::new(DESC.name);

        #[allow(clippy::unnecessary_cast, clippy::let_unit_value, unused_variables)]
        unsafe extern "C" fn hooked(#(#arg_names: #arg_types),*) #output {
            let (__cuda_stubs_start, __cuda_stubs_inject) = crate::LIBRARY.enter(&HOOK);
            #injected
            let __cuda_stubs_entry: #fn_ty = unsafe {
                ::core::mem::transmute::<*mut (), #fn_ty>(HOOK.real.load(::core::sync::atomic::Ordering::Acquire))
            };
            let __cuda_stubs_result = unsafe { __cuda_stubs_entry(#(#arg_names),*) };
            crate::LIBRARY.record(&HOOK, __cuda_stubs_start, #record_ok);
            __cuda_stubs_result
        }
    }
}

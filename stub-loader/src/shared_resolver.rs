//! The first call of every function. Until bound, a function's slot points at a 12-byte naked
//! stub that loads the function's [`BindDesc`] into a scratch register (r11 on x86-64, x16 on
//! aarch64) and jumps to [`shared_resolve`], which saves every argument register (integer,
//! vector, the x86-64 `al` vector count), binds the slot, restores them and jumps to the bound
//! target as if it had been called directly. Stack arguments are never touched, so one resolver
//! serves every prototype — also those no header declares (`__cudaGetKernel`, `cudbgApiInit`),
//! whose exports are naked `jmp *slot` too.

use crate::hooks::Hook;
use crate::library::{Library, SymbolGate};
use core::ffi::CStr;
use std::sync::atomic::AtomicPtr;

/// Everything the shared resolver needs about one function (a `static` per function, emitted
/// by the `cuda_stubs` macro).
#[derive(Debug)]
pub struct BindDesc {
    /// The library it belongs to.
    pub library: &'static Library,
    /// The slot its export jumps through.
    pub slot: &'static AtomicPtr<()>,
    /// The C symbol name.
    pub name: &'static CStr,
    /// Which majors have it.
    pub gate: SymbolGate,
    /// Returns the library's typed error when the real function cannot be called.
    pub fallback: *mut (),
    /// Tracing / fault-injection state, and the wrapper stored in the slot when
    /// `CUDA_STUBS_TRACE` or `CUDA_STUBS_FAULT` selects the function; `None` for functions
    /// whose prototype is unknown.
    pub hook: Option<(&'static Hook, *mut ())>,
}

// SAFETY: `fallback` and the wrapper are code addresses, immutable and valid from every thread.
unsafe impl Sync for BindDesc {}

/// Called by [`shared_resolve`] with all argument registers saved: binds and returns the target.
extern "C" fn bind_desc(desc: &BindDesc) -> *mut () {
    desc.library
        .bind(desc.slot, desc.name, desc.gate, desc.fallback, desc.hook)
}

#[cfg(target_arch = "x86_64")]
/// The shared resolver: r11 holds the `BindDesc`; the stack is as the caller left it.
///
/// # Safety
/// Only reached by a jump from a function's first-call stub, with r11 set.
#[unsafe(naked)]
pub unsafe extern "C" fn shared_resolve() {
    core::arch::naked_asm!(
        "push rbp",
        "mov rbp, rsp",
        "push rdi",
        "push rsi",
        "push rdx",
        "push rcx",
        "push r8",
        "push r9",
        "push rax",
        "sub rsp, 136",
        "movdqu [rsp + 0], xmm0",
        "movdqu [rsp + 16], xmm1",
        "movdqu [rsp + 32], xmm2",
        "movdqu [rsp + 48], xmm3",
        "movdqu [rsp + 64], xmm4",
        "movdqu [rsp + 80], xmm5",
        "movdqu [rsp + 96], xmm6",
        "movdqu [rsp + 112], xmm7",
        "mov rdi, r11",
        "call {bind}",
        "mov r11, rax",
        "movdqu xmm0, [rsp + 0]",
        "movdqu xmm1, [rsp + 16]",
        "movdqu xmm2, [rsp + 32]",
        "movdqu xmm3, [rsp + 48]",
        "movdqu xmm4, [rsp + 64]",
        "movdqu xmm5, [rsp + 80]",
        "movdqu xmm6, [rsp + 96]",
        "movdqu xmm7, [rsp + 112]",
        "add rsp, 136",
        "pop rax",
        "pop r9",
        "pop r8",
        "pop rcx",
        "pop rdx",
        "pop rsi",
        "pop rdi",
        "pop rbp",
        "jmp r11",
        bind = sym bind_desc,
    )
}

#[cfg(target_arch = "aarch64")]
/// The shared resolver: x16 holds the `BindDesc`; the stack is as the caller left it.
///
/// # Safety
/// Only reached by a jump from a function's first-call stub, with x16 set.
#[unsafe(naked)]
pub unsafe extern "C" fn shared_resolve() {
    core::arch::naked_asm!(
        "stp x29, x30, [sp, #-224]!",
        "mov x29, sp",
        "stp x0, x1, [sp, #16]",
        "stp x2, x3, [sp, #32]",
        "stp x4, x5, [sp, #48]",
        "stp x6, x7, [sp, #64]",
        "str x8, [sp, #80]",
        "stp q0, q1, [sp, #96]",
        "stp q2, q3, [sp, #128]",
        "stp q4, q5, [sp, #160]",
        "stp q6, q7, [sp, #192]",
        "mov x0, x16",
        "bl {bind}",
        "mov x16, x0",
        "ldp q6, q7, [sp, #192]",
        "ldp q4, q5, [sp, #160]",
        "ldp q2, q3, [sp, #128]",
        "ldp q0, q1, [sp, #96]",
        "ldr x8, [sp, #80]",
        "ldp x6, x7, [sp, #64]",
        "ldp x4, x5, [sp, #48]",
        "ldp x2, x3, [sp, #32]",
        "ldp x0, x1, [sp, #16]",
        "ldp x29, x30, [sp], #224",
        "br x16",
        bind = sym bind_desc,
    )
}

/// Body of an export whose prototype is unknown: jump through its slot.
#[cfg(target_arch = "x86_64")]
#[macro_export]
macro_rules! opaque_jump {
    ($slot:path) => {
        ::core::arch::naked_asm!("jmp qword ptr [rip + {slot}]", slot = sym $slot)
    };
}

/// Body of an export whose prototype is unknown: jump through its slot.
#[cfg(target_arch = "aarch64")]
#[macro_export]
macro_rules! opaque_jump {
    ($slot:path) => {
        ::core::arch::naked_asm!(
            "adrp x16, {slot}",
            "ldr x16, [x16, :lo12:{slot}]",
            "br x16",
            slot = sym $slot
        )
    };
}

/// Body of a function's first-call stub: its descriptor to the shared resolver.
#[cfg(target_arch = "x86_64")]
#[macro_export]
macro_rules! resolve_stub {
    ($desc:path) => {
        ::core::arch::naked_asm!(
            "lea r11, [rip + {desc}]",
            "jmp {shared}",
            desc = sym $desc,
            shared = sym ::stub_loader::shared_resolve
        )
    };
}

/// Body of a function's first-call stub: its descriptor to the shared resolver.
#[cfg(target_arch = "aarch64")]
#[macro_export]
macro_rules! resolve_stub {
    ($desc:path) => {
        ::core::arch::naked_asm!(
            "adrp x16, {desc}",
            "add x16, x16, :lo12:{desc}",
            "b {shared}",
            desc = sym $desc,
            shared = sym ::stub_loader::shared_resolve
        )
    };
}

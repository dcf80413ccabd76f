//! The code every export runs through, as `naked_asm!` bodies the `cuda_stubs` macro puts in
//! each stub (one place decides how symbols are bound).
//!
//! - Export: `jmp *slot(%rip)` — one instruction over a direct call ([`slot_jump!`]).
//! - A slot starts at its function's first-call thunk, `mov $index, %r11d; jmp resolver`
//!   (aarch64: x16) ([`first_call_thunk!`]).
//! - The resolver ([`resolver_body!`]) saves every argument register (integer, vector, the
//!   x86-64 `al` vector count, the aarch64 `x8` result pointer), calls the stub's bind function
//!   with the index, restores them and jumps to what it returned as if called directly. Stack
//!   arguments are never touched, so one resolver serves every prototype — also those no
//!   header declares (`__cudaGetKernel`, `cudbgApiInit`).
//! - The traced entry ([`traced_body!`]), reached only for functions `CUDA_STUBS_TRACE` or
//!   `CUDA_STUBS_FAULT` selects, calls the real function in a frame of its own so that it can
//!   see the result: it copies [`TRACED_ARG_WORDS`] stack words of arguments (the macro marks
//!   prototypes whose arguments could need more as never traced).
//!
//! Windows x64 (the Microsoft x64 calling convention) has its own resolver and traced entry:
//! arguments in rcx, rdx, r8, r9 and xmm0-3, 32 bytes of home space above the return address,
//! rsi/rdi preserved, and unwind data as `.seh_*` directives (`.pdata`/`.xdata`), which
//! Windows needs to unwind through a frame at all (an exception, a debugger's stack).
//!
//! The resolver and the traced entry are real frames between the caller and the real function,
//! so both carry CFI (`.cfi_*`: the naked functions get no unwind information of their own):
//! debuggers, profilers and `backtrace()` taken inside the real function unwind through them
//! to the caller. The exports and thunks only jump, and never need it.

/// Eight-byte stack words of arguments the traced entry copies for the real call (even, so the
/// frame keeps its 16-byte alignment). Functions whose arguments total more words are never
/// traced (the `cuda_stubs` macro computes it per prototype).
pub const TRACED_ARG_WORDS: usize = 16;

/// Body of an export: a jump through slot `$index` of `$slots`.
#[cfg(target_arch = "x86_64")]
#[macro_export]
macro_rules! slot_jump {
    ($slots:path, $index:expr) => {
        ::core::arch::naked_asm!(
            "jmp qword ptr [rip + {slots} + {offset}]",
            slots = sym $slots,
            offset = const 8 * $index,
        )
    };
}

/// Body of an export: a jump through slot `$index` of `$slots`.
#[cfg(target_arch = "aarch64")]
#[macro_export]
macro_rules! slot_jump {
    ($slots:path, $index:expr) => {
        ::core::arch::naked_asm!(
            "adrp x16, {slots}+{offset}",
            "ldr x16, [x16, :lo12:{slots}+{offset}]",
            "br x16",
            slots = sym $slots,
            offset = const 8 * $index,
        )
    };
}

/// Body of a function's first-call thunk: its index to the resolver.
#[cfg(target_arch = "x86_64")]
#[macro_export]
macro_rules! first_call_thunk {
    ($index:expr, $resolver:path) => {
        ::core::arch::naked_asm!(
            "mov r11d, {index}",
            "jmp {resolver}",
            index = const $index,
            resolver = sym $resolver,
        )
    };
}

/// Body of a function's first-call thunk: its index to the resolver.
#[cfg(target_arch = "aarch64")]
#[macro_export]
macro_rules! first_call_thunk {
    ($index:expr, $resolver:path) => {
        ::core::arch::naked_asm!(
            "mov w16, #{index}",
            "b {resolver}",
            index = const $index,
            resolver = sym $resolver,
        )
    };
}

/// Body of the resolver: r11 holds the index; `$bind` is `extern "C" fn(u32) -> *mut ()`.
/// `$me` is the resolver itself (its unwind data names it on Windows).
#[cfg(all(target_arch = "x86_64", unix))]
#[macro_export]
macro_rules! resolver_body {
    ($bind:path, $me:path) => {
        ::core::arch::naked_asm!(
            ".cfi_startproc",
            "push rbp",
            ".cfi_adjust_cfa_offset 8",
            ".cfi_offset rbp, -16",
            "mov rbp, rsp",
            ".cfi_def_cfa_register rbp",
            "push rdi",
            "push rsi",
            "push rdx",
            "push rcx",
            "push r8",
            "push r9",
            "push rax",
            "push r11",
            "sub rsp, 128",
            "movdqu [rsp + 0], xmm0",
            "movdqu [rsp + 16], xmm1",
            "movdqu [rsp + 32], xmm2",
            "movdqu [rsp + 48], xmm3",
            "movdqu [rsp + 64], xmm4",
            "movdqu [rsp + 80], xmm5",
            "movdqu [rsp + 96], xmm6",
            "movdqu [rsp + 112], xmm7",
            "mov edi, r11d",
            "call {bind}",
            "mov r10, rax",
            "movdqu xmm0, [rsp + 0]",
            "movdqu xmm1, [rsp + 16]",
            "movdqu xmm2, [rsp + 32]",
            "movdqu xmm3, [rsp + 48]",
            "movdqu xmm4, [rsp + 64]",
            "movdqu xmm5, [rsp + 80]",
            "movdqu xmm6, [rsp + 96]",
            "movdqu xmm7, [rsp + 112]",
            "add rsp, 128",
            // r11 keeps the index for the traced entry.
            "pop r11",
            "pop rax",
            "pop r9",
            "pop r8",
            "pop rcx",
            "pop rdx",
            "pop rsi",
            "pop rdi",
            "pop rbp",
            ".cfi_def_cfa rsp, 8",
            ".cfi_restore rbp",
            "jmp r10",
            ".cfi_endproc",
            bind = sym $bind,
        )
    };
}

/// Body of the resolver: x16 holds the index; `$bind` is `extern "C" fn(u32) -> *mut ()`.
#[cfg(target_arch = "aarch64")]
#[macro_export]
macro_rules! resolver_body {
    ($bind:path, $me:path) => {
        ::core::arch::naked_asm!(
            ".cfi_startproc",
            "stp x29, x30, [sp, #-224]!",
            ".cfi_def_cfa_offset 224",
            ".cfi_offset x29, -224",
            ".cfi_offset x30, -216",
            "mov x29, sp",
            ".cfi_def_cfa x29, 224",
            "stp x0, x1, [sp, #16]",
            "stp x2, x3, [sp, #32]",
            "stp x4, x5, [sp, #48]",
            "stp x6, x7, [sp, #64]",
            "stp x8, x16, [sp, #80]",
            "stp q0, q1, [sp, #96]",
            "stp q2, q3, [sp, #128]",
            "stp q4, q5, [sp, #160]",
            "stp q6, q7, [sp, #192]",
            "mov w0, w16",
            "bl {bind}",
            "mov x17, x0",
            "ldp q6, q7, [sp, #192]",
            "ldp q4, q5, [sp, #160]",
            "ldp q2, q3, [sp, #128]",
            "ldp q0, q1, [sp, #96]",
            // x16 keeps the index for the traced entry.
            "ldp x8, x16, [sp, #80]",
            "ldp x6, x7, [sp, #64]",
            "ldp x4, x5, [sp, #48]",
            "ldp x2, x3, [sp, #32]",
            "ldp x0, x1, [sp, #16]",
            "ldp x29, x30, [sp], #224",
            ".cfi_def_cfa sp, 0",
            ".cfi_restore x29",
            ".cfi_restore x30",
            "br x17",
            ".cfi_endproc",
            bind = sym $bind,
        )
    };
}

/// Body of the traced entry: r11 holds the index. `$enter` is `extern "C" fn(u32, *mut u64) ->
/// *mut ()` (the function to call, or NULL with the status to return in the `u64`); `$exit`
/// is `extern "C" fn(u32, u64, u64)` (index, what enter stored, the integer result).
#[cfg(all(target_arch = "x86_64", unix))]
#[macro_export]
macro_rules! traced_body {
    ($enter:path, $exit:path, $me:path) => {
        ::core::arch::naked_asm!(
            ".cfi_startproc",
            "push rbp",
            ".cfi_adjust_cfa_offset 8",
            ".cfi_offset rbp, -16",
            "mov rbp, rsp",
            ".cfi_def_cfa_register rbp",
            // [rbp-8] index, [rbp-16] state, [rbp-72..-24] integer registers,
            // [rbp-208..-80] xmm0-7, below them the copied stack arguments.
            "sub rsp, {frame}",
            "mov [rbp - 8], r11",
            "mov [rbp - 24], rdi",
            "mov [rbp - 32], rsi",
            "mov [rbp - 40], rdx",
            "mov [rbp - 48], rcx",
            "mov [rbp - 56], r8",
            "mov [rbp - 64], r9",
            "mov [rbp - 72], rax",
            "movdqu [rbp - 208], xmm0",
            "movdqu [rbp - 192], xmm1",
            "movdqu [rbp - 176], xmm2",
            "movdqu [rbp - 160], xmm3",
            "movdqu [rbp - 144], xmm4",
            "movdqu [rbp - 128], xmm5",
            "movdqu [rbp - 112], xmm6",
            "movdqu [rbp - 96], xmm7",
            "lea rsi, [rbp + 16]",
            "mov rdi, rsp",
            "mov ecx, {words}",
            "rep movsq",
            "mov edi, dword ptr [rbp - 8]",
            "lea rsi, [rbp - 16]",
            "call {enter}",
            "test rax, rax",
            "jz 3f",
            "mov r10, rax",
            "mov rdi, [rbp - 24]",
            "mov rsi, [rbp - 32]",
            "mov rdx, [rbp - 40]",
            "mov rcx, [rbp - 48]",
            "mov r8, [rbp - 56]",
            "mov r9, [rbp - 64]",
            "mov rax, [rbp - 72]",
            "movdqu xmm0, [rbp - 208]",
            "movdqu xmm1, [rbp - 192]",
            "movdqu xmm2, [rbp - 176]",
            "movdqu xmm3, [rbp - 160]",
            "movdqu xmm4, [rbp - 144]",
            "movdqu xmm5, [rbp - 128]",
            "movdqu xmm6, [rbp - 112]",
            "movdqu xmm7, [rbp - 96]",
            "call r10",
            "mov [rbp - 24], rax",
            "mov [rbp - 32], rdx",
            "movdqu [rbp - 208], xmm0",
            "movdqu [rbp - 192], xmm1",
            "mov edi, dword ptr [rbp - 8]",
            "mov rsi, [rbp - 16]",
            "mov rdx, rax",
            "call {exit}",
            "mov rax, [rbp - 24]",
            "mov rdx, [rbp - 32]",
            "movdqu xmm0, [rbp - 208]",
            "movdqu xmm1, [rbp - 192]",
            ".cfi_remember_state",
            "leave",
            ".cfi_def_cfa rsp, 8",
            ".cfi_restore rbp",
            "ret",
            ".cfi_restore_state",
            "3:",
            "mov rax, [rbp - 16]",
            "leave",
            ".cfi_def_cfa rsp, 8",
            ".cfi_restore rbp",
            "ret",
            ".cfi_endproc",
            enter = sym $enter,
            exit = sym $exit,
            frame = const 208 + 8 * $crate::TRACED_ARG_WORDS,
            words = const $crate::TRACED_ARG_WORDS,
        )
    };
}

/// Body of the traced entry: x16 holds the index (see the x86-64 variant).
#[cfg(target_arch = "aarch64")]
#[macro_export]
macro_rules! traced_body {
    ($enter:path, $exit:path, $me:path) => {
        ::core::arch::naked_asm!(
            ".cfi_startproc",
            "stp x29, x30, [sp, #-256]!",
            ".cfi_def_cfa_offset 256",
            ".cfi_offset x29, -256",
            ".cfi_offset x30, -248",
            "mov x29, sp",
            ".cfi_def_cfa x29, 256",
            // [x29+16] index, [x29+24] state, [x29+32..104] x0-x8, [x29+112..240] q0-q7.
            "str x16, [x29, #16]",
            "stp x0, x1, [x29, #32]",
            "stp x2, x3, [x29, #48]",
            "stp x4, x5, [x29, #64]",
            "stp x6, x7, [x29, #80]",
            "str x8, [x29, #96]",
            "stp q0, q1, [x29, #112]",
            "stp q2, q3, [x29, #144]",
            "stp q4, q5, [x29, #176]",
            "stp q6, q7, [x29, #208]",
            "sub sp, sp, #{bytes}",
            "add x9, x29, #256",
            "mov x10, sp",
            "mov x11, #{pairs}",
            "4:",
            "ldp x12, x13, [x9], #16",
            "stp x12, x13, [x10], #16",
            "subs x11, x11, #1",
            "b.ne 4b",
            "ldr w0, [x29, #16]",
            "add x1, x29, #24",
            "bl {enter}",
            "cbz x0, 3f",
            "mov x17, x0",
            "ldp x0, x1, [x29, #32]",
            "ldp x2, x3, [x29, #48]",
            "ldp x4, x5, [x29, #64]",
            "ldp x6, x7, [x29, #80]",
            "ldr x8, [x29, #96]",
            "ldp q0, q1, [x29, #112]",
            "ldp q2, q3, [x29, #144]",
            "ldp q4, q5, [x29, #176]",
            "ldp q6, q7, [x29, #208]",
            "blr x17",
            "stp x0, x1, [x29, #32]",
            "stp q0, q1, [x29, #112]",
            "stp q2, q3, [x29, #144]",
            "mov x2, x0",
            "ldr w0, [x29, #16]",
            "ldr x1, [x29, #24]",
            "bl {exit}",
            "ldp x0, x1, [x29, #32]",
            "ldp q0, q1, [x29, #112]",
            "ldp q2, q3, [x29, #144]",
            ".cfi_remember_state",
            "mov sp, x29",
            "ldp x29, x30, [sp], #256",
            ".cfi_def_cfa sp, 0",
            ".cfi_restore x29",
            ".cfi_restore x30",
            "ret",
            ".cfi_restore_state",
            "3:",
            "ldr x0, [x29, #24]",
            "mov sp, x29",
            "ldp x29, x30, [sp], #256",
            ".cfi_def_cfa sp, 0",
            ".cfi_restore x29",
            ".cfi_restore x30",
            "ret",
            ".cfi_endproc",
            enter = sym $enter,
            exit = sym $exit,
            bytes = const 8 * $crate::TRACED_ARG_WORDS,
            pairs = const $crate::TRACED_ARG_WORDS / 2,
        )
    };
}

/// Body of the resolver on Windows x64: r11 holds the index; `$bind` is `extern "C" fn(u32)
/// -> *mut ()` (index in ecx). The four argument registers go to the caller's home space
/// (which belongs to the callee), xmm0-3 to the frame; the frame is a fixed `sub rsp`, so its
/// unwind data is one allocation.
#[cfg(all(target_arch = "x86_64", windows))]
#[macro_export]
macro_rules! resolver_body {
    ($bind:path, $me:path) => {
        ::core::arch::naked_asm!(
            ".seh_proc {me}",
            // entry rsp = 8 (mod 16): 120 realigns it for the call.
            "sub rsp, 120",
            ".seh_stackalloc 120",
            ".seh_endprologue",
            "mov [rsp + 128], rcx",
            "mov [rsp + 136], rdx",
            "mov [rsp + 144], r8",
            "mov [rsp + 152], r9",
            "movdqu [rsp + 32], xmm0",
            "movdqu [rsp + 48], xmm1",
            "movdqu [rsp + 64], xmm2",
            "movdqu [rsp + 80], xmm3",
            "mov [rsp + 96], r11",
            "mov ecx, r11d",
            "call {bind}",
            "mov r10, rax",
            "mov rcx, [rsp + 128]",
            "mov rdx, [rsp + 136]",
            "mov r8, [rsp + 144]",
            "mov r9, [rsp + 152]",
            "movdqu xmm0, [rsp + 32]",
            "movdqu xmm1, [rsp + 48]",
            "movdqu xmm2, [rsp + 64]",
            "movdqu xmm3, [rsp + 80]",
            // r11 keeps the index for the traced entry.
            "mov r11, [rsp + 96]",
            "add rsp, 120",
            "jmp r10",
            ".seh_endproc",
            bind = sym $bind,
            me = sym $me,
        )
    };
}

/// Body of the traced entry on Windows x64: r11 holds the index (see the SysV variant for
/// `$enter` and `$exit`). Frame from rsp: 32 bytes of home space for the calls it makes, the
/// copied stack arguments (what the caller put above its home space), the index, the state,
/// xmm0-3, the result; rcx, rdx, r8, r9 wait in the caller's home space. Copies with rax and
/// r10 (rsi and rdi are callee-saved on Windows, so no `rep movsq`).
#[cfg(all(target_arch = "x86_64", windows))]
#[macro_export]
macro_rules! traced_body {
    ($enter:path, $exit:path, $me:path) => {
        ::core::arch::naked_asm!(
            ".seh_proc {me}",
            "sub rsp, {frame}",
            ".seh_stackalloc {frame}",
            ".seh_endprologue",
            "mov [rsp + {frame} + 8], rcx",
            "mov [rsp + {frame} + 16], rdx",
            "mov [rsp + {frame} + 24], r8",
            "mov [rsp + {frame} + 32], r9",
            "mov [rsp + {index}], r11",
            "movdqu [rsp + {xmm}], xmm0",
            "movdqu [rsp + {xmm} + 16], xmm1",
            "movdqu [rsp + {xmm} + 32], xmm2",
            "movdqu [rsp + {xmm} + 48], xmm3",
            "xor eax, eax",
            "2:",
            "mov r10, [rsp + {frame} + 40 + rax * 8]",
            "mov [rsp + 32 + rax * 8], r10",
            "inc eax",
            "cmp eax, {words}",
            "jne 2b",
            "mov ecx, dword ptr [rsp + {index}]",
            "lea rdx, [rsp + {state}]",
            "call {enter}",
            "test rax, rax",
            "jz 3f",
            "mov r10, rax",
            "mov rcx, [rsp + {frame} + 8]",
            "mov rdx, [rsp + {frame} + 16]",
            "mov r8, [rsp + {frame} + 24]",
            "mov r9, [rsp + {frame} + 32]",
            "movdqu xmm0, [rsp + {xmm}]",
            "movdqu xmm1, [rsp + {xmm} + 16]",
            "movdqu xmm2, [rsp + {xmm} + 32]",
            "movdqu xmm3, [rsp + {xmm} + 48]",
            "call r10",
            "mov [rsp + {result}], rax",
            "movdqu [rsp + {xmm}], xmm0",
            "mov ecx, dword ptr [rsp + {index}]",
            "mov rdx, [rsp + {state}]",
            "mov r8, rax",
            "call {exit}",
            "mov rax, [rsp + {result}]",
            "movdqu xmm0, [rsp + {xmm}]",
            "add rsp, {frame}",
            "ret",
            "3:",
            "mov rax, [rsp + {state}]",
            "add rsp, {frame}",
            "ret",
            ".seh_endproc",
            enter = sym $enter,
            exit = sym $exit,
            me = sym $me,
            index = const 32 + 8 * $crate::TRACED_ARG_WORDS,
            state = const 40 + 8 * $crate::TRACED_ARG_WORDS,
            xmm = const 48 + 8 * $crate::TRACED_ARG_WORDS,
            result = const 112 + 8 * $crate::TRACED_ARG_WORDS,
            // entry rsp = 8 (mod 16) and the frame = 8 (mod 16): aligned for the calls.
            frame = const 120 + 8 * $crate::TRACED_ARG_WORDS,
            words = const $crate::TRACED_ARG_WORDS,
        )
    };
}

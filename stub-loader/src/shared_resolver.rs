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
//! The resolver and the traced entry follow the system's calling convention, so they are
//! defined per system: `os/linux/resolver.rs` (System V x86-64, AAPCS64) and
//! `os/windows/resolver.rs` (Microsoft x64). The export and the thunk are the same jumps on
//! both, defined here per architecture.
//!
//! The resolver and the traced entry are real frames between the caller and the real function,
//! so both carry unwind information (CFI, `.cfi_*`; on Windows `.seh_*`: the naked functions
//! get none of their own):
//! debuggers, profilers and `backtrace()` taken inside the real function unwind through them
//! to the caller. The exports and thunks only jump, and never need it.

/// Eight-byte stack words of arguments the traced entry copies for the real call (even, so the
/// frame keeps its 16-byte alignment). Functions whose arguments total more words are never
/// traced (the `cuda_stubs` macro computes it per prototype).
pub const TRACED_ARG_WORDS: usize = 16;

// The `target_arch` cfgs below: each architecture's jump is its own instruction sequence.

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

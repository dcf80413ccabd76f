//! ELF symbol versions: one C name exported several times, once per ABI, each bound to its own
//! code (`cudaMemAdvise@CUDA_STUBS_CUDART_12`, `cudaMemAdvise@@CUDA_STUBS_CUDART_13`), as glibc
//! exports `memcpy@GLIBC_2.2.5` beside `memcpy@@GLIBC_2.14`. A program's link records the
//! version of the definition it was linked against (the `@@` default of the file it linked
//! with); the dynamic loader then binds that exact version, so callers built for different ABIs
//! share one stub in one process.
//!
//! [`versioned_export!`] is the only way a stub exports a versioned name: the `cuda_stubs`
//! macro calls it for every declaration with `version = N`, and the link-time stubs
//! ([`link_stub!`]) for theirs. The version nodes themselves are defined by the stub's version
//! script (written by codegen, passed by the stub's `build.rs`).
//!
//! How: a global asm label whose only instruction is a tail jump to the implementation, then
//! `.symver label, name@node, remove`, which turns the label into the versioned symbol (the
//! label itself leaves the symbol table, so no implementation name is exported). The label and
//! the directive sit in one `global_asm!`, so they are in one object file whatever the codegen
//! units (`.symver` needs the definition in its own object). The jump costs one direct
//! `jmp`/`b` on the few versioned names only.
//!
//! rustc's own export list is an anonymous version script, which GNU ld refuses to combine with
//! named version nodes ("anonymous version tag cannot be combined with other version tags"):
//! a stub with versioned names links with LLD (rustc's `rust-lld`; the stub's `build.rs`
//! selects it, see `stubs-cudart/build.rs`).

// The `target_arch` cfgs: the tail jump is each architecture's own instruction.

/// A tail jump to `{target}`, the body of a versioned export's label.
#[cfg(target_arch = "x86_64")]
#[doc(hidden)]
#[macro_export]
macro_rules! tail_jump_asm {
    () => {
        "jmp {target}"
    };
}

/// A tail jump to `{target}`, the body of a versioned export's label.
#[cfg(target_arch = "aarch64")]
#[doc(hidden)]
#[macro_export]
macro_rules! tail_jump_asm {
    () => {
        "b {target}"
    };
}

/// Exports `$target` (a function: an adapter, or the naked slot jump of a declaration) as the
/// versioned symbol `$symbol`: `"name@NODE"`, or `"name@@NODE"` for the version a link against
/// this file records by default. `$label` is a name unique in the stub (never exported). Both
/// are string literals or `concat!`s of them. `$windows` is the name the Windows DLL exports
/// instead (the plain name for the default version; `LibraryKind::windows_export` for the
/// others), unused here.
#[macro_export]
macro_rules! versioned_export {
    ($label:expr, $symbol:expr, $windows:expr, $target:path) => {
        ::core::arch::global_asm!(
            concat!(".pushsection .text.", $label, ",\"ax\",@progbits"),
            concat!(".globl ", $label),
            concat!(".type ", $label, ",@function"),
            ".p2align 4",
            concat!($label, ":"),
            $crate::tail_jump_asm!(),
            concat!(".size ", $label, ", . - ", $label),
            concat!(".symver ", $label, ", ", $symbol, ", remove"),
            ".popsection",
            target = sym $target,
        );
    };
}

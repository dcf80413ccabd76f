//! What a `no_std` cdylib needs from its final crate: a global allocator and a panic handler.

use crate::os;
use core::alloc::{GlobalAlloc, Layout};

/// The global allocator of the stubs: the system's heap, which every C runtime of the process
/// shares (glibc's `malloc` family, `posix_memalign` above 16-byte alignment, so valgrind and
/// `MALLOC_CHECK_` see the stubs' blocks; on Windows the process heap, `HeapAlloc`).
#[derive(Debug, Clone, Copy)]
pub struct LibcAlloc;

// SAFETY: `os`'s heap functions keep the GlobalAlloc contract: memory aligned to
// `layout.align()`, NULL on failure, freed by the matching `dealloc`.
unsafe impl GlobalAlloc for LibcAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        unsafe { os::alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        unsafe { os::alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded contract.
        unsafe { os::dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded contract.
        unsafe { os::realloc(ptr, layout, new_size) }
    }
}

/// The panic handler's body. The stubs are written not to panic (no unwrap, no indexing that
/// can fail on the C ABI paths); should one ever happen, stopping is all that is left, as with
/// `panic = "abort"`, and without printing: `abort` (Windows: `__fastfail`, which ends the
/// process at once, without running anything of it).
pub fn abort_on_panic() -> ! {
    os::abort()
}

// The `target_arch` cfgs below: each architecture's instructions.

/// Body of the stubs' `rust_eh_personality`: return `_URC_CONTINUE_UNWIND` (8).
#[cfg(target_arch = "x86_64")]
#[doc(hidden)]
#[macro_export]
macro_rules! continue_unwind_asm {
    () => {
        "mov eax, 8\nret"
    };
}

/// Body of the stubs' `rust_eh_personality`: return `_URC_CONTINUE_UNWIND` (8).
#[cfg(target_arch = "aarch64")]
#[doc(hidden)]
#[macro_export]
macro_rules! continue_unwind_asm {
    () => {
        "mov w0, #8\nret"
    };
}

/// Body of the stubs' `_Unwind_Resume`: a trap (unreachable).
#[cfg(target_arch = "x86_64")]
#[doc(hidden)]
#[macro_export]
macro_rules! trap_asm {
    () => {
        "ud2"
    };
}

/// Body of the stubs' `_Unwind_Resume`: a trap (unreachable).
#[cfg(target_arch = "aarch64")]
#[doc(hidden)]
#[macro_export]
macro_rules! trap_asm {
    () => {
        "udf #0"
    };
}

/// Installs, in a stub cdylib, [`LibcAlloc`] as the global allocator, a panic handler that
/// calls [`abort_on_panic`], and the two unwinder symbols that the precompiled `core` and
/// `alloc` (built with `panic = "unwind"`) reference from their landing pads and unwind
/// tables. Not under `cfg(test)`, where `std` provides all of them.
///
/// The unwinder symbols are hidden (never exported, never interposing on libgcc's): nothing in
/// a stub unwinds. `rust_eh_personality` answers `_URC_CONTINUE_UNWIND` (8) should a foreign
/// exception ever pass a `core` frame, so no landing pad runs and `_Unwind_Resume`, which only
/// landing pads call, is unreachable (it traps).
#[macro_export]
macro_rules! cdylib_runtime {
    () => {
        // In the system's object format (`os/*/runtime.rs`).
        #[cfg(not(test))]
        $crate::unwind_symbols!();

        #[cfg(not(test))]
        #[global_allocator]
        static CUDA_STUBS_ALLOCATOR: $crate::LibcAlloc = $crate::LibcAlloc;

        #[cfg(not(test))]
        #[panic_handler]
        fn cuda_stubs_panic(_: &::core::panic::PanicInfo<'_>) -> ! {
            $crate::abort_on_panic()
        }
    };
}

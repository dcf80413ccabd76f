//! What a `no_std` cdylib needs from glibc: the link edge to libc, the heap (glibc's `malloc`
//! family), `abort`, and the unwinder's two symbols in an ELF section.

use core::alloc::Layout;

// Every stub's `DT_NEEDED libc.so.6`. The stubs are `no_std`, so rustc links them with
// `-nodefaultlibs`, and the `libc` crate (built with its `std` feature in this workspace)
// leaves linking libc to `std`: without this line the stubs call `memset`, `dlopen`, `getenv`
// … with no dependency edge to libc. The dynamic loader relocates objects in dependency order,
// so a stub reached through another library (executable → library → stub) could be relocated
// before libc and resolve libc's IFUNCs (`memset`, `memcpy`) into an unrelocated libc: a crash
// before `main`. With the edge, libc is always relocated first.
//
// The stubs stay linked `-z now` (rustc's default full RELRO, `FLAGS BIND_NOW`): their GOT is
// read-only after load, and the handful of libc symbols they use are resolved once at load
// time, which is safe once libc is a dependency. Their hot path never goes through the PLT
// (exports jump through their own slots), so lazy binding would save nothing.
#[link(name = "c")]
unsafe extern "C" {}

/// glibc's `malloc` alignment on 64-bit targets: above it, `posix_memalign`.
const MALLOC_ALIGN: usize = 16;

/// `GlobalAlloc::alloc` on glibc's heap, so the stubs share the process heap and its tools
/// (valgrind, `MALLOC_CHECK_`).
///
/// # Safety
/// `GlobalAlloc::alloc`'s contract.
pub(crate) unsafe fn alloc(layout: Layout) -> *mut u8 {
    if layout.align() <= MALLOC_ALIGN {
        // SAFETY: plain malloc.
        unsafe { libc::malloc(layout.size()).cast() }
    } else {
        let mut p: *mut libc::c_void = core::ptr::null_mut();
        // SAFETY: align is a power of two and a multiple of the pointer size.
        match unsafe { libc::posix_memalign(&mut p, layout.align(), layout.size()) } {
            0 => p.cast(),
            _ => core::ptr::null_mut(),
        }
    }
}

/// `GlobalAlloc::alloc_zeroed`: `calloc`, or [`alloc`] and zeroing above 16-byte alignment.
///
/// # Safety
/// `GlobalAlloc::alloc_zeroed`'s contract.
pub(crate) unsafe fn alloc_zeroed(layout: Layout) -> *mut u8 {
    if layout.align() <= MALLOC_ALIGN {
        // SAFETY: plain calloc.
        unsafe { libc::calloc(1, layout.size()).cast() }
    } else {
        // SAFETY: forwarded contract.
        let p = unsafe { alloc(layout) };
        if !p.is_null() {
            // SAFETY: p holds layout.size() bytes.
            unsafe { core::ptr::write_bytes(p, 0, layout.size()) };
        }
        p
    }
}

/// `GlobalAlloc::dealloc`: `free`, whatever the alignment.
///
/// # Safety
/// `GlobalAlloc::dealloc`'s contract.
pub(crate) unsafe fn dealloc(ptr: *mut u8, _layout: Layout) {
    // SAFETY: ptr came from malloc, calloc, realloc or posix_memalign.
    unsafe { libc::free(ptr.cast()) }
}

/// `GlobalAlloc::realloc`: `realloc`, or a new block and a copy above 16-byte alignment.
///
/// # Safety
/// `GlobalAlloc::realloc`'s contract.
pub(crate) unsafe fn realloc(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    if layout.align() <= MALLOC_ALIGN {
        // SAFETY: ptr came from malloc or calloc.
        return unsafe { libc::realloc(ptr.cast(), new_size).cast() };
    }
    // SAFETY: a valid layout of the same alignment.
    let new = unsafe { alloc(Layout::from_size_align_unchecked(new_size, layout.align())) };
    if !new.is_null() {
        // SAFETY: both blocks hold at least the smaller size.
        unsafe {
            core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
            libc::free(ptr.cast());
        }
    }
    new
}

/// Ends the process at once (`abort`): the panic handler's body.
pub(crate) fn abort() -> ! {
    // SAFETY: abort has no preconditions.
    unsafe { libc::abort() }
}

/// The stubs' `rust_eh_personality` and `_Unwind_Resume` (see `cdylib_runtime!`), in a section
/// of their own, hidden: never exported, never interposing on libgcc's.
#[doc(hidden)]
#[macro_export]
macro_rules! unwind_symbols {
    () => {
        ::core::arch::global_asm!(
            ".pushsection .text.cuda_stubs_unwind,\"ax\",@progbits",
            ".globl rust_eh_personality",
            ".hidden rust_eh_personality",
            ".type rust_eh_personality,@function",
            "rust_eh_personality:",
            $crate::continue_unwind_asm!(),
            ".globl _Unwind_Resume",
            ".hidden _Unwind_Resume",
            ".type _Unwind_Resume,@function",
            "_Unwind_Resume:",
            $crate::trap_asm!(),
            ".popsection",
        );
    };
}

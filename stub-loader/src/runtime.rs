//! What a `no_std` cdylib needs from its final crate: a global allocator and a panic handler.

use core::alloc::{GlobalAlloc, Layout};

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
#[cfg(unix)]
#[link(name = "c")]
unsafe extern "C" {}

/// glibc's `malloc` alignment on 64-bit targets, and the Windows heap's
/// (`MEMORY_ALLOCATION_ALIGNMENT` on 64-bit Windows).
const MALLOC_ALIGN: usize = 16;

/// The global allocator of the stubs: glibc's `malloc` family (`posix_memalign` above 16-byte
/// alignment), so the stubs share the process heap and its tools (valgrind, `MALLOC_CHECK_`).
#[derive(Debug, Clone, Copy)]
pub struct LibcAlloc;

/// On Windows, the process heap (`HeapAlloc` on `GetProcessHeap()`), which every C runtime of
/// the process shares; above 16-byte alignment a block is over-allocated and the heap's own
/// pointer is kept in the word before the aligned address.
#[cfg(windows)]
mod heap {
    use windows_sys::Win32::System::Memory::{
        GetProcessHeap, HEAP_ZERO_MEMORY, HeapAlloc, HeapFree, HeapReAlloc,
    };

    pub(super) unsafe fn alloc(size: usize, align: usize, zeroed: bool) -> *mut u8 {
        let flags = if zeroed { HEAP_ZERO_MEMORY } else { 0 };
        if align <= super::MALLOC_ALIGN {
            // SAFETY: the process heap, plain allocation.
            return unsafe { HeapAlloc(GetProcessHeap(), flags, size).cast() };
        }
        let Some(total) = size.checked_add(align) else {
            return core::ptr::null_mut();
        };
        // SAFETY: as above.
        let base = unsafe { HeapAlloc(GetProcessHeap(), flags, total) }.cast::<u8>();
        if base.is_null() {
            return base;
        }
        // At least one word (16 bytes) above `base`, inside the block: `align` > 16.
        let offset = align - (base as usize % align);
        // SAFETY: `offset` <= align, within the block of size + align bytes.
        let aligned = unsafe { base.add(offset) };
        // SAFETY: the word before `aligned` is inside the block (offset >= 16).
        unsafe { aligned.cast::<*mut u8>().sub(1).write(base) };
        aligned
    }

    pub(super) unsafe fn free(ptr: *mut u8, align: usize) {
        let base = if align <= super::MALLOC_ALIGN {
            ptr
        } else {
            // SAFETY: written by `alloc` for this alignment.
            unsafe { ptr.cast::<*mut u8>().sub(1).read() }
        };
        // SAFETY: a block of the process heap.
        unsafe { HeapFree(GetProcessHeap(), 0, base.cast()) };
    }

    pub(super) unsafe fn realloc(ptr: *mut u8, new_size: usize) -> *mut u8 {
        // SAFETY: a block of the process heap of at most 16-byte alignment.
        unsafe { HeapReAlloc(GetProcessHeap(), 0, ptr.cast(), new_size).cast() }
    }
}

// SAFETY: the process heap with the GlobalAlloc contract: memory aligned to `layout.align()`,
// NULL on failure, freed by the matching `free`.
#[cfg(windows)]
unsafe impl GlobalAlloc for LibcAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        unsafe { heap::alloc(layout.size(), layout.align(), false) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        unsafe { heap::alloc(layout.size(), layout.align(), true) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded contract.
        unsafe { heap::free(ptr, layout.align()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN {
            // SAFETY: forwarded contract.
            return unsafe { heap::realloc(ptr, new_size) };
        }
        // SAFETY: forwarded contract.
        let new = unsafe { heap::alloc(new_size, layout.align(), false) };
        if !new.is_null() {
            // SAFETY: both blocks hold at least the smaller size.
            unsafe {
                core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                heap::free(ptr, layout.align());
            }
        }
        new
    }
}

// SAFETY: each method forwards to the libc function with the GlobalAlloc contract: memory
// aligned to `layout.align()`, NULL on failure, freed by the matching `free`.
#[cfg(unix)]
unsafe impl GlobalAlloc for LibcAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
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

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN {
            // SAFETY: plain calloc.
            unsafe { libc::calloc(1, layout.size()).cast() }
        } else {
            // SAFETY: forwarded contract.
            let p = unsafe { self.alloc(layout) };
            if !p.is_null() {
                // SAFETY: p holds layout.size() bytes.
                unsafe { core::ptr::write_bytes(p, 0, layout.size()) };
            }
            p
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: ptr came from malloc, calloc, realloc or posix_memalign.
        unsafe { libc::free(ptr.cast()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN {
            // SAFETY: ptr came from malloc or calloc.
            return unsafe { libc::realloc(ptr.cast(), new_size).cast() };
        }
        // SAFETY: a valid layout of the same alignment.
        let new =
            unsafe { self.alloc(Layout::from_size_align_unchecked(new_size, layout.align())) };
        if !new.is_null() {
            // SAFETY: both blocks hold at least the smaller size.
            unsafe {
                core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                libc::free(ptr.cast());
            }
        }
        new
    }
}

/// The panic handler's body. The stubs are written not to panic (no unwrap, no indexing that
/// can fail on the C ABI paths); should one ever happen, stopping is all that is left, as with
/// `panic = "abort"`, and without printing.
#[cfg(unix)]
pub fn abort_on_panic() -> ! {
    // SAFETY: abort has no preconditions.
    unsafe { libc::abort() }
}

/// The panic handler's body on Windows: `__fastfail(FAST_FAIL_FATAL_APP_EXIT)` (`int 0x29`),
/// which ends the process at once, without running anything of it.
#[cfg(windows)]
pub fn abort_on_panic() -> ! {
    // SAFETY: ends the process; never returns.
    unsafe { core::arch::asm!("int 0x29", in("ecx") 7, options(noreturn, nostack)) }
}

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
        #[cfg(all(not(test), unix))]
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

        // COFF has no hidden visibility: a DLL exports only what its `.def` file lists, which
        // rustc writes from the Rust exports, so these two stay internal.
        #[cfg(all(not(test), windows))]
        ::core::arch::global_asm!(
            ".pushsection .text$cuda_stubs_unwind,\"xr\"",
            ".globl rust_eh_personality",
            "rust_eh_personality:",
            $crate::continue_unwind_asm!(),
            ".globl _Unwind_Resume",
            "_Unwind_Resume:",
            $crate::trap_asm!(),
            ".popsection",
        );

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

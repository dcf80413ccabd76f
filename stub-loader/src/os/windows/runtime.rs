//! What a `no_std` DLL needs from Windows: the heap (the process heap, which every C runtime of
//! the process shares), `__fastfail`, and the unwinder's two symbols in a COFF section.

use core::alloc::Layout;
use windows_sys::Win32::System::Memory::{
    GetProcessHeap, HEAP_ZERO_MEMORY, HeapAlloc, HeapFree, HeapReAlloc,
};

/// The Windows heap's alignment (`MEMORY_ALLOCATION_ALIGNMENT` on 64-bit Windows): above it, a
/// block is over-allocated and the heap's own pointer is kept in the word before the aligned
/// address.
const MALLOC_ALIGN: usize = 16;

unsafe fn heap_alloc(size: usize, align: usize, zeroed: bool) -> *mut u8 {
    let flags = if zeroed { HEAP_ZERO_MEMORY } else { 0 };
    if align <= MALLOC_ALIGN {
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

unsafe fn heap_free(ptr: *mut u8, align: usize) {
    let base = if align <= MALLOC_ALIGN {
        ptr
    } else {
        // SAFETY: written by `heap_alloc` for this alignment.
        unsafe { ptr.cast::<*mut u8>().sub(1).read() }
    };
    // SAFETY: a block of the process heap.
    unsafe { HeapFree(GetProcessHeap(), 0, base.cast()) };
}

/// `GlobalAlloc::alloc` on the process heap.
///
/// # Safety
/// `GlobalAlloc::alloc`'s contract.
pub(crate) unsafe fn alloc(layout: Layout) -> *mut u8 {
    // SAFETY: forwarded contract.
    unsafe { heap_alloc(layout.size(), layout.align(), false) }
}

/// `GlobalAlloc::alloc_zeroed` on the process heap (`HEAP_ZERO_MEMORY`).
///
/// # Safety
/// `GlobalAlloc::alloc_zeroed`'s contract.
pub(crate) unsafe fn alloc_zeroed(layout: Layout) -> *mut u8 {
    // SAFETY: forwarded contract.
    unsafe { heap_alloc(layout.size(), layout.align(), true) }
}

/// `GlobalAlloc::dealloc` on the process heap.
///
/// # Safety
/// `GlobalAlloc::dealloc`'s contract.
pub(crate) unsafe fn dealloc(ptr: *mut u8, layout: Layout) {
    // SAFETY: forwarded contract.
    unsafe { heap_free(ptr, layout.align()) }
}

/// `GlobalAlloc::realloc`: `HeapReAlloc`, or a new block and a copy above 16-byte alignment.
///
/// # Safety
/// `GlobalAlloc::realloc`'s contract.
pub(crate) unsafe fn realloc(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    if layout.align() <= MALLOC_ALIGN {
        // SAFETY: a block of the process heap of at most 16-byte alignment.
        return unsafe { HeapReAlloc(GetProcessHeap(), 0, ptr.cast(), new_size).cast() };
    }
    // SAFETY: forwarded contract.
    let new = unsafe { heap_alloc(new_size, layout.align(), false) };
    if !new.is_null() {
        // SAFETY: both blocks hold at least the smaller size.
        unsafe {
            core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
            heap_free(ptr, layout.align());
        }
    }
    new
}

/// Ends the process at once: `__fastfail(FAST_FAIL_FATAL_APP_EXIT)` (`int 0x29`), without
/// running anything of it.
pub(crate) fn abort() -> ! {
    // SAFETY: ends the process; never returns.
    unsafe { core::arch::asm!("int 0x29", in("ecx") 7, options(noreturn, nostack)) }
}

/// The stubs' `rust_eh_personality` and `_Unwind_Resume` (see `cdylib_runtime!`), in a section
/// of their own. COFF has no hidden visibility: a DLL exports only what its `.def` file lists,
/// which rustc writes from the Rust exports, so these two stay internal.
#[doc(hidden)]
#[macro_export]
macro_rules! unwind_symbols {
    () => {
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
    };
}

//! What an export runs when the stub lacks its name (a stub older than the compatibility file
//! beside it): a refusal of the export's own return kind, as the stub's fallback of that kind
//! answers (`stub_loader::RetKind`), never a status through the wrong register.
//!
//! - a status: the stub's "absent" code (`cudaErrorNotSupported`, NVRTC's 7);
//! - a pointer: NULL (`__cudaRegisterFatBinary`);
//! - an error text (`cudaGetErrorString`, `nvrtcGetErrorString`, the spec's `error_texts`): a
//!   text of cuda-stubs' own, never NULL (a program prints what it gets);
//! - nothing (`void`), an integer (`__cudaInitModule`'s `char`): nothing, 0;
//! - a struct returned by value in memory (`cudaCreateChannelDesc`): all zero.
//!
//! Each but the error text is also the library's last error where it has one (the runtime's:
//! [`crate::last_error`]), as a refusal of the stub is, so that the caller of a function whose
//! result says nothing (`void`, NULL) can see it with `cudaGetLastError()`.

use crate::Compat;
use crate::last_error::note_refusal;
use core::ffi::{c_char, c_int, c_void};

/// One export's refusal: the function its slot takes when the stub lacks the name (its return
/// type erased: it is called through the slot as the export's own type), and its kind, for the
/// debug line.
#[derive(Debug, Clone, Copy)]
pub struct Refusal {
    /// The refusal function.
    pub function: *const (),
    /// What it answers.
    pub kind: RefusalKind,
}

// SAFETY: the address of a function, never written.
unsafe impl Sync for Refusal {}

/// What a [`Refusal`] answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// The library's status type: its "absent" code.
    Status,
    /// A pointer: NULL.
    Pointer,
    /// An error-text export (`const char *f(status)`): cuda-stubs' own text, never NULL.
    Text,
    /// `void`: nothing.
    Void,
    /// An integer that is no status (`char`, `unsigned`): 0.
    Zero,
    /// A struct returned by value in memory: all zero.
    Memory,
}

impl RefusalKind {
    /// How the debug line says the call was answered.
    pub fn answer(self) -> &'static str {
        match self {
            Self::Status => "refused with the stub's \"absent\" status",
            Self::Pointer => "refused with NULL",
            Self::Text => "answered with cuda-stubs' own text",
            Self::Void => "refused (it returns nothing)",
            Self::Zero => "refused with 0",
            Self::Memory => "refused with a zeroed result",
        }
    }
}

impl Refusal {
    /// A status-returning export's refusal.
    pub const fn status<L: Compat>() -> Refusal {
        Refusal {
            function: refuse_status::<L> as *const (),
            kind: RefusalKind::Status,
        }
    }

    /// A pointer-returning export's refusal.
    pub const fn pointer<L: Compat>() -> Refusal {
        Refusal {
            function: refuse_pointer::<L> as *const (),
            kind: RefusalKind::Pointer,
        }
    }

    /// An error-text export's refusal.
    pub const fn text() -> Refusal {
        Refusal {
            function: refuse_text as *const (),
            kind: RefusalKind::Text,
        }
    }

    /// A `void` export's refusal.
    pub const fn void<L: Compat>() -> Refusal {
        Refusal {
            function: refuse_void::<L> as *const (),
            kind: RefusalKind::Void,
        }
    }

    /// The refusal of an export returning an integer that is no status (`char`, `unsigned`,
    /// up to 64 bits: returned in the first integer register, which 0 fills whole).
    pub const fn zero<L: Compat>() -> Refusal {
        Refusal {
            function: refuse_zero::<L> as *const (),
            kind: RefusalKind::Zero,
        }
    }

    /// The refusal of an export returning a struct of `N` bytes by value in memory (larger
    /// than 16 bytes and no floating-point aggregate: the caller passes the result's address,
    /// in `rdi` on x86-64, `x8` on aarch64, and reads it back), as [`Zeroed`] is returned.
    pub const fn memory<L: Compat, const N: usize>() -> Refusal {
        Refusal {
            function: refuse_memory::<L, N> as *const (),
            kind: RefusalKind::Memory,
        }
    }
}

/// `N` zero bytes returned by value: passed like any C struct of more than 16 bytes without
/// floating-point members (in memory, the caller's buffer), so it stands for one.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Zeroed<const N: usize>([u8; N]);

/// What an error-text export answers when the stub lacks it.
const TEXT: &core::ffi::CStr =
    c"unknown error (cuda-stubs: the stub this compatibility library forwards to lacks the error-text function)";

unsafe extern "C" fn refuse_status<L: Compat>() -> c_int {
    let table = L::table();
    note_refusal(table);
    table.absent
}

unsafe extern "C" fn refuse_pointer<L: Compat>() -> *mut c_void {
    note_refusal(L::table());
    core::ptr::null_mut()
}

/// Not a refused call: an answer (the stubs' error-text exports never count one either).
unsafe extern "C" fn refuse_text() -> *const c_char {
    TEXT.as_ptr()
}

unsafe extern "C" fn refuse_void<L: Compat>() {
    note_refusal(L::table());
}

unsafe extern "C" fn refuse_zero<L: Compat>() -> u64 {
    note_refusal(L::table());
    0
}

unsafe extern "C" fn refuse_memory<L: Compat, const N: usize>() -> Zeroed<N> {
    note_refusal(L::table());
    Zeroed([0; N])
}

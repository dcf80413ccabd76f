//! Data a real library exports as pointer constants, and the stub's stand-ins for them.
//!
//! Some headers declare data, not functions: `cutensor/types.h` has `extern const
//! cutensorComputeDescriptor_t CUTENSOR_COMPUTE_DESC_32F`, a pointer whose value is the address
//! of an object inside NVIDIA's library, which a program reads and passes back to the library's
//! functions. A program linked against a stub needs the stub to define that symbol, before any
//! real library is loaded and whatever the process later finds: so the stub exports an object
//! of the same type and size (a pointer, `STT_OBJECT`, so that an executable linked without PIC
//! can copy-relocate it) whose value is the address of one of its own [`StandIn`]s. The
//! functions taking such a pointer are the stub crate's hand-written exports, which translate
//! it with [`StandIns::to_real`] before forwarding: a stand-in becomes the loaded library's
//! value of the same name (`dlsym` of the name, the pointer stored there read once), any other
//! pointer (one the program made with the library itself, NULL) passes untouched.
//!
//! Codegen writes each stub's table (`src/generated/data.rs`, `STAND_INS`) and exports from the
//! real libraries' export tables and the header's declarations; nothing here knows a library.

use crate::library::Library;
use core::ffi::{CStr, c_void};
use core::sync::atomic::{AtomicPtr, AtomicU8, Ordering};

/// Not yet looked up.
const UNKNOWN: u8 = 0;
/// Looked up: the loaded library's value is in `real`.
const FOUND: u8 = 1;
/// Looked up: the loaded library lacks the object (or none is bound).
const MISSING: u8 = 2;

/// One data export's stand-in: the stub's own object, whose address the export holds in place
/// of the real library's pointer, and the real library's value of the same name once looked
/// up. Never moved (a `static`'s element), so its address identifies it.
#[derive(Debug)]
pub struct StandIn {
    name: &'static CStr,
    real: AtomicPtr<c_void>,
    state: AtomicU8,
}

impl StandIn {
    /// The stand-in of the real library's data object `name`, not yet looked up.
    pub const fn new(name: &'static CStr) -> Self {
        StandIn {
            name,
            real: AtomicPtr::new(core::ptr::null_mut()),
            state: AtomicU8::new(UNKNOWN),
        }
    }

    /// The name of the real library's object it stands for.
    pub fn name(&self) -> &'static CStr {
        self.name
    }
}

/// The value of an exported data object: the address of its [`StandIn`]. Pointer-sized and
/// pointer-aligned like the header's type (codegen asserts the size), so the export is the same
/// object to the dynamic linker as NVIDIA's; immutable, like the header's `const`.
#[repr(transparent)]
#[derive(Debug)]
pub struct DataExport(*const StandIn);

// SAFETY: an address, never written, and its `StandIn` is itself `Sync`.
unsafe impl Sync for DataExport {}

impl DataExport {
    /// The export whose value is `stand_in`'s address.
    pub const fn of(stand_in: &'static StandIn) -> Self {
        DataExport(stand_in)
    }
}

/// A stub's stand-ins, one per data object its real libraries export, and the library they
/// stand in for. A `static` of the stub (`src/generated/data.rs`).
#[derive(Debug)]
pub struct StandIns<const N: usize> {
    library: &'static Library,
    entries: [StandIn; N],
}

impl<const N: usize> StandIns<N> {
    /// The stand-ins `entries` of `library`'s data objects.
    pub const fn new(library: &'static Library, entries: [StandIn; N]) -> Self {
        StandIns { library, entries }
    }

    /// Stand-in `index` (in the generated order), for its export's value.
    pub const fn entry(&'static self, index: usize) -> &'static StandIn {
        &self.entries[index]
    }

    /// Which stand-in `p` is the address of, if any.
    fn index_of(&self, p: *const c_void) -> Option<usize> {
        let size = core::mem::size_of::<StandIn>();
        let offset = (p as usize).wrapping_sub(self.entries.as_ptr() as usize);
        (offset % size == 0)
            .then_some(offset / size)
            .filter(|&i| i < N)
    }

    /// What the real library is to get for `p`, a pointer of the type the header declares the
    /// data objects with: `p` itself unless it is a stand-in's address; for a stand-in, the
    /// loaded library's value of the same name (searching for the library if this is the
    /// stub's first call). `None` for a stand-in when no library is bound or the loaded one
    /// lacks the object (an older version): the caller refuses the call with the library's
    /// typed error (`stub_loader::Adapted::refusal` tells the two apart), never passing the
    /// stand-in on.
    pub fn to_real<T>(&self, p: *mut T) -> Option<*mut T> {
        let Some(i) = self.index_of(p.cast_const().cast()) else {
            return Some(p);
        };
        let stand_in = &self.entries[i];
        match stand_in.state.load(Ordering::Acquire) {
            FOUND => return Some(stand_in.real.load(Ordering::Relaxed).cast()),
            MISSING => return None,
            _ => {}
        }
        let Some(object) = self.library.data_object(stand_in.name) else {
            // Kept once a library is bound (a call from inside the search sees none yet).
            if self.library.loaded().is_bound() {
                stand_in.state.store(MISSING, Ordering::Release);
            }
            return None;
        };
        // SAFETY: the library's object of this name, whose type the header declares as a
        // pointer (codegen checks the size): readable for as long as the library is loaded,
        // which is the life of the process (never closed).
        let real = unsafe { object.cast::<*mut c_void>().read() };
        // Racing first callers store the same value.
        stand_in.real.store(real, Ordering::Relaxed);
        stand_in.state.store(FOUND, Ordering::Release);
        Some(real.cast())
    }
}

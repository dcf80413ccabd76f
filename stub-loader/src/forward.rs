//! What a library that forwards its calls into a stub needs from the loader: the compatibility
//! libraries (`stub-compat`: NVIDIA's sonames as trampolines into `libstubs_cudart.so` …) reach
//! their stub through the same `dlopen`, `dlsym` and `dlvsym` the stubs call, bound to the
//! stubs' glibc floor (`os/linux/glibc.rs`), instead of declaring their own.

use crate::once::Once;
use crate::os::{Handle, file_of_address};
use alloc::vec::Vec;
use core::ffi::CStr;

/// The stub a forwarding library calls into, named by its SONAME (`libstubs_cudart.so`):
/// opened on first use, never closed.
pub struct ForwardTarget {
    soname: &'static CStr,
    handle: Once<Option<Handle>>,
}

impl ForwardTarget {
    /// The stub of SONAME `soname`, not opened yet.
    pub const fn new(soname: &'static CStr) -> Self {
        ForwardTarget {
            soname,
            handle: Once::new(),
        }
    }

    /// Its SONAME.
    pub fn soname(&self) -> &'static CStr {
        self.soname
    }

    /// The object the process already has under the SONAME (`RTLD_NOLOAD`: the stub is the
    /// forwarding library's `DT_NEEDED`, loaded before it), else the stub loaded now
    /// (`RTLD_LAZY | RTLD_LOCAL`, found through the forwarding library's own `RUNPATH`: this
    /// code is linked into it). `None` when neither works, and for a call made on the thread
    /// that is opening it (the stubs run nothing when loaded: not expected).
    fn handle(&self) -> Option<Handle> {
        let soname = self.soname;
        self.handle
            .get_or_init(|| {
                Handle::loaded(soname)
                    .or_else(|_| Handle::open(soname))
                    .ok()
            })
            .copied()
            .flatten()
    }

    /// The stub's definition of `name`: with `version`, the one under that ELF version node
    /// (`dlvsym`; a stub exports a name whose prototype changed between majors once per ABI),
    /// else `dlsym`'s. The lookup goes through the stub's own handle, which searches the stub
    /// and its dependencies only: never the forwarding library, which defines the same names
    /// (a lookup in the global scope could find its own export and call itself). `None` when
    /// the stub cannot be opened or lacks the name.
    pub fn symbol(&self, name: &CStr, version: Option<&CStr>) -> Option<*mut ()> {
        let handle = self.handle()?;
        match version {
            Some(version) => handle.versioned_symbol(name, version),
            None => handle.symbol(name),
        }
        .map(|p| p.cast::<()>())
    }

    /// The stub's file, as the dynamic loader mapped it; `None` when it cannot be opened.
    pub fn path(&self) -> Option<&'static CStr> {
        self.handle()?.path()
    }
}

/// The file of the loaded object that maps `address` (a forwarding library names its own file
/// in its debug line by the address of one of its statics); `None` for the main program or an
/// address nothing maps.
pub fn file_of(address: *const ()) -> Option<Vec<u8>> {
    file_of_address(address as usize)
}

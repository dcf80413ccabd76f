//! `dlopen`, `dlsym`, `dladdr` with their errors as text (libloading needs `std`).

use alloc::borrow::ToOwned;
use alloc::ffi::CString;
use alloc::string::String;
use core::ffi::{CStr, c_int, c_void};

/// A library handle from `dlopen`. Never `dlclose`d: CUDA libraries do not survive unloading,
/// and entry points bound from them stay in slots for the life of the process.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Handle(*mut c_void);

// SAFETY: a dlopen handle is process-wide and usable from any thread.
unsafe impl Send for Handle {}
// SAFETY: as above; dlsym is thread-safe.
unsafe impl Sync for Handle {}

/// The last `dlerror` text, or a generic one.
fn last_error() -> String {
    // SAFETY: dlerror returns NULL or a NUL-terminated, thread-local message.
    let e = unsafe { crate::glibc::dlerror() };
    if e.is_null() {
        return "unknown dlopen error".into();
    }
    // SAFETY: as above.
    String::from_utf8_lossy(unsafe { CStr::from_ptr(e) }.to_bytes()).into_owned()
}

impl Handle {
    /// `dlopen(target, flags)`; the error is dlerror's text.
    ///
    /// Loading a library runs its initialisers: the candidates are CUDA libraries the user
    /// installed, which is the whole point of the stub.
    pub(crate) fn open(target: &CStr, flags: c_int) -> Result<Handle, String> {
        // SAFETY: a valid NUL-terminated name.
        let h = unsafe { crate::glibc::dlopen(target.as_ptr(), flags) };
        if h.is_null() {
            Err(last_error())
        } else {
            Ok(Handle(h))
        }
    }

    /// The file the dynamic loader mapped for this handle (`dlinfo(RTLD_DI_LINKMAP)`'s
    /// `l_name`): constant time, unlike `dladdr`, which scans the object's whole symbol table.
    pub(crate) fn path(&self) -> Option<CString> {
        /// The leading, public fields of glibc's `struct link_map` (`<link.h>`).
        #[repr(C)]
        struct LinkMap {
            l_addr: usize,
            l_name: *const core::ffi::c_char,
        }
        let mut map: *const LinkMap = core::ptr::null();
        // SAFETY: a live handle; RTLD_DI_LINKMAP writes one `struct link_map *`.
        let rc =
            unsafe { crate::glibc::dlinfo(self.0, libc::RTLD_DI_LINKMAP, (&raw mut map).cast()) };
        if rc != 0 || map.is_null() {
            return None;
        }
        // SAFETY: the loader's link_map lives while the object is loaded (never closed).
        let name = unsafe { (*map).l_name };
        if name.is_null() {
            return None;
        }
        // SAFETY: l_name is NUL-terminated, owned by the loader.
        let name = unsafe { CStr::from_ptr(name) };
        (!name.is_empty()).then(|| name.to_owned())
    }

    /// The address of `name`, `None` when missing or NULL.
    pub(crate) fn symbol(&self, name: &CStr) -> Option<*mut c_void> {
        // SAFETY: a live handle and a NUL-terminated name; the address is only returned.
        let p = unsafe { crate::glibc::dlsym(self.0, name.as_ptr()) };
        (!p.is_null()).then_some(p)
    }
}

/// The file of the loaded object that contains `addr` (`dladdr`).
pub(crate) fn object_path(addr: *const c_void) -> Option<CString> {
    // SAFETY: Dl_info is plain data; dladdr only reads the loader's tables.
    let mut info: libc::Dl_info = unsafe { core::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { crate::glibc::dladdr(addr, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr returned a NUL-terminated path owned by the dynamic loader.
    Some(unsafe { CStr::from_ptr(info.dli_fname) }.to_owned())
}

//! The dynamic loader's interface: `dlopen`, `dlsym`, `dlvsym`, `dlinfo` with their errors as text
//! (libloading needs `std`), and `dl_iterate_phdr` over the objects already loaded.

use super::glibc;
use crate::os::LoadError;
use alloc::string::String;
use alloc::vec::Vec;
use core::ffi::{CStr, c_int, c_void};

/// The loader call a [`LoadError`]'s text comes from, for messages.
pub(crate) const LOAD_CALL: &str = "dlopen";

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
    let e = unsafe { glibc::dlerror() };
    if e.is_null() {
        return "unknown dlopen error".into();
    }
    // SAFETY: as above.
    String::from_utf8_lossy(unsafe { CStr::from_ptr(e) }.to_bytes()).into_owned()
}

impl Handle {
    /// `dlopen(target, RTLD_LAZY | RTLD_LOCAL)`: a path, or a bare soname the dynamic loader
    /// searches for (`LD_LIBRARY_PATH`, ldconfig). Local, so the library's symbols never
    /// interpose on anything else the process has.
    ///
    /// Loading a library runs its initialisers: the candidates are CUDA libraries the user
    /// installed, which is the whole point of the stub.
    pub(crate) fn open(target: &CStr) -> Result<Handle, LoadError> {
        open(target, libc::RTLD_LAZY | libc::RTLD_LOCAL)
    }

    /// The object the process already has under that path or soname, reopened with
    /// `RTLD_NOLOAD`, which matches a loaded object without touching the file system and never
    /// loads a second one.
    pub(crate) fn loaded(target: &CStr) -> Result<Handle, LoadError> {
        open(
            target,
            libc::RTLD_LAZY | libc::RTLD_LOCAL | libc::RTLD_NOLOAD,
        )
    }

    /// The file the dynamic loader mapped for this handle (`dlinfo(RTLD_DI_LINKMAP)`'s
    /// `l_name`): constant time, unlike `dladdr`, which scans the object's whole symbol table.
    /// The loader's own string, valid for the life of the process: the handle is never closed.
    pub(crate) fn path(&self) -> Option<&'static CStr> {
        /// The leading, public fields of glibc's `struct link_map` (`<link.h>`).
        #[repr(C)]
        struct LinkMap {
            l_addr: usize,
            l_name: *const core::ffi::c_char,
        }
        let mut map: *const LinkMap = core::ptr::null();
        // SAFETY: a live handle; RTLD_DI_LINKMAP writes one `struct link_map *`.
        let rc = unsafe { glibc::dlinfo(self.0, libc::RTLD_DI_LINKMAP, (&raw mut map).cast()) };
        if rc != 0 || map.is_null() {
            return None;
        }
        // SAFETY: the loader's link_map lives while the object is loaded (never closed).
        let name = unsafe { (*map).l_name };
        if name.is_null() {
            return None;
        }
        // SAFETY: l_name is NUL-terminated, owned by the loader, kept while the object is.
        let name = unsafe { CStr::from_ptr(name) };
        (!name.is_empty()).then_some(name)
    }

    /// The address of `name`, `None` when missing or NULL.
    pub(crate) fn symbol(&self, name: &CStr) -> Option<*mut c_void> {
        // SAFETY: a live handle and a NUL-terminated name; the address is only returned.
        let p = unsafe { glibc::dlsym(self.0, name.as_ptr()) };
        (!p.is_null()).then_some(p)
    }

    /// The address of `name`'s definition under the ELF version node `version` (`dlvsym`):
    /// a stub exports the names whose prototype changed between majors once per ABI
    /// (`versioned_export!`). `None` when missing or NULL.
    pub(crate) fn versioned_symbol(&self, name: &CStr, version: &CStr) -> Option<*mut c_void> {
        // SAFETY: a live handle and NUL-terminated strings; the address is only returned.
        let p = unsafe { glibc::dlvsym(self.0, name.as_ptr(), version.as_ptr()) };
        (!p.is_null()).then_some(p)
    }
}

/// The file of the loaded object that maps `address` (its `dl_iterate_phdr` name, copied), by
/// its segments: no `dladdr`, which scans the object's whole symbol table. `None` for the main
/// program (no name) or an address no object maps.
pub(crate) fn file_of_address(address: usize) -> Option<Vec<u8>> {
    let mut file = None;
    each_loaded_object(&mut |info| {
        // SAFETY: an object dl_iterate_phdr describes, under the loader's lock.
        if file.is_none() && unsafe { super::elf::maps(info, address) } {
            // SAFETY: as above.
            file = Some(unsafe { object_name(info) }.to_bytes().to_vec());
        }
    });
    file
}

/// `dlopen(target, flags)`; the error is dlerror's text, "not found" when it says there is no
/// such file as `target` (as one `stat` would find none; glibc's text for a missing soname says
/// the same). A library it needs that cannot be found (`libcublas.so.13: cannot open shared
/// object file: No such file or directory` for a cuStateVec whose cuBLAS wheel is missing) is
/// the loader's error, kept with its text, so that the summary names what is missing.
fn open(target: &CStr, flags: c_int) -> Result<Handle, LoadError> {
    // SAFETY: a valid NUL-terminated name.
    let h = unsafe { glibc::dlopen(target.as_ptr(), flags) };
    if h.is_null() {
        let text = last_error();
        Err(LoadError {
            not_found: names_missing(&text, target),
            text,
        })
    } else {
        Ok(Handle(h))
    }
}

/// Whether glibc's `dlerror` text says that `target` itself does not exist
/// (`<target>: cannot open shared object file: No such file or directory`), not a library it
/// needs (whose name comes first then).
fn names_missing(text: &str, target: &CStr) -> bool {
    text.as_bytes()
        .strip_prefix(target.to_bytes())
        .is_some_and(|rest| rest.starts_with(b": "))
        && text.contains("No such file or directory")
}

/// Whether the process has loaded an object of that soname (or path): [`Handle::loaded`]
/// succeeds.
pub(crate) fn is_loaded(name: &CStr) -> bool {
    Handle::loaded(name).is_ok()
}

/// How many objects the process has loaded under the soname `name` (their `DT_SONAME`, or the
/// file name of one without): more than one where a stub loaded a copy of a soname several
/// majors share, found it of another release and left it mapped (nothing is unloaded), beside
/// the copy it bound. `dlopen(name, RTLD_NOLOAD)` answers the first of them only.
pub(crate) fn copies_loaded(name: &CStr) -> usize {
    let wanted = name.to_bytes();
    let mut count = 0;
    each_loaded_object(&mut |info| {
        // SAFETY: an object dl_iterate_phdr describes, under the loader's lock.
        let matches = match unsafe { super::elf::loaded_soname(info) } {
            Some(soname) => soname == wanted,
            // SAFETY: as above.
            None => {
                crate::search::paths::file_name(unsafe { object_name(info) }.to_bytes()) == wanted
            }
        };
        count += usize::from(matches);
    });
    count
}

/// Calls `visit` with `dl_iterate_phdr`'s description of every object the process has loaded
/// but the main program (whose empty name gives no path to reopen), under the dynamic loader's
/// lock: `visit` must not load anything. The object's name, `dlpi_name`, is non-empty.
pub(crate) fn each_loaded_object(visit: &mut dyn FnMut(&libc::dl_phdr_info)) {
    unsafe extern "C" fn each(
        info: *mut libc::dl_phdr_info,
        _size: usize,
        data: *mut libc::c_void,
    ) -> libc::c_int {
        // SAFETY: dl_iterate_phdr passes a valid info and our visitor as data.
        let (info, visit) = unsafe {
            (
                &*info,
                &mut *data.cast::<&mut dyn FnMut(&libc::dl_phdr_info)>(),
            )
        };
        // SAFETY: a NUL-terminated name owned by the dynamic loader; only its first byte is
        // read here (its length is computed only for the objects a caller keeps).
        if !info.dlpi_name.is_null() && unsafe { *info.dlpi_name } != 0 {
            visit(info);
        }
        0
    }
    let mut visit = visit;
    // SAFETY: the callback only reads the loader's tables and calls `visit`.
    unsafe { libc::dl_iterate_phdr(Some(each), (&raw mut visit).cast()) };
}

/// The name of an object [`each_loaded_object`] visits.
///
/// # Safety
/// `info` is one [`each_loaded_object`] passed; the name is the loader's and lives as long as
/// the object stays loaded.
pub(crate) unsafe fn object_name(info: &libc::dl_phdr_info) -> &CStr {
    // SAFETY: by contract, non-null and NUL-terminated.
    unsafe { CStr::from_ptr(info.dlpi_name) }
}

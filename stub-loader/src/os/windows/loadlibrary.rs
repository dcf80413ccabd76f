//! Windows' library loader, behind the same `Handle` as Linux's `dlopen.rs`: `LoadLibraryExW`
//! with `LOAD_LIBRARY_SEARCH_*` flags (never the current directory, never `PATH`),
//! `GetModuleHandleExW` for a DLL the process already has, `GetProcAddress`.

use super::io::error_text;
use super::paths::has_dir;
use super::wide::{from_wide, to_wide};
use crate::os::LoadError;
use alloc::boxed::Box;
use alloc::ffi::CString;
use alloc::vec::Vec;
use core::ffi::{CStr, c_void};
use windows_sys::Win32::Foundation::{ERROR_MOD_NOT_FOUND, GetLastError, HMODULE};
use windows_sys::Win32::System::Diagnostics::Debug::{
    SEM_FAILCRITICALERRORS, SEM_NOOPENFILEERRORBOX, SetThreadErrorMode,
};
use windows_sys::Win32::System::LibraryLoader::{
    GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS, GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
    GetModuleFileNameW, GetModuleHandleExW, GetProcAddress, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS,
    LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR, LoadLibraryExW,
};
use windows_sys::Win32::System::ProcessStatus::K32EnumProcessModules;
use windows_sys::Win32::System::Threading::GetCurrentProcess;

/// A loaded DLL. Never freed (`FreeLibrary`): CUDA libraries do not survive unloading, and
/// entry points bound from them stay in slots for the life of the process.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Handle {
    module: HMODULE,
    /// The DLL's file, read once when it was opened.
    path: Option<&'static CStr>,
}

// SAFETY: a module handle is process-wide and usable from any thread.
unsafe impl Send for Handle {}
// SAFETY: as above; GetProcAddress is thread-safe.
unsafe impl Sync for Handle {}

/// The loader call a [`LoadError`]'s text comes from, for messages.
pub(crate) const LOAD_CALL: &str = "LoadLibraryExW";

/// Windows checks no ELF file: a PE process has no ELF class or machine.
pub(crate) const OWN_ELF: Option<(u8, u16)> = None;

impl Handle {
    /// `LoadLibraryExW`: a path with `LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR |
    /// LOAD_LIBRARY_SEARCH_DEFAULT_DIRS` (the DLL's own imports are found in its folder, as
    /// NVIDIA's wheels lay them out), a bare name with `LOAD_LIBRARY_SEARCH_DEFAULT_DIRS` only
    /// (the application's folder, `System32`, `AddDllDirectory` folders: never the current
    /// directory, never `PATH`). Critical-error dialogs are off for the call, so a broken
    /// candidate returns an error instead of showing a window. The error is the code's system
    /// text; `ERROR_MOD_NOT_FOUND` is "not found" for a bare name only: for a file that exists
    /// it means one of its own imports is missing, which the text says.
    pub(crate) fn open(target: &CStr) -> Result<Handle, LoadError> {
        let bytes = target.to_bytes();
        let by_name = !has_dir(bytes);
        let flags = if by_name {
            LOAD_LIBRARY_SEARCH_DEFAULT_DIRS
        } else {
            LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS
        };
        let wide = to_wide(bytes, true);
        let mut old = 0;
        // SAFETY: plain calls; the old mode is restored below.
        let module = unsafe {
            SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &mut old);
            let module = LoadLibraryExW(wide.as_ptr(), core::ptr::null_mut(), flags);
            let code = GetLastError();
            SetThreadErrorMode(old, core::ptr::null_mut());
            if module.is_null() {
                return Err(LoadError {
                    not_found: by_name && code == ERROR_MOD_NOT_FOUND,
                    text: error_text(code),
                });
            }
            module
        };
        Ok(Handle::of(module))
    }

    /// The DLL of that base name the process already has (`GetModuleHandleExW`, which takes a
    /// reference that is never released), without loading anything; "not found" when it has
    /// none.
    pub(crate) fn loaded(name: &CStr) -> Result<Handle, LoadError> {
        loaded_module(name, 0)
            .map(Handle::of)
            .ok_or_else(|| LoadError {
                not_found: true,
                text: "not loaded".into(),
            })
    }

    fn of(module: HMODULE) -> Handle {
        let path = module_file(module)
            .and_then(|p| CString::new(p).ok())
            .map(|p| &*Box::leak(p.into_boxed_c_str()));
        Handle { module, path }
    }

    /// The DLL's file (`GetModuleFileNameW`), read when it was opened.
    pub(crate) fn path(&self) -> Option<&'static CStr> {
        self.path
    }

    /// The address of `name` (`GetProcAddress`), `None` when missing.
    pub(crate) fn symbol(&self, name: &CStr) -> Option<*mut c_void> {
        // SAFETY: a live module and a NUL-terminated name; the address is only returned.
        let p = unsafe { GetProcAddress(self.module, name.as_ptr().cast()) };
        p.map(|f| f as *mut c_void)
    }

    /// Windows: `None`. PE exports carry no versions: a name the ELF stubs export once per ABI
    /// is a DLL export of its own there (`versioned_export!`), found by [`Handle::symbol`].
    pub(crate) fn versioned_symbol(&self, _name: &CStr, _version: &CStr) -> Option<*mut c_void> {
        None
    }
}

/// Whether the process has a DLL of that base name (no reference taken, nothing read).
pub(crate) fn is_loaded(name: &CStr) -> bool {
    loaded_module(name, GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT).is_some()
}

/// `GetModuleHandleExW(flags, name)`.
fn loaded_module(name: &CStr, flags: u32) -> Option<HMODULE> {
    let wide = to_wide(name.to_bytes(), true);
    let mut module: HMODULE = core::ptr::null_mut();
    // SAFETY: a NUL-terminated name and a valid out-pointer.
    let ok = unsafe { GetModuleHandleExW(flags, wide.as_ptr(), &mut module) };
    (ok != 0 && !module.is_null()).then_some(module)
}

/// The file of the DLL that holds `address` (the stub's own, for the wheel place).
/// The next definition of `symbol` after the calling stub: none on Windows, where a DLL's
/// imports name the DLL they come from (no global search order to continue).
pub(crate) fn next_definition(_symbol: &CStr) -> Option<(*mut c_void, Vec<u8>)> {
    None
}

pub(crate) fn file_of_address(address: usize) -> Option<Vec<u8>> {
    let mut module: HMODULE = core::ptr::null_mut();
    // SAFETY: with FROM_ADDRESS the "name" is an address inside a module; no reference taken.
    let ok = unsafe {
        GetModuleHandleExW(
            GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
            address as *const u16,
            &mut module,
        )
    };
    if ok == 0 {
        return None;
    }
    module_file(module)
}

/// The files of every module the process has (`K32EnumProcessModules`, then
/// `GetModuleFileNameW`), for a DLL whose name no spec lists (`WindowsDlls::release_named`:
/// `GetModuleHandleExW` takes no pattern). A module unloaded between the two calls is skipped.
pub(crate) fn loaded_files() -> Vec<Vec<u8>> {
    let mut modules: Vec<HMODULE> = Vec::new();
    let mut count = 256usize;
    loop {
        modules.resize(count, core::ptr::null_mut());
        let cap = u32::try_from(count * size_of::<HMODULE>()).unwrap_or(u32::MAX);
        let mut needed = 0u32;
        // SAFETY: the current process's pseudo-handle and a writable array of `cap` bytes.
        let ok = unsafe {
            K32EnumProcessModules(GetCurrentProcess(), modules.as_mut_ptr(), cap, &mut needed)
        };
        if ok == 0 {
            return Vec::new();
        }
        let listed = needed as usize / size_of::<HMODULE>();
        if listed <= count {
            modules.truncate(listed);
            break;
        }
        count = listed + 16;
    }
    modules.into_iter().filter_map(module_file).collect()
}

/// How many DLLs of the base name `name` the process has loaded (compared without case): more
/// than one where a stub loaded a copy of a name several majors share from another folder,
/// found it of another release and left it loaded, beside the copy it bound.
/// `GetModuleHandleExW` answers one of them only.
pub(crate) fn copies_loaded(name: &CStr) -> usize {
    let wanted = name.to_bytes();
    loaded_files()
        .iter()
        .filter(|file| crate::search::paths::file_name(file).eq_ignore_ascii_case(wanted))
        .count()
}

/// The program's own file (`GetModuleFileNameW(NULL)`): its folder is the first the safe DLL
/// search looks in.
pub(crate) fn application_file() -> Option<Vec<u8>> {
    module_file(core::ptr::null_mut())
}

/// `GetModuleFileNameW`, with a buffer grown to the longest path Windows has (32767).
fn module_file(module: HMODULE) -> Option<Vec<u8>> {
    let mut size = 260usize;
    loop {
        let mut buf: Vec<u16> = alloc::vec![0; size];
        let cap = u32::try_from(size).unwrap_or(u32::MAX);
        // SAFETY: a writable buffer of `cap` units.
        let n = unsafe { GetModuleFileNameW(module, buf.as_mut_ptr(), cap) } as usize;
        if n == 0 {
            return None;
        }
        if n < size {
            return Some(from_wide(buf.get(..n).unwrap_or_default()));
        }
        if size >= 32768 {
            return None;
        }
        size *= 4;
    }
}

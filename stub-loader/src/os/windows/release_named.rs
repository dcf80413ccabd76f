//! Windows: DLLs named after the library's own release (`WindowsDlls::release_named`: CUPTI's
//! `cupti64_2025.2.1.dll`, a new name every CUDA release), listed by their pattern where the
//! other DLLs are tried by name: in a folder (`FindFirstFileExW`), among the process's modules
//! (`K32EnumProcessModules`), and in the application's folder for the safe DLL search, which
//! takes no pattern. Each place lists them newest release first, after the spec's fixed names.

use super::loadlibrary::{application_file, loaded_files};
use super::wide::{from_wide, to_wide};
use crate::search::paths::{file_name, join, parent};
use crate::spec::{RealLibrary, ReleaseNamed};
use alloc::ffi::CString;
use alloc::vec::Vec;
use windows_sys::Win32::Foundation::INVALID_HANDLE_VALUE;
use windows_sys::Win32::Storage::FileSystem::{
    FILE_ATTRIBUTE_DIRECTORY, FIND_FIRST_EX_FLAGS, FindClose, FindExInfoBasic,
    FindExSearchNameMatch, FindFirstFileExW, FindNextFileW, WIN32_FIND_DATAW,
};

/// The spec's release-named DLL, if its DLL is one.
pub(crate) fn release_named(real: &RealLibrary) -> Option<&'static ReleaseNamed> {
    real.windows?.release_named
}

/// The release-named DLLs in `dir`, newest release first: each file name and the CUDA major
/// it says (0 for one older than every release listed, which the version probe then decides).
pub(crate) fn release_named_in(real: &RealLibrary, dir: &[u8]) -> Vec<(Vec<u8>, u32)> {
    let Some(named) = release_named(real) else {
        return Vec::new();
    };
    let mut pattern = named.prefix.as_bytes().to_vec();
    pattern.extend_from_slice(b"*.dll");
    let wide = to_wide(join(dir, &pattern).to_bytes(), true);
    // SAFETY: all-zero is a valid WIN32_FIND_DATAW (integers and arrays of them).
    let mut data: WIN32_FIND_DATAW = unsafe { core::mem::zeroed() };
    // SAFETY: a NUL-terminated pattern and a WIN32_FIND_DATAW to fill (FindExInfoBasic).
    let find = unsafe {
        FindFirstFileExW(
            wide.as_ptr(),
            FindExInfoBasic,
            (&raw mut data).cast(),
            FindExSearchNameMatch,
            core::ptr::null(),
            FIND_FIRST_EX_FLAGS::default(),
        )
    };
    if find == INVALID_HANDLE_VALUE {
        return Vec::new();
    }
    let mut names = Vec::new();
    loop {
        if data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY == 0 {
            let len = data
                .cFileName
                .iter()
                .position(|c| *c == 0)
                .unwrap_or(data.cFileName.len());
            names.push(from_wide(&data.cFileName[..len]));
        }
        // SAFETY: the live search handle and the same buffer.
        if unsafe { FindNextFileW(find, &mut data) } == 0 {
            break;
        }
    }
    // SAFETY: the search handle, closed once.
    unsafe { FindClose(find) };
    newest_first(named, names)
}

/// The release-named DLLs the process has loaded, by base name (what `GetModuleHandleExW`
/// reopens), newest release first.
pub(crate) fn loaded_release_named(real: &RealLibrary) -> Vec<(CString, u32)> {
    let Some(named) = release_named(real) else {
        return Vec::new();
    };
    let names = loaded_files()
        .iter()
        .map(|file| file_name(file).to_vec())
        .collect();
    newest_first(named, names)
        .into_iter()
        .filter_map(|(name, major)| Some((CString::new(name).ok()?, major)))
        .collect()
}

/// The application's folder: the first folder of the safe DLL search
/// (`LOAD_LIBRARY_SEARCH_DEFAULT_DIRS`), whose other folders (`System32`, `AddDllDirectory`'s)
/// cannot be listed, and where a program that ships CUPTI beside itself keeps it.
pub(crate) fn application_dir() -> Option<Vec<u8>> {
    application_file().and_then(|file| parent(&file).map(<[u8]>::to_vec))
}

/// The names of `named`'s form, each with its major, newest release first.
fn newest_first(named: &ReleaseNamed, names: Vec<Vec<u8>>) -> Vec<(Vec<u8>, u32)> {
    let mut found: Vec<(i32, Vec<u8>)> = names
        .into_iter()
        .filter_map(|name| Some((named.release_of(&name)?, name)))
        .collect();
    found.sort_by_key(|f| core::cmp::Reverse(f.0));
    found.dedup_by(|a, b| a.1.eq_ignore_ascii_case(&b.1));
    found
        .into_iter()
        .map(|(release, name)| (name, named.major_of(release).unwrap_or(0)))
        .collect()
}

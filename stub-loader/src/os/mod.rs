//! The loader's one boundary with the operating system: every call into Linux (glibc, the
//! dynamic loader, ELF) or Windows (Win32, PE, UTF-16) is made in `linux/` or `windows/`, and
//! the rest of the crate sees only the names below, the same on both systems. No other file of
//! the crate tests the OS in a `cfg`: to follow Linux, read `linux/` and skip `windows/`.
//!
//! | face | Linux (`linux/`) | Windows (`windows/`) |
//! |---|---|---|
//! | [`Handle`]: `open`, `loaded`, `symbol`, `versioned_symbol`, `path`; [`LoadError`] (`load_error.rs`, one for both), [`LOAD_CALL`], [`is_loaded`], [`copies_loaded`], [`file_of_address`], [`next_definition`] | `dlopen` (`RTLD_LAZY \| RTLD_LOCAL`, `RTLD_NOLOAD`), `dlsym`, `dlvsym`, `dlinfo`, the object mapping an address, `RTLD_NEXT` (`dlopen.rs`) | `LoadLibraryExW` (`LOAD_LIBRARY_SEARCH_*`), `GetModuleHandleExW`, `GetProcAddress`, no versions, no next definition (`loadlibrary.rs`) |
//! | [`check_file`], [`OWN_ELF`], [`needed`], [`built_for`], [`ptx_isa`], [`read_file`] | `stat`, the ELF identification, `DT_NEEDED`, a `.rodata` string, the first PTX header of `.nv_fatbin` (`files.rs`, `elf.rs`, `elf_needed.rs`, `fatbin.rs`; the walks are `crate::fatbin`'s and `crate::build_string`'s) | file attributes; no ELF, a DLL's imports, an `.rdata` string (libNVVM's build string) and the first PTX header of `.nv_fatb` (`pe_imports.rs`) |
//! | [`SEARCH`], [`Places`] (`each`, `library_path`), `Origin::as_cstr`, [`needed_dirs`] | the `.so` places, the stub's own file from `dl_iterate_phdr`, `LD_LIBRARY_PATH`'s folders by path after a compatibility library answered the soname; what a candidate needs from its own folder (`places.rs`) | the DLL places, the stub's own DLL from `GetModuleHandleExW`; no compatibility DLLs, so `library_path` lists nothing; what a candidate imports from its folder and the other wheels' beside it (`places.rs`) |
//! | [`file_names`], [`wheel_dirs`], [`major_of_name`], [`companion_name`], [`lazy_dependency`], [`PYTHON_ENVS`] | sonames (`file_names.rs`) | DLL names, cuDNN's graph DLL |
//! | [`release_named`], [`release_named_in`], [`loaded_release_named`] | none: every soname says its major | DLLs named after their own release (CUPTI's `cupti64_2025.2.1.dll`), by pattern in a folder (`FindFirstFileExW`) and among the modules (`K32EnumProcessModules`) (`release_named.rs`) |
//! | [`is_sep`], [`SEP`], [`has_dir`], [`is_absolute`], [`is_drive_root`], [`names_a_drive`] | `/` (`paths.rs`) | `\` and `/`, drives, UNC |
//! | [`is_dir`], [`is_file`], [`site_packages`] | `stat`, `lib/python3*/site-packages` (`files.rs`) | `GetFileAttributesW`, `Lib\site-packages` |
//! | [`secure_execution`], [`env_var`] | `getauxval(AT_SECURE)`, `getenv` (`secure.rs`) | never secure, `GetEnvironmentVariableW` (`env.rs`) |
//! | [`Lock`], [`LOCK_INIT`], [`lock`], [`unlock`] | a pthread mutex (`lock.rs`) | an SRW lock |
//! | [`TlsKey`], [`tls_create`], [`tls_set`], [`tls_get`], [`thread_id`] | a `pthread_key_t`, `pthread_self` (`tls.rs`) | a TLS index, `GetCurrentThreadId` |
//! | [`run_parallel`], [`cpu_count`] | `pthread_create`/`pthread_join` at the glibc floor, `sysconf` (`threads.rs`): the mock's kernel executor | `CreateThread`/`WaitForSingleObject`, `GetSystemInfo` |
//! | [`snprintf`] | glibc's (`io.rs`) | MinGW's `__mingw_snprintf` (msvcrt's writes three exponent digits), the UCRT's with MSVC |
//! | [`errno_text`], [`write_all`], [`write_stdout`], [`open_trace_file`], [`clock_ns`], [`realtime_ns`] | `strerror_r`, `write`, `fwrite` to the C `stdout`, `open`, `CLOCK_MONOTONIC`, `CLOCK_REALTIME` (`io.rs`) | `FormatMessageW`, `WriteFile` (standard error, standard output), none, `QueryPerformanceCounter`, `GetSystemTimePreciseAsFileTime` |
//! | [`alloc`], [`alloc_zeroed`], [`dealloc`], [`realloc`], [`abort`]; `unwind_symbols!` | glibc's `malloc`, `abort`, ELF sections; the libc link edge (`runtime.rs`) | the process heap, `__fastfail`, COFF sections |
//! | `resolver_body!`, `traced_body!` | System V x86-64 and AAPCS64 (`resolver.rs`) | Microsoft x64 with SEH unwind data |
//! | `versioned_export!` | ELF symbol versions, `.symver` (`versioned_export.rs`) | one DLL export per version |
//!
//! Each item is documented where it is defined, once per system; a name here has the same
//! signature on both (the build of either target checks every caller against its own).
//!
//! What `linux/` and `windows/` import from the rest of the crate is the search's vocabulary
//! (`search::{order, candidates, listing, paths, reject}`), `spec` and `debug`, none of which
//! imports back what imports it: see the dependency direction in `lib.rs`.

#[cfg(unix)]
mod linux;
mod load_error;
#[cfg(windows)]
mod windows;

#[cfg(unix)]
use linux as sys;
#[cfg(windows)]
use windows as sys;

pub(crate) use load_error::LoadError;
pub(crate) use sys::{
    Handle, LOAD_CALL, LOCK_INIT, Lock, MOCK_FILE, OWN_ELF, PYTHON_ENVS, Places, SEARCH, SEP,
    TlsKey, abort, alloc, alloc_zeroed, built_for, check_file, companion_name, copies_loaded,
    cpu_count, dealloc, env_var, errno_text, file_names, file_of_address, has_dir, is_absolute,
    is_dir, is_drive_root, is_file, is_loaded, is_sep, lazy_dependency, loaded_release_named, lock,
    major_of_name, names_a_drive, needed, needed_dirs, next_definition, open_trace_file, ptx_isa,
    read_file, realloc, realtime_ns, release_named, release_named_in, run_parallel, site_packages,
    thread_id, tls_create, tls_get, tls_set, unlock, wheel_dirs, write_all, write_stdout,
};
pub use sys::{clock_ns, secure_execution, snprintf};

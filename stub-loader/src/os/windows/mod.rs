//! Windows (Win32, PE, UTF-16): the face of `os/mod.rs`, item by item. Reading the Windows
//! search: `places.rs` (what each place lists, and where a candidate's imports are found),
//! `files.rs` (a candidate file's checks), `pe_imports.rs` (what a DLL imports, its device
//! code's PTX ISA), `loadlibrary.rs` (`LoadLibraryExW`, `GetProcAddress`), `wide.rs` (every
//! string handed to Windows).

mod env;
mod file_names;
mod files;
mod io;
mod loadlibrary;
mod lock;
mod paths;
mod pe_imports;
mod places;
mod release_named;
mod resolver;
mod runtime;
mod threads;
mod tls;
mod versioned_export;
mod wide;

pub(crate) use env::env_var;
pub use env::secure_execution;
pub(crate) use file_names::{
    MOCK_FILE, PYTHON_ENVS, companion_name, file_names, lazy_dependency, major_of_name, wheel_dirs,
};
pub(crate) use files::{check_file, is_dir, is_file, site_packages};
pub use io::{clock_ns, snprintf};
pub(crate) use io::{errno_text, open_trace_file, realtime_ns, write_all, write_stdout};
pub(crate) use loadlibrary::{
    Handle, LOAD_CALL, OWN_ELF, copies_loaded, file_of_address, is_loaded, next_definition,
};
pub(crate) use lock::{LOCK_INIT, Lock, lock, unlock};
pub(crate) use paths::{SEP, has_dir, is_absolute, is_drive_root, is_sep, names_a_drive};
pub(crate) use pe_imports::{built_for, needed, ptx_isa, read_file};
pub(crate) use places::{Places, SEARCH, needed_dirs};
pub(crate) use release_named::{loaded_release_named, release_named, release_named_in};
pub(crate) use runtime::{abort, alloc, alloc_zeroed, dealloc, realloc};
pub(crate) use threads::{cpu_count, run_parallel};
pub(crate) use tls::{TlsKey, thread_id, tls_create, tls_get, tls_set};

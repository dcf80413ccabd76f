//! Linux (glibc, the dynamic loader, ELF): the face of `os/mod.rs`, item by item. Reading the
//! Linux search from the first call to the bound handle: `places.rs` (what each place lists),
//! `files.rs` (a candidate file's checks), `dlopen.rs` (`dlopen`, `dlsym`), `elf.rs`,
//! `elf_needed.rs` and `fatbin.rs` (what a loaded object or a file says), `glibc.rs` (the glibc floor every
//! call here is bound to).

mod dlopen;
mod elf;
mod elf_needed;
mod fatbin;
mod file_names;
mod files;
mod glibc;
mod io;
mod lock;
mod paths;
mod places;
mod resolver;
mod runtime;
mod secure;
mod sort;
mod threads;
mod tls;
mod versioned_export;

pub(crate) use dlopen::{
    Handle, LOAD_CALL, copies_loaded, file_of_address, is_loaded, next_definition,
};
pub(crate) use elf::OWN_ELF;
pub(crate) use elf_needed::{built_for, needed, read_file};
pub(crate) use fatbin::ptx_isa;
pub(crate) use file_names::{
    MOCK_FILE, PYTHON_ENVS, companion_name, file_names, lazy_dependency, loaded_release_named,
    major_of_name, release_named, release_named_in, wheel_dirs,
};
pub(crate) use files::{check_file, is_dir, is_file, site_packages};
pub use io::{clock_ns, snprintf};
pub(crate) use io::{errno_text, open_trace_file, realtime_ns, write_all, write_stdout};
pub(crate) use lock::{LOCK_INIT, Lock, lock, unlock};
pub(crate) use paths::{SEP, has_dir, is_absolute, is_drive_root, is_sep, names_a_drive};
pub(crate) use places::{Places, SEARCH, needed_dirs};
pub(crate) use runtime::{abort, alloc, alloc_zeroed, dealloc, realloc};
pub(crate) use secure::env_var;
pub use secure::secure_execution;
pub(crate) use threads::{cpu_count, run_parallel};
pub(crate) use tls::{TlsKey, thread_id, tls_create, tls_get, tls_set};

//! The stubs' glibc floor: 2.17, the oldest glibc NVIDIA's own wheels load on (manylinux2014;
//! `libcudart.so.13` itself needs no more). Every libc function whose default symbol version in
//! a newer glibc is above that floor is declared here, bound to its original version, and the
//! rest of the loader calls these instead of the `libc` crate's declarations.
//!
//! Why: linking against the build machine's glibc records each function's *default* version.
//! glibc 2.34 moved `dlopen`, `dlsym`, `dlvsym`, `dlerror`, `dladdr`, `dlinfo` (from `libdl.so.2`) and
//! `pthread_key_create`, `pthread_getspecific`, `pthread_setspecific` (from `libpthread.so.0`)
//! into `libc.so.6` under a new default `GLIBC_2.34`, keeping the old versions as compatibility
//! symbols; a stub built on Debian 12 then refused to load on RHEL 8 (2.28), Ubuntu 20.04 (2.31)
//! or Amazon Linux 2 (2.26), and raised the floor of every wheel that links it. An undefined
//! symbol named `name@VERSION` in an object file is a versioned reference (what GNU as emits for
//! `.symver`; GNU ld and LLD both bind it to that version, default or not), so each declaration
//! below names its version in `link_name`, and any build (`cargo build`, the wheel, the prefix
//! install) gets the floor without a special toolchain or sysroot.
//!
//! At run time glibc resolves a versioned reference by version name in the whole lookup scope,
//! not only in the library the link recorded (`libc.so.6`): on glibc < 2.34 these names live in
//! `libdl.so.2` / `libpthread.so.0`, so every stub also has `DT_NEEDED` on those two
//! (`stub-loader/link_args.rs`, which every stub's build script includes); on 2.34+ they are empty compatibility objects and the symbols come from
//! `libc.so.6` (the same mechanism that lets pre-2.34 programs run on new glibc).
//!
//! `stat` is not here: before 2.33 it was an inline wrapper around `__xstat`, with no `stat`
//! symbol at all, so [`stat`] makes the `newfstatat` system call instead.
//!
//! `tests/tests/glibc_floor.rs` checks every stub's version references (x86-64, and aarch64 in
//! `scripts/test-aarch64.sh`) and runs the stubs under Debian 11's glibc 2.31.
//!
//! Versions, from glibc's `abilist` files: x86-64's base version is `GLIBC_2.2.5` (`dlinfo`
//! came in 2.3.3); aarch64 began at 2.17, so every name there is `GLIBC_2.17`.

use core::ffi::{c_char, c_int, c_void};

/// Declares `fn $name` bound to `$name@$x86_64` on x86-64 and `$name@GLIBC_2.17` on aarch64.
macro_rules! pinned {
    ($($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $x86_64:literal;)*) => {
        unsafe extern "C" {
            $(
                $(#[$doc])*
                #[cfg_attr(target_arch = "x86_64", link_name = concat!(stringify!($name), "@", $x86_64))]
                #[cfg_attr(target_arch = "aarch64", link_name = concat!(stringify!($name), "@GLIBC_2.17"))]
                pub(crate) fn $name($($arg: $ty),*) -> $ret;
            )*
        }
    };
}

pinned! {
    /// `dlfcn.h`; `libdl.so.2` before glibc 2.34.
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void = "GLIBC_2.2.5";
    /// `dlfcn.h`; `libdl.so.2` before glibc 2.34.
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void = "GLIBC_2.2.5";
    /// `dlfcn.h` (`_GNU_SOURCE`); `libdl.so.2` before glibc 2.34.
    fn dlvsym(handle: *mut c_void, symbol: *const c_char, version: *const c_char) -> *mut c_void = "GLIBC_2.2.5";
    /// `dlfcn.h`; `libdl.so.2` before glibc 2.34.
    fn dlerror() -> *mut c_char = "GLIBC_2.2.5";
    /// `dlfcn.h`; `libdl.so.2` before glibc 2.34, added in 2.3.3.
    fn dlinfo(handle: *mut c_void, request: c_int, info: *mut c_void) -> c_int = "GLIBC_2.3.3";
    /// `pthread.h`; `libpthread.so.0` before glibc 2.34.
    fn pthread_key_create(
        key: *mut libc::pthread_key_t,
        destructor: Option<unsafe extern "C" fn(*mut c_void)>
    ) -> c_int = "GLIBC_2.2.5";
    /// `pthread.h`; `libpthread.so.0` before glibc 2.34.
    fn pthread_getspecific(key: libc::pthread_key_t) -> *mut c_void = "GLIBC_2.2.5";
    /// `pthread.h`; `libpthread.so.0` before glibc 2.34.
    fn pthread_setspecific(key: libc::pthread_key_t, value: *const c_void) -> c_int = "GLIBC_2.2.5";
}

/// `stat(2)` of `path`, following symbolic links; `None` with `errno` set on failure. The
/// `newfstatat` system call (Linux 2.6.16; `libc::stat` is the kernel's layout on x86-64 and
/// aarch64), since glibc < 2.33 has no `stat` symbol to bind.
pub(crate) fn stat(path: &core::ffi::CStr) -> Option<libc::stat> {
    // SAFETY: `struct stat` is plain data.
    let mut st: libc::stat = unsafe { core::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a valid `struct stat` out-pointer; flags 0 follows links.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_newfstatat,
            libc::AT_FDCWD,
            path.as_ptr(),
            &raw mut st,
            0,
        )
    };
    (rc == 0).then_some(st)
}

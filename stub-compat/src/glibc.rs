//! The libdl functions a compatibility library calls, bound to their pre-2.34 symbol versions
//! like the stubs' own (`stub-loader/src/os/linux/glibc.rs` says why: the glibc floor of 2.17, and
//! `libdl.so.2` in `DT_NEEDED` through the stubs' link arguments).

use core::ffi::{c_char, c_int, c_void};

/// Declares `fn $name` bound to `$name@GLIBC_2.2.5` on x86-64 and `$name@GLIBC_2.17` on
/// aarch64 (each architecture's first glibc version).
macro_rules! pinned {
    ($($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        unsafe extern "C" {
            $(
                $(#[$doc])*
                #[cfg_attr(target_arch = "x86_64", link_name = concat!(stringify!($name), "@GLIBC_2.2.5"))]
                #[cfg_attr(target_arch = "aarch64", link_name = concat!(stringify!($name), "@GLIBC_2.17"))]
                pub(crate) fn $name($($arg: $ty),*) -> $ret;
            )*
        }
    };
}

pinned! {
    /// `dlfcn.h`; `libdl.so.2` before glibc 2.34.
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    /// `dlfcn.h`; `libdl.so.2` before glibc 2.34.
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    /// `dlfcn.h` (`_GNU_SOURCE`); `libdl.so.2` before glibc 2.34.
    fn dlvsym(handle: *mut c_void, symbol: *const c_char, version: *const c_char) -> *mut c_void;
    /// `dlfcn.h` (`_GNU_SOURCE`); `libdl.so.2` before glibc 2.34.
    fn dladdr(address: *const c_void, info: *mut libc::Dl_info) -> c_int;
}

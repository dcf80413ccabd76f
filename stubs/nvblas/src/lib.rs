//! `libstubs_nvblas.so`: nvBLAS, BLAS level 3 offloaded to cuBLAS (`nvblas.h`; CUDA 11.8, 12.x
//! and 13.x), forwarded to the real `libnvblas.so.13`, `.12` or `.11` found on the first call.
//! Its 60 exports are the nine level-3 routines (`?gemm`, `?symm`, `?hemm`, `?syrk`, `?herk`,
//! `?syr2k`, `?her2k`, `?trsm`, `?trmm`) of each type, under the Fortran name (`dgemm_`) and the
//! plain one (`dgemm`), with the prototypes `nvblas.h` declares (every argument by pointer); the
//! same 60 in every major.
//!
//! **One CUDA release per process.** The soname says the major (`libnvblas.so.<major>`; no
//! version function), and nvBLAS needs the cuBLAS of its own release (`DT_NEEDED
//! libcublas.so.<major>`): a candidate of another major than the process's is refused by its
//! name before `dlopen`.
//!
//! **No result to carry an error.** A BLAS routine returns nothing, and its output is the
//! caller's matrix: the loader's fallback for a `void` function (return at once, counted in
//! `cuda_stubs_nvblas_status`'s `missing`, logged under `CUDA_STUBS_DEBUG`) would leave `C`
//! as it was and the program computing on with a wrong result, a silent success. So every
//! routine is hand-written here: it forwards to the real one where the loader's gate finds it
//! (the first call decides, once per routine), and otherwise writes one line to stderr, always
//! (`cuda-stubs: nvblas: dgemm_ cannot be called: <the search's summary>`), and calls `abort()`:
//! reference BLAS's `XERBLA` also stops the program on a call it cannot perform, and a program
//! linked to NVIDIA's library without it does not start. [`STATUS_NO_LIBRARY`] and
//! [`STATUS_ABSENT`] are the runtime's codes (`cudaErrorStubLibrary`, `cudaErrorNotSupported`,
//! from `driver_types.h`, which `nvblas.h` includes), declared for the status API; no export
//! returns them.
//!
//! **ABI.** Fortran passes a hidden length after the arguments for each `CHARACTER` argument
//! (gfortran: a `size_t` per `transa`, `uplo` …); NVIDIA's nvBLAS declares and reads none of
//! them (its header), so forwarding the header's arguments gives the real routine all it reads.

#![cfg_attr(not(test), no_std)]

extern crate alloc;

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

use core::ffi::{CStr, c_char, c_int};
use core::sync::atomic::{AtomicBool, Ordering};
use stub_loader::Resolution;
use types::{cuComplex, cuDoubleComplex};

// `LIBRARY`, `STATUS_NO_LIBRARY` (`cudaErrorStubLibrary`), `STATUS_ABSENT`
// (`cudaErrorNotSupported`) and the export `cuda_stubs_nvblas_status`, from the spec.
stub_loader::stub_library! {
    name: nvblas,
    spec: stub_spec::libraries::NVBLAS,
    status_type: types::cudaError_t,
    functions: api::FUNCTIONS,
}

/// `name` as a C string, at compile time (the routines' names, `concat!`ed with a NUL).
const fn c_name(name: &'static str) -> &'static CStr {
    match CStr::from_bytes_with_nul(name.as_bytes()) {
        Ok(name) => name,
        Err(_) => panic!("a routine's name with one NUL, at its end"),
    }
}

/// Whether routine `name` can be called: `ready` once its first call found it in the bound
/// library (the search's result never changes after). Otherwise never returns: see [`refuse`].
#[inline]
fn ensure_callable(name: &'static CStr, ready: &AtomicBool) {
    if ready.load(Ordering::Relaxed) {
        return;
    }
    match LIBRARY.forward_resolution(name) {
        Resolution::Found(_) => ready.store(true, Ordering::Relaxed),
        why => refuse(name, why),
    }
}

/// A routine that cannot be called: one line to stderr, whatever `CUDA_STUBS_DEBUG` says
/// (`cuda-stubs: nvblas: dgemm_ cannot be called: libnvblas not found (searched …)`, or `…: absent
/// from the loaded libnvblas`), then `abort()`: its output cannot be produced, and returning
/// would let the program go on with it unwritten.
#[cold]
#[inline(never)]
fn refuse(name: &CStr, why: Resolution) -> ! {
    let loaded = LIBRARY.loaded();
    let reason: &[u8] = match why {
        Resolution::NoLibrary => loaded.summary().to_bytes(),
        Resolution::NotTranslatable => b"its ABI differs in the loaded libnvblas",
        _ => b"absent from the loaded libnvblas",
    };
    let mut line = alloc::vec::Vec::with_capacity(64 + reason.len());
    line.extend_from_slice(b"cuda-stubs: nvblas: ");
    line.extend_from_slice(name.to_bytes());
    line.extend_from_slice(b" cannot be called: ");
    line.extend_from_slice(reason.strip_prefix(b"cuda-stubs: ").unwrap_or(reason));
    line.push(b'\n');
    // SAFETY: fd 2 and a buffer of `line.len()` bytes; a failed write is ignored (nothing else
    // could report it), and abort() ends the process either way.
    unsafe {
        let _ = libc::write(2, line.as_ptr().cast(), line.len());
        libc::abort()
    }
}

/// One routine under one name: forwarded to the real one, or [`refuse`]d.
macro_rules! routine {
    ($name:ident, ($($arg:ident: $ty:ty),* $(,)?)) => {
        #[doc = concat!("`", stringify!($name), "` (`nvblas.h`): forwarded, or the process stops ",
                        "with a line saying why (the crate docs).")]
        ///
        /// # Safety
        /// As the BLAS routine's: every argument a valid pointer to what it names.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) {
            static READY: AtomicBool = AtomicBool::new(false);
            ensure_callable(c_name(concat!(stringify!($name), "\0")), &READY);
            // SAFETY: the caller's arguments, passed on as the header declares them.
            unsafe { api::$name::Forward::call($($arg),*) }
        }
    };
}

/// `?gemm`: `C = alpha op(A) op(B) + beta C`.
macro_rules! gemm {
    ($($name:ident: $t:ty;)*) => {$(
        routine!($name, (transa: *const c_char, transb: *const c_char, m: *const c_int,
            n: *const c_int, k: *const c_int, alpha: *const $t, a: *const $t, lda: *const c_int,
            b: *const $t, ldb: *const c_int, beta: *const $t, c: *mut $t, ldc: *const c_int));
    )*};
}

/// `?symm`, `?hemm`: `C = alpha A B + beta C` (or `B A`), `A` symmetric or Hermitian.
macro_rules! symm {
    ($($name:ident: $t:ty;)*) => {$(
        routine!($name, (side: *const c_char, uplo: *const c_char, m: *const c_int,
            n: *const c_int, alpha: *const $t, a: *const $t, lda: *const c_int, b: *const $t,
            ldb: *const c_int, beta: *const $t, c: *mut $t, ldc: *const c_int));
    )*};
}

/// `?syrk`, `?herk`: `C = alpha A op(A) + beta C`; `?herk`'s `alpha` and `beta` are real
/// (`$r`).
macro_rules! syrk {
    ($($name:ident: $t:ty, $r:ty;)*) => {$(
        routine!($name, (uplo: *const c_char, trans: *const c_char, n: *const c_int,
            k: *const c_int, alpha: *const $r, a: *const $t, lda: *const c_int, beta: *const $r,
            c: *mut $t, ldc: *const c_int));
    )*};
}

/// `?syr2k`, `?her2k`: `C = alpha A op(B) + alpha' B op(A) + beta C`; `?her2k`'s `beta` is
/// real (`$r`).
macro_rules! syr2k {
    ($($name:ident: $t:ty, $r:ty;)*) => {$(
        routine!($name, (uplo: *const c_char, trans: *const c_char, n: *const c_int,
            k: *const c_int, alpha: *const $t, a: *const $t, lda: *const c_int, b: *const $t,
            ldb: *const c_int, beta: *const $r, c: *mut $t, ldc: *const c_int));
    )*};
}

/// `?trsm`, `?trmm`: `B = alpha op(A)^-1 B` or `alpha op(A) B` (or from the right), in place.
macro_rules! trsm {
    ($($name:ident: $t:ty;)*) => {$(
        routine!($name, (side: *const c_char, uplo: *const c_char, transa: *const c_char,
            diag: *const c_char, m: *const c_int, n: *const c_int, alpha: *const $t,
            a: *const $t, lda: *const c_int, b: *mut $t, ldb: *const c_int));
    )*};
}

gemm! {
    sgemm_: f32; sgemm: f32; dgemm_: f64; dgemm: f64;
    cgemm_: cuComplex; cgemm: cuComplex; zgemm_: cuDoubleComplex; zgemm: cuDoubleComplex;
}
symm! {
    ssymm_: f32; ssymm: f32; dsymm_: f64; dsymm: f64;
    csymm_: cuComplex; csymm: cuComplex; zsymm_: cuDoubleComplex; zsymm: cuDoubleComplex;
    chemm_: cuComplex; chemm: cuComplex; zhemm_: cuDoubleComplex; zhemm: cuDoubleComplex;
}
syrk! {
    ssyrk_: f32, f32; ssyrk: f32, f32; dsyrk_: f64, f64; dsyrk: f64, f64;
    csyrk_: cuComplex, cuComplex; csyrk: cuComplex, cuComplex;
    zsyrk_: cuDoubleComplex, cuDoubleComplex; zsyrk: cuDoubleComplex, cuDoubleComplex;
    cherk_: cuComplex, f32; cherk: cuComplex, f32;
    zherk_: cuDoubleComplex, f64; zherk: cuDoubleComplex, f64;
}
syr2k! {
    ssyr2k_: f32, f32; ssyr2k: f32, f32; dsyr2k_: f64, f64; dsyr2k: f64, f64;
    csyr2k_: cuComplex, cuComplex; csyr2k: cuComplex, cuComplex;
    zsyr2k_: cuDoubleComplex, cuDoubleComplex; zsyr2k: cuDoubleComplex, cuDoubleComplex;
    cher2k_: cuComplex, f32; cher2k: cuComplex, f32;
    zher2k_: cuDoubleComplex, f64; zher2k: cuDoubleComplex, f64;
}
trsm! {
    strsm_: f32; strsm: f32; dtrsm_: f64; dtrsm: f64;
    ctrsm_: cuComplex; ctrsm: cuComplex; ztrsm_: cuDoubleComplex; ztrsm: cuDoubleComplex;
    strmm_: f32; strmm: f32; dtrmm_: f64; dtrmm: f64;
    ctrmm_: cuComplex; ctrmm: cuComplex; ztrmm_: cuDoubleComplex; ztrmm: cuDoubleComplex;
}

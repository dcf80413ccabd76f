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
//! caller's matrix: the loader's fallback for a `void` function (return at once) would leave `C`
//! as it was and the program computing on with a wrong result, a silent success. So every
//! routine is hand-written here, and a call the stub cannot forward goes, in this order:
//! 1. to the real routine, where the loader's gate finds it (the first call decides, once per
//!    routine);
//! 2. else, on Linux, to the next definition of the same name in the process
//!    ([`stub_loader::Library::next_definition`], `dlsym(RTLD_NEXT)`; Windows has none, a DLL's
//!    imports naming the DLL they come from): the CPU BLAS the program
//!    links after nvBLAS, as NVIDIA documents for nvBLAS (`-lnvblas` before the CPU BLAS), the
//!    library nvBLAS itself hands what it does not offload; a copy of libnvblas refused by the
//!    search is never called that way;
//! 3. else nowhere: the call is counted in `cuda_stubs_nvblas_status`'s `missing` and logged
//!    under `CUDA_STUBS_DEBUG`, as every call a stub does not make, and the output matrix (`C`,
//!    or `B` of `?trsm`/`?trmm`: rows × columns at its leading dimension) is filled with NaN
//!    (every bit set), so that what the program computes from it shows the failure instead of
//!    stale numbers. Never an abort, never a line the program did not ask for.
//!
//! [`STATUS_NO_LIBRARY`] and [`STATUS_ABSENT`] are the runtime's codes (`cudaErrorStubLibrary`,
//! `cudaErrorNotSupported`, from `driver_types.h`, which `nvblas.h` includes), declared for the
//! status API; no export returns them.
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
use core::sync::atomic::{AtomicUsize, Ordering};
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

/// [`route`]'s answers besides the address of a next definition.
const UNKNOWN: usize = 0;
/// The real routine, found by the loader's gate.
const REAL: usize = 1;
/// Neither the real routine nor another definition: the call is not made.
const NONE: usize = 2;

/// Where routine `name` goes (the crate docs): [`REAL`], the address of the next definition in
/// the process, or [`NONE`]; decided at its first call and kept in `cache` (the search's result
/// never changes after).
#[inline]
fn route(name: &'static CStr, cache: &AtomicUsize) -> usize {
    let known = cache.load(Ordering::Relaxed);
    if known != UNKNOWN {
        return known;
    }
    let route = match LIBRARY.forward_resolution(name) {
        Resolution::Found(_) => REAL,
        _ => LIBRARY.next_definition(name).map_or(NONE, |f| f as usize),
    };
    cache.store(route, Ordering::Relaxed);
    route
}

/// Fills the output matrix of a call not made with NaN (every bit set, a NaN in `f32`, `f64`
/// and both parts of the complex types): `rows` × `cols` elements of `size` bytes at leading
/// dimension `ld`, the part BLAS would write. Nothing for dimensions BLAS would reject.
///
/// # Safety
/// `out` points to the caller's matrix of at least `ld` × `cols` elements, as BLAS requires;
/// `rows`, `cols`, `ld` are NULL or valid.
#[cold]
unsafe fn poison(
    out: *mut u8,
    rows: *const c_int,
    cols: *const c_int,
    ld: *const c_int,
    size: usize,
) {
    // SAFETY: NULL or the caller's integers.
    let dims = unsafe { (rows.as_ref(), cols.as_ref(), ld.as_ref()) };
    let (Some(&rows), Some(&cols), Some(&ld)) = dims else {
        return;
    };
    if out.is_null() || rows <= 0 || cols <= 0 || ld < rows {
        return;
    }
    for col in 0..cols as usize {
        // SAFETY: column `col` of a matrix of `ld` × `cols` elements (the contract); rows <= ld.
        unsafe {
            core::ptr::write_bytes(
                out.add(col * ld as usize * size),
                0xff,
                rows as usize * size,
            )
        };
    }
}

/// One routine under one name (the crate docs): forwarded, handed to the next definition, or
/// not made with its output `$out` (`$t` elements, `$rows` × `$cols` at `$ld`) filled with NaN.
macro_rules! routine {
    ($name:ident, ($($arg:ident: $ty:ty),* $(,)?), $out:ident: $t:ty [$rows:ident x $cols:ident, $ld:ident]) => {
        #[doc = concat!("`", stringify!($name), "` (`nvblas.h`): forwarded to nvBLAS, else to the ",
                        "next definition in the process, else not made (the crate docs).")]
        ///
        /// # Safety
        /// As the BLAS routine's: every argument a valid pointer to what it names.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) {
            static ROUTE: AtomicUsize = AtomicUsize::new(UNKNOWN);
            match route(c_name(concat!(stringify!($name), "\0")), &ROUTE) {
                // SAFETY: the caller's arguments, passed on as the header declares them.
                REAL => unsafe { api::$name::Forward::call($($arg),*) },
                NONE => {
                    // SAFETY: as above; the forwarder counts and logs the call not made.
                    unsafe { api::$name::Forward::call($($arg),*) };
                    // SAFETY: the output matrix by BLAS's contract.
                    unsafe { poison($out.cast(), $rows, $cols, $ld, core::mem::size_of::<$t>()) }
                }
                next => {
                    // SAFETY: a definition of the same BLAS name, hence the same prototype.
                    let f: unsafe extern "C" fn($($ty),*) = unsafe { core::mem::transmute(next) };
                    // SAFETY: the caller's arguments.
                    unsafe { f($($arg),*) }
                }
            }
        }
    };
}

/// `?gemm`: `C = alpha op(A) op(B) + beta C`.
macro_rules! gemm {
    ($($name:ident: $t:ty;)*) => {$(
        routine!($name, (transa: *const c_char, transb: *const c_char, m: *const c_int,
            n: *const c_int, k: *const c_int, alpha: *const $t, a: *const $t, lda: *const c_int,
            b: *const $t, ldb: *const c_int, beta: *const $t, c: *mut $t, ldc: *const c_int),
            c: $t [m x n, ldc]);
    )*};
}

/// `?symm`, `?hemm`: `C = alpha A B + beta C` (or `B A`), `A` symmetric or Hermitian.
macro_rules! symm {
    ($($name:ident: $t:ty;)*) => {$(
        routine!($name, (side: *const c_char, uplo: *const c_char, m: *const c_int,
            n: *const c_int, alpha: *const $t, a: *const $t, lda: *const c_int, b: *const $t,
            ldb: *const c_int, beta: *const $t, c: *mut $t, ldc: *const c_int),
            c: $t [m x n, ldc]);
    )*};
}

/// `?syrk`, `?herk`: `C = alpha A op(A) + beta C`; `?herk`'s `alpha` and `beta` are real
/// (`$r`).
macro_rules! syrk {
    ($($name:ident: $t:ty, $r:ty;)*) => {$(
        routine!($name, (uplo: *const c_char, trans: *const c_char, n: *const c_int,
            k: *const c_int, alpha: *const $r, a: *const $t, lda: *const c_int, beta: *const $r,
            c: *mut $t, ldc: *const c_int),
            c: $t [n x n, ldc]);
    )*};
}

/// `?syr2k`, `?her2k`: `C = alpha A op(B) + alpha' B op(A) + beta C`; `?her2k`'s `beta` is
/// real (`$r`).
macro_rules! syr2k {
    ($($name:ident: $t:ty, $r:ty;)*) => {$(
        routine!($name, (uplo: *const c_char, trans: *const c_char, n: *const c_int,
            k: *const c_int, alpha: *const $t, a: *const $t, lda: *const c_int, b: *const $t,
            ldb: *const c_int, beta: *const $r, c: *mut $t, ldc: *const c_int),
            c: $t [n x n, ldc]);
    )*};
}

/// `?trsm`, `?trmm`: `B = alpha op(A)^-1 B` or `alpha op(A) B` (or from the right), in place.
macro_rules! trsm {
    ($($name:ident: $t:ty;)*) => {$(
        routine!($name, (side: *const c_char, uplo: *const c_char, transa: *const c_char,
            diag: *const c_char, m: *const c_int, n: *const c_int, alpha: *const $t,
            a: *const $t, lda: *const c_int, b: *mut $t, ldb: *const c_int),
            b: $t [m x n, ldb]);
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

//! `libstubs_cufftw.so`: cuFFTW, FFTW 3's API over cuFFT (`cufftw.h`; CUDA 11.8, 12.x and
//! 13.x), forwarded to the real `libcufftw.so.12`, `.11` or `.10` found on the first call.
//! Everything here is the generated spec (`src/generated/`: `api.rs`, `types.rs`) and this
//! file's data: no code of its own.
//!
//! **One CUDA release per process.** cuFFTW carries cuFFT's soname major (`.10` is 11.x, `.11`
//! 12.x, `.12` 13.x) and has no version function, so the soname it was found under is its
//! version. It calls the cuFFT of its own release (`DT_NEEDED libcufft.so.<major>`): before its
//! search the stub reads the release the process has mapped (the runtime's, cuFFT's), and a
//! candidate whose file name or `DT_NEEDED` says another major is refused before `dlopen`.
//!
//! **No status to return.** No cuFFTW function returns a status code: the planners return a
//! plan, `fftw_execute` and the others nothing. A call the stub cannot make answers the
//! "failed" value of FFTW's own API: the planners and `fftw_malloc` NULL (FFTW's "no plan",
//! "no memory"), `fftw_import_wisdom_from_file` 0 (its failure), `fftw_cost` 0; the `void`
//! functions return without effect — a program reaches them only with a plan, which it cannot
//! have had from this stub without a library. Each such call is counted in
//! `cuda_stubs_cufftw_status`'s `missing` and logged under `CUDA_STUBS_DEBUG`.
//! [`STATUS_NO_LIBRARY`] and [`STATUS_ABSENT`] are cuFFT's codes (`CUFFT_SETUP_FAILED`,
//! `CUFFT_NOT_SUPPORTED`, as the cuFFT stub's), declared for the status API; no export
//! returns them.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUFFT_SETUP_FAILED`), `STATUS_ABSENT`
// (`CUFFT_NOT_SUPPORTED`) and the export `cuda_stubs_cufftw_status`, from the spec.
stub_loader::stub_library! {
    name: cufftw,
    spec: stub_spec::libraries::CUFFTW,
    status_type: types::cufftResult,
    functions: api::FUNCTIONS,
}

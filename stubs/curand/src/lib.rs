//! `libstubs_curand.so`: the cuRAND host API (`curand.h`, CUDA 11.8, 12.x and 13.x), forwarded
//! to the real `libcurand.so.10` found on the first call. Everything here is the generated spec
//! (`src/generated/`: `api.rs`, `types.rs`) and this file's data: no code of its own.
//!
//! **One soname, three majors.** Every major ships cuRAND as `libcurand.so.10` with the same 27
//! functions and prototypes, so the soname cannot say which CUDA release a copy belongs to: the
//! stub asks the library (`curandGetVersion`: 10.3.0 is CUDA 11.8, 10.3.1–10.3.10 are 12.x,
//! 10.4 is 13.x; the spec's `releases`), and the status API reports the CUDA major it maps to
//! (`1000 * major`).
//!
//! **One CUDA release per process.** 13.5's `libcurand.so.10` (NVIDIA's wheel, 10.4.5) has
//! `DT_NEEDED libcudart.so.13` and no RUNPATH; 11.8's, 12.9's and the CUDA 13.0 toolkit's
//! (10.4.0) link the runtime statically. Loading the former into a process whose runtime is
//! 12.9 would put a second runtime in it, and any cuRAND of another major mixes releases. So
//! before its search the stub reads which `libcudart.so.*` the process has (else the release of
//! the math libraries it has; `stub_loader`'s `search/release.rs`), and rejects any cuRAND of
//! another major: before `dlopen`
//! when its file's `DT_NEEDED` names another runtime, else once its version is known (a copy of
//! another release loaded that way stays mapped, never called). With a 13.5 cuRAND found by
//! path and no runtime yet, the `libcudart.so.13` beside it is loaded first (its wheel folder,
//! `nvidia/cu13/lib`, holds both).
//!
//! **Typed errors.** cuRAND has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `CURAND_STATUS_INITIALIZATION_FAILED` (203), when no cuRAND of the
//!   process's release was found: what the real library answers when CUDA cannot be set up
//!   (no driver), so a program treats a missing cuRAND as a machine without CUDA;
//!   `cuda_stubs_curand_status` says what was searched and why each copy was rejected (a copy
//!   of another release names both majors);
//! - [`STATUS_ABSENT`], `CURAND_STATUS_VERSION_MISMATCH` (100), when the loaded cuRAND lacks
//!   the function: "header file and linked library version do not match", literally the case.
//!   No supported major lacks one today.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CURAND_STATUS_INITIALIZATION_FAILED`), `STATUS_ABSENT`
// (`CURAND_STATUS_VERSION_MISMATCH`) and the export `cuda_stubs_curand_status`, from the spec.
stub_loader::stub_library! {
    name: curand,
    spec: stub_spec::libraries::CURAND,
    status_type: types::curandStatus_t,
    functions: api::FUNCTIONS,
}

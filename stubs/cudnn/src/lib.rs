//! `libstubs_cudnn.so`: cuDNN 9 (`cudnn.h` and the headers it includes: `cudnn_graph.h`,
//! `cudnn_ops.h`, `cudnn_cnn.h`, `cudnn_adv.h`, 9.27's `cudnn_subquadratic_ops.h` and
//! `cudnn_gnn_ops.h`; cuDNN 9.10.2 of CUDA 11.x, 9.27.0 of 12.x and 13.x), forwarded to the real
//! front library `libcudnn.so.9` found on the first call. Everything here is the generated spec
//! (`src/generated/`: `api.rs`, `types.rs`, `status_texts.rs`) and this file's data, but for
//! `cudnnGetLastErrorString` ([`cudnnGetLastErrorString`]).
//!
//! **One soname, one version, two releases.** Every major ships cuDNN 9 as `libcudnn.so.9`, and
//! NVIDIA's CUDA 12 and CUDA 13 wheels hold the same cuDNN (`cudnnGetVersion` 92700 in both).
//! `cudnnGetCudartVersion` says which: the runtime the copy was built with and links statically
//! (12090 and 13040; 11080 for 9.10.2's CUDA 11 build), the loader's version probe
//! (`VersionProbe::Returned`); the status API's `version` is that CUDA version, the debug log
//! also has cuDNN's own.
//!
//! **One CUDA release per process.** cuDNN runs on the program's streams and device memory, and
//! its sub-libraries load the major's cuBLASLt and NVRTC by soname: a copy built for another
//! major than the process's runtime (`libcudart.so.*` it has mapped, else the release the other
//! math libraries have) is rejected once its version says so, and stays mapped, never called
//! (`stub_loader`'s `search/release.rs`).
//!
//! **The graph sub-library first.** The front library is a dispatcher: each export loads its
//! sub-library at its first call and jumps into it, and without `libcudnn_graph.so.9` every one
//! of them, the version function included, calls `abort()`. The spec names it as the front
//! library's lazy dependency: the loader loads it (the process's copy, else the file beside the
//! candidate, else by the system's search) before calling anything of a candidate, and a copy
//! without it is rejected with the reason in the status, so a broken installation is the "no
//! library" code, never an abort. A missing `_ops`, `_cnn`, `_adv` or `_ext` is the real
//! library's business: its functions answer `CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE`.
//!
//! **Typed errors.** cuDNN has no code for "library missing", and aborts for "function
//! missing", so:
//! - [`STATUS_NO_LIBRARY`], `CUDNN_STATUS_NOT_INITIALIZED` (1001), when no cuDNN of the
//!   process's release was found: what the real `cudnnCreate` answers when CUDA cannot be set
//!   up (no driver, no GPU), so a program treats a missing cuDNN as cuDNN unusable on the
//!   machine; `cuda_stubs_cudnn_status` says what was searched and why each copy was rejected.
//!   The functions answering no status answer 0 (`cudnnGetVersion`, `cudnnGetCudartVersion`,
//!   `cudnnGetMaxDeviceVersion`);
//! - [`STATUS_ABSENT`], `CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH` (1002), when the loaded cuDNN
//!   lacks the function (9.10.2 has no `cudnnCausalConv1dForward`): NVIDIA's cudnn-frontend
//!   answers this value (as `CUDNN_STATUS_VERSION_MISMATCH`, its deprecated alias) for a backend
//!   function its cuDNN lacks.
//!
//! Error texts are never NULL: `cudnnGetErrorString` answers the real library's text, else the
//! enumerator's name (cuDNN's texts are the names: `CUDNN_STATUS_NOT_INITIALIZED`) or a text
//! naming a code no header defines; `cudnnGetLastErrorString` the real library's message, else
//! the search's summary (what was searched, why each copy was rejected).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::types;

use core::ffi::c_char;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`CUDNN_STATUS_NOT_INITIALIZED`), `STATUS_ABSENT`
// (`CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH`) and the export `cuda_stubs_cudnn_status`, from
// the spec.
stub_loader::stub_library! {
    name: cudnn,
    spec: stub_spec::libraries::CUDNN,
    status_type: types::cudnnStatus_t,
    functions: api::FUNCTIONS,
}

/// `void cudnnGetLastErrorString(char *message, size_t max_size)` (`cudnn_graph.h`, cuDNN 9.0
/// and later): writes the calling thread's last error message, truncated to `max_size` bytes
/// with its NUL, into `message`, and clears it (`""` when there is none); writes nothing when
/// `max_size` is 0. Forwarded where the loaded cuDNN has it (every 9.x). Without one, the stub
/// writes the search's summary (a program printing its last cuDNN error learns why there is
/// none), and nothing through a NULL `message`; with a cuDNN lacking it, `""`.
///
/// # Safety
/// `message` is NULL or writable for `max_size` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudnnGetLastErrorString(message: *mut c_char, max_size: usize) {
    // The forwarder's own gate decides: where it would answer its fallback instead, the
    // caller's buffer must still get its NUL.
    if let stub_loader::Resolution::Found(_) =
        LIBRARY.forward_resolution(c"cudnnGetLastErrorString")
    {
        // SAFETY: forwarded contract.
        return unsafe { api::cudnnGetLastErrorString::Forward::call(message, max_size) };
    }
    if message.is_null() || max_size == 0 {
        return;
    }
    let loaded = LIBRARY.loaded();
    let text = if loaded.is_bound() {
        &[][..]
    } else {
        loaded.summary().to_bytes()
    };
    let n = text.len().min(max_size - 1);
    // SAFETY: `message` is writable for `max_size` bytes (the contract) and `n < max_size`;
    // `text` is the stub's own string, never overlapping the caller's buffer.
    unsafe {
        core::ptr::copy_nonoverlapping(text.as_ptr(), message.cast::<u8>(), n);
        message.add(n).write(0);
    }
}

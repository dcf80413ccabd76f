//! `libstubs_nppc.so`: NPP's core (`nppcore.h`; CUDA 11.8, 12.x and 13.x), forwarded to the
//! real `libnppc.so.13`, `.12` or `.11` found on the first call. Everything here is the
//! generated spec (`src/generated/`) and this file's data, but for `nppGetLibVersion` and
//! `nppGetGpuName`, whose pointers are never NULL.
//!
//! **Eleven stubs.** NPP is eleven libraries, and each has its stub (`libstubs_nppc.so`,
//! `libstubs_nppial.so` … `libstubs_npps.so`, from `stub-spec`'s `npp.rs`), so that NVIDIA's
//! link names map one to one (`-lnppc -lnppial`, FindCUDAToolkit's `CUDA::nppc`,
//! `CUDA::nppial`). What this crate's documentation says holds for all of them.
//!
//! **One CUDA release per process, one `libnppc`.** Each library's soname says its CUDA major
//! (`libnppial.so.12` is 12.x's), and none has a version function but the core's, so the
//! soname is the version (`VersionProbe::Soname`). Every library links the runtime statically,
//! and every one but the core needs `libnppc.so.<major>` (`DT_NEEDED`; 11.x and 12.x find it
//! through their `$ORIGIN` RUNPATH, 13.x have none). So the stubs hold NPP to the process's
//! release, with the runtime and `libnppc` as anchors: before its search a stub reads which
//! `libcudart.so.*` or `libnppc.so.*` the process has mapped (else the release of another
//! library under the rule: a math library, another NPP library), and a candidate of another
//! major is refused by its name before `dlopen`; a 13.x candidate has the `libnppc.so.13`
//! beside it loaded first. This stub's search starts with the copies already loaded (`RTLD_NOLOAD`
//! on each soname): the `libnppc` that an image library's `DT_NEEDED` brought in is the one it
//! binds, never a second copy.
//!
//! **Names.** The stubs export every name of every major: NPP 12.x deprecated and 13.0 removed
//! the variants without a stream context (`nppiAdd_8u_C1RSfs`), 13.x's `nppcore.h` declares
//! only `nppGetLibVersion` (its file still exports the legacy stream and device queries,
//! `nppSetStream` …, with no prototype to check them by: refused there). NPP 12.0 widened
//! `npps`' lengths (`int nLength` to `size_t`) and the buffer sizes of the `GetBufferSize`
//! functions (`int *` to `size_t *`): the stubs declare 13.x's prototypes, and refuse those
//! functions on 11.x, where one export cannot serve callers of both headers. 13.0 turned
//! `NppStreamContext.nReserved0` into a union with the workspace handle (same size and place:
//! the context is passed as it is). Names no header declares (`Event`, `Stream`,
//! `nppiWorkspaceCreate`, 12.x's generic `nppiAdd_Ctx` …) are forwarded opaquely.
//!
//! **Status codes** are the loaded library's: 13.0 renumbered fourteen `NppStatus` errors
//! (`NPP_NOT_SUPPORTED_MODE_ERROR` is -9999 in 11.x and 12.x, -14 in 13.x), which the stubs do
//! not translate.
//!
//! **Typed errors.** NPP has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `NPP_CUDA_KERNEL_EXECUTION_ERROR` (-1000), when no NPP library of
//!   the process's release was found: what the real libraries answer when CUDA cannot run (their
//!   kernels' launch fails without a GPU), so a program treats a missing NPP as a machine
//!   without CUDA; `cuda_stubs_nppc_status` says what was searched and why each copy was
//!   rejected;
//! - [`STATUS_ABSENT`], `NPP_NOT_IMPLEMENTED_ERROR` (-3), when the loaded NPP lacks the
//!   function (13.x's `nppiAdd_8u_C1RSfs`).
//!
//! Functions returning no status answer without a library what their type says: NULL for
//! `nppiMalloc_*` and `nppGetStream` (the legacy default stream), 0 for the SM and thread
//! counts, nothing for `nppiFree`; `nppGetLibVersion` and `nppGetGpuName` are hand-written.

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root.
mod generated;
use generated::api;
pub use generated::types;

use core::ffi::c_char;
use types::NppLibraryVersion;

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NPP_CUDA_KERNEL_EXECUTION_ERROR`), `STATUS_ABSENT`
// (`NPP_NOT_IMPLEMENTED_ERROR`) and the export `cuda_stubs_nppc_status`, from the spec.
stub_loader::stub_library! {
    name: nppc,
    spec: stub_spec::libraries::NPPC,
    status_type: types::NppStatus,
    functions: api::FUNCTIONS,
}

/// What `nppGetLibVersion` answers without a library: version 0.0.0, "no NPP".
static NO_VERSION: NppLibraryVersion = NppLibraryVersion {
    major: 0,
    minor: 0,
    build: 0,
};

/// `const NppLibraryVersion *nppGetLibVersion(void)` (`nppcore.h`, every major): the loaded
/// NPP's own version (11.8.0, 12.4.1, 13.2.0 in the tested wheels: its major is CUDA's, its
/// minor NPP's), read from the real library's static storage. Never NULL: with no library,
/// version 0.0.0, so that `nppGetLibVersion()->major` is safe to read.
///
/// # Safety
/// Callable from any thread; the pointee is never written.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nppGetLibVersion() -> *const NppLibraryVersion {
    // SAFETY: forwarded contract (no arguments); the slot answers NULL with no library.
    let version = unsafe { api::nppGetLibVersion::Forward::call() };
    if version.is_null() {
        &NO_VERSION
    } else {
        version
    }
}

/// `const char *nppGetGpuName(void)` (`nppcore.h` 11.x and 12.x; 13.x's file still exports it,
/// its header no longer declares it): the name of the current GPU. Never NULL: the real
/// library's answer where it has one, else NPP's own answer when it can name no GPU, `"n/a"`
/// (11.8's and 12.4's without a GPU), with no library and on 13.x, where the stub refuses it.
///
/// # Safety
/// Callable from any thread; the text is never written.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nppGetGpuName() -> *const c_char {
    // SAFETY: forwarded contract (no arguments); the slot answers NULL when it refuses.
    let name = unsafe { api::nppGetGpuName::Forward::call() };
    if name.is_null() {
        c"n/a".as_ptr()
    } else {
        name
    }
}

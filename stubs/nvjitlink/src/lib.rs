//! `libstubs_nvjitlink.so`: the nvJitLink C API (`nvJitLink.h`, CUDA 12.x and 13.x), forwarded
//! to the real `libnvJitLink.so.13` or `.12` found on the first call. Everything here is the
//! generated spec (`src/generated/`: `api.rs`, `types.rs`, `versioned_names.rs`) and this file's data: no code of
//! its own.
//!
//! **Names.** nvJitLink's header binds each call through a static inline wrapper to the ABI name
//! of the header's own version: a program built against 13.5's header calls
//! `__nvJitLinkCreate_13_5`, against 12.9's `__nvJitLinkCreate_12_9`, and with
//! `-DNVJITLINK_NO_INLINE` (13.x) the plain `nvJitLinkCreate`. The stub exports every name
//! libnvJitLink.so.12 of 12.9 and libnvJitLink.so.13 of 13.5 export (`_12_0` … `_12_9`,
//! `_13_0` … `_13_5`, the plain names, `nvJitLinkVersion`, the opaque `__nvJitLinkAPI`).
//!
//! **Binding rule**, for an ABI name `__nvJitLink<F>_<M>_<m>`:
//! 1. the same name in the loaded library, where it has it (major M, minor m or newer);
//! 2. else the loaded library's plain `nvJitLink<F>` ([`versioned_names::REPLACEMENTS`]), so a
//!    program built against 13.5's header runs on nvJitLink 12.x, 13.0 … and one built against
//!    12.9's on 13.x;
//! 3. else [`STATUS_ABSENT`]: `nvJitLinkGetLinkedLTOIR[Size]` (13.0+) on 12.x, and on 12.0–12.2,
//!    which export neither plain names nor `nvJitLinkVersion`, every name but their own.
//!
//! Why rule 2 is safe: codegen pairs a versioned name with the plain name only when their
//! prototypes have the same ABI key (parameter types after typedef resolution) in every major
//! exporting the plain name, and in NVIDIA's libraries every per-version name of a function and
//! its plain name are one entry point (each is a `jmp` to the same code in 12.9 and 13.5): the
//! version in the name selects no behaviour, it only makes a library older than the header fail
//! to load the program. The stub trades that load failure for the call: what the loaded library
//! cannot handle gets its own error (LTO-IR of a newer major: nvJitLink 12.9's
//! `nvJitLinkAddData` answers `NVJITLINK_ERROR_INTERNAL` and logs "may need newer version of
//! nvJitLink library"; PTX of a newer ISA: `NVJITLINK_ERROR_PTX_COMPILE`; an option it does not
//! know: `NVJITLINK_ERROR_UNRECOGNIZED_OPTION`). Result codes keep their meaning across majors:
//! 13.x added codes 10–18 after 12.x's 0–9, and 12.9's header already reserves 10–15 for them
//! (`NEW_ERROR_CODES`), so a 12.x-built program may see a code it does not name, never a
//! renumbered one.
//!
//! **Typed errors.** nvJitLink has no code for "library missing" or "function missing", so:
//! - [`STATUS_NO_LIBRARY`], `NVJITLINK_ERROR_INTERNAL` (6), when no libnvJitLink was found: as
//!   the NVRTC stub, the library's "internal error" (the linker is not there);
//! - [`STATUS_ABSENT`], `NVJITLINK_ERROR_OUTDATED_LIBRARY` (14), when the loaded nvJitLink lacks
//!   the function: literally its meaning. 13.x headers name it; 12.9's names it under
//!   `NEW_ERROR_CODES` (without, it `#define`s the name to `NVJITLINK_ERROR_INTERNAL`), and a
//!   12.x-built program sees it only on 12.0–12.2.
//!
//! `cuda_stubs_nvjitlink_status` says which of the two and what was searched; there is no
//! error-string function to answer (nvJitLink has none).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// What codegen writes (`src/generated/`, its `mod.rs` too), re-exported at the crate root:
// hand-written and generated code name it `crate::types`, `crate::api` ….
mod generated;
use generated::api;
pub use generated::{types, versioned_names};

// `LIBRARY`, `STATUS_NO_LIBRARY` (`NVJITLINK_ERROR_INTERNAL`), `STATUS_ABSENT`
// (`NVJITLINK_ERROR_OUTDATED_LIBRARY`) and the export `cuda_stubs_nvjitlink_status`, from the
// spec; the per-version names' plain names as replacements.
stub_loader::stub_library! {
    name: nvjitlink,
    spec: stub_spec::libraries::NVJITLINK,
    status_type: types::nvJitLinkResult,
    functions: api::FUNCTIONS,
    replacements: versioned_names::REPLACEMENTS,
}

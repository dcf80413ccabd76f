//! The loader shared by the cuda-stubs libraries (`libstubs_cudart.so`, `libstubs_nvrtc.so`,
//! `libstubs_cuda.so`, … one per spec of `stub_spec::libraries::ALL`).
//!
//! On the first call into a stub, [`Library::loaded`] finds the real NVIDIA library, `dlopen`s
//! it with `RTLD_LAZY | RTLD_LOCAL` (never `dlclose`d), learns its version and records every
//! candidate it tried. The search order is one list per system, `SEARCH`
//! (`os/linux/places.rs`), documented there and at `search::Origin` place by place (and in
//! `docs/src/search-order.md`): a copy already loaded (by `DT_SONAME`), the environment
//! override, NVIDIA's wheels of the stub's own Python environment, the dynamic loader's search,
//! then the CUDA toolkit folders.
//!
//! The process's CUDA driver caps the release bound ([`process_driver`], [`Driver`]): a copy of a
//! CUDA major the driver cannot run is refused, so the newest release the driver runs wins
//! (`search/driver_cap.rs`; the book's "Driver and toolkit").
//!
//! A candidate that is a cuda-stubs library itself (it exports [`STUB_MARKER`]) is rejected, so a
//! stub copied under a real soname never calls itself. In secure-execution processes
//! (`getauxval(AT_SECURE)`: setuid, setgid, file capabilities) every path taken from the
//! environment is ignored, as glibc ignores `LD_LIBRARY_PATH`.
//!
//! Nothing runs at process start: the search happens once, under a lock, on the first call.
//!
//! On Windows (`x86_64-pc-windows-gnu`, DLLs `stubs_<name>.dll`) the same code runs with the
//! OS calls and the search list of `os/windows/`: DLL names carry the major
//! (`cudart64_12.dll`), there is no soname, and nothing is loaded from the current directory or
//! `PATH`. Every call into the system, on either, goes through `os/` (its `mod.rs` lists them);
//! no other file tests the OS in a `cfg`.
//!
//! Dependency direction (files; `scripts/check-module-cycles.py` checks that no file imports
//! one that imports it back, in `scripts/test.sh`): the stub-facing tables and macros
//! (`status`, `error_text`, `adapter`, `stand_in`) use `library`; `library` uses `search`, `gating`,
//! `hooks` and `once`; `search::find` uses `probe`, `release`, `loaded` and the system's
//! `Places`; the places (`os/*/places.rs`) use the search's vocabulary beneath them
//! (`search::{order, candidates, paths, reject}`); `forward` (what the compatibility libraries
//! call the stub through) uses `once` and `os`; everything uses `os`'s primitives, `debug`,
//! `env` and `spec`, which import nothing above them.
//!
//! The crate is `no_std` (`core`, `alloc` and libc only): Rust's `std` would add ~265 KiB of
//! panic-time symbolizer to every stub even with `panic = "abort"`. Each stub cdylib installs
//! the allocator and panic handler with [`cdylib_runtime!`].

#![cfg_attr(not(test), no_std)]

extern crate alloc;

mod adapter;
mod build_string;
mod debug;
mod decimal;
pub mod device_code;
mod env;
mod error_text;
mod fatbin;
mod fn_table;
mod forward;
mod gating;
mod hook_config;
mod hooks;
mod last_error;
mod library;
mod link_stub;
mod names;
mod once;
mod os;
mod runtime;
mod search;
mod shared_resolver;
mod spec;
mod stand_in;
mod status;
mod status_value;
pub mod sync;

pub use adapter::{Adapted, RawFn, Target};
pub use debug::{debug_enabled, line as debug_line};
pub use error_text::{ErrorTexts, StatusText, TextKind};
pub use fn_table::{FnMeta, FnTable, MASK_BASE, RetKind};
pub use forward::{ForwardTarget, file_of};
pub use gating::{Resolution, SymbolGate};
pub use hook_config::{FaultRule, FaultWhen, TraceFilter, parse_fault_spec, parse_trace_filter};
pub use last_error::{peek_last_refusal, set_last_refusal, take_last_refusal};
pub use library::Library;
pub use os::{clock_ns, secure_execution};
pub use runtime::{LibcAlloc, abort_on_panic};
pub use search::{
    Attempt, COMPAT_MARKER, CUDA_STUBS_DRIVER_COMPILER_BEYOND, CUDA_STUBS_DRIVER_LOADED_BEYOND,
    CUDA_STUBS_DRIVER_NOT_BOUND, CUDA_STUBS_DRIVER_OF_THE_DRIVER,
    CUDA_STUBS_DRIVER_OVERRIDE_BEYOND, CUDA_STUBS_DRIVER_RELEASE_UNKNOWN, CUDA_STUBS_DRIVER_RUNS,
    CUDA_STUBS_DRIVER_UNKNOWN, Candidate, Driver, DriverFit, Loaded, Origin, ProcessRelease,
    Reject, STUB_MARKER, Tried, load_process_driver, process_driver,
};
pub use shared_resolver::TRACED_ARG_WORDS;
pub use spec::{
    Gating, LastError, LibrarySpec, ProcAddress, ProcEntry, RealLibrary, Replacement, Soname,
    StatusReader, VersionProbe,
};
pub use stand_in::{DataExport, StandIn, StandIns};
pub use status::{CudaStubsDriverStatus, CudaStubsStatus, fill_driver_status, fill_status};
pub use status_value::status_value;

/// The marker itself (see [`STUB_MARKER`]). Exported by every stub because every stub links
/// this crate (feature `marker`, on by default; the mock device turns it off).
#[cfg(feature = "marker")]
#[unsafe(no_mangle)]
#[used]
pub static cuda_stubs_marker: u8 = 1;

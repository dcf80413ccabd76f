//! The facts about the stubbed libraries, each written once, as data: one spec per library
//! ([`libraries`]: the real library's sonames, environment variable, wheel folders, version
//! probe, gating, typed errors, headers, hand-written exports, test wheels …), which driver runs
//! which CUDA major ([`DRIVER_MINIMUMS`]), the return kinds
//! of the stubs' function table ([`RetKind`]) and the majors' range and mask ([`majors`]).
//!
//! Read by every side: the runtime (`stub-loader` and the stub crates, `no_std`, which build
//! their `LibrarySpec` from [`Library::real`] and their typed errors from [`Library::errors`]),
//! the declaration model (`stub-model`, which re-exports this crate beside its grammar), the
//! macro, codegen (headers, allowlists, export sources, hand-written lists) and, through the
//! `scripts/libraries.json` codegen writes from [`Library::test_wheels`], `scripts/fetch-cuda.py`.
//!
//! `no_std` and without dependencies: the stubs link it, and a dependency on `syn` (or on
//! `std`) would put `std`'s panic handler beside theirs. That is also why it is a crate of its
//! own rather than a feature of `stub-model`: cargo unifies features across a workspace build,
//! so `stub-model`'s parser would be compiled into the stubs whenever codegen is built with them.
//! `alloc` is used only by [`LibraryKind::version_node`] and [`Library::link_stub_crate`], and
//! the stubs link `alloc` anyway.

#![no_std]

extern crate alloc;

mod driver;
mod error_text;
mod exports;
mod last_error;
pub mod libraries;
mod library;
mod library_kind;
pub mod majors;
mod mock;
mod ptx_isa;
mod release_named;
mod ret_kind;
mod unstubbed;
mod versioned_names;

pub use driver::{DRIVER_MINIMUMS, DriverMinimum, DriverUse, driver_minimum, driver_runs};
pub use error_text::{ErrorText, TextAbi, TextKind};
pub use exports::is_c_entry_point;
pub use last_error::LastErrorReaders;
pub use library::{
    BesideFile, ExportSource, Gating, HeaderVersion, Library, LinkName, OLDER_ABI, Packaging,
    ProcAddressSource, RealLibrary, Release, Soname, StatusCode, TOP_LEVEL_CRATES, TestWheel,
    TypedErrors, Unpack, VersionProbe, WindowsDlls, crate_dir_of,
};
pub use library_kind::LibraryKind;
pub use mock::MockUse;
pub use ptx_isa::{PtxIsa, max_ptx_isa, release_for_ptx_isa};
pub use release_named::ReleaseNamed;
pub use ret_kind::RetKind;
pub use unstubbed::UNSTUBBED_SONAME_STEMS;
pub use versioned_names::VersionedNames;

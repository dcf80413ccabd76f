//! Stage 3, the files codegen writes, each module one kind of file: a stub crate's
//! `src/generated/` ([`decls`]: `api.rs`, [`types`], [`abi_types`], [`abi_fns`],
//! [`proc_address`], [`status_texts`], [`versioned_names`], [`data`]: the stand-ins of exported data, [`mod_files`]: `mod.rs`), the
//! symbol versions ([`versions`]: `versions.map`, the link-time stub's `exports.rs`), the
//! Windows `.def` files ([`windows`]), the compatibility libraries' name lists and packaging
//! ([`compat`]), `manifest/` ([`manifest`], [`report`]: `ABI-REPORT.md`),
//! `scripts/libraries.json` ([`libraries_json`]) and `scripts/libraries.sh` ([`libraries_sh`]) and the lists of stubs outside Rust
//! ([`packaging`]); [`formatting`] runs rustfmt and cbindgen over what they produce.

pub mod abi_fns;
pub mod abi_types;
pub mod compat;
pub mod data;
pub mod decls;
pub mod formatting;
pub mod libraries_json;
pub mod libraries_sh;
pub mod manifest;
pub mod mod_files;
pub mod packaging;
pub mod proc_address;
pub mod report;
pub mod status_texts;
pub mod types;
pub mod versioned_names;
pub mod versions;
pub mod windows;

//! The stubbed libraries: their specs (`stub_spec::libraries`, re-exported by `stub-model`),
//! and where codegen writes each one's files.

use std::path::{Path, PathBuf};
pub use stub_model::Library;

/// All four, in the order codegen writes them.
pub use stub_model::libraries::ALL;

/// Where codegen writes a stub crate's Rust sources: `<crate_dir>/src/generated/`, apart from
/// the hand-written ones (the crate's `lib.rs` declares them in its `mod generated`).
pub fn generated_dir(root: &Path, crate_dir: &str) -> PathBuf {
    root.join(crate_dir).join("src").join("generated")
}

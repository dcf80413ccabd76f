//! The stubbed libraries: their specs (`stub_spec::libraries`, re-exported by `stub-model`), the
//! first input codegen reads.

pub use stub_model::Library;

/// Every library, in the order codegen writes them.
pub use stub_model::libraries::ALL;

//! The stubbed libraries: their specs (`stub_spec::libraries`, re-exported by `stub-model`), the
//! first input codegen reads.

pub use stub_model::Library;

/// Every library, in the order codegen writes them.
pub use stub_model::libraries::ALL;

/// NVIDIA's file stem of the real library: `cudart` for `libcudart.so.13`, `nvidia-ml` for
/// `libnvidia-ml.so.1`.
pub fn real_stem(library: &Library) -> String {
    let soname = library
        .real
        .sonames
        .first()
        .map(|s| s.name.to_string_lossy());
    let soname = soname.unwrap_or_default();
    let stem = soname.split(".so").next().unwrap_or_default();
    stem.strip_prefix("lib").unwrap_or(stem).to_owned()
}

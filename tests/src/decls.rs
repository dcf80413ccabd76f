//! The stubs' generated declarations (`<crate>/src/generated/api.rs`), read with the very parser
//! the `cuda_stubs` macro uses (the `stub-model` crate), so tests see what the macro sees.

pub use stub_model::{RetKind, StubFn};

/// The functions declared for `lib` ("cudart", "nvrtc", "cublas" …), in file order.
pub fn declared(lib: &str) -> Vec<StubFn> {
    let dir = stub_model::crate_dir_of(&format!("stubs-{lib}"));
    let path = crate::workspace_root().join(format!("{dir}/src/generated/api.rs"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let out =
        stub_model::parse_declarations(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!out.is_empty(), "{}: no declarations", path.display());
    out
}

//! The stubs' generated declarations (`stubs-*/src/generated/api.rs`), read with the very parser
//! the `cuda_stubs` macro uses (the `stub-model` crate), so tests see what the macro sees.

pub use stub_model::{RetKind, StubFn};

/// The functions declared for `lib` ("cudart", "nvrtc" or "cuda"), in file order.
pub fn declared(lib: &str) -> Vec<StubFn> {
    let path = crate::workspace_root().join(format!("stubs-{lib}/src/generated/api.rs"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    for item in file.items {
        let syn::Item::ForeignMod(mut block) = item else {
            continue;
        };
        let Some(pos) = block.attrs.iter().position(|a| {
            a.path()
                .segments
                .last()
                .is_some_and(|s| s.ident == "cuda_stubs")
        }) else {
            continue;
        };
        let attr = block.attrs.remove(pos);
        let args = match attr.meta {
            syn::Meta::List(list) => list.tokens,
            _ => panic!("{}: #[cuda_stubs] without arguments", path.display()),
        };
        let parsed = stub_model::parse_block(args, block)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out.extend(parsed.functions);
    }
    assert!(!out.is_empty(), "{}: no declarations", path.display());
    out
}

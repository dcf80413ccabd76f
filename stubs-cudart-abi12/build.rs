// A link-time stub (see src/lib.rs): the runtime stub's SONAME, so that a program linked
// against it needs `libstubs_cudart.so`, the runtime stub's version nodes, and `-z nodlopen`.
include!("../stub-loader/link_args.rs");

fn main() {
    cdylib_link_args("libstubs_cudart.so");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodlopen");
    let dir = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set"));
    versioned_link_args(&dir.join("../stubs-cudart/versions.map"));
}

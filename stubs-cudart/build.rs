// The names whose 12.x and 13.x prototypes differ are exported under the version nodes of
// `versions.map`.
include!("../stub-loader/link_args.rs");

fn main() {
    cdylib_link_args("libstubs_cudart.so");
    let dir = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set"));
    versioned_link_args(&dir.join("versions.map"));
}

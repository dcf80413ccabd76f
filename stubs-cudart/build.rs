// The SONAME is the file name: it must never look like NVIDIA's (no `libcudart.so*`), so the
// dynamic loader can never mistake the stub for the real library or vice versa. The names whose
// 12.x and 13.x prototypes differ are exported under the version nodes of `versions.map`.
include!("link_args.rs");

fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libstubs_cudart.so");
    let dir = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set"));
    versioned_link_args(&dir.join("versions.map"));
}

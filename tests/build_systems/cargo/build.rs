//! NVIDIA's link names and the toolkit's folder, as a -sys crate says them.
fn main() {
    println!("cargo:rustc-link-lib=dylib=cudart");
    println!("cargo:rustc-link-lib=dylib=cublas");
    println!("cargo:rerun-if-env-changed=CUDA_PATH");
    if let Some(cuda) = std::env::var_os("CUDA_PATH") {
        let lib64 = std::path::Path::new(&cuda).join("lib64");
        println!("cargo:rustc-link-search=native={}", lib64.display());
    }
}

// The SONAME is the file name: it must never look like NVIDIA's (no `libcuda.so*`), so the
// dynamic loader can never mistake the stub for the real library or vice versa.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libstubs_cuda.so");
}

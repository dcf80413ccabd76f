// The SONAME is the file name: it must never look like NVIDIA's (no `libnvJitLink*` prefix), so
// the dynamic loader can never mistake the stub for the real library or vice versa.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libstubs_nvjitlink.so");
}

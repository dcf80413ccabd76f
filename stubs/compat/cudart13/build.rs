// The link arguments of libcudart.so.13's compatibility library: NVIDIA's SONAME and version
// node, DT_NEEDED libstubs_cudart.so with RUNPATH $ORIGIN/.. (stub-compat/link_args.rs).
include!("../../../stub-loader/link_args.rs");
include!("../../../stub-compat/link_args.rs");

fn main() {
    println!("cargo:rerun-if-changed=../../../stub-compat/link_args.rs");
    compat_link_args(&stub_spec::libraries::CUDART, 13);
}

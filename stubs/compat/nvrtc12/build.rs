// The link arguments of libnvrtc.so.12's compatibility library: NVIDIA's SONAME and version
// node, DT_NEEDED libstubs_nvrtc.so with RUNPATH $ORIGIN/.. (stub-compat/link_args.rs).
include!("../../../stub-loader/link_args.rs");
include!("../../../stub-compat/link_args.rs");

fn main() {
    println!("cargo:rerun-if-changed=../../../stub-compat/link_args.rs");
    compat_link_args(&stub_spec::libraries::NVRTC, 12);
}

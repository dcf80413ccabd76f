// The link arguments of libnvidia-ml.so.1's compatibility library: NVIDIA's SONAME and version
// node, DT_NEEDED libstubs_nvml.so with RUNPATH $ORIGIN/.. (stub-compat/link_args.rs).
include!("../../../stub-loader/link_args.rs");
include!("../../../stub-compat/link_args.rs");

fn main() {
    println!("cargo:rerun-if-changed=../../../stub-compat/link_args.rs");
    compat_link_args(&stub_spec::libraries::NVML, 13);
}

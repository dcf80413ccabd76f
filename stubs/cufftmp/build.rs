// The stub's link arguments from its spec: SONAME, glibc-floor libraries, version nodes
// (`stub-loader/link_args.rs`).
include!("../../stub-loader/link_args.rs");

fn main() {
    stub_link_args();
}

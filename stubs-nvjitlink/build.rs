include!("../stub-loader/link_args.rs");

fn main() {
    cdylib_link_args("libstubs_nvjitlink.so");
}

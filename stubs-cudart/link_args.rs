// Link arguments of a cdylib that exports names under ELF symbol versions (`include!`d by
// `stubs-cudart/build.rs` and `stubs-cudart-abi12/build.rs`).

/// Passes `version_script` (codegen's `versions.map`: the version nodes) to the linker, and
/// links with LLD, rustc's own `rust-lld` (through the `gcc-ld/ld.lld` wrapper in rustc's
/// sysroot, as rustc does by default on x86_64-unknown-linux-gnu since 1.90). GNU ld refuses to
/// combine rustc's export list, an anonymous version script, with named version nodes
/// ("anonymous version tag cannot be combined with other version tags"); LLD merges them. The
/// cross build for aarch64 (`scripts/test-aarch64.sh`) uses the host's `rust-lld` the same way.
fn versioned_link_args(version_script: &std::path::Path) {
    println!("cargo:rerun-if-changed={}", version_script.display());
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,--version-script={}",
        version_script.display()
    );
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = std::process::Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| panic!("`{} --print sysroot` failed", rustc.to_string_lossy()));
    let host = std::env::var("HOST").expect("cargo sets HOST for build scripts");
    let gcc_ld = std::path::Path::new(&sysroot)
        .join("lib/rustlib")
        .join(host)
        .join("bin/gcc-ld");
    assert!(
        gcc_ld.join("ld.lld").is_file(),
        "{} is missing: the stub links with rustc's rust-lld (GNU ld cannot combine rustc's \
         export list with ELF symbol versions); install a rustup toolchain, which ships it",
        gcc_ld.join("ld.lld").display()
    );
    println!("cargo:rustc-cdylib-link-arg=-B{}", gcc_ld.display());
    println!("cargo:rustc-cdylib-link-arg=-fuse-ld=lld");
}

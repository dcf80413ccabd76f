// The link arguments of the stub cdylibs, `include!`d by each stub crate's build script: one
// place for what every stub's link line needs. The build script is one call,
// `stub_link_args()`, which finds the crate's spec by its package name (each stub crate has
// `stub-spec` as a build-dependency).

/// The link arguments of the stub crate being built, from its spec in
/// `stub_spec::libraries::ALL`: a library's crate (`crate_name`) links as its
/// [`stub_spec::Library::stub_file`], with the version nodes of its `versions.map` when it
/// exports two ABIs; a link-time stub crate (`link_stub_crate()`, `stubs-cudart-abi12`) takes
/// its library's SONAME (a program linked against it needs and runs the runtime stub), the
/// same version nodes with its own defaults, and `-z nodlopen` (never loaded).
#[allow(dead_code)]
fn stub_link_args() {
    let dir = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set"));
    // The package name, which is the spec's `crate_name` (codegen checks the `[lib]` name).
    let name = std::env::var("CARGO_PKG_NAME").expect("cargo sets CARGO_PKG_NAME");
    // The script reads no file: its spec is compiled into it (a build-dependency, as is this
    // file, `include!`d), so a change to either rebuilds and reruns it. Without a
    // rerun-if-changed line cargo would rerun it whenever any file of the package changes, and
    // key its freshness on the newest file's exact mtime, which an unpacked sdist (whose files
    // all carry one fixed mtime) never matches: every stub would be compiled again
    // (scripts/test-packaging.sh builds the wheel from the sdist on the repository's target/).
    println!("cargo:rerun-if-changed=build.rs");
    // Windows: a DLL has no SONAME, no glibc and no symbol versions; rustc names the file
    // `stubs_<name>.dll` after the `[lib]` name and writes its MinGW import library.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows") {
        return;
    }
    for library in stub_spec::libraries::ALL {
        // Named for rerun-if-changed relative to the package, as cargo keeps such a path: the
        // same in every copy of the tree (an absolute one differs in an unpacked sdist, which
        // makes cargo run the script again and relink the stub).
        // The library's own crate holds its `versions.map`; its link-time stub crate sits
        // beside it at the top level (`stub_spec::TOP_LEVEL_CRATES`).
        let versions_in_package = if library.crate_name == name {
            std::path::PathBuf::from("versions.map")
        } else {
            std::path::Path::new("..")
                .join(library.crate_dir())
                .join("versions.map")
        };
        let versions = dir.join(&versions_in_package);
        if library.crate_name == name {
            cdylib_link_args(&library.stub_file());
            if library.abi12_hand_written.is_some() {
                println!("cargo:rerun-if-changed={}", versions_in_package.display());
                versioned_link_args(&versions);
            }
            return;
        }
        if library.link_stub_crate().as_deref() == Some(name.as_str()) {
            cdylib_link_args(&library.stub_file());
            println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodlopen");
            println!("cargo:rerun-if-changed={}", versions_in_package.display());
            versioned_link_args(&versions);
            return;
        }
    }
    panic!("{name}: no spec in stub_spec::libraries::ALL has it as its crate_name or link stub crate");
}

/// Every stub: its SONAME, and the `DT_NEEDED` edges of the glibc floor.
///
/// The SONAME is the file name: it must never look like NVIDIA's (no `libcudart.so*`,
/// `libnvrtc.so*` …), so the dynamic loader can never mistake a stub for the real library or
/// vice versa.
///
/// `libdl.so.2` and `libpthread.so.0`: the stubs bind `dlopen`, `pthread_key_create` … at their
/// pre-2.34 symbol versions (`stub-loader/src/os/linux/glibc.rs` says why), which glibc < 2.34
/// defines in those two libraries; on 2.34+ they are empty compatibility objects every glibc still
/// ships. `--no-as-needed`, because on the build machine's newer glibc nothing is resolved from
/// them and rustc's default `--as-needed` would drop them. `-l:` names the runtime file: glibc
/// 2.34+ ships no `libdl.so` development link.
#[allow(dead_code)]
fn cdylib_link_args(soname: &str) {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,--push-state,--no-as-needed,-l:libdl.so.2,-l:libpthread.so.0,--pop-state"
    );
}


/// Passes `version_script` (codegen's `versions.map`: the version nodes) to the linker, and
/// links with LLD, rustc's own `rust-lld` (through the `gcc-ld/ld.lld` wrapper in rustc's
/// sysroot, as rustc does by default on x86_64-unknown-linux-gnu since 1.90). GNU ld refuses to
/// combine rustc's export list, an anonymous version script, with named version nodes
/// ("anonymous version tag cannot be combined with other version tags"); LLD merges them. The
/// cross build for aarch64 (`scripts/test-aarch64.sh`) uses the host's `rust-lld` the same way.
/// The caller says `rerun-if-changed` for a checked-in script; never for one the build script
/// writes itself (the compatibility libraries' `compat.map`): cargo compares such a file with
/// the start of the run that wrote it, so it would always look changed and every cargo command
/// would rerun the script and relink the library.
#[allow(dead_code)] // only the cudart stubs export versioned names
fn versioned_link_args(version_script: &std::path::Path) {
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

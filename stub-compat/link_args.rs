// The link arguments of a compatibility library (`stubs/compat/<lib><major>/`), `include!`d by its
// build script after `stub-loader/link_args.rs` (whose `cdylib_link_args` and
// `versioned_link_args` it reuses): `compat_link_args(&stub_spec::libraries::CUDART, 12)`.

/// Links the compatibility library of `library`'s CUDA `major`:
///
/// - SONAME NVIDIA's (`libcudart.so.12`): the one exception to the stubs' rule that no stub's
///   name looks like NVIDIA's, kept out of every search list by living in its own opt-in folder;
/// - one version node of the same name (a version script in `OUT_DIR`), which the exports'
///   `.symver` directives use: a binary linked against NVIDIA's runtime records
///   `cudaMalloc@libcudart.so.12`, and glibc checks the file defines that node;
/// - `DT_NEEDED` the stub (`libstubs_cudart.so`), through a placeholder of that SONAME built
///   here (the stub itself may not be built yet), with `RUNPATH $ORIGIN/..`: the folder sits in
///   the stubs' `lib/` (wheel, prefix, `target/<profile>/` in the tests);
/// - the stubs' glibc floor and LLD (`stub-loader/link_args.rs`).
#[allow(dead_code)]
fn compat_link_args(library: &stub_spec::Library, major: u32) {
    let soname = library
        .soname(major)
        .unwrap_or_else(|| panic!("{}: no soname of CUDA {major}", library.stub_file()))
        .to_str()
        .expect("an ASCII soname");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let script = out.join("compat.map");
    std::fs::write(
        &script,
        format!(
            "/* The one version node of the compatibility {soname}: NVIDIA's. */\n{soname} {{ }};\n"
        ),
    )
    .expect("write the version script");
    let placeholder = stub_placeholder(&out, &library.stub_file());
    cdylib_link_args(soname);
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,--push-state,--no-as-needed,{},--pop-state",
        placeholder.display()
    );
    println!("cargo:rustc-cdylib-link-arg=-Wl,--enable-new-dtags,-rpath,$ORIGIN/..");
    versioned_link_args(&script);
}

/// An empty shared library whose SONAME is `stub` (`libstubs_cudart.so`), for the link to
/// record `DT_NEEDED`; never installed.
#[allow(dead_code)]
fn stub_placeholder(out: &std::path::Path, stub: &str) -> std::path::PathBuf {
    let dir = out.join("placeholder");
    std::fs::create_dir_all(&dir).expect("create the placeholder folder");
    let source = dir.join("placeholder.c");
    std::fs::write(&source, "/* DT_NEEDED only. */\nint cuda_stubs_placeholder;\n")
        .expect("write the placeholder source");
    let file = dir.join(stub);
    let compiler = cc::Build::new()
        .cargo_metadata(false)
        .cargo_warnings(false)
        .get_compiler();
    let status = compiler
        .to_command()
        .args(["-shared", "-fPIC", "-nostdlib"])
        .arg(format!("-Wl,-soname,{stub}"))
        .arg("-o")
        .arg(&file)
        .arg(&source)
        .status()
        .expect("run the C compiler");
    assert!(status.success(), "building the placeholder {stub} failed");
    file
}

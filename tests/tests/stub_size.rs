//! The runtime, driver and NVRTC stubs stay within their size goal (issue 46): each release
//! stub, stripped, at most 400 KiB. The goal is the shipped file's, so the test measures one:
//! the stubs are built in release (`cargo build --release`, into this test's target dir and for
//! its target; nothing is rebuilt where `scripts/test.sh` built them already), and each is
//! copied through the target's `strip --strip-all`, what `benches/` reports (an installed copy
//! is stripped `--strip-unneeded`, the same bytes for these libraries: only the static symbol
//! table goes). `strip` is the host's for a native build, `<triple>-strip` for a cross build
//! (`aarch64-linux-gnu-strip`, as CMakeLists.txt picks it): the host's reads no other machine's
//! ELF.
//!
//! What keeps them small, and what broke it before: `docs/src/benchmarks.md`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use stubs_tests::{cross_target, target, workspace_root};

/// The goal: 400 KiB stripped.
const LIMIT: u64 = 400 * 1024;

/// The stub crates held to it.
const CRATES: [&str; 3] = ["stubs-cudart", "stubs-cuda", "stubs-nvrtc"];

/// Builds [`CRATES`] in release for this test's target, into its target dir, and returns the
/// folder holding them (`target/release`, `target/aarch64-unknown-linux-gnu/release`).
fn release_stubs() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    // <target dir>[/<triple>]/<profile>/deps/<test binary>
    let above_profile = exe
        .parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
        .expect("test binary lives in <target>/<profile>/deps");
    let target_dir = if above_profile.file_name() == Some(OsStr::new(target())) {
        above_profile.parent().expect("target dir above the triple")
    } else {
        above_profile
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(workspace_root())
        .args(["build", "--release", "--quiet"])
        .args(CRATES.iter().flat_map(|c| ["-p", c]))
        .arg("--target-dir")
        .arg(target_dir);
    if let Some(t) = cross_target() {
        cmd.args(["--target", t]);
    }
    let status = cmd
        .status()
        .expect("run cargo build --release for the stubs");
    assert!(
        status.success(),
        "building the release stubs failed: {cmd:?}"
    );
    above_profile.join("release")
}

/// The target's `strip`: the host's, or `<gnu triple>-strip` for a cross build
/// (`aarch64-unknown-linux-gnu` → `aarch64-linux-gnu-strip`).
fn strip_program() -> String {
    match cross_target() {
        Some(t) => format!("{}-strip", t.replace("-unknown-", "-")),
        None => "strip".into(),
    }
}

/// Size in bytes of a `strip --strip-all` copy of `file`.
fn stripped_size(file: &Path, out_dir: &Path) -> u64 {
    let name = file.file_name().expect("a file name");
    let copy = out_dir.join(name);
    let strip = strip_program();
    let status = Command::new(&strip)
        .arg("--strip-all")
        .arg("-o")
        .arg(&copy)
        .arg(file)
        .status()
        .unwrap_or_else(|e| panic!("run {strip} (binutils of the target): {e}"));
    assert!(status.success(), "{strip} {}: {status}", file.display());
    let built = std::fs::metadata(file).expect("the built stub").len();
    let stripped = std::fs::metadata(&copy).expect("the stripped copy").len();
    // The release profile keeps the static symbol table: a copy no smaller was not stripped.
    assert!(
        stripped < built,
        "{strip} left {} at {built} bytes ({stripped})",
        file.display()
    );
    stripped
}

#[test]
fn runtime_driver_and_nvrtc_stubs_are_at_most_400_kib_stripped() {
    let dir = release_stubs();
    let out_dir = std::env::temp_dir().join(format!("stub-size-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("create the folder of stripped copies");
    let sizes: Vec<(PathBuf, u64)> = CRATES
        .iter()
        .map(|c| {
            let file = dir.join(format!("lib{}.so", c.replace('-', "_")));
            assert!(file.is_file(), "{} missing after the build", file.display());
            let size = stripped_size(&file, &out_dir);
            (file, size)
        })
        .collect();
    let _ = std::fs::remove_dir_all(&out_dir);
    let over: Vec<String> = sizes
        .iter()
        .filter(|(_, size)| *size > LIMIT)
        .map(|(file, size)| {
            format!(
                "{}: {size} bytes ({:.1} KiB) stripped, over the {} KiB goal",
                file.display(),
                *size as f64 / 1024.0,
                LIMIT / 1024
            )
        })
        .collect();
    assert!(
        over.is_empty(),
        "{}\n(all: {sizes:?}; what grows a stub and what keeps it small: docs/src/benchmarks.md)",
        over.join("\n")
    );
}

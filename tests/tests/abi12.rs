//! The `abi-12` build option: libstubs_cudart.so exporting CUDA 12's ABI, for programs compiled
//! against 12.x headers. Built into its own target directory, then driven by a C program
//! compiled against the real 12.9 headers, on the mock 12.x and 13.x runtimes.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use stubs_tests::{Scenario, compile_c, cuda_include_args, mock, stubs_dir};

/// target/<profile>/abi12/…/libstubs_cudart.so built with `--features abi-12`, once.
fn abi12_stubs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let target = stubs_dir().join("abi12");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(stubs_tests::workspace_root())
            .args([
                "build",
                "--quiet",
                "-p",
                "stubs-cudart",
                "--features",
                "abi-12",
                "--target-dir",
            ])
            .arg(&target);
        // Cross-built (aarch64 under qemu), the stub must be built for the tests' target.
        let out = match stubs_tests::cross_target() {
            Some(triple) => {
                cmd.args(["--target", triple]);
                target.join(triple)
            }
            None => target,
        };
        let status = cmd.status().expect("run cargo build --features abi-12");
        assert!(status.success(), "building the abi-12 stub failed");
        out.join("debug")
    })
}

fn program() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        let dir = abi12_stubs();
        let mut args = cuda_include_args(12);
        args.push(OsString::from(format!("-L{}", dir.display())));
        args.push("-lstubs_cudart".into());
        args.push(OsString::from(format!("-Wl,-rpath,{}", dir.display())));
        args.push("-ldl".into());
        let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        compile_c("abi12", &[Path::new("c/abi12.c")], &refs)
    })
}

#[test]
fn twelve_abi_reaches_the_12_runtime_with_its_own_prototype() {
    let run = Scenario::new(program())
        .library_path([mock("mock-12")])
        .run();
    run.assert_success()
        .assert_line("header=12090")
        .assert_line("runtime=12090")
        .assert_line("deps=0")
        .assert_line(
            "calls=cudaGraphAddDependencies graph=0x77 from=0x101,0x102 to=0x201,0x202 edges=- n=2",
        );
}

#[test]
fn twelve_abi_is_refused_on_a_13_runtime() {
    let run = Scenario::new(program())
        .library_path([mock("mock-13")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("runtime=13000")
        .assert_line("deps=801");
    // The last `calls=` line is after the call: the mock's 5-argument function was never called.
    let calls: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("calls="))
        .collect();
    assert_eq!(calls, ["calls=", "calls="], "{run}");
    let refused = run
        .debug("cudart")
        .into_iter()
        .any(|l| l.starts_with("cudaGraphAddDependencies: ABI differs: refused in CUDA 13 ("));
    assert!(refused, "{run}");
}

/// The default build exports CUDA 13's 5-argument prototype under the same name: the symbol
/// tables of the two builds differ only in which ABI they give it, not in what they export.
#[test]
fn both_builds_export_the_same_names() {
    let names = |dir: &Path| {
        let out = Command::new("nm")
            .args(["-D", "--defined-only"])
            .arg(dir.join("libstubs_cudart.so"))
            .output()
            .unwrap();
        let mut v: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().nth(2).map(str::to_owned))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(stubs_dir()), names(abi12_stubs()));
}

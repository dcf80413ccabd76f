//! The probe (`tests/c/probe.c`), compiled with the `cc` crate's compiler and linked only
//! against the three stubs (`-lstubs_cudart -lstubs_nvrtc -lstubs_cuda`), runs unchanged
//! against mock libraries, NVIDIA's real ones and none.

use std::path::Path;
use std::process::Command;
use stubs_tests::{Scenario, cuda_layout, mock, probe, stub, temp_dir};

/// `readelf -d` entries of one kind (`NEEDED`, `SONAME`) of `file`.
fn dynamic(file: &Path, kind: &str) -> Vec<String> {
    let out = Command::new("readelf")
        .arg("-d")
        .arg(file)
        .output()
        .expect("readelf");
    assert!(out.status.success(), "readelf -d {}", file.display());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains(&format!("({kind})")))
        .filter_map(|l| Some(l.split('[').nth(1)?.split(']').next()?.to_string()))
        .collect()
}

/// The probe needs the stubs by their SONAMEs (= file names) and nothing of NVIDIA's.
#[test]
fn c_probe_links_only_against_the_stubs() {
    let needed = dynamic(probe(), "NEEDED");
    for lib in ["cudart", "nvrtc", "cuda"] {
        let name = format!("libstubs_{lib}.so");
        assert!(needed.contains(&name), "{name} not in NEEDED: {needed:?}");
        assert_eq!(dynamic(&stub(lib), "SONAME"), [name]);
    }
    assert!(
        !needed.iter().any(|n| n.starts_with("libcudart")
            || n.starts_with("libnvrtc")
            || n.starts_with("libcuda.")),
        "{needed:?}"
    );
}

/// The fixtures: every mock carries NVIDIA's soname.
#[test]
fn mocks_have_the_real_sonames() {
    for (variant, soname) in [
        ("mock-11", "libcudart.so.11.0"),
        ("mock-11", "libnvrtc.so.11.2"),
        ("mock-12", "libcudart.so.12"),
        ("mock-12", "libnvrtc.so.12"),
        ("mock-13", "libcudart.so.13"),
        ("mock-13", "libnvrtc.so.13"),
        ("mock-driver", "libcuda.so.1"),
        ("stand-in-driver", "libcuda.so.1"),
    ] {
        assert_eq!(dynamic(&mock(variant).join(soname), "SONAME"), [soname]);
    }
}

/// Against the mock 12 libraries and the mock driver: every call forwarded, the mocks' values.
#[test]
fn c_probe_runs_against_mocks() {
    let run = Scenario::probe([
        "cudaRuntimeGetVersion",
        "cudaGetDeviceCount",
        "cudaMalloc:16",
        "nvrtcVersion",
        "cuDriverGetVersion",
        "cuDeviceGet:1",
    ])
    .library_path([mock("mock-12"), mock("mock-driver")])
    .run();
    run.assert_success()
        .assert_silent()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_line("cudaGetDeviceCount rc=0 out=112")
        .assert_line("cudaMalloc rc=0 out=0xc0010")
        .assert_line("nvrtcVersion rc=0 out=12.9")
        .assert_line("cuDriverGetVersion rc=0 out=13000")
        .assert_line("cuDeviceGet rc=0 out=701");
}

/// The same binary against NVIDIA's 13.0 runtime and NVRTC: real answers, a real compilation.
#[test]
fn c_probe_runs_against_real_13() {
    let layout = cuda_layout(13);
    let ptx = temp_dir("c-link-real-13").join("k.ptx");
    let run = Scenario::probe([
        "cudaRuntimeGetVersion".to_string(),
        "nvrtcVersion".into(),
        format!("nvrtc-compile:compute_80:ptx:{}", ptx.display()),
        "maps".into(),
    ])
    .library_path(layout.lib_dirs())
    .run();
    run.assert_success()
        .assert_silent()
        .assert_line(&format!(
            "cudaRuntimeGetVersion rc=0 out={}",
            layout.version_code()
        ))
        .assert_line(&format!("nvrtcVersion rc=0 out={}", layout.major_minor()))
        .assert_line("nvrtcCompileProgram rc=0");
    let mapped = run.mapped();
    for file in [&layout.cudart, &layout.nvrtc] {
        assert!(mapped.contains(&file.to_str().unwrap()), "{run}");
    }
    assert!(
        std::fs::read_to_string(&ptx)
            .expect("PTX")
            .contains(".entry vector_add(")
    );
}

/// And against nothing: it still starts and gets the typed errors.
#[test]
fn c_probe_runs_without_any_library() {
    let run = Scenario::probe(["cudaGetDeviceCount", "nvrtcVersion", "cuInit:0"]).run();
    run.assert_success()
        .assert_silent()
        .assert_line("cudaGetDeviceCount rc=34 out=-7777")
        .assert_line("nvrtcVersion rc=11 out=-7777.-7777")
        .assert_line("cuInit rc=34");
}

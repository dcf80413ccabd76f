//! libNVVM through `libstubs_nvvm.so`, on NVIDIA's real `libnvvm.so.4` of CUDA 11.8, 12.9 and
//! 13.5 (`nvidia-cuda-nvcc-cu11` and `-cu12`'s `nvvm/lib64/libnvvm.so`, `nvidia-nvvm`'s
//! `libnvvm.so.4`; no GPU needed: a compiler) and on none, and the rule of one CUDA release per
//! process.
//!
//! `tests/c/nvvm_compile.c` is compiled against each major's real `nvvm.h` twice: linked only to
//! the stubs, and linked normally to that major's library. Both builds must print the same
//! lines: the versions, every code's text, a kernel compiled to PTX (with `.entry`, and the
//! build line naming the release that compiled it), the error paths. `nvvmVersion` says 2.0 in
//! 12.9 and 13.5 alike: the stub reads the release from the file's build string.

use std::path::PathBuf;
use stub_model::libraries::NVVM;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, cuda_layout, temp_dir};

/// The stub's code for no library (of the process's release):
/// `NVVM_ERROR_PROGRAM_CREATION_FAILURE`.
const NO_LIBRARY: i32 = 2;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NVVM,
    source: "c/nvvm_compile.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// The majors whose layout has NVIDIA's libNVVM.
fn majors() -> Vec<u32> {
    [11, 12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("nvvm"))
        .collect()
}

/// The CUDA version each test wheel's build string names (`1000 * major + 10 * minor`).
fn cuda_version(major: u32) -> i32 {
    match major {
        11 => 11080,
        12 => 12090,
        _ => 13050,
    }
}

/// A folder holding the real library of `major` under its soname, as a toolkit's
/// `nvvm/lib64` does: 11.x's and 12.x's wheels have only `libnvvm.so`, which the normally
/// linked program (`DT_NEEDED libnvvm.so.4`) cannot find.
fn soname_dir(major: u32) -> PathBuf {
    let dir = temp_dir(&format!("nvvm-soname-{major}"));
    let link = dir.join("libnvvm.so.4");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(PROGRAM.real(major), &link).expect("link libnvvm.so.4");
    dir
}

/// The normal build of `major`, run with the real library's soname on `LD_LIBRARY_PATH`.
fn run_normal(major: u32) -> Outcome {
    let run = Scenario::new(PROGRAM.normal_program(major))
        .linked_normally()
        .library_path([soname_dir(major)])
        .run();
    run.assert_success();
    run
}

/// The debug line of the version probe of `major`'s copy.
fn probe_line(major: u32) -> String {
    let own = if major == 11 { "1.9" } else { "2.0" };
    let v = cuda_version(major);
    format!(
        "nvvmVersion {own}: built for CUDA {}.{}",
        v / 1000,
        v % 1000 / 10
    )
}

/// On every major, the stub build prints what the normal build prints (the kernel's PTX built
/// by that release), and binds the real library at the release of its build string.
#[test]
fn each_major_compiles_as_the_normally_linked_program() {
    let all = majors();
    if !stubs_tests::runs_with(!all.is_empty(), "libNVVM") {
        return;
    }
    for major in stubs_tests::variants(&all, 0) {
        let version = cuda_version(major);
        let normal = run_normal(major);
        normal
            .assert_line("kernel nvvmCompileProgram rc=0")
            .assert_line("kernel ptx entry=1")
            .assert_line(&format!(
                "kernel ptx built by CUDA {}.{}",
                version / 1000,
                version % 1000 / 10
            ))
            .assert_line("bad-ir nvvmCompileProgram rc=9")
            .assert_line("bad-option nvvmCompileProgram rc=7")
            .assert_line("nvvmGetErrorString(2) = NVVM_ERROR_PROGRAM_CREATION_FAILURE")
            .assert_line("nvvmGetErrorString null texts=0");

        let stub = PROGRAM.run_stub(major, Some(major), Some(major), &[]);
        stub.assert_success()
            .assert_bound("nvvm", &PROGRAM.real(major), version, OVERRIDE)
            .assert_debug("nvvm", &probe_line(major))
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "nvvm"),
            api_lines(&normal, "nvvm"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
        for prefix in ["kernel", "bad-ir", "bad-option"] {
            assert_eq!(
                api_lines(&stub, prefix),
                api_lines(&normal, prefix),
                "stub:\n{stub}\nnormal:\n{normal}"
            );
        }
    }
}

/// A folder named as the override holds 11.x's and 12.x's file under its wheel name only: the
/// search tries the soname there, then `libnvvm.so`, and binds that.
#[test]
fn a_folder_with_the_unversioned_file_is_searched() {
    let all = majors();
    let Some(&major) = all.iter().find(|&&m| m < 13) else {
        stubs_tests::runs_with(false, "libNVVM of CUDA 11 or 12");
        return;
    };
    let dir = PROGRAM.real_dir(major);
    let run = Scenario::new(PROGRAM.stub_program(major))
        .debug()
        .env("CUDA_STUBS_CUDART_PATH", cuda_layout(major).cudart)
        .env("STUBS_TESTS_RUNTIME_FIRST", "1")
        .env("CUDA_STUBS_NVVM_PATH", &dir)
        .run();
    let version = cuda_version(major);
    run.assert_success()
        .assert_bound("nvvm", &dir.join("libnvvm.so"), version, OVERRIDE)
        .assert_line("kernel ptx entry=1")
        .assert_line(&format!(
            "status bound=1 version={version} found_by={OVERRIDE}"
        ));
}

/// With no libNVVM anywhere, every status is the typed error, every code's text is the
/// header's name (never NULL), and the status says what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = PROGRAM.run_stub(13, None, None, &[]);
    run.assert_success();
    assert_eq!(NO_LIBRARY, NVVM.errors.no_library.value);
    for line in [
        "nvvmVersion rc=2 version=-1.-1",
        "nvvmIRVersion rc=2 ir=-1.-1 debug=-1.-1",
        "nvvmGetErrorString(0) = NVVM_SUCCESS",
        "nvvmGetErrorString(2) = NVVM_ERROR_PROGRAM_CREATION_FAILURE",
        "nvvmGetErrorString(4) = NVVM_ERROR_INVALID_INPUT",
        "nvvmGetErrorString(9) = NVVM_ERROR_COMPILATION",
        "nvvmGetErrorString null texts=0",
        "kernel nvvmCreateProgram rc=2",
        "bad-ir nvvmCreateProgram rc=2",
        "nvvmAddModuleToProgram(no program) rc=2",
        "nvvmGetCompiledResultSize(no program) rc=2",
        "mapped libnvvm.so.4=0",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
    let searched = "cuda-stubs: libnvvm not found (searched libnvvm.so.4, libnvvm.so";
    assert!(run.line("status message").contains(searched), "{run}");
}

/// A libNVVM of another release than the process's runtime is refused (its build string read
/// once loaded, since its `DT_NEEDED` names nothing of CUDA's, so the refused copy stays mapped,
/// never called): every call is then the "no library" code and the status names both
/// releases.
#[test]
fn a_copy_of_another_release_is_refused() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "libNVVM of CUDA 12 and 13",
    ) {
        return;
    }
    for (process, copy) in [(13, 12), (12, 13)] {
        let run = PROGRAM.run_stub(process, Some(process), Some(copy), &[]);
        let reason = format!(
            "CUDA {copy}, but the process has CUDA {process} (libcudart.so.{process}): one CUDA \
             release per process"
        );
        run.assert_success()
            .assert_debug("nvvm", &probe_line(copy))
            .assert_debug(
                "nvvm",
                &format!(
                    "try {} [{OVERRIDE}]: rejected: {reason}",
                    PROGRAM.real(copy).display()
                ),
            )
            .assert_line(&format!("kernel nvvmCreateProgram rc={NO_LIBRARY}"))
            .assert_line("nvvmVersion rc=2 version=-1.-1")
            .assert_line("status bound=0 version=0 found_by=(null)");
        assert!(run.line("status message").contains(&reason), "{run}");
    }
}

//! cuStateVec through `libstubs_custatevec.so`, on NVIDIA's real `libcustatevec.so.1` of CUDA
//! 12.x and 13.x (cuQuantum's wheels `custatevec-cu12` and `-cu13` 1.15.0; no GPU: what
//! cuStateVec answers without a driver) and on none, and the rule of one CUDA release per
//! process.
//!
//! `tests/c/custatevec_host.c` is compiled against each major's real `custatevec.h` and
//! `custatevecEx.h` twice: linked only to the stubs, and linked normally to that major's
//! library. Both builds must print the same lines (the version both ways, every error name and
//! string, the logger, `custatevecCreate`'s no-GPU answer, handle-less calls, the extended
//! API's host-only configuration). Both builds report 1.15.0: only the cuBLAS a copy needs
//! (`DT_NEEDED libcublas.so.12` / `.13`) tells them apart, which the stub reads as its release
//! and by which it refuses a copy of another release than the process's runtime before loading
//! it. Majors without a cuStateVec wheel for the machine are skipped.

use std::path::Path;
use stub_model::libraries::CUSTATEVEC;
use stubs_tests::two_builds::{TwoBuilds, api_lines, assert_only_cublas_of};
use stubs_tests::{Outcome, Scenario, cuda_layout, temp_dir};

/// The stub's code for no library (of the process's release):
/// `CUSTATEVEC_STATUS_LOADING_LIBRARY_FAILED`.
const NO_LIBRARY: i32 = 13;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUSTATEVEC,
    source: "c/custatevec_host.c",
    also_stubs: &["cudart"],
    // custatevec.h includes cuda_runtime_api.h only, but library_types.h's users may pull
    // cuda_fp16.h, whose CCCL <nv/target> the runtime wheels lack.
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's cuStateVec.
fn majors() -> Vec<u32> {
    [12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("custatevec"))
        .collect()
}

/// The stub build with the runtime and cuStateVec of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, custatevec: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, custatevec, &[])
}

/// The debug line of the version probe for a copy needing `major`'s cuBLAS.
fn probe_line(major: u32) -> String {
    let [a, b, c] = PROGRAM.wheel_version(major);
    format!("custatevecGetProperty {a}.{b}.{c}: needs libcublas.so.{major}: CUDA {major}")
}

/// On every major, the stub build prints what the normal build prints (version 1.15.0 both
/// ways, the same codes without a GPU), and binds the real library at the major of the cuBLAS
/// its file needs.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    let all = majors();
    if !stubs_tests::runs_with(!all.is_empty(), "cuStateVec") {
        return;
    }
    for major in stubs_tests::variants(&all, 0) {
        let normal = PROGRAM.run_normal(major);
        let [a, b, c] = PROGRAM.wheel_version(major);
        normal
            .assert_line(&format!("custatevecGetProperty rc=0 version={a}.{b}.{c}"))
            .assert_line(&format!(
                "custatevecGetVersion version={}",
                a * 10000 + b * 100 + c
            ))
            .assert_line("custatevecGetErrorName(13) = CUSTATEVEC_STATUS_LOADING_LIBRARY_FAILED")
            .assert_line("custatevecExConfigureStateVectorSingleDevice rc=0 config=set");
        // Not the stub's "no library" code: a program tells a machine without a GPU apart.
        assert_ne!(
            normal.line("custatevecCreate"),
            format!("custatevecCreate rc={NO_LIBRARY}"),
            "{normal}"
        );

        let version = major as i32 * 1000;
        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("custatevec", &PROGRAM.real(major), version, OVERRIDE)
            .assert_debug("custatevec", &probe_line(major))
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "custatevec"),
            api_lines(&normal, "custatevec"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no runtime in the process, nothing but the file says a release: a copy binds at the
/// major of the cuBLAS it needs, which it brings in, and no other.
#[test]
fn without_a_runtime_the_needed_cublas_is_the_release() {
    for major in majors() {
        let stub = run_stub(major, None, Some(major));
        stub.assert_success()
            .assert_bound(
                "custatevec",
                &PROGRAM.real(major),
                major as i32 * 1000,
                OVERRIDE,
            )
            .assert_debug("custatevec", &probe_line(major));
        assert_only_cublas_of(&stub, major);
    }
}

/// With no cuStateVec anywhere, every status is the typed error, the version functions answer
/// 0, error names and strings are never NULL (the header's), and the status says what was
/// searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, CUSTATEVEC.errors.no_library.value);
    for line in [
        "custatevecGetVersion version=0",
        "custatevecGetProperty rc=13 version=-1.-1.-1",
        "custatevecGetErrorName(0) = CUSTATEVEC_STATUS_SUCCESS",
        "custatevecGetErrorName(7) = CUSTATEVEC_STATUS_NOT_SUPPORTED",
        "custatevecGetErrorName(13) = CUSTATEVEC_STATUS_LOADING_LIBRARY_FAILED",
        "custatevecLoggerSetLevel rc=13",
        "custatevecLoggerForceDisable rc=13",
        "custatevecCreate rc=13",
        "custatevecGetDefaultWorkspaceSize(no handle) rc=13",
        "custatevecDestroy(no handle) rc=13",
        "custatevecExConfigureStateVectorSingleDevice rc=13 config=NULL",
        "custatevecExDictionaryDestroy(NULL) rc=13",
        "mapped libcustatevec.so.1=0 libcublas.so.12=0 libcublas.so.13=0",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
    let searched = "cuda-stubs: libcustatevec not found (searched libcustatevec.so.1";
    assert!(run.line("status message").contains(searched), "{run}");
    assert!(!run.stdout.contains("= (null)"), "{run}");
    // The header's descriptions; for the stub's own "no library" code, why there is none.
    run.assert_line(
        "custatevecGetErrorString(7) = API is not supported by the backend, or no CUDA-capable \
         GPU devices found",
    );
    assert!(
        run.line("custatevecGetErrorString(13)").contains(searched),
        "{run}"
    );
}

/// NVIDIA's CUDA 12 build of cuStateVec 1.15.0 beside a 13 runtime (its version is the CUDA 13
/// build's too) is refused before `dlopen`, by the `libcublas.so.12` its file needs: neither
/// it nor that cuBLAS is mapped; every call is then the "no library" code and the status names
/// both releases. The same the other way round.
#[test]
fn a_copy_of_another_release_is_refused_before_loading() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "cuStateVec of CUDA 12 and 13",
    ) {
        return;
    }
    for (process, copy) in [(13, 12), (12, 13)] {
        let run = run_stub(process, Some(process), Some(copy));
        run.assert_success();
        let reason = format!(
            "CUDA {copy} (needs libcublas.so.{copy}), but the process has CUDA {process} \
             (libcudart.so.{process}): one CUDA release per process"
        );
        run.assert_debug(
            "custatevec",
            &format!(
                "try {} [{OVERRIDE}]: rejected: {reason}",
                PROGRAM.real(copy).display()
            ),
        )
        .assert_line("custatevecGetVersion version=0")
        .assert_line(&format!("custatevecCreate rc={NO_LIBRARY}"))
        .assert_line("mapped libcustatevec.so.1=0 libcublas.so.12=0 libcublas.so.13=0")
        .assert_line("status bound=0 version=0 found_by=(null)");
        assert!(run.line("status message").contains(&reason), "{run}");
    }
}

/// A copy of the CUDA 13 library alone in a folder, whose RUNPATH leads to no cuBLAS (a wheel
/// installed without the cuBLAS wheel it needs): `dlopen` fails, every call is the "no library"
/// code, and the status's summary names the library that is missing.
#[test]
fn a_copy_without_the_cublas_it_needs_is_the_typed_error() {
    let Some(&major) = majors().last() else {
        stubs_tests::runs_with(false, "cuStateVec");
        return;
    };
    let dir = temp_dir("custatevec-alone");
    let copy = dir.join("libcustatevec.so.1");
    link_or_copy(&PROGRAM.real(major), &copy);
    let run = Scenario::new(PROGRAM.stub_program(major))
        .debug()
        .env("CUDA_STUBS_CUSTATEVEC_PATH", &copy)
        .run();
    run.assert_success()
        .assert_line(&format!("custatevecCreate rc={NO_LIBRARY}"))
        .assert_line("custatevecGetVersion version=0")
        .assert_line("status bound=0 version=0 found_by=(null)");
    let missing = format!("libcublas.so.{major}");
    let message = run.line("status message");
    assert!(
        message.contains(&copy.display().to_string()) && message.contains(&missing),
        "{run}"
    );
}

/// A hard link to `src` at `dst` (the cache and the temporary folder share a file system in
/// CI), else a copy.
fn link_or_copy(src: &Path, dst: &Path) {
    let _ = std::fs::remove_file(dst);
    if std::fs::hard_link(src, dst).is_err() {
        std::fs::copy(src, dst).expect("copy the library");
    }
}

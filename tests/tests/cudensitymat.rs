//! cuDensityMat through `libstubs_cudensitymat.so`, on NVIDIA's real `libcudensitymat.so.0` of
//! CUDA 12.x and 13.x (cuQuantum's wheels `cudensitymat-cu12` and `-cu13` 0.7.0, with the
//! cuTensorNet, cuTENSOR and math libraries of the same layout its RUNPATH finds; no GPU: what
//! cuDensityMat answers without a driver) and on none, and the rule of one CUDA release per
//! process.
//!
//! `tests/c/cudensitymat_host.c` is compiled against each major's real `cudensitymat.h` twice:
//! linked only to the stubs, and linked normally to that major's library. Both builds must print
//! the same lines (the version, `cudensitymatCreate`'s no-GPU answer, handle-less calls). Both
//! builds report 700: only the cuBLAS a copy needs (`DT_NEEDED libcublas.so.12` / `.13`) tells
//! them apart, which the stub reads as its release and by which it refuses a copy of another
//! release than the process's runtime before loading it. Majors without a cuDensityMat wheel
//! for the machine are skipped.

use std::path::Path;
use stub_model::libraries::CUDENSITYMAT;
use stubs_tests::two_builds::{TwoBuilds, api_lines, assert_only_cublas_of};
use stubs_tests::{Outcome, Scenario, cuda_layout, temp_dir};

/// The stub's code for no library (of the process's release):
/// `CUDENSITYMAT_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 1;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUDENSITYMAT,
    source: "c/cudensitymat_host.c",
    also_stubs: &["cudart"],
    // cudensitymat.h includes cuda_runtime_api.h and cuComplex.h, whose users may pull
    // cuda_fp16.h, whose CCCL <nv/target> the runtime wheels lack.
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's cuDensityMat.
fn majors() -> Vec<u32> {
    [12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("cudensitymat"))
        .collect()
}

/// The stub build with the runtime and cuDensityMat of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, cudensitymat: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cudensitymat, &[])
}

/// The normal build of `major`, run with its library's folder on `LD_LIBRARY_PATH`, and the
/// folders of the two libraries it needs that its RUNPATH misses: NVIDIA's CUDA 12 build names
/// `nvidia/cublas`, `cusolver` and `curand` but not `nvidia/cusparse` and `nvidia/nvjitlink`,
/// which the dynamic loader finds only when something loaded before them (its cuTensorNet's
/// cuSOLVER, whose RUNPATH has them) is already mapped, never for a program linked to it
/// (`libcusparse.so.12: cannot open shared object file`). The stub loads the copy's
/// cuTensorNet first, from its own folder (`preloaded … (needed by the candidate)`), and needs
/// neither.
fn run_normal(major: u32) -> Outcome {
    let layout = cuda_layout(major);
    let folder = |name: &str| {
        layout.libraries[name]
            .parent()
            .expect("a library has a folder")
            .to_path_buf()
    };
    let run = Scenario::new(PROGRAM.normal_program(major))
        .linked_normally()
        .library_path([
            PROGRAM.real_dir(major),
            folder("cusparse"),
            folder("nvjitlink"),
        ])
        .run();
    run.assert_success();
    run
}

/// cuDensityMat's own version, `10000 * major + 100 * minor + patch`, of the test wheel.
fn own_version(major: u32) -> i32 {
    let [a, b, c] = PROGRAM.wheel_version(major);
    a * 10000 + b * 100 + c
}

/// The debug line of the version probe for a copy needing `major`'s cuBLAS.
fn probe_line(major: u32) -> String {
    format!(
        "cudensitymatGetVersion {}: needs libcublas.so.{major}: CUDA {major}",
        own_version(major)
    )
}

/// On every major, the stub build prints what the normal build prints (version 700 both ways,
/// the same codes without a GPU), and binds the real library at the major of the cuBLAS its
/// file needs.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    let all = majors();
    if !stubs_tests::runs_with(!all.is_empty(), "cuDensityMat") {
        return;
    }
    for major in stubs_tests::variants(&all, 0) {
        let normal = run_normal(major);
        normal.assert_line(&format!(
            "cudensitymatGetVersion version={}",
            own_version(major)
        ));
        // Not the stub's "no library" code: a program tells a machine without a GPU apart.
        assert_ne!(
            normal.line("cudensitymatCreate"),
            format!("cudensitymatCreate rc={NO_LIBRARY}"),
            "{normal}"
        );

        let version = major as i32 * 1000;
        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("cudensitymat", &PROGRAM.real(major), version, OVERRIDE)
            .assert_debug("cudensitymat", &probe_line(major))
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "cudensitymat"),
            api_lines(&normal, "cudensitymat"),
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
                "cudensitymat",
                &PROGRAM.real(major),
                major as i32 * 1000,
                OVERRIDE,
            )
            .assert_debug("cudensitymat", &probe_line(major));
        assert_only_cublas_of(&stub, major);
    }
}

/// With no cuDensityMat anywhere, every status is the typed error, the version function answers
/// 0, and the status says what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, CUDENSITYMAT.errors.no_library.value);
    for line in [
        "cudensitymatGetVersion version=0",
        "cudensitymatCreate rc=1",
        "cudensitymatGetNumRanks(no handle) rc=1",
        "cudensitymatResetRandomSeed(no handle) rc=1",
        "cudensitymatCreateWorkspace(no handle) rc=1",
        "cudensitymatDestroyWorkspace(NULL) rc=1",
        "cudensitymatDestroyState(NULL) rc=1",
        "cudensitymatDestroy(no handle) rc=1",
        "mapped libcudensitymat.so.0=0 libcublas.so.12=0 libcublas.so.13=0",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
    let searched = "cuda-stubs: libcudensitymat not found (searched libcudensitymat.so.0";
    assert!(run.line("status message").contains(searched), "{run}");
}

/// NVIDIA's CUDA 12 build of cuDensityMat 0.7.0 beside a 13 runtime (its version is the CUDA 13
/// build's too) is refused before `dlopen`, by the `libcublas.so.12` its file needs: neither
/// it nor that cuBLAS is mapped; every call is then the "no library" code and the status names
/// both releases. The same the other way round.
#[test]
fn a_copy_of_another_release_is_refused_before_loading() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "cuDensityMat of CUDA 12 and 13",
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
            "cudensitymat",
            &format!(
                "try {} [{OVERRIDE}]: rejected: {reason}",
                PROGRAM.real(copy).display()
            ),
        )
        .assert_line("cudensitymatGetVersion version=0")
        .assert_line(&format!("cudensitymatCreate rc={NO_LIBRARY}"))
        .assert_line("mapped libcudensitymat.so.0=0 libcublas.so.12=0 libcublas.so.13=0")
        .assert_line("status bound=0 version=0 found_by=(null)");
        assert!(run.line("status message").contains(&reason), "{run}");
    }
}

/// A copy of the CUDA 13 library alone in a folder, whose RUNPATH leads to none of what it
/// needs (a wheel installed without the cuTensorNet and cuBLAS wheels it requires): `dlopen`
/// fails, every call is the "no library" code, and the status's summary names a library that
/// is missing.
#[test]
fn a_copy_without_the_libraries_it_needs_is_the_typed_error() {
    let Some(&major) = majors().last() else {
        stubs_tests::runs_with(false, "cuDensityMat");
        return;
    };
    let dir = temp_dir("cudensitymat-alone");
    let copy = dir.join("libcudensitymat.so.0");
    link_or_copy(&PROGRAM.real(major), &copy);
    let run = Scenario::new(PROGRAM.stub_program(major))
        .debug()
        .env("CUDA_STUBS_CUDENSITYMAT_PATH", &copy)
        .run();
    run.assert_success()
        .assert_line(&format!("cudensitymatCreate rc={NO_LIBRARY}"))
        .assert_line("cudensitymatGetVersion version=0")
        .assert_line("status bound=0 version=0 found_by=(null)");
    // glibc names the first `DT_NEEDED` it cannot find: cuTensorNet, the first listed.
    let message = run.line("status message");
    assert!(
        message.contains(&copy.display().to_string()) && message.contains("libcutensornet.so.2"),
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

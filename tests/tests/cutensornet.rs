//! cuTensorNet through `libstubs_cutensornet.so`, on NVIDIA's real `libcutensornet.so.2` of CUDA
//! 12.x and 13.x (cuQuantum's wheels `cutensornet-cu12` and `-cu13` 2.14.0, beside the
//! cuTENSOR, cuBLAS and cuSOLVER wheels of the same major; no GPU: what cuTensorNet answers
//! without a driver) and on none, and the rule of one CUDA release per process.
//!
//! `tests/c/cutensornet_host.c` is compiled against each major's real `cutensornet.h` twice:
//! linked only to the stubs, and linked normally to that major's library. Both builds must
//! print the same lines (the versions, every error string, the logger, `cutensornetCreate`'s
//! no-GPU answer and the last error it leaves, handle-less calls). Both builds report 2.14.0:
//! `cutensornetGetCudartVersion` tells them apart, which the stub reports as the release; a copy
//! of another release than the process's runtime is refused before loading, by the cuBLAS its
//! file needs. Majors without a cuTensorNet wheel for the machine are skipped.

use std::path::Path;
use stub_model::libraries::CUTENSORNET;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, cuda_layout, temp_dir};

/// The stub's code for no library (of the process's release):
/// `CUTENSORNET_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 1;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUTENSORNET,
    source: "c/cutensornet_host.c",
    also_stubs: &["cudart"],
    // cutensornet/types.h includes cuda_runtime.h, whose cuda_fp16.h includes CCCL's
    // <nv/target>.
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's cuTensorNet.
fn majors() -> Vec<u32> {
    [12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("cutensornet"))
        .collect()
}

/// The number a line `<prefix> version=N` of `run` gives.
fn version(run: &Outcome, prefix: &str) -> i32 {
    let line = run.line(prefix);
    line.rsplit_once("version=")
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{line:?}: {run}"))
}

/// The stub build with the runtime and cuTensorNet of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, cutensornet: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cutensornet, &[])
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library at the runtime version it was built with (of the wheel's major), with or without a
/// runtime in the process.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    let all = majors();
    if !stubs_tests::runs_with(!all.is_empty(), "cuTensorNet") {
        return;
    }
    for major in stubs_tests::variants(&all, 0) {
        let normal = PROGRAM.run_normal(major);
        let [a, b, c] = PROGRAM.wheel_version(major);
        assert_eq!(
            version(&normal, "cutensornetGetVersion"),
            a * 10000 + b * 100 + c,
            "{normal}"
        );
        let cuda = version(&normal, "cutensornetGetCudartVersion");
        assert_eq!(cuda / 1000, major as i32, "{normal}");
        // Without a GPU its handle is made all the same (its device is set up later), and no
        // error is left; never the stub's "no library" code.
        normal
            .assert_line("cutensornetCreate rc=0")
            .assert_line("cutensornetGetLastError null=0 empty=1");

        for runtime in [Some(major), None] {
            let stub = run_stub(major, runtime, Some(major));
            stub.assert_success()
                .assert_bound("cutensornet", &PROGRAM.real(major), cuda, OVERRIDE)
                .assert_line(&format!(
                    "status bound=1 version={cuda} found_by={OVERRIDE}"
                ));
            assert_eq!(
                api_lines(&stub, "cutensornet"),
                api_lines(&normal, "cutensornet"),
                "stub:\n{stub}\nnormal:\n{normal}"
            );
        }
    }
}

/// With no cuTensorNet anywhere, every status is the typed error, the version functions answer
/// 0, error strings are never NULL, the last error is the search's summary, and the status says
/// what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, CUTENSORNET.errors.no_library.value);
    for line in [
        "cutensornetGetVersion version=0",
        "cutensornetGetCudartVersion version=0",
        "cutensornetGetErrorString(0) = CUTENSORNET_STATUS_SUCCESS",
        "cutensornetGetErrorString(15) = CUTENSORNET_STATUS_NOT_SUPPORTED",
        "cutensornetLoggerSetLevel rc=1",
        "cutensornetLoggerForceDisable rc=1",
        "cutensornetCreate rc=1",
        "cutensornetGetLastError null=0 empty=0",
        "cutensornetDestroy(no handle) rc=1",
        "cutensornetCreateWorkspaceDescriptor(no handle) rc=1",
        "mapped libcutensornet.so.2=0 libcublas.so.12=0 libcublas.so.13=0",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
    let searched = "cuda-stubs: libcutensornet not found (searched libcutensornet.so.2";
    assert!(run.line("status message").contains(searched), "{run}");
    assert!(run.line("stub last error").contains(searched), "{run}");
    assert!(!run.stdout.contains("= (null)"), "{run}");
}

/// NVIDIA's CUDA 12 build of cuTensorNet 2.14.0 beside a 13 runtime (its `cutensornetGetVersion`
/// is the CUDA 13 build's too) is refused before `dlopen`, by the `libcublas.so.12` its file
/// needs: neither it nor that cuBLAS is mapped; every call is then the "no library" code and the
/// status names both releases. The same the other way round.
#[test]
fn a_copy_of_another_release_is_refused_before_loading() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "cuTensorNet of CUDA 12 and 13",
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
            "cutensornet",
            &format!(
                "try {} [{OVERRIDE}]: rejected: {reason}",
                PROGRAM.real(copy).display()
            ),
        )
        .assert_line("cutensornetGetCudartVersion version=0")
        .assert_line(&format!("cutensornetCreate rc={NO_LIBRARY}"))
        .assert_line("mapped libcutensornet.so.2=0 libcublas.so.12=0 libcublas.so.13=0")
        .assert_line("status bound=0 version=0 found_by=(null)");
        assert!(run.line("status message").contains(&reason), "{run}");
    }
}

/// A copy of the CUDA 13 library alone in a folder, whose RUNPATH leads to no cuTENSOR (a wheel
/// installed without the `cutensor-cu13` wheel it requires): `dlopen` fails, every call is the
/// "no library" code, and the status's summary names the library that is missing.
#[test]
fn a_copy_without_the_cutensor_it_needs_is_the_typed_error() {
    let Some(&major) = majors().last() else {
        stubs_tests::runs_with(false, "cuTensorNet");
        return;
    };
    let dir = temp_dir("cutensornet-alone");
    let copy = dir.join("libcutensornet.so.2");
    link_or_copy(&PROGRAM.real(major), &copy);
    let run = Scenario::new(PROGRAM.stub_program(major))
        .debug()
        .env("CUDA_STUBS_CUTENSORNET_PATH", &copy)
        .run();
    run.assert_success()
        .assert_line(&format!("cutensornetCreate rc={NO_LIBRARY}"))
        .assert_line("cutensornetGetCudartVersion version=0")
        .assert_line("status bound=0 version=0 found_by=(null)");
    let message = run.line("status message");
    assert!(
        message.contains(&copy.display().to_string()) && message.contains("libcutensor.so.2"),
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

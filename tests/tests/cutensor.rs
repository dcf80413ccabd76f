//! cuTENSOR 2 through `libstubs_cutensor.so`, on NVIDIA's real `libcutensor.so.2` of CUDA 11.x
//! (2.2.0), 12.x and 13.x (2.8.1) from the wheels (no GPU: what cuTENSOR answers without a
//! driver) and on none, and the rule of one CUDA release per process.
//!
//! `tests/c/cutensor_host.c` is compiled against each major's real `cutensor.h` twice: linked
//! only to the stubs, and linked normally to that major's `libcutensor.so.2`. Both builds must
//! print the same lines (cuTENSOR's version and the runtime it was built with, every error
//! string, the logger, `cutensorCreate`'s no-GPU answer, handle-less calls); the stub build
//! must report the runtime version `cutensorGetCudartVersion` answers, which is all that tells
//! the CUDA 12 and CUDA 13 builds of cuTENSOR 2.8.1 apart: one of another release than the
//! process's runtime is refused by it. Majors without a cuTENSOR wheel for the machine are
//! skipped.

use stub_model::libraries::CUTENSOR;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, cuda_layout};

/// The stub's code for no library (of the process's release): `CUTENSOR_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: u32 = 1;
/// The stub's code for a function the loaded cuTENSOR lacks: `CUTENSOR_STATUS_NOT_SUPPORTED`.
const ABSENT: u32 = 15;
/// What the real `cutensorCreate` answers without a GPU: `CUTENSOR_STATUS_CUDA_ERROR`.
const NO_GPU: u32 = 18;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUTENSOR,
    source: "c/cutensor_host.c",
    also_stubs: &["cudart"],
    // cutensor.h includes cuda_runtime.h, whose cuda_fp16.h includes CCCL's <nv/target>.
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's cuTENSOR.
fn majors() -> Vec<u32> {
    [11, 12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("cutensor"))
        .collect()
}

/// The number a line `<prefix> version=N` of `run` gives.
fn version(run: &Outcome, prefix: &str) -> i32 {
    let line = run.line(prefix);
    line.rsplit_once("version=")
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{line:?}: {run}"))
}

/// The stub build with the runtime and cuTENSOR of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, cutensor: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cutensor, &[])
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library at the runtime version it was built with.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in majors() {
        let normal = PROGRAM.run_normal(major);
        let [own_major, own_minor, _] = PROGRAM.wheel_version(major);
        let own = version(&normal, "cutensorGetVersion");
        assert_eq!(own / 100, own_major * 100 + own_minor, "{normal}");
        let cuda = version(&normal, "cutensorGetCudartVersion");
        assert_eq!(cuda / 1000, major as i32, "{normal}");
        normal
            .assert_line(&format!("cutensorCreate rc={NO_GPU}"))
            .assert_line("cutensorGetErrorString(1) = CUTENSOR_STATUS_NOT_INITIALIZED")
            .assert_line("cutensorCreateTensorDescriptor(no handle) rc=7");

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("cutensor", &PROGRAM.real(major), cuda, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={cuda} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "cutensor"),
            api_lines(&normal, "cutensor"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no cuTENSOR anywhere, every status is the typed error, the version functions answer
/// 0, error strings are never NULL (the enumerator's name, or a text for a value the header
/// does not define), and the status says what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, CUTENSOR.errors.no_library.value);
    for line in [
        "cutensorGetVersion version=0",
        "cutensorGetCudartVersion version=0",
        "cutensorGetErrorString(0) = CUTENSOR_STATUS_SUCCESS",
        "cutensorGetErrorString(15) = CUTENSOR_STATUS_NOT_SUPPORTED",
        "cutensorGetErrorString(18) = CUTENSOR_STATUS_CUDA_ERROR",
        "cutensorLoggerSetLevel rc=1",
        "cutensorLoggerForceDisable rc=1",
        "cutensorCreate rc=1",
        "cutensorCreateTensorDescriptor(no handle) rc=1",
        "cutensorCreatePlanPreference(no handle) rc=1",
        "cutensorDestroyBlockSparseTensorDescriptor(NULL) (header 20800) rc=1",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
    // cutensorGetErrorString answers enumerator names (`TextKind::Name`), as the real one.
    run.assert_line("cutensorGetErrorString(1) = CUTENSOR_STATUS_NOT_INITIALIZED");
    let searched = "cuda-stubs: libcutensor not found (searched libcutensor.so.2";
    assert!(run.line("status message").contains(searched), "{run}");
    // A value the header does not define: still a text.
    assert!(
        run.line("cutensorGetErrorString(2)")
            .starts_with("cutensorGetErrorString(2) = "),
        "{run}"
    );
    assert!(!run.stdout.contains("= (null)"), "{run}");
}

/// A program built against cuTENSOR 2.8's header on 2.2.0 (CUDA 11): a function 2.2.0 exports
/// without declaring it (block-sparse, declared from 2.3) is the typed "absent" error, never
/// called with a prototype it may not have; the rest answers as 2.2.0 does.
#[test]
fn a_newer_header_on_an_older_cutensor() {
    if !majors().contains(&11) {
        return;
    }
    let normal = PROGRAM.run_normal(11);
    let run = run_stub(12, Some(11), Some(11));
    run.assert_success()
        .assert_bound(
            "cutensor",
            &PROGRAM.real(11),
            version(&normal, "cutensorGetCudartVersion"),
            OVERRIDE,
        )
        .assert_line(&format!(
            "cutensorDestroyBlockSparseTensorDescriptor(NULL) (header 20800) rc={ABSENT}"
        ))
        .assert_line(&format!(
            "cutensorGetVersion version={}",
            version(&normal, "cutensorGetVersion")
        ))
        .assert_line(&format!("cutensorCreate rc={NO_GPU}"));
    assert_eq!(ABSENT, CUTENSOR.errors.absent.value);
}

/// NVIDIA's CUDA 12 build of cuTENSOR 2.8.1 beside a 13.5 runtime is refused once
/// `cutensorGetCudartVersion` says 12.9 (its `cutensorGetVersion`, 20800, is the CUDA 13
/// build's too); every call is then the "no library" code and the status names both releases.
#[test]
fn a_cu12_cutensor_beside_a_13_runtime_is_refused_by_its_runtime_version() {
    if !majors().contains(&12) || !majors().contains(&13) {
        return;
    }
    let run = run_stub(13, Some(13), Some(12));
    run.assert_success();
    let reason = "CUDA 12, but the process has CUDA 13 (libcudart.so.13): one CUDA release \
                  per process";
    run.assert_debug(
        "cutensor",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(12).display()
        ),
    )
    .assert_line("cutensorGetVersion version=0")
    .assert_line(&format!("cutensorCreate rc={NO_LIBRARY}"));
    assert!(run.line("status message").contains(reason), "{run}");
}

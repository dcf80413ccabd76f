//! cuSOLVER through `libstubs_cusolver.so`, on NVIDIA's real libcusolver of CUDA 11.8, 12.9 and
//! 13.x (the wheels: `libcusolver.so.11` for 11.x and 12.x, `.12` for 13.x, each loading the
//! cuBLAS, cuBLASLt, cuSPARSE and nvJitLink of its release) and on none.
//!
//! `tests/c/cusolver_host.c` is compiled against each major's real `cusolverDn.h` /
//! `cusolverSp.h` twice: linked only to the stubs, and linked normally to that major's
//! libcusolver. Both builds must print the same lines: properties, the library's own answers
//! without a GPU (`cusolverDnCreate`, `cusolverSpCreate`: 1), a host-side parameter object. A
//! 13.x cuSOLVER beside a 12.9 runtime is refused before `dlopen`: its `DT_NEEDED` names
//! `libcublas.so.13` (cuBLAS is one of its anchors). The headers include `cublas_v2.h`, which
//! needs codegen's `<nv/target>` shim ([`TwoBuilds::nv_target_shim`]).

use stub_model::libraries::CUSOLVER;
use stubs_tests::Outcome;
use stubs_tests::two_builds::{TwoBuilds, api_lines};

const MAJORS: [u32; 3] = [11, 12, 13];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUSOLVER,
    source: "c/cusolver_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: true,
};

fn run_stub(header: u32, cudart: Option<u32>, cusolver: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cusolver, &[])
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library as the CUDA major its version maps to.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = PROGRAM.run_normal(major);
        let [maj, min, patch] = PROGRAM.wheel_version(major);
        normal
            .assert_line(&format!(
                "cusolverGetProperty(MAJOR_VERSION) rc=0 value={maj}"
            ))
            .assert_line("cusolverDnCreate rc=1")
            .assert_line("cusolverDnCreateParams rc=0");
        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound(
                "cusolver",
                &PROGRAM.real(major),
                1000 * major as i32,
                OVERRIDE,
            )
            .assert_debug(
                "cusolver",
                &format!(
                    "cusolverGetProperty {}: CUDA {major}",
                    maj * 1000 + min * 100 + patch
                ),
            );
        assert_eq!(
            api_lines(&stub, "cusolver"),
            api_lines(&normal, "cusolver"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no cuSOLVER anywhere, every status is 1.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(CUSOLVER.errors.no_library.value, 1);
    for line in [
        "cusolverGetProperty(MAJOR_VERSION) rc=1 value=-1",
        "cusolverDnCreate rc=1",
        "cusolverSpCreate rc=1",
        "cusolverDnCreateParams rc=1",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
}

/// 13.x's `libcusolver.so.12` beside a runtime stub bound to 12.9 is refused before `dlopen`:
/// its `DT_NEEDED` names `libcublas.so.13`, which the process never maps.
#[test]
fn a_13_cusolver_beside_a_12_runtime_is_refused_before_dlopen() {
    let run = run_stub(13, Some(12), Some(13));
    run.assert_success();
    let reason = "CUDA 13 (needs libcublas.so.13), but the process has CUDA 12 (libcudart.so.12): \
                  one CUDA release per process";
    run.assert_debug(
        "cusolver",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(13).display()
        ),
    )
    .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(
        !run.debug("cusolver")
            .iter()
            .any(|l| l.starts_with("cusolverGetProperty")),
        "the refused library was never loaded: {run}"
    );
}

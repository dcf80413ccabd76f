//! cuSOLVERMg through `libstubs_cusolvermg.so`, on NVIDIA's real libcusolverMg of CUDA 11.8,
//! 12.9 and 13.x (cuSOLVER's wheels: `libcusolverMg.so.11` for 11.x and 12.x, `.12` for 13.x,
//! each loading the cuBLAS and cuBLASLt, from 12.x also cuSPARSE and nvJitLink, of its release)
//! and on none.
//!
//! `tests/c/cusolvermg_host.c` is compiled against each major's real `cusolverMg.h` twice:
//! linked only to the stubs, and linked normally to that major's libcusolverMg. Both builds must
//! print the same lines (the library's own answers without a GPU). The stub's version is the
//! cuBLAS the library loaded (`cublasGetProperty` through its handle: `libcusolverMg.so.11` is
//! 11.x's and 12.x's alike); a 13.x copy beside a 12.9 runtime is refused before `dlopen` (its
//! `DT_NEEDED` names `libcublas.so.13`), and a copy without the cuBLAS it needs is refused with
//! the loader's error in the summary. The headers include `cublas_v2.h`, which needs codegen's
//! `<nv/target>` shim ([`TwoBuilds::nv_target_shim`]).

use stub_model::libraries::{CUBLAS, CUSOLVERMG};
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, cuda_layout, link_file, temp_dir};

const MAJORS: [u32; 3] = [11, 12, 13];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUSOLVERMG,
    source: "c/cusolvermg_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: true,
};

fn run_stub(header: u32, cudart: Option<u32>, cusolvermg: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cusolvermg, &[])
}

/// `1000 * major + 10 * minor` of cuBLAS's test wheel of `major` (`nvidia-cublas-cu12==12.9.1.4`
/// → 12090): what `cublasGetProperty` answers, the version the stub records.
fn cublas_version(major: u32) -> i32 {
    let wheel = CUBLAS
        .test_wheels
        .iter()
        .find(|w| w.major == major)
        .expect("a cuBLAS wheel of the major");
    let version = wheel.requirement.split("==").nth(1).expect("pinned");
    let mut parts = version
        .split('.')
        .map(|p| p.parse::<i32>().expect("numeric"));
    let (maj, min) = (parts.next().expect("major"), parts.next().expect("minor"));
    1000 * maj + 10 * min
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library with the version of the cuBLAS it loaded.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = PROGRAM.run_normal(major);
        // Without a GPU the handle and the grid are made on the host; selecting a device is
        // the library's internal error (7), a descriptor on a grid of no device an invalid
        // value (3): the same in 11.8, 12.9 and 13.x.
        normal
            .assert_line("cusolverMgCreate rc=0")
            .assert_line("cusolverMgDeviceSelect rc=7")
            .assert_line("cusolverMgCreateDeviceGrid rc=0")
            .assert_line("cusolverMgCreateMatrixDesc rc=3");
        let stub = run_stub(major, Some(major), Some(major));
        let version = cublas_version(major);
        assert_eq!(version / 1000, major as i32);
        stub.assert_success()
            .assert_bound("cusolvermg", &PROGRAM.real(major), version, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "cusolverMg"),
            api_lines(&normal, "cusolverMg"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no cuSOLVERMg anywhere, every call is `CUSOLVER_STATUS_NOT_INITIALIZED` (1).
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(CUSOLVERMG.errors.no_library.value, 1);
    run.assert_line("cusolverMgCreate rc=1")
        .assert_line("cusolverMgCreateDeviceGrid rc=1")
        .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(
        run.line("status message")
            .contains("libcusolvermg not found (searched libcusolverMg.so.12, libcusolverMg.so.11"),
        "{run}"
    );
}

/// 13.x's `libcusolverMg.so.12` beside a runtime stub bound to 12.9 is refused before `dlopen`.
#[test]
fn a_13_cusolvermg_beside_a_12_runtime_is_refused() {
    let run = run_stub(13, Some(12), Some(13));
    run.assert_success()
        .assert_line("cusolverMgCreate rc=1")
        .assert_line("status bound=0 version=0 found_by=(null)");
    let reason = "the process has CUDA 12 (libcudart.so.12): one CUDA release per process";
    assert!(run.line("status message").contains(reason), "{run}");
    assert!(
        run.debug("cusolvermg").iter().any(|l| l
            .contains(&format!("try {}", PROGRAM.real(13).display()))
            && l.contains("rejected")),
        "{run}"
    );
}

/// 12.9's `libcusolverMg.so.11` (the soname 11.x shares) beside an 11.8 runtime: its
/// `DT_NEEDED` (`libcublas.so.12`) says CUDA 12, so it is refused before `dlopen` though its
/// name fits both.
#[test]
fn a_12_cusolvermg_beside_an_11_runtime_is_refused_by_what_it_needs() {
    let run = run_stub(12, Some(11), Some(12));
    run.assert_success()
        .assert_line("cusolverMgCreate rc=1")
        .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(
        run.line("status message")
            .contains("one CUDA release per process"),
        "{run}"
    );
}

/// A cuSOLVERMg copied without the cuBLAS it needs: `dlopen` fails, every call answers the
/// typed error, and the summary names the missing `libcublas.so.13`.
#[test]
fn a_cusolvermg_without_its_cublas_is_refused_naming_it() {
    let dir = temp_dir("cusolvermg-alone");
    let alone = dir.join("libcusolverMg.so.12");
    link_file(&PROGRAM.real(13), &alone);
    let run = Scenario::new(PROGRAM.stub_program(13))
        .debug()
        .env("CUDA_STUBS_CUDART_PATH", cuda_layout(13).cudart)
        .env("STUBS_TESTS_RUNTIME_FIRST", "1")
        .env("CUDA_STUBS_CUSOLVERMG_PATH", &alone)
        .run();
    run.assert_success()
        .assert_line("cusolverMgCreate rc=1")
        .assert_line("status bound=0 version=0 found_by=(null)");
    let message = run.line("status message");
    assert!(message.contains("libcublas"), "{run}");
    assert!(message.contains(&alone.display().to_string()), "{run}");
}

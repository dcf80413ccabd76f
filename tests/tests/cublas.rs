//! cuBLAS through `libstubs_cublas.so`, on NVIDIA's real libcublas of CUDA 11.8, 12.9 and 13.5
//! (the wheels: `libcublas.so.11` / `.12` / `.13`, each loading its `libcublasLt`) and on none.
//!
//! `tests/c/cublas_host.c` is compiled against each major's real `cublas_v2.h` twice: linked
//! only to the stubs, and linked normally to that major's libcublas. Both builds must print the
//! same lines: properties and version, the library's own answers without a GPU
//! (`cublasCreate`: 1, `CUBLAS_STATUS_NOT_INITIALIZED`), a status string, SGEMM with no handle
//! through `cublasSgemm_v2` and (12.x+ headers) `cublasSgemm_v2_64`. A program built against
//! 12.9's header runs on 11.8, which lacks the `_64` entry points: the stub answers 15,
//! `CUBLAS_STATUS_NOT_SUPPORTED`, for those. A cuBLAS of another release than the process's
//! runtime is refused by its soname, before `dlopen`.
//!
//! `cublas_api.h` includes `cuda_fp16.h`, which includes CCCL's `<nv/target>`: NVIDIA's runtime
//! wheels do not ship CCCL, so the programs build with codegen's shim of it
//! ([`TwoBuilds::nv_target_shim`]).

use stub_model::libraries::CUBLAS;
use stubs_tests::Outcome;
use stubs_tests::two_builds::{TwoBuilds, api_lines};

const MAJORS: [u32; 3] = [11, 12, 13];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUBLAS,
    source: "c/cublas_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: true,
};

/// The real libcublas of `major`.
fn real(major: u32) -> std::path::PathBuf {
    PROGRAM.real(major)
}

/// The stub build of `header` with the runtime and the library of the given majors as
/// overrides.
fn run_stub(header: u32, cudart: Option<u32>, cublas: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cublas, &[])
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library at the version it reports.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = PROGRAM.run_normal(major);
        let [maj, min, patch] = PROGRAM.wheel_version(major);
        normal
            .assert_line(&format!(
                "cublasGetProperty(MAJOR_VERSION) rc=0 value={maj}"
            ))
            .assert_line(&format!(
                "cublasGetProperty(MINOR_VERSION) rc=0 value={min}"
            ))
            .assert_line(&format!(
                "cublasGetProperty(PATCH_LEVEL) rc=0 value={patch}"
            ))
            .assert_line("cublasCreate rc=1");

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("cublas", &real(major), maj * 1000 + min * 10, OVERRIDE);
        assert_eq!(
            api_lines(&stub, "cublas"),
            api_lines(&normal, "cublas"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// A program built against 12.9's header on cuBLAS 11.8: what 11.8 has answers as 11.8 does,
/// the `_64` entry points it lacks are `CUBLAS_STATUS_NOT_SUPPORTED` (15), never looked up.
#[test]
fn a_12_9_program_on_11_8_gets_not_supported_for_the_64_bit_entry_points() {
    let run = run_stub(12, Some(11), Some(11));
    assert_eq!(CUBLAS.errors.absent.value, 15);
    run.assert_success()
        .assert_line("cublasSgemm(no handle) rc=1")
        .assert_line("cublasSgemm_64(no handle) rc=15")
        .assert_debug(
            "cublas",
            "cublasSgemm_v2_64: absent in CUDA 11 (symbol majors 12,13, exported ABI majors 12,13)",
        );
}

/// With no cuBLAS anywhere, every status is `CUBLAS_STATUS_NOT_INITIALIZED` (1); the status
/// string and name functions answer the header's enumerator name (`cublas_api.h` documents
/// none), never NULL.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(CUBLAS.errors.no_library.value, 1);
    for line in [
        "cublasGetProperty(MAJOR_VERSION) rc=1 value=-1",
        "cublasGetVersion rc=1 version=0",
        "cublasCreate rc=1",
        "cublasGetStatusString(15)=CUBLAS_STATUS_NOT_SUPPORTED",
        "cublasGetStatusName(1)=CUBLAS_STATUS_NOT_INITIALIZED",
        "cublasSgemm(no handle) rc=1",
        "cublasSgemm_64(no handle) rc=1",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
}

/// 13.5's `libcublas.so.13` beside a runtime stub bound to 12.9 is refused by its soname,
/// before `dlopen`; the process's own release is bound instead when it is there.
#[test]
fn another_releases_cublas_is_refused_by_its_name() {
    let run = run_stub(13, Some(12), Some(13));
    run.assert_success();
    let reason =
        "CUDA 13, but the process has CUDA 12 (libcudart.so.12): one CUDA release per process";
    run.assert_debug(
        "cublas",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            real(13).display()
        ),
    )
    .assert_line("cublasCreate rc=1")
    .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(run.line("status message").contains(reason), "{run}");
}

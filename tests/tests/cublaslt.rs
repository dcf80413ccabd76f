//! cuBLASLt through `libstubs_cublaslt.so`, on NVIDIA's real libcublasLt of CUDA 11.8, 12.9 and
//! 13.5 (the cuBLAS wheels) and on none.
//!
//! `tests/c/cublaslt_host.c` is compiled against each major's real `cublasLt.h` twice: linked
//! only to the stubs, and linked normally to that major's libcublasLt. Both builds must print
//! the same lines: properties and version, the library's own answers without a GPU
//! (`cublasLtCreate`: 1), a status string, and the host-side descriptors a GEMM is described
//! with, created, set, read back and destroyed — through the functions whose descriptor storage
//! (`cublasLtMatmulDescOpaque_t` …) grew in every major, which the stub forwards unchanged (the
//! library lays its own descriptors out). A cuBLASLt of another release than the process's
//! runtime is refused by its soname, before `dlopen`. The headers need codegen's `<nv/target>`
//! shim ([`TwoBuilds::nv_target_shim`]).

use stub_model::libraries::CUBLASLT;
use stubs_tests::Outcome;
use stubs_tests::two_builds::{TwoBuilds, api_lines};

const MAJORS: [u32; 3] = [11, 12, 13];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUBLASLT,
    source: "c/cublaslt_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: true,
};

fn run_stub(header: u32, cudart: Option<u32>, cublaslt: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cublaslt, &[])
}

/// On every major, the stub build prints what the normal build prints (descriptors included),
/// and binds the real library at the version it reports.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = PROGRAM.run_normal(major);
        let [maj, min, _] = PROGRAM.wheel_version(major);
        normal
            .assert_line(&format!(
                "cublasLtGetProperty(MAJOR_VERSION) rc=0 value={maj}"
            ))
            .assert_line("cublasLtCreate rc=1")
            .assert_line("cublasLtMatmulDescGetAttribute(TRANSA) rc=0 value=1 size=4")
            .assert_line("cublasLtMatrixLayoutGetAttribute(ROWS) rc=0 value=4 size=8");
        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success().assert_bound(
            "cublaslt",
            &PROGRAM.real(major),
            maj * 1000 + min * 10,
            OVERRIDE,
        );
        assert_eq!(
            api_lines(&stub, "cublasLt"),
            api_lines(&normal, "cublasLt"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// A program built against 13.5's header (whose descriptor storage is larger) runs on 11.8 and
/// 12.9's libraries, which lay out their own descriptors.
#[test]
fn a_13_5_program_describes_a_gemm_on_every_major() {
    for major in [11, 12] {
        let run = run_stub(13, Some(major), Some(major));
        run.assert_success()
            .assert_line("cublasLtMatmulDescCreate rc=0")
            .assert_line("cublasLtMatmulDescGetAttribute(TRANSA) rc=0 value=1 size=4")
            .assert_line("cublasLtMatrixLayoutGetAttribute(ROWS) rc=0 value=4 size=8")
            .assert_line("cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES) rc=0");
    }
}

/// With no cuBLASLt anywhere, every status is 1, the version 0, the status string and name the
/// header's enumerator name, never NULL.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(CUBLASLT.errors.no_library.value, 1);
    for line in [
        "cublasLtGetProperty(MAJOR_VERSION) rc=1 value=-1",
        "cublasLtGetVersion=0",
        "cublasLtCreate rc=1",
        "cublasLtGetStatusString(15)=CUBLAS_STATUS_NOT_SUPPORTED",
        "cublasLtGetStatusName(1)=CUBLAS_STATUS_NOT_INITIALIZED",
        "cublasLtMatmulDescCreate rc=1",
        "cublasLtMatrixLayoutCreate rc=1",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
}

/// 13.5's `libcublasLt.so.13` beside a runtime stub bound to 12.9 is refused by its soname.
#[test]
fn another_releases_cublaslt_is_refused_by_its_name() {
    let run = run_stub(13, Some(12), Some(13));
    run.assert_success();
    let reason =
        "CUDA 13, but the process has CUDA 12 (libcudart.so.12): one CUDA release per process";
    run.assert_debug(
        "cublaslt",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(13).display()
        ),
    )
    .assert_line("status bound=0 version=0 found_by=(null)");
}

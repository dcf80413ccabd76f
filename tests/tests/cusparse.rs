//! cuSPARSE through `libstubs_cusparse.so`, on NVIDIA's real libcusparse of CUDA 11.8, 12.9 and
//! 13.x (the wheels: `libcusparse.so.11`, and `libcusparse.so.12` for both 12.x and 13.x) and on
//! none.
//!
//! `tests/c/cusparse_host.c` is compiled against each major's real `cusparse.h` twice: linked
//! only to the stubs, and linked normally to that major's libcusparse. Both builds must print the
//! same lines: properties, the library's own answer without a GPU (`cusparseCreate`: 1), an
//! error string, a generic-API descriptor created and read back. 12.x's and 13.x's share a
//! soname: the stub learns the release from the version (cuSPARSE 12.5 is CUDA 12.9, 12.9 is
//! 13.x). A program built against 11.8's header calls the legacy API 12.0 removed: on 12.9 and
//! 13.x it gets `CUSPARSE_STATUS_NOT_SUPPORTED` (10), never a call. cuSPARSE of another release
//! than the runtime's is refused by its version.

use stub_model::libraries::CUSPARSE;
use stubs_tests::Outcome;
use stubs_tests::two_builds::{TwoBuilds, api_lines};

const MAJORS: [u32; 3] = [11, 12, 13];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUSPARSE,
    source: "c/cusparse_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

fn run_stub(header: u32, cudart: Option<u32>, cusparse: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cusparse, &[])
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
                "cusparseGetProperty(MAJOR_VERSION) rc=0 value={maj}"
            ))
            .assert_line("cusparseCreate rc=1")
            .assert_line("cusparseDnVecGet rc=0 size=4 same=1 type=0");
        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound(
                "cusparse",
                &PROGRAM.real(major),
                1000 * major as i32,
                OVERRIDE,
            )
            .assert_debug(
                "cusparse",
                &format!(
                    "cusparseGetProperty {}: CUDA {major}",
                    maj * 1000 + min * 100 + patch
                ),
            );
        assert_eq!(
            api_lines(&stub, "cusparse"),
            api_lines(&normal, "cusparse"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// 11.8's legacy API on 12.9 and 13.x, which removed it: the stub's 10, not looked up.
#[test]
fn the_legacy_api_is_not_supported_where_it_was_removed() {
    run_stub(11, Some(11), Some(11)).assert_line("cusparseCreateCsrgemm2Info rc=0");
    assert_eq!(CUSPARSE.errors.absent.value, 10);
    for major in [12, 13] {
        let run = run_stub(11, Some(major), Some(major));
        run.assert_line("cusparseCreateCsrgemm2Info rc=10")
            .assert_debug(
                "cusparse",
                &format!(
                    "cusparseCreateCsrgemm2Info: absent in CUDA {major} (symbol majors 11, exported ABI majors 11)"
                ),
            );
    }
}

/// With no cuSPARSE anywhere, every status is 1 and the error string and name the header's
/// enumerator name, never NULL.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(CUSPARSE.errors.no_library.value, 1);
    for line in [
        "cusparseGetProperty(MAJOR_VERSION) rc=1 value=-1",
        "cusparseCreate rc=1",
        "cusparseGetErrorString(10)=CUSPARSE_STATUS_NOT_SUPPORTED",
        "cusparseGetErrorName(1)=CUSPARSE_STATUS_NOT_INITIALIZED",
        "cusparseCreateDnVec rc=1",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
}

/// 13.x's `libcusparse.so.12` beside a runtime bound to 12.9: the soname is 12.x's too, so it
/// is refused once its version says CUDA 13.
#[test]
fn a_13_cusparse_beside_a_12_runtime_is_refused_by_its_version() {
    let run = run_stub(13, Some(12), Some(13));
    run.assert_success();
    let reason =
        "CUDA 13, but the process has CUDA 12 (libcudart.so.12): one CUDA release per process";
    run.assert_debug(
        "cusparse",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(13).display()
        ),
    )
    .assert_line("status bound=0 version=0 found_by=(null)");
}

//! cuFFT through `libstubs_cufft.so`, on NVIDIA's real libcufft of CUDA 11.8, 12.9 and 13.5
//! (the wheels: `libcufft.so.10`, `.11`, `.12`) and on none.
//!
//! `tests/c/cufft_host.c` is compiled against each major's real `cufft.h` / `cufftXt.h` twice:
//! linked only to the stubs, and linked normally to that major's libcufft. Both builds must
//! print the same lines (version, properties, and the library's own answers to planning without
//! a GPU: 11, `CUFFT_INVALID_DEVICE`, on 11.8; 5, `CUFFT_INTERNAL_ERROR`, on 12.9 and 13.5).
//! 12.9's header binds `cufftXtSetJITCallback` to `__cufftXtSetJITCallback_12_7`, which 13.5
//! does not export: the stub binds it to 13.5's plain name, and a program built against 12.9
//! runs there. A cuFFT of another release than the runtime the process uses is refused by its
//! soname, before `dlopen`.

use stub_model::libraries::CUFFT;
use stubs_tests::Outcome;
use stubs_tests::two_builds::{TwoBuilds, api_lines};

const MAJORS: [u32; 3] = [11, 12, 13];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUFFT,
    source: "c/cufft_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// The real libcufft of `major`.
fn real(major: u32) -> std::path::PathBuf {
    PROGRAM.real(major)
}

/// `nvidia-cufft-cu12==11.4.1.4` → 11401: `CUFFT_VERSION` of the spec's test wheel.
fn wheel_version(major: u32) -> i32 {
    let [major, minor, patch] = PROGRAM.wheel_version(major);
    major * 1000 + minor * 100 + patch
}

/// The stub build of `header` with the runtime and the library of the given majors as
/// overrides.
fn run_stub(header: u32, cudart: Option<u32>, cufft: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cufft, &[])
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library reporting the CUDA major of its soname.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = PROGRAM.run_normal(major);
        let own = wheel_version(major);
        normal
            .assert_line(&format!("cufftGetVersion rc=0 version={own}"))
            .assert_line(&format!(
                "cufftGetProperty(MAJOR_VERSION) rc=0 value={}",
                own / 1000
            ));
        // Without a GPU, planning fails with the library's own error, never success.
        assert_ne!(normal.line("cufftPlan1d"), "cufftPlan1d rc=0", "{normal}");

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("cufft", &real(major), 1000 * major as i32, OVERRIDE)
            .assert_debug("cufft", &format!("cufftGetVersion {own}: CUDA {major}"))
            .assert_debug(
                "cufft",
                &format!(
                    "the process has CUDA {major} (libcudart.so.{}): only that release is bound",
                    if major == 11 {
                        "11.0".to_owned()
                    } else {
                        major.to_string()
                    }
                ),
            )
            .assert_line(&format!(
                "status bound=1 version={} found_by={OVERRIDE}",
                1000 * major
            ));
        assert_eq!(
            api_lines(&stub, "cufft"),
            api_lines(&normal, "cufft"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// A program built against 12.9's header calls `__cufftXtSetJITCallback_12_7`: on 12.9 the
/// library's own, on 13.5 its plain `cufftXtSetJITCallback` (the same answer for plan 0 as
/// 12.9's: `CUFFT_INVALID_PLAN`), on 11.8, which has neither, the stub's
/// `CUFFT_NOT_SUPPORTED` (16).
#[test]
fn the_12_9_jit_callback_name_runs_on_every_major() {
    let on12 = run_stub(12, Some(12), Some(12));
    on12.assert_line("cufftXtSetJITCallback rc=1");
    assert!(
        !on12
            .debug("cufft")
            .iter()
            .any(|l| l.contains("replacement")),
        "{on12}"
    );
    let on13 = run_stub(12, Some(13), Some(13));
    on13.assert_line("cufftXtSetJITCallback rc=1").assert_debug(
        "cufft",
        "__cufftXtSetJITCallback_12_7: absent, bound to its replacement cufftXtSetJITCallback",
    );
    let on11 = run_stub(12, Some(11), Some(11));
    assert_eq!(CUFFT.errors.absent.value, 16);
    on11.assert_line("cufftXtSetJITCallback rc=16");
}

/// With no cuFFT anywhere, every call is `CUFFT_SETUP_FAILED` (7).
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(CUFFT.errors.no_library.value, 7);
    for call in [
        "cufftGetVersion rc=7 version=0",
        "cufftGetProperty(MAJOR_VERSION) rc=7 value=-1",
        "cufftPlan1d rc=7",
        "cufftEstimate1d rc=7",
        "cufftXtSetJITCallback rc=7",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(call);
    }
    assert!(
        run.line("status message").contains(
            "libcufft not found (searched libcufft.so.12, libcufft.so.11, libcufft.so.10"
        ),
        "{run}"
    );
}

/// 13.5's `libcufft.so.12` beside a runtime stub bound to 12.9 is refused by its soname, before
/// `dlopen` (its version is never asked).
#[test]
fn a_13_cufft_beside_a_12_runtime_is_refused_by_its_name() {
    let run = run_stub(13, Some(12), Some(13));
    run.assert_success();
    let reason =
        "CUDA 13, but the process has CUDA 12 (libcudart.so.12): one CUDA release per process";
    run.assert_debug(
        "cufft",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            real(13).display()
        ),
    )
    .assert_line("cufftGetVersion rc=7 version=0");
    assert!(run.line("status message").contains(reason), "{run}");
    assert!(
        !run.debug("cufft")
            .iter()
            .any(|l| l.starts_with("cufftGetVersion")),
        "the refused library was never loaded: {run}"
    );
}

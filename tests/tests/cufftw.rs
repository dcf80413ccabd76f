//! cuFFTW through `libstubs_cufftw.so`, on NVIDIA's real libcufftw of CUDA 11.8, 12.9 and 13.5
//! (cuFFT's wheels: `libcufftw.so.10`, `.11`, `.12`, each beside the libcufft it needs) and on
//! none.
//!
//! `tests/c/cufftw_host.c` is compiled against each major's real `cufftw.h` twice: linked only
//! to the stubs, and linked normally to that major's libcufftw. Both builds must print the same
//! lines (host allocation, and the library's own answer to planning without a GPU: NULL). The
//! stub binds the copy its soname says is the process's release, refuses one of another
//! release by its name before `dlopen`, refuses one whose cuFFT is missing with the loader's
//! error in its summary, and without a library answers FFTW's own "failed" values (NULL plans
//! and memory, 0 for wisdom). `fftw_import_wisdom_from_file` is `int` from 12.x's header on and
//! `void` in 11.8's: the stub never calls 11.8's for an `int`.

use stub_model::libraries::CUFFTW;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, cuda_layout, link_file, temp_dir};

const MAJORS: [u32; 3] = [11, 12, 13];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUFFTW,
    source: "c/cufftw_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// The real libcufftw of `major`.
fn real(major: u32) -> std::path::PathBuf {
    PROGRAM.real(major)
}

/// The stub build of `header` with the runtime and the library of the given majors as
/// overrides.
fn run_stub(header: u32, cudart: Option<u32>, cufftw: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cufftw, &[])
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library with the CUDA major of its soname as its version.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = PROGRAM.run_normal(major);
        normal.assert_line("fftw_malloc memory");
        // Without a GPU, planning fails with FFTW's own answer, never a plan.
        normal
            .assert_line("fftw_plan_dft_1d NULL")
            .assert_line("fftwf_plan_many_dft_r2c NULL");

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("cufftw", &real(major), 1000 * major as i32, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={} found_by={OVERRIDE} missing=0",
                1000 * major
            ));
        assert_eq!(
            api_lines(&stub, "fftw"),
            api_lines(&normal, "fftw"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// 12.x's and 13.x's header declare `int fftw_import_wisdom_from_file(FILE *)`, 11.8's
/// `void`: codegen's ABI diff gates the name to 12 and 13, so a program of 12.9's header on
/// 11.8's library gets 0 (FFTW's failure) from the stub, never 11.8's undefined register.
#[test]
fn wisdom_import_is_never_called_with_an_int_on_11_8() {
    let run = run_stub(12, Some(11), Some(11));
    run.assert_success()
        .assert_line("fftw_import_wisdom_from_file 0")
        .assert_debug(
            "cufftw",
            "fftw_import_wisdom_from_file: ABI differs: refused in CUDA 11 (symbol majors 11,12,13, exported ABI majors 12,13)",
        )
        .assert_line(&format!(
            "status bound=1 version=11000 found_by={OVERRIDE} missing=1"
        ));
    // The other calls reached 11.8's library: its own answers.
    run.assert_line("fftw_malloc memory")
        .assert_line("fftw_plan_dft_1d NULL");
}

/// With no cuFFTW anywhere, every call answers FFTW's "failed" value; the status says what was
/// searched, and counts each call refused.
#[test]
fn without_a_library_every_call_fails_visibly() {
    let run = run_stub(13, None, None);
    run.assert_success();
    for call in [
        "fftw_malloc NULL",
        "fftw_plan_dft_1d NULL",
        "fftwf_plan_many_dft_r2c NULL",
        "fftw_import_wisdom_from_file 0",
        "fftw_cleanup done",
    ] {
        run.assert_line(call);
    }
    assert!(
        run.line("status bound")
            .starts_with("status bound=0 version=0 found_by=(null) missing="),
        "{run}"
    );
    assert_ne!(
        run.line("status bound"),
        "status bound=0 version=0 found_by=(null) missing=0",
        "each refused call is counted: {run}"
    );
    assert!(
        run.line("status message").contains(
            "libcufftw not found (searched libcufftw.so.12, libcufftw.so.11, libcufftw.so.10"
        ),
        "{run}"
    );
}

/// 13.5's `libcufftw.so.12` beside a runtime stub bound to 12.9 is refused before `dlopen`,
/// by the cuFFT its `DT_NEEDED` names.
#[test]
fn a_13_cufftw_beside_a_12_runtime_is_refused_by_what_it_needs() {
    let run = run_stub(13, Some(12), Some(13));
    run.assert_success();
    let reason = "CUDA 13 (needs libcufft.so.12), but the process has CUDA 12 (libcudart.so.12): \
                  one CUDA release per process";
    run.assert_debug(
        "cufftw",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            real(13).display()
        ),
    )
    .assert_line("fftw_plan_dft_1d NULL")
    .assert_line("fftw_malloc NULL");
    assert!(run.line("status message").contains(reason), "{run}");
}

/// A cuFFTW copied without the cuFFT it needs (a wheel missing a library): `dlopen` fails, the
/// stub answers as without a library, and the summary names the missing `libcufft.so.12`.
#[test]
fn a_cufftw_without_its_cufft_is_refused_naming_it() {
    let dir = temp_dir("cufftw-alone");
    let alone = dir.join("libcufftw.so.12");
    link_file(&real(13), &alone);
    let run = Scenario::new(PROGRAM.stub_program(13))
        .debug()
        .env("CUDA_STUBS_CUDART_PATH", cuda_layout(13).cudart)
        .env("STUBS_TESTS_RUNTIME_FIRST", "1")
        .env("CUDA_STUBS_CUFFTW_PATH", &alone)
        .run();
    run.assert_success()
        .assert_line("fftw_plan_dft_1d NULL")
        .assert_line("fftw_malloc NULL");
    let message = run.line("status message");
    assert!(message.contains("libcufft.so.12"), "{run}");
    assert!(message.contains(&alone.display().to_string()), "{run}");
}

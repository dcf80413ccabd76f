//! cuRAND through `libstubs_curand.so`, on NVIDIA's real libcurand of CUDA 11.8, 12.9 and 13.5
//! (the wheels; cuRAND's host generators need no GPU) and on none, and the rule of one CUDA
//! release per process.
//!
//! `tests/c/curand_host.c` is compiled against each major's real `curand.h` twice: linked only
//! to the stubs, and linked normally to that major's `libcurand.so.10`. Both builds must print
//! the same lines (the library's version and property, a host generator's first numbers, the
//! device generator's no-GPU status); the stub build must report the CUDA major the spec's
//! releases give. All three majors share the soname `libcurand.so.10`, so a cuRAND of another
//! release than the process's runtime is refused: a 13.x one (it needs `libcudart.so.13`)
//! before `dlopen`, so the process never maps a second runtime; an 11.8 one (static runtime) by
//! its version.

use stub_model::libraries::CURAND;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, cuda_layout};

/// The stub's code for no library (of the process's release).
const NO_LIBRARY: i32 = 203;
const MAJORS: [u32; 3] = [11, 12, 13];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CURAND,
    source: "c/curand_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// The real libcurand.so.10 of `major`.
fn real(major: u32) -> std::path::PathBuf {
    PROGRAM.real(major)
}

/// `nvidia-curand-cu12==10.3.10.19` → 10310: `CURAND_VERSION` of the spec's test wheel.
fn wheel_version(major: u32) -> i32 {
    let [major, minor, patch] = PROGRAM.wheel_version(major);
    major * 1000 + minor * 100 + patch
}

/// The stub build with the runtime and cuRAND of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, curand: Option<u32>, args: &[&str]) -> Outcome {
    PROGRAM.run_stub(header, cudart, curand, args)
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library reporting the CUDA major of the spec's releases.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = PROGRAM.run_normal(major);
        let own = wheel_version(major);
        normal
            .assert_line(&format!("curandGetVersion rc=0 version={own}"))
            .assert_line("curandGetProperty(MAJOR_VERSION) rc=0 value=10")
            .assert_line("curandCreateGeneratorHost rc=0");
        assert!(
            normal
                .line("curandGenerate")
                .starts_with("curandGenerate rc=0 values="),
            "{normal}"
        );

        let stub = run_stub(major, Some(major), Some(major), &[]);
        stub.assert_success()
            .assert_bound("curand", &real(major), 1000 * major as i32, OVERRIDE)
            .assert_debug("curand", &format!("curandGetVersion {own}: CUDA {major}"))
            .assert_line(&format!(
                "status bound=1 version={} found_by={OVERRIDE}",
                1000 * major
            ));
        assert_eq!(
            api_lines(&stub, "curand"),
            api_lines(&normal, "curand"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
        // The process has its own release's runtime only.
        let cudart = cuda_layout(major).cudart;
        assert_eq!(stub.mapped(), [cudart.to_str().expect("utf-8")], "{stub}");
    }
}

/// The host generator's numbers do not depend on the release: XORWOW seeded alike gives the
/// same sequence in 11.8, 12.9 and 13.5 (what a program moved between majors relies on).
#[test]
fn host_generator_sequences_agree_across_majors() {
    let runs: Vec<Outcome> = MAJORS
        .iter()
        .map(|&m| run_stub(m, Some(m), Some(m), &[]))
        .collect();
    let first = runs[0].line("curandGenerate").to_owned();
    assert_ne!(first, "curandGenerate rc=0 values=0,0,0,0", "{}", runs[0]);
    for run in &runs {
        assert_eq!(run.line("curandGenerate"), first, "{run}");
        assert_eq!(
            run.line("curandGenerateUniform"),
            runs[0].line("curandGenerateUniform"),
            "{run}"
        );
    }
}

/// With no cuRAND anywhere, every call is the typed error and the status says what was
/// searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None, &[]);
    run.assert_success();
    for call in [
        "curandGetVersion rc=203 version=0",
        "curandGetProperty(MAJOR_VERSION) rc=203 value=-1",
        "curandCreateGeneratorHost rc=203",
        "curandCreateGenerator rc=203",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(call);
    }
    assert_eq!(NO_LIBRARY, CURAND.errors.no_library.value);
    let message = run.line("status message");
    assert!(
        message.contains("libcurand not found (searched libcurand.so.10"),
        "{run}"
    );
}

/// A 13.x cuRAND next to a runtime stub bound to 12.9 is refused before `dlopen`: its
/// `DT_NEEDED` names `libcudart.so.13`, which the process never maps.
#[test]
fn a_13_curand_beside_a_12_runtime_is_refused_before_dlopen() {
    let run = run_stub(13, Some(12), Some(13), &[]);
    run.assert_success();
    let reason = "CUDA 13 (needs libcudart.so.13), but the process has CUDA 12 \
                  (libcudart.so.12): one CUDA release per process";
    run.assert_debug(
        "curand",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            real(13).display()
        ),
    )
    .assert_line("curandGetVersion rc=203 version=0")
    .assert_line("curandCreateGeneratorHost rc=203");
    assert!(run.line("status message").contains(reason), "{run}");
    let cudart12 = cuda_layout(12).cudart;
    assert_eq!(run.mapped(), [cudart12.to_str().expect("utf-8")], "{run}");
    assert!(
        !run.debug("curand")
            .iter()
            .any(|l| l.starts_with("curandGetVersion")),
        "the refused library was never loaded: {run}"
    );
}

/// An 11.8 cuRAND (runtime linked statically, no `DT_NEEDED` to tell) beside a 12.9 runtime is
/// refused once its version says CUDA 11.
#[test]
fn an_11_curand_beside_a_12_runtime_is_refused_by_its_version() {
    let run = run_stub(12, Some(12), Some(11), &[]);
    run.assert_success();
    let reason = "CUDA 11, but the process has CUDA 12 (libcudart.so.12): one CUDA release \
                  per process";
    run.assert_debug(
        "curand",
        &format!("curandGetVersion {}: CUDA 11", wheel_version(11)),
    )
    .assert_debug(
        "curand",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            real(11).display()
        ),
    )
    .assert_line("curandCreateGeneratorHost rc=203");
    assert!(run.line("status message").contains(reason), "{run}");
}

/// A runtime the program used first decides the release; cuRAND's stub reads it from the
/// process (`RTLD_NOLOAD`) and never has the runtime stub search.
#[test]
fn the_runtime_the_program_uses_decides_the_release() {
    let run = run_stub(12, Some(12), Some(12), &[]);
    run.assert_success();
    let curand = run.debug("curand");
    assert!(
        curand.contains(&"the process has CUDA 12 (libcudart.so.12): only that release is bound"),
        "{run}"
    );
    assert!(
        !curand.iter().any(|l| l.contains("libstubs_cudart.so")),
        "{run}"
    );
}

/// A 13.x cuRAND found by path with no runtime in the process loads the `libcudart.so.13`
/// beside it first (it has no RUNPATH, and the dynamic loader's search has no runtime here):
/// what the program linked normally to it loads. cuRAND's own calls into the runtime reach the
/// runtime stub (first in the global scope), which binds that copy, never a second one.
#[test]
fn a_13_curand_alone_loads_its_runtime_from_its_own_folder() {
    let run = run_stub(13, None, Some(13), &[]);
    run.assert_success();
    let cudart13 = cuda_layout(13).cudart;
    run.assert_debug(
        "curand",
        &format!("preloaded {} (needed by the candidate)", cudart13.display()),
    )
    .assert_bound("curand", &real(13), 13000, OVERRIDE)
    .assert_line("curandCreateGeneratorHost rc=0");
    assert_eq!(run.mapped(), [cudart13.to_str().expect("utf-8")], "{run}");
    assert_eq!(
        run.bound("cudart"),
        format!(
            "bound {} (version {}) [already loaded (RTLD_NOLOAD)]",
            cudart13.display(),
            cuda_layout(13).version_code()
        ),
        "{run}"
    );
}

//! cuSPARSELt through `libstubs_cusparselt.so`, on NVIDIA's real libcusparseLt of CUDA 12 (0.8.1)
//! and CUDA 13 (0.10.0) from the wheels (no GPU: what cuSPARSELt answers without a driver) and
//! on none, and the rule of one CUDA release per process. NVIDIA publishes no cuSPARSELt for
//! CUDA 11.
//!
//! `tests/c/cusparselt_host.c` is compiled against each major's real `cusparseLt.h` twice:
//! linked only to the stubs, and linked normally to that major's `libcusparseLt.so.0`. Both
//! builds must print the same lines (the version through `cusparseLtGetProperty`, what
//! `cusparseLtInit` answers without a GPU, every error name and string, the opaque structs'
//! sizes); the stub build must report the CUDA major the file's device code was compiled for
//! (the PTX ISA in its `.nv_fatbin`), which is all that tells a CUDA 12 build from a CUDA 13 one
//! (one soname, overlapping versions, the runtime linked statically): one of another release
//! than the process's runtime is refused by it.

use stub_model::libraries::CUSPARSELT;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, cuda_layout};

/// The stub's code for no library (of the process's release): `CUSPARSE_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 1;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUSPARSELT,
    source: "c/cusparselt_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// The majors whose layout has NVIDIA's cuSPARSELt (12 and 13: no CUDA 11 wheel exists).
fn majors() -> Vec<u32> {
    [12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("cusparselt"))
        .collect()
}

/// The stub build with the runtime and cuSPARSELt of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, cusparselt: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cusparselt, &[])
}

/// The CUDA major the real file of `major` was built with, read here from the file itself, not
/// the way the loader reads it: the `Cuda compilation tools, release 13.2` of the tool
/// information its cubins carry (12.9 and 13.2 in the wheels).
fn built_with(major: u32) -> u32 {
    let file = std::fs::read(PROGRAM.real(major)).expect("the real libcusparseLt");
    let marker = b"Cuda compilation tools, release ";
    let at = file
        .windows(marker.len())
        .position(|w| w == marker)
        .expect("nvcc's tool information")
        + marker.len();
    let digits: String = file[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .map(|&b| char::from(b))
        .collect();
    digits.parse().expect("a CUDA major")
}

/// `major.minor.patch` of the spec's test wheel of `major` (`nvidia-cusparselt-cu13==0.10.0`).
fn wheel_version(major: u32) -> String {
    PROGRAM
        .wheel_version(major)
        .map(|n| n.to_string())
        .join(".")
}

/// On every major, the stub build prints what the normal build prints (the version through
/// `cusparseLtGetProperty`, the real `cusparseLtInit`'s answer without a GPU, every error name
/// and string), and binds the real library as the CUDA major its device code says, which is the
/// major of the wheel and of the compiler named in the file.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    let majors = majors();
    assert!(!majors.is_empty(), "no cuSPARSELt in the layouts");
    for major in majors {
        let normal = PROGRAM.run_normal(major);
        let [maj, min, patch] = PROGRAM.wheel_version(major);
        normal
            .assert_line(&format!(
                "cusparseLtGetProperty(MAJOR_VERSION) rc=0 value={maj}"
            ))
            .assert_line(&format!(
                "cusparseLtGetProperty(MINOR_VERSION) rc=0 value={min}"
            ))
            .assert_line(&format!(
                "cusparseLtGetProperty(PATCH_LEVEL) rc=0 value={patch}"
            ))
            // No GPU: the library's own "initialization error", the stub's "no library" code.
            .assert_line(&format!("cusparseLtInit rc={NO_LIBRARY}"))
            .assert_line("cusparseLtGetErrorString(10) = operation not supported")
            .assert_line("cusparseLtGetErrorName(1) = CUSPARSE_STATUS_NOT_INITIALIZED");

        assert_eq!(built_with(major), major, "the cu{major} wheel's compiler");
        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound(
                "cusparselt",
                &PROGRAM.real(major),
                1000 * major as i32,
                OVERRIDE,
            )
            .assert_line(&format!(
                "status bound=1 version={} found_by={OVERRIDE}",
                1000 * major
            ));
        let probe = stub
            .debug("cusparselt")
            .into_iter()
            .find(|l| l.starts_with("cusparseLtGetProperty "))
            .unwrap_or_else(|| panic!("no version line: {stub}"))
            .to_owned();
        assert!(
            probe.starts_with(&format!(
                "cusparseLtGetProperty {}: PTX ISA {}.",
                wheel_version(major),
                major - 4
            )) && probe.ends_with(&format!(": CUDA {major}")),
            "{probe}"
        );
        assert_eq!(
            api_lines(&stub, "cusparseLt"),
            api_lines(&normal, "cusparseLt"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// The opaque structs a program allocates (`cusparseLtHandle_t`, the descriptors, the plan) are
/// 512 bytes aligned to 16 in both majors' headers: the stub forwards pointers to them untouched
/// (the library's own storage), which holds only while the two layouts agree.
#[test]
fn the_opaque_structs_are_alike_in_both_majors() {
    let sizes: Vec<Vec<String>> = majors()
        .into_iter()
        .map(|major| {
            let run = PROGRAM.run_normal(major);
            api_lines(&run, "cusparseLt sizeof")
                .into_iter()
                .map(str::to_owned)
                .collect()
        })
        .collect();
    for lines in &sizes {
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert!(
            lines.iter().all(|l| l.ends_with("=512 alignof=16")),
            "{lines:?}"
        );
    }
    assert!(sizes.windows(2).all(|w| w[0] == w[1]), "{sizes:?}");
}

/// With no cuSPARSELt anywhere, every call is the typed error, error texts are never NULL (the
/// enumerator's name, the places searched for the "no library" code), and the status says what
/// was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, CUSPARSELT.errors.no_library.value);
    for call in [
        "cusparseLtGetProperty(MAJOR_VERSION) rc=1 value=-1",
        "cusparseLtGetProperty(NULL) rc=1",
        "cusparseLtInit rc=1",
        "cusparseLtGetVersion rc=1 version=-1",
        "cusparseLtDenseDescriptorInit rc=1",
        "cusparseLtInit(NULL) rc=1",
        "cusparseLtGetErrorName(0) = CUSPARSE_STATUS_SUCCESS",
        "cusparseLtGetErrorName(10) = CUSPARSE_STATUS_NOT_SUPPORTED",
        "cusparseLtGetErrorString(3) = CUSPARSE_STATUS_INVALID_VALUE",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(call);
    }
    let searched = "cuda-stubs: libcusparselt not found (searched libcusparseLt.so.0";
    for text in [
        run.line("cusparseLtGetErrorString(1)"),
        run.line("status message"),
    ] {
        assert!(text.contains(searched), "{text:?}: {run}");
    }
    assert!(
        api_lines(&run, "cusparseLtGetError")
            .iter()
            .all(|l| !l.ends_with("= (null)")),
        "{run}"
    );
}

/// NVIDIA's CUDA 12 build beside a CUDA 13 runtime, and the CUDA 13 build beside a 12.9 one:
/// each is refused once its device code says its release (nothing before `dlopen` can: one
/// soname, no runtime in `DT_NEEDED`); every call is then the "no library" code and the status
/// names both releases.
#[test]
fn a_cusparselt_of_another_release_than_the_runtime_is_refused() {
    let majors = majors();
    if !stubs_tests::runs_with(majors == [12, 13], "cuSPARSELt of CUDA 12 and 13") {
        return;
    }
    for (runtime, library) in [(13, 12), (12, 13)] {
        let run = run_stub(runtime, Some(runtime), Some(library));
        run.assert_success();
        let soname = cuda_layout(runtime).cudart;
        let soname = soname.file_name().unwrap().to_string_lossy();
        let reason = format!(
            "CUDA {library}, but the process has CUDA {runtime} ({soname}): one CUDA release \
             per process"
        );
        run.assert_debug(
            "cusparselt",
            &format!(
                "try {} [{OVERRIDE}]: rejected: {reason}",
                PROGRAM.real(library).display()
            ),
        )
        .assert_line("cusparseLtGetProperty(MAJOR_VERSION) rc=1 value=-1")
        .assert_line(&format!("cusparseLtInit rc={NO_LIBRARY}"))
        .assert_line("status bound=0 version=0 found_by=(null)");
        assert!(run.line("status message").contains(&reason), "{run}");
    }
}

/// With no runtime mapped, cuSPARSELt's own search decides, and a runtime stub binding after it
/// takes its release from the mapped copy (the device code of the file `RTLD_NOLOAD` finds):
/// the CUDA 12 build bound first makes the runtime stub refuse 13.x's runtime.
#[test]
fn a_runtime_binding_after_takes_cusparselts_release() {
    if !stubs_tests::runs_with(majors() == [12, 13], "cuSPARSELt of CUDA 12 and 13") {
        return;
    }
    let after = stubs_tests::Scenario::new(PROGRAM.stub_program(13))
        .debug()
        .env(
            CUSPARSELT.real.env_path.to_str().expect("ASCII"),
            PROGRAM.real(12),
        )
        .env("CUDA_STUBS_CUDART_PATH", cuda_layout(13).cudart)
        .env("STUBS_TESTS_RUNTIME_AFTER", "1")
        .run();
    after
        .assert_success()
        .assert_bound("cusparselt", &PROGRAM.real(12), 12000, OVERRIDE)
        .assert_line("cusparseLtInit rc=1");
    let reason = "CUDA 13, but the process has CUDA 12 (libcusparseLt.so.0): one CUDA release per \
                  process";
    assert!(
        after
            .debug("cudart")
            .iter()
            .any(|l| l.ends_with(&format!("rejected: {reason}"))),
        "{after}"
    );
    assert!(
        after.line("runtime status bound=0").contains(reason),
        "{after}"
    );
}

//! nvJPEG2000 through `libstubs_nvjpeg2k.so`, on NVIDIA's real `libnvjpeg2k.so.0` of CUDA 11.8,
//! 12.9 and 13.x (the wheels `nvidia-nvjpeg2k-cu11` 0.9.0.43, `-cu12` and `-cu13` 0.11.0.51; no
//! GPU: what nvJPEG2000 answers without a driver) and on none, and the rule of one CUDA release
//! per process.
//!
//! `tests/c/nvjpeg2k_host.c` is compiled against each major's real `nvjpeg2k.h` twice: linked
//! only to the stubs, and linked normally to that major's `libnvjpeg2k.so.0`. Both builds must
//! print the same lines (nvJPEG2000's version and its runtime's, handle creation, host-side
//! objects, a truncated codestream's parse, a handle-less call). One soname and one version
//! (0.11.0) serve CUDA 12 and 13: the stub must report the runtime version
//! `nvjpeg2kGetCudartProperty` gives, and refuse a copy of another release by it.

use stub_model::libraries::NVJPEG2K;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, cuda_layout};

/// The stub's code for no library (of the process's release): `NVJPEG2K_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 1;
/// The stub's code for a function the loaded nvJPEG2000 lacks:
/// `NVJPEG2K_STATUS_IMPLEMENTATION_NOT_SUPPORTED`.
const ABSENT: i32 = 9;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NVJPEG2K,
    source: "c/nvjpeg2k_host.c",
    also_stubs: &["cudart"],
    // For `c-prelude/nvjpeg2k.h` (0.9's header names two enums by their tag alone).
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's nvJPEG2000.
fn majors() -> Vec<u32> {
    [11, 12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("nvjpeg2k"))
        .collect()
}

/// The stub build with the runtime and nvJPEG2000 of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, nvjpeg2k: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, nvjpeg2k, &[])
}

/// `name`'s value on the line `nvjpeg2kGet…Property(name) rc=0 value=N` of `run`.
fn property(run: &Outcome, function: &str, name: &str) -> i32 {
    let line = run.line(&format!("{function}({name})"));
    line.rsplit_once("rc=0 value=")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or_else(|| panic!("{line:?}: {run}"))
}

/// The runtime version `nvjpeg2kGetCudartProperty` answers in `run`, `1000 * major + 10 *
/// minor`.
fn cudart_version(run: &Outcome) -> i32 {
    let f = "nvjpeg2kGetCudartProperty";
    property(run, f, "MAJOR_VERSION") * 1000 + property(run, f, "MINOR_VERSION") * 10
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library at the version of the runtime it was built with.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in stubs_tests::variants(&majors(), 0) {
        let normal = PROGRAM.run_normal(major);
        let [own_major, own_minor, own_patch] = PROGRAM.wheel_version(major);
        let f = "nvjpeg2kGetProperty";
        assert_eq!(property(&normal, f, "MAJOR_VERSION"), own_major, "{normal}");
        assert_eq!(property(&normal, f, "MINOR_VERSION"), own_minor, "{normal}");
        assert_eq!(property(&normal, f, "PATCH_LEVEL"), own_patch, "{normal}");
        // A truncated codestream is the library's own "bad stream" answer.
        normal.assert_line("nvjpeg2kStreamParse(truncated, handle) rc=3");
        let version = cudart_version(&normal);
        assert_eq!(version / 1000, major as i32, "{normal}");

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("nvjpeg2k", &PROGRAM.real(major), version, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "nvjpeg2k"),
            api_lines(&normal, "nvjpeg2k"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// A program built against 0.9's header (CUDA 11) on 0.11 (CUDA 12): what 0.11 dropped
/// (`nvjpeg2kEncodeParamsSetQuality`) is the stub's "absent" code, never a jump through NULL;
/// one built against 0.11's on 0.9: what 0.9 lacks (`nvjpeg2kEncodeParamsSetNLTInfo`) is too.
/// The rest is the library's own answer.
#[test]
fn a_function_the_loaded_nvjpeg2k_lacks_is_absent() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&11) && all.contains(&12),
        "nvJPEG2000 of CUDA 11 and 12",
    ) {
        return;
    }
    let run = run_stub(11, Some(12), Some(12));
    run.assert_success()
        .assert_line(&format!(
            "nvjpeg2kEncodeParamsSetQuality (header 0.9) rc={ABSENT}"
        ))
        .assert_line("nvjpeg2kGetProperty(MINOR_VERSION) rc=0 value=11");
    assert!(
        run.debug("nvjpeg2k")
            .iter()
            .any(|l| l.starts_with("nvjpeg2kEncodeParamsSetQuality: absent")),
        "{run}"
    );
    let run = run_stub(12, Some(11), Some(11));
    run.assert_success()
        .assert_line(&format!(
            "nvjpeg2kEncodeParamsSetNLTInfo (header 0.11) rc={ABSENT}"
        ))
        .assert_line("nvjpeg2kGetProperty(MINOR_VERSION) rc=0 value=9");
    assert_eq!(ABSENT, NVJPEG2K.errors.absent.value);
}

/// With no nvJPEG2000 anywhere, every call is the typed error and the status says what was
/// searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, NVJPEG2K.errors.no_library.value);
    for line in [
        format!("nvjpeg2kGetProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"),
        format!("nvjpeg2kGetCudartProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"),
        format!("nvjpeg2kCreateSimple rc={NO_LIBRARY}"),
        format!("nvjpeg2kStreamCreate rc={NO_LIBRARY}"),
        format!("nvjpeg2kDecodeParamsCreate rc={NO_LIBRARY}"),
        format!("nvjpeg2kEncodeParamsCreate rc={NO_LIBRARY}"),
        format!("nvjpeg2kDecodeStateCreate(no handle) rc={NO_LIBRARY}"),
        format!("nvjpeg2kEncodeParamsSetNLTInfo (header 0.11) rc={NO_LIBRARY}"),
        "status bound=0 version=0 found_by=(null)".to_owned(),
    ] {
        run.assert_line(&line);
    }
    assert!(
        run.line("status message")
            .contains("libnvjpeg2k not found (searched libnvjpeg2k.so.0"),
        "{run}"
    );
}

/// NVIDIA's CUDA 12 build of nvJPEG2000 0.11.0 beside a 13.x runtime is refused once
/// `nvjpeg2kGetCudartProperty` says 12.9 (its own version, 0.11.0, is the CUDA 13 build's
/// too); every call is then the "no library" code and the status names both releases.
#[test]
fn a_cu12_nvjpeg2k_beside_a_13_runtime_is_refused_by_its_runtime_version() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "nvJPEG2000 of CUDA 12 and 13",
    ) {
        return;
    }
    let run = run_stub(13, Some(13), Some(12));
    run.assert_success();
    let reason = "CUDA 12, but the process has CUDA 13 (libcudart.so.13): one CUDA release \
                  per process";
    run.assert_debug(
        "nvjpeg2k",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(12).display()
        ),
    )
    .assert_line(&format!(
        "nvjpeg2kGetProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"
    ))
    .assert_line(&format!("nvjpeg2kCreateSimple rc={NO_LIBRARY}"))
    .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(run.line("status message").contains(reason), "{run}");
}

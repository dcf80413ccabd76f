//! nvTIFF through `libstubs_nvtiff.so`, on NVIDIA's real `libnvtiff.so.0` of CUDA 12 and 13 (the
//! wheels `nvidia-nvtiff-cu12` and `-cu13` 0.8.0.82; no GPU: what nvTIFF answers without a
//! driver) and on none, and the rule of one CUDA release per process.
//!
//! `tests/c/nvtiff_host.c` is compiled against each major's real `nvtiff.h` twice: linked only
//! to the stubs, and linked normally to that major's `libnvtiff.so.0`. Both builds must print
//! the same lines (nvTIFF's version, a tiny TIFF the program writes read on the host, decode
//! parameters, decoder creation, a stream-less call). Both majors' files are 0.8.0 under one
//! soname: the stub must report the release the file's device code says, and refuse a copy of
//! another release by it.

use stub_model::libraries::NVTIFF;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, cuda_layout};

/// The stub's code for no library (of the process's release): `NVTIFF_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 1;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NVTIFF,
    source: "c/nvtiff_host.c",
    also_stubs: &["cudart"],
    // For `c-prelude/nvtiff.h` (0.8's header names an enum by its tag alone).
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's nvTIFF.
fn majors() -> Vec<u32> {
    [12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("nvtiff"))
        .collect()
}

/// The stub build with the runtime and nvTIFF of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, nvtiff: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, nvtiff, &[])
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library at the release its device code says (`1000 * major`), while its own version is the
/// wheel's in both.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in stubs_tests::variants(&majors(), 0) {
        let normal = PROGRAM.run_normal(major);
        let [own_major, own_minor, own_patch] = PROGRAM.wheel_version(major);
        normal
            .assert_line(&format!(
                "nvtiffGetProperty(MAJOR_VERSION) rc=0 value={own_major}"
            ))
            .assert_line(&format!(
                "nvtiffGetProperty(MINOR_VERSION) rc=0 value={own_minor}"
            ))
            .assert_line(&format!(
                "nvtiffGetProperty(PATCH_LEVEL) rc=0 value={own_patch}"
            ))
            // The program's TIFF, read on the host.
            .assert_line("nvtiffStreamOpen rc=0")
            .assert_line("nvtiffStreamGetImageInfo rc=0 2x3 samples=1 bits=8 compression=1");

        let version = major as i32 * 1000;
        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("nvtiff", &PROGRAM.real(major), version, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "nvtiff"),
            api_lines(&normal, "nvtiff"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no nvTIFF anywhere, every call is the typed error and the status says what was
/// searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, NVTIFF.errors.no_library.value);
    for line in [
        format!("nvtiffGetProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"),
        format!("nvtiffStreamOpen rc={NO_LIBRARY}"),
        format!("nvtiffStreamOpen(not a TIFF) rc={NO_LIBRARY}"),
        format!("nvtiffDecodeParamsCreate rc={NO_LIBRARY}"),
        format!("nvtiffDecoderCreateSimple rc={NO_LIBRARY}"),
        format!("nvtiffStreamGetHeader(no stream) rc={NO_LIBRARY}"),
        "status bound=0 version=0 found_by=(null)".to_owned(),
    ] {
        run.assert_line(&line);
    }
    assert!(
        run.line("status message")
            .contains("libnvtiff not found (searched libnvtiff.so.0"),
        "{run}"
    );
}

/// NVIDIA's CUDA 12 build of nvTIFF 0.8.0 beside a 13.x runtime is refused once its device code
/// says CUDA 12 (its own version, 0.8.0, is the CUDA 13 build's too); every call is then the
/// "no library" code and the status names both releases.
#[test]
fn a_cu12_nvtiff_beside_a_13_runtime_is_refused_by_its_device_code() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "nvTIFF of CUDA 12 and 13",
    ) {
        return;
    }
    let run = run_stub(13, Some(13), Some(12));
    run.assert_success();
    let reason = "CUDA 12, but the process has CUDA 13 (libcudart.so.13): one CUDA release \
                  per process";
    run.assert_debug(
        "nvtiff",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(12).display()
        ),
    )
    .assert_line(&format!(
        "nvtiffGetProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"
    ))
    .assert_line(&format!("nvtiffStreamOpen rc={NO_LIBRARY}"))
    .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(run.line("status message").contains(reason), "{run}");
}

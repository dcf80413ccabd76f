//! nvJPEG through `libstubs_nvjpeg.so`, on NVIDIA's real libnvjpeg of CUDA 11.8, 12.9 and 13.x
//! (the wheels 11.9.0.86, 12.4.0.76, 13.2.3.58: `libnvjpeg.so.11`, `.12`, `.13`; no GPU: what
//! nvJPEG answers without a driver) and on none, and the rule of one CUDA release per process.
//!
//! `tests/c/nvjpeg_host.c` is compiled against each major's real `nvjpeg.h` twice: linked only to
//! the stubs, and linked normally to that major's libnvjpeg. Both builds must print the same
//! lines: nvJPEG's version and its runtime's, handle creation (simple, with the program's
//! allocators, with V2 allocators) failing with nvJPEG's own code, `nvjpegGetImageInfo` of a
//! tiny JPEG written by the program (`tests/c/tiny_jpeg.h`) on the handle it could not make, a
//! handle-less call. The stub reports the runtime version the real library gives. A function
//! the loaded nvJPEG lacks is the stub's "absent" code; a copy of another release than the
//! runtime the process uses is refused by its soname, before `dlopen`.

use stub_model::libraries::NVJPEG;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, cuda_layout};

const MAJORS: [u32; 3] = [11, 12, 13];
/// The stub's code for no library (of the process's release): `NVJPEG_STATUS_EXECUTION_FAILED`.
const NO_LIBRARY: i32 = 6;
/// The stub's code for a function the loaded nvJPEG lacks:
/// `NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED`.
const ABSENT: i32 = 9;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NVJPEG,
    source: "c/nvjpeg_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// The stub build of `header` with the runtime and nvJPEG of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, nvjpeg: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, nvjpeg, &[])
}

/// `name`'s value on the line `nvjpegGet…Property(name) rc=0 value=N` of `run`.
fn property(run: &Outcome, function: &str, name: &str) -> i32 {
    let line = run.line(&format!("{function}({name})"));
    line.rsplit_once("rc=0 value=")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or_else(|| panic!("{line:?}: {run}"))
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library with the version of the runtime it was built with, as it reports it directly.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = PROGRAM.run_normal(major);
        // nvJPEG's own version is the wheel's, its major CUDA's.
        let [own_major, own_minor, own_patch] = PROGRAM.wheel_version(major);
        assert_eq!(own_major, major as i32);
        normal
            .assert_line(&format!(
                "nvjpegGetProperty(MAJOR_VERSION) rc=0 value={own_major}"
            ))
            .assert_line(&format!(
                "nvjpegGetProperty(MINOR_VERSION) rc=0 value={own_minor}"
            ))
            .assert_line(&format!(
                "nvjpegGetProperty(PATCH_LEVEL) rc=0 value={own_patch}"
            ))
            // Without a GPU the real library makes no handle: its own code, the stub's "no
            // library" code.
            .assert_line(&format!("nvjpegCreateSimple rc={NO_LIBRARY}"))
            .assert_line(&format!("nvjpegCreateEx rc={NO_LIBRARY}"))
            .assert_line("nvjpeg allocator calls: none");
        let cudart = property(&normal, "nvjpegGetCudartProperty", "MAJOR_VERSION");
        assert_eq!(cudart, major as i32, "{normal}");
        let version =
            cudart * 1000 + property(&normal, "nvjpegGetCudartProperty", "MINOR_VERSION") * 10;

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("nvjpeg", &PROGRAM.real(major), version, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "nvjpeg"),
            api_lines(&normal, "nvjpeg"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// A program built against 13.x's header on 11.8's nvJPEG: what 11.x lacks
/// (`nvjpegJpegStreamGetSamplePrecision`, 12.0+) is the stub's "absent" code, never a jump
/// through NULL; one built against 11.8's on 13.x: what 13.x dropped
/// (`nvjpegEncoderParamsCopyHuffmanTables`) is too. The rest is the library's own answer.
#[test]
fn a_function_the_loaded_nvjpeg_lacks_is_absent() {
    let run = run_stub(13, Some(11), Some(11));
    run.assert_success()
        .assert_line(&format!(
            "nvjpegJpegStreamGetSamplePrecision (header 13) rc={ABSENT}"
        ))
        .assert_line("nvjpegGetProperty(MAJOR_VERSION) rc=0 value=11");
    let run = run_stub(11, Some(13), Some(13));
    run.assert_success()
        .assert_line(&format!(
            "nvjpegEncoderParamsCopyHuffmanTables (header 11) rc={ABSENT}"
        ))
        .assert_line("nvjpegGetProperty(MAJOR_VERSION) rc=0 value=13");
    assert!(
        run.debug("nvjpeg")
            .iter()
            .any(|l| l.starts_with("nvjpegEncoderParamsCopyHuffmanTables: absent in CUDA 13")),
        "{run}"
    );
    assert_eq!(ABSENT, NVJPEG.errors.absent.value);
}

/// With no nvJPEG anywhere, every call is the typed error and the status says what was
/// searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    for line in [
        format!("nvjpegGetProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"),
        format!("nvjpegGetCudartProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"),
        format!("nvjpegCreateSimple rc={NO_LIBRARY}"),
        format!("nvjpegCreateEx rc={NO_LIBRARY}"),
        format!("nvjpegCreateExV2 rc={NO_LIBRARY}"),
        format!("nvjpegJpegStreamCreate rc={NO_LIBRARY}"),
        format!("nvjpegGetDeviceMemoryPadding(NULL) rc={NO_LIBRARY}"),
        format!("nvjpegJpegStreamGetSamplePrecision (header 13) rc={NO_LIBRARY}"),
        "nvjpeg allocator calls: none".to_owned(),
        "status bound=0 version=0 found_by=(null)".to_owned(),
    ] {
        run.assert_line(&line);
    }
    assert!(
        run.line("nvjpegGetImageInfo")
            .starts_with(&format!("nvjpegGetImageInfo(NULL) rc={NO_LIBRARY} ")),
        "{run}"
    );
    assert!(
        run.line("status message").contains(
            "libnvjpeg not found (searched libnvjpeg.so.13, libnvjpeg.so.12, libnvjpeg.so.11"
        ),
        "{run}"
    );
    assert_eq!(NO_LIBRARY, NVJPEG.errors.no_library.value);
}

/// 13.x's `libnvjpeg.so.13` beside a runtime stub bound to 12.9 is refused by its soname, before
/// `dlopen` (its version is never asked); every call is then the "no library" code.
#[test]
fn a_13_nvjpeg_beside_a_12_runtime_is_refused_by_its_name() {
    let run = run_stub(13, Some(12), Some(13));
    run.assert_success();
    let reason =
        "CUDA 13, but the process has CUDA 12 (libcudart.so.12): one CUDA release per process";
    run.assert_debug(
        "nvjpeg",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(13).display()
        ),
    )
    .assert_line(&format!(
        "nvjpegGetProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"
    ))
    .assert_line(&format!("nvjpegCreateSimple rc={NO_LIBRARY}"));
    assert!(run.line("status message").contains(reason), "{run}");
    assert!(
        !run.debug("nvjpeg").iter().any(|l| l.starts_with("bound ")),
        "the refused library was never loaded: {run}"
    );
}

/// The runtime the program uses decides the release; the nvJPEG stub reads it from the process
/// (`RTLD_NOLOAD`) and never has the runtime stub search.
#[test]
fn the_runtime_the_program_uses_decides_the_release() {
    let major = 12;
    let run = run_stub(major, Some(major), Some(major));
    run.assert_success();
    let soname = cuda_layout(major).cudart;
    let soname = soname.file_name().unwrap().to_string_lossy();
    run.assert_debug(
        "nvjpeg",
        &format!("the process has CUDA {major} ({soname}): only that release is bound"),
    );
}

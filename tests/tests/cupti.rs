//! CUPTI through `libstubs_cupti.so`, on NVIDIA's real libcupti of CUDA 11.x (11.8.87), 12.x
//! (12.9.79) and 13.x (13.4.92) from the wheels (no GPU: what CUPTI answers without a driver)
//! and on none, and the rule of one CUDA release per process.
//!
//! `tests/c/cupti_host.c` is compiled against each major's real `cupti.h` twice: linked only to
//! the stubs, and linked normally to that major's libcupti. Both builds must print the same
//! lines (the API version, every status text, the no-driver answers of the activity, callback
//! and profiler calls). CUPTI 13.x without `libcuda.so.1` answers every call, `cuptiGetVersion`
//! and `cuptiGetResultString` included, CUPTI_ERROR_UNKNOWN and writes no text: the stub
//! forwards the code, and writes the headers' text where 13.4 wrote none (its texts are never
//! NULL; tests/gpu/cupti.sh compares 13.4's own texts on a GPU).

use stub_model::libraries::CUPTI;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, cuda_layout};

/// The stub's code for no library (of the process's release): CUPTI_ERROR_NOT_INITIALIZED.
const NO_LIBRARY: i32 = 15;
/// The stub's code for a function the loaded CUPTI lacks: CUPTI_ERROR_API_NOT_IMPLEMENTED.
const ABSENT: i32 = 11;
/// What CUPTI 13.x answers every call without a driver: CUPTI_ERROR_UNKNOWN.
const UNKNOWN: i32 = 999;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUPTI,
    source: "c/cupti_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// The majors whose layout has NVIDIA's CUPTI.
fn majors() -> Vec<u32> {
    [11, 12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("cupti"))
        .collect()
}

/// Whether the program makes the calls that set up CUPTI's connection to the driver: not under
/// an emulator, where NVIDIA's aarch64 CUPTI 11.8 and 12.9 spin in that setup forever (qemu-user;
/// natively they answer CUPTI_ERROR_NOT_INITIALIZED at once).
fn driver_calls() -> bool {
    stubs_tests::emulator().is_none()
}

/// The program's arguments: `no-driver-init` where [`driver_calls`] says so.
fn args() -> &'static [&'static str] {
    if driver_calls() {
        &[]
    } else {
        &["no-driver-init"]
    }
}

/// The stub build with the runtime and CUPTI of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, cupti: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cupti, args())
}

/// The normal build of `major`.
fn run_normal(major: u32) -> Outcome {
    PROGRAM.run_normal_with(major, args())
}

/// The `CUPTI_API_VERSION` the program's header of `run` defines.
fn header_version(run: &Outcome) -> u32 {
    let line = run.line("cupti header");
    let value = line.rsplit('=').next().expect("a value");
    value.parse().expect("a number")
}

/// The lines both builds print alike: the API calls, and with `codes` each text call's code
/// (13.4 without a driver answers them CUPTI_ERROR_UNKNOWN, where the stub writes the headers'
/// text and answers success: `cupti_13_without_a_driver_gets_the_headers_texts`).
fn compared(run: &Outcome, codes: bool) -> Vec<&str> {
    let mut lines = api_lines(run, "cupti");
    if codes {
        lines.extend(api_lines(run, "text ").into_iter().map(|l| {
            // The call and its code, without the text.
            let end = l.find(" rc=").map_or(l.len(), |at| {
                at + l[at + 1..].find(' ').map_or(l.len() - at, |sp| sp + 1)
            });
            &l[..end]
        }));
    }
    lines
}

/// The text lines of `run` whose call succeeded (rc=0): where the real library wrote its text.
/// Where it answered an error (a code 11.8 does not know though its header defines it, 36 and
/// 37; every code for 13.4 without a driver) the stub writes the headers' text instead, under
/// the real library's code (`compared`).
fn written_texts(run: &Outcome) -> Vec<&str> {
    api_lines(run, "text ")
        .into_iter()
        .filter(|l| l.contains(" rc=0 "))
        .collect()
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library: `cuptiGetVersion` through the stub is what the real library answers directly (its
/// header's `CUPTI_API_VERSION` where CUPTI answers without a driver: 11.8, 12.9).
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in majors() {
        let normal = run_normal(major);
        let header = header_version(&normal);
        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("cupti", &PROGRAM.real(major), major as i32 * 1000, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={} found_by={OVERRIDE}",
                major * 1000
            ));
        // What needs a driver: 11.8 and 12.9 cannot reach one (the stub's "no library" code
        // is theirs), 13.4 answers CUPTI_ERROR_UNKNOWN to everything.
        let no_driver = if major == 13 { UNKNOWN } else { NO_LIBRARY };
        if driver_calls() {
            normal
                .assert_line(&format!(
                    "cuptiActivityEnable(CONCURRENT_KERNEL) rc={no_driver}"
                ))
                .assert_line(&format!("cuptiSubscribe rc={no_driver}"))
                .assert_line(&format!("cuptiProfilerInitialize rc={no_driver}"));
        }
        normal.assert_line("cupti callbacks requested=0 completed=0 called=0");
        if major == 13 {
            normal.assert_line(&format!("cuptiGetVersion rc={UNKNOWN} version=0"));
            // The version is the soname's: 13.4 cannot say it here.
            assert!(
                !stub
                    .debug("cupti")
                    .iter()
                    .any(|l| l.starts_with("cuptiGetVersion")),
                "{stub}"
            );
        } else {
            normal
                .assert_line(&format!("cuptiGetVersion rc=0 version={header}"))
                .assert_line("text cuptiGetResultString(15) rc=0 CUPTI_ERROR_NOT_INITIALIZED");
            stub.assert_debug("cupti", &format!("cuptiGetVersion {header}: CUDA {major}"));
        }
        assert_eq!(
            compared(&stub, major != 13),
            compared(&normal, major != 13),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
        // Every text the real library wrote, the stub build got the same.
        let stub_texts = written_texts(&stub);
        for text in written_texts(&normal) {
            assert!(stub_texts.contains(&text), "{text}: stub:\n{stub}");
        }
        if major != 13 {
            assert!(written_texts(&normal).len() > 40, "{normal}");
        }
    }
}

/// CUPTI 13.4 without a driver writes no text: the stub writes the headers' (the enumerator's
/// name for `cuptiGetResultString`, the description for `cuptiGetErrorMessage`), never leaving
/// the pointer unset, and forwards every other call's code.
#[test]
fn cupti_13_without_a_driver_gets_the_headers_texts() {
    if !stubs_tests::runs_with(majors().contains(&13), "CUPTI of CUDA 13") {
        return;
    }
    let normal = run_normal(13);
    normal.assert_line(&format!(
        "text cuptiGetResultString(15) rc={UNKNOWN} (unset)"
    ));
    let stub = run_stub(13, Some(13), Some(13));
    stub.assert_success()
        .assert_line("text cuptiGetResultString(15) rc=0 CUPTI_ERROR_NOT_INITIALIZED")
        .assert_line("text cuptiGetResultString(999) rc=0 CUPTI_ERROR_UNKNOWN")
        .assert_line("text cuptiGetErrorMessage(11) rc=0 API is not implemented.");
    assert!(!stub.stdout.contains("(unset)"), "{stub}");
    assert!(!stub.stdout.contains("(null)"), "{stub}");
}

/// With no CUPTI anywhere, every call is the typed error, texts are never NULL (the places
/// searched for the "no library" code, the headers' text for another), and the status says
/// what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, CUPTI.errors.no_library.value);
    if driver_calls() {
        for call in [
            "cuptiActivityEnable(CONCURRENT_KERNEL) rc=15",
            "cuptiSubscribe rc=15",
            "cuptiActivityFlushAll rc=15",
            "cuptiProfilerInitialize rc=15",
        ] {
            run.assert_line(call);
        }
    }
    for call in [
        "cuptiGetVersion rc=15 version=0",
        "cuptiActivityRegisterCallbacks rc=15",
        "cuptiGetTimestamp rc=15 nonzero=0",
        "cuptiProfilerDeviceSupported (structSize 56) rc=15",
        "cuptiActivityEnable_v2 (header 13) rc=15",
        "cuptiRangeProfilerEnable (header 13, structSize 36) rc=15",
        // A NULL out-pointer: CUPTI_ERROR_INVALID_PARAMETER, as CUPTI answers.
        "cuptiGetResultString(NULL) rc=1",
        "text cuptiGetResultString(0) rc=0 CUPTI_SUCCESS",
        "text cuptiGetResultString(11) rc=0 CUPTI_ERROR_API_NOT_IMPLEMENTED",
        "text cuptiGetResultString(15) rc=0 CUPTI_ERROR_NOT_INITIALIZED",
        "text cuptiGetErrorMessage(0) rc=0 No error.",
        "text cuptiGetErrorMessage(1) rc=0 One or more of the parameters is invalid.",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(call);
    }
    let searched = "cuda-stubs: libcupti not found (searched libcupti.so.13, libcupti.so.12, \
                    libcupti.so.11.8";
    for text in [
        run.line("text cuptiGetErrorMessage(15)"),
        run.line("status message"),
    ] {
        assert!(text.contains(searched), "{text:?}: {run}");
    }
    assert!(!run.stdout.contains("(unset)"), "{run}");
}

/// A program built against CUPTI 13.4's headers on 12.9 and on 11.8 (each with its runtime):
/// a function the older CUPTI lacks is the typed "absent" error; a profiler call whose
/// self-sized structure grew is forwarded, and the older CUPTI checks the larger `structSize`
/// itself (CUPTI_ERROR_INVALID_PARAMETER), never reading it as its own layout.
#[test]
fn a_newer_header_on_an_older_cupti() {
    assert_eq!(ABSENT, CUPTI.errors.absent.value);
    if majors().contains(&12) {
        let run = run_stub(13, Some(12), Some(12));
        run.assert_success()
            .assert_bound("cupti", &PROGRAM.real(12), 12000, OVERRIDE)
            .assert_line(&format!("cuptiActivityEnable_v2 (header 13) rc={ABSENT}"))
            .assert_line("cuptiProfilerDeviceSupported (structSize 56) rc=1")
            .assert_line("cuptiRangeProfilerEnable (header 13, structSize 36) rc=1")
            .assert_line("cuptiGetVersion rc=0 version=28");
        run.assert_debug(
            "cupti",
            "cuptiActivityEnable_v2: absent in CUDA 12 (symbol majors 13, exported ABI majors 13)",
        );
    }
    if majors().contains(&11) {
        let run = run_stub(13, Some(11), Some(11));
        run.assert_success()
            .assert_bound("cupti", &PROGRAM.real(11), 11000, OVERRIDE)
            .assert_line(&format!("cuptiActivityEnable_v2 (header 13) rc={ABSENT}"))
            .assert_line(&format!(
                "cuptiRangeProfilerEnable (header 13, structSize 36) rc={ABSENT}"
            ))
            .assert_line("cuptiProfilerDeviceSupported (structSize 56) rc=1")
            .assert_line("cuptiGetVersion rc=0 version=18");
    }
}

/// 12.9's `libcupti.so.12` beside a 13.5 runtime is refused by its soname, before `dlopen`:
/// every call is then the "no library" code and the status names both releases.
#[test]
fn a_12_cupti_beside_a_13_runtime_is_refused_by_its_name() {
    if !stubs_tests::runs_with(majors().contains(&12), "CUPTI of CUDA 12") {
        return;
    }
    let run = run_stub(13, Some(13), Some(12));
    run.assert_success();
    let reason =
        "CUDA 12, but the process has CUDA 13 (libcudart.so.13): one CUDA release per process";
    run.assert_debug(
        "cupti",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(12).display()
        ),
    )
    .assert_line(&format!("cuptiGetVersion rc={NO_LIBRARY} version=0"))
    .assert_line(&format!("cuptiActivityRegisterCallbacks rc={NO_LIBRARY}"));
    assert!(run.line("status message").contains(reason), "{run}");
    assert!(
        !run.debug("cupti")
            .iter()
            .any(|l| l.starts_with("cuptiGetVersion")),
        "the refused library was never loaded: {run}"
    );
}

/// The runtime the program uses decides the release; CUPTI's stub reads it from the process
/// (`RTLD_NOLOAD`) and never has the runtime stub search.
#[test]
fn the_runtime_the_program_uses_decides_the_release() {
    let all = majors();
    let Some(&major) = all.first() else {
        stubs_tests::runs_with(false, "CUPTI");
        return;
    };
    let run = run_stub(major, Some(major), Some(major));
    run.assert_success();
    let cupti = run.debug("cupti");
    let soname = cuda_layout(major).cudart;
    let soname = soname.file_name().unwrap().to_string_lossy();
    assert!(
        cupti.contains(
            &format!("the process has CUDA {major} ({soname}): only that release is bound")
                .as_str()
        ),
        "{run}"
    );
    assert!(
        !cupti.iter().any(|l| l.contains("libstubs_cudart.so")),
        "{run}"
    );
}

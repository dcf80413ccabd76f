//! Perfworks through `libstubs_nvperf_host.so` and `libstubs_nvperf_target.so`, on NVIDIA's
//! real `libnvperf_host.so` and `libnvperf_target.so` of CUPTI 11.8, 12.9 and 13.4 (the CUPTI
//! wheels; no GPU needed: without one both initialise, count 0 devices and the host library
//! lists its chips) and on none, and the rule of one CUDA release per process.
//!
//! `tests/c/nvperf_host.c` and `tests/c/nvperf_target.c` are compiled against each major's real
//! headers twice: linked only to the stub, and linked normally to that major's library. Both
//! builds must print the same lines: the release `NVPW_QueryVersionNumber` answers for the SDK's
//! API set, the error path of an unknown API set, the initialisations, the device count, the
//! chips, the codes' texts (the header's). Both libraries are named the same in every major:
//! the stub reads the release from `NVPW_QueryVersionNumber` once the copy is loaded.

use stub_model::Library;
use stub_model::libraries::{NVPERF_HOST, NVPERF_TARGET};
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, cuda_layout};

/// The stubs' code for no library (of the process's release): `NVPA_STATUS_NOT_LOADED`.
const NO_LIBRARY: i32 = 4;
const OVERRIDE: &str = "environment override";

/// The programs of both libraries, each with the runtime stub used first (the process's
/// release).
const PROGRAMS: [TwoBuilds; 2] = [
    TwoBuilds {
        library: &NVPERF_HOST,
        source: "c/nvperf_host.c",
        also_stubs: &["cudart"],
        nv_target_shim: false,
    },
    TwoBuilds {
        library: &NVPERF_TARGET,
        source: "c/nvperf_target.c",
        also_stubs: &["cudart"],
        nv_target_shim: false,
    },
];

/// The majors whose layout has both of NVIDIA's libraries.
fn majors() -> Vec<u32> {
    [11, 12, 13]
        .into_iter()
        .filter(|&m| {
            let libraries = &cuda_layout(m).libraries;
            libraries.contains_key("nvperf_host") && libraries.contains_key("nvperf_target")
        })
        .collect()
}

/// The release each test wheel's Perfworks answers (`None`: 11.8's does not know the SDK's API
/// set), and the CUDA version the stub records for it (0: release unknown).
fn release(major: u32) -> (Option<&'static str>, i32) {
    match major {
        11 => (None, 0),
        12 => (Some("2025.2.0"), 12000),
        _ => (Some("2026.3.1"), 13000),
    }
}

/// The debug line of the version probe of `major`'s copy.
fn probe_line(major: u32) -> String {
    match release(major) {
        (Some(r), v) => format!("NVPW_QueryVersionNumber release {r}: CUDA {}", v / 1000),
        (None, _) => "NVPW_QueryVersionNumber does not answer: no release".to_owned(),
    }
}

/// The lines both builds print: every call's.
fn calls(run: &Outcome) -> Vec<&str> {
    ["NVPW_", "text "]
        .into_iter()
        .flat_map(|prefix| api_lines(run, prefix))
        .collect()
}

/// Asserts the stub's status says nothing is bound (each call it answered counts as missing).
fn assert_unbound(run: &Outcome) {
    assert!(
        run.line("status bound")
            .starts_with("status bound=0 version=0 found_by=(null) missing="),
        "{run}"
    );
}

/// On every major, each stub build prints what the normal build prints and binds the real
/// library at the release `NVPW_QueryVersionNumber` says (11.8's: bound, release unknown).
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    let all = majors();
    if !stubs_tests::runs_with(!all.is_empty(), "Perfworks") {
        return;
    }
    for major in stubs_tests::variants(&all, 0) {
        let (answer, version) = release(major);
        for program in PROGRAMS {
            let name = program.library.name();
            let normal = program.run_normal(major);
            normal
                .assert_line("NVPW_QueryVersionNumber unknown-api-set rc=8 release=0.0.0")
                .assert_line("NVPW_InitializeTarget rc=0")
                .assert_line("NVPW_GetDeviceCount rc=0 devices=0")
                .assert_line(&format!("mapped lib{name}.so=1"));
            if let Some(r) = answer {
                normal.assert_line(&format!("NVPW_QueryVersionNumber sdk rc=0 release={r}"));
            }
            let stub = program.run_stub(major, Some(major), Some(major), &[]);
            stub.assert_success()
                .assert_bound(name, &program.real(major), version, OVERRIDE)
                .assert_debug(name, &probe_line(major))
                .assert_line(&format!(
                    "status bound=1 version={version} found_by={OVERRIDE} missing=0"
                ));
            assert_eq!(
                calls(&stub),
                calls(&normal),
                "stub:\n{stub}\nnormal:\n{normal}"
            );
        }
    }
}

/// The host library's own calls: it initialises and lists the chips it can configure without a
/// GPU (39 in 11.8, 28 in 12.9, 31 in 13.4, GA100 in each), and the header's texts of the
/// stub's codes are NVIDIA's names (12.x and 13.x: 11.8's header has no text function).
#[test]
fn the_host_library_lists_its_chips() {
    let all = majors();
    if !stubs_tests::runs_with(!all.is_empty(), "Perfworks") {
        return;
    }
    let host = PROGRAMS[0];
    for major in stubs_tests::variants(&all, 1) {
        let chips = match major {
            11 => 39,
            12 => 28,
            _ => 31,
        };
        let run = host.run_stub(major, Some(major), Some(major), &[]);
        run.assert_success()
            .assert_line("NVPW_InitializeHost rc=0")
            .assert_line(&format!(
                "NVPW_GetSupportedChipNames rc=0 chips={chips} GA100=1"
            ));
        if major >= 12 {
            run.assert_line("text 4 = NVPA_STATUS_NOT_LOADED")
                .assert_line("text 5 = NVPA_STATUS_FUNCTION_NOT_FOUND")
                .assert_line("text 8 = NVPA_STATUS_INVALID_ARGUMENT");
        }
    }
}

/// With no Perfworks anywhere, every call of either stub is the typed error
/// (`NVPA_STATUS_NOT_LOADED`, whose header text says so) and the status says what was
/// searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let all = majors();
    if !stubs_tests::runs_with(all.contains(&13), "Perfworks of CUDA 13") {
        return;
    }
    for program in PROGRAMS {
        let library: &Library = program.library;
        assert_eq!(NO_LIBRARY, library.errors.no_library.value);
        let name = library.name();
        let run = program.run_stub(13, None, None, &[]);
        run.assert_success();
        for line in [
            "NVPW_QueryVersionNumber sdk rc=4 release=0.0.0",
            "NVPW_QueryVersionNumber unknown-api-set rc=4 release=0.0.0",
            "NVPW_InitializeTarget rc=4",
            "NVPW_GetDeviceCount rc=4 devices=99",
            &format!("mapped lib{name}.so=0"),
        ] {
            run.assert_line(line);
        }
        assert_unbound(&run);
        if library.name() == "nvperf_host" {
            run.assert_line("NVPW_InitializeHost rc=4")
                .assert_line("NVPW_GetSupportedChipNames rc=4 chips=0 GA100=0")
                .assert_line("text 4 = NVPA_STATUS_NOT_LOADED");
        }
        let searched = format!("cuda-stubs: lib{name} not found (searched lib{name}.so");
        assert!(run.line("status message").contains(&searched), "{run}");
    }
}

/// A copy of another release than the process's runtime is refused once loaded (its name says
/// no release; `NVPW_QueryVersionNumber` does, so the refused copy stays mapped, never called):
/// every call is then the "no library" code and the status names both releases.
#[test]
fn a_copy_of_another_release_is_refused() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "Perfworks of CUDA 12 and 13",
    ) {
        return;
    }
    for program in PROGRAMS {
        for (process, copy) in [(13, 12), (12, 13)] {
            let name = program.library.name();
            let run = program.run_stub(process, Some(process), Some(copy), &[]);
            let reason = format!(
                "CUDA {copy}, but the process has CUDA {process} (libcudart.so.{process}): one \
                 CUDA release per process"
            );
            run.assert_success()
                .assert_debug(name, &probe_line(copy))
                .assert_debug(
                    name,
                    &format!(
                        "try {} [{OVERRIDE}]: rejected: {reason}",
                        program.real(copy).display()
                    ),
                )
                .assert_line(&format!("NVPW_InitializeTarget rc={NO_LIBRARY}"))
                .assert_line(&format!("mapped lib{name}.so=1"));
            assert_unbound(&run);
            assert!(run.line("status message").contains(&reason), "{run}");
        }
    }
}

/// Perfworks belongs with the CUPTI that loads it: in a process that has NVIDIA's CUPTI of one
/// release mapped (here preloaded, no runtime), a Perfworks of another release is refused, and
/// one of the same release is bound.
#[test]
fn the_release_of_the_process_cupti_decides() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "Perfworks of CUDA 12 and 13",
    ) {
        return;
    }
    for program in PROGRAMS {
        let name = program.library.name();
        let var = program.library.real.env_path.to_str().expect("ASCII name");
        for (cupti, copy) in [(12, 13), (13, 12), (13, 13)] {
            let libcupti = &cuda_layout(cupti).libraries["cupti"];
            let run = Scenario::new(program.stub_program(13))
                .debug()
                .env("LD_PRELOAD", libcupti)
                .env(var, program.real(copy))
                .run();
            run.assert_success().assert_debug(name, &probe_line(copy));
            if cupti == copy {
                let version = release(copy).1;
                run.assert_bound(name, &program.real(copy), version, OVERRIDE)
                    .assert_line("NVPW_InitializeTarget rc=0");
            } else {
                let reason = format!(
                    "CUDA {copy}, but the process has CUDA {cupti} (libcupti.so.{cupti}): one \
                     CUDA release per process"
                );
                run.assert_line(&format!("NVPW_InitializeTarget rc={NO_LIBRARY}"));
                assert!(run.line("status message").contains(&reason), "{run}");
                assert_unbound(&run);
            }
        }
    }
}

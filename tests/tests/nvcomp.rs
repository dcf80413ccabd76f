//! nvCOMP through `libstubs_nvcomp.so`, on NVIDIA's real `libnvcomp.so.5` of CUDA 11.8
//! (`nvidia-nvcomp-cu11` 5.0.0.6) and `libnvcomp.so.6` of 12.9 and 13.x (`nvidia-libnvcomp-cu12`
//! and `-cu13` 6.0.0.12; no GPU: what nvCOMP answers without a driver) and on none, and the
//! rule of one CUDA release per process.
//!
//! `tests/c/nvcomp_host.c` is compiled against each major's real `nvcomp.h` and `nvcomp/lz4.h`
//! twice: linked only to the stubs, and linked normally to that major's nvCOMP. Both builds
//! must print the same lines (the properties, LZ4's host-side sizes, a compression without a
//! device, 6.x's status texts). One soname and one version (6.0.0) serve CUDA 12 and 13: the
//! stub must report the runtime version `nvcompGetProperties` gives, and refuse a copy of
//! another release by it; 5.x's soname is CUDA 11's only, another ABI.

use stub_model::libraries::NVCOMP;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, cuda_layout};

/// The stub's code for no library (of the process's release): `nvcompErrorInternal`.
const NO_LIBRARY: i32 = 10000;
/// The stub's code for a function the loaded nvCOMP lacks: `nvcompErrorNotSupported`.
const ABSENT: i32 = 11;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NVCOMP,
    source: "c/nvcomp_host.c",
    also_stubs: &["cudart"],
    // For `nvcomp_export.h` and `nvcomp/version.h`, which 5.0.0.6's `nvcomp.h` includes and its
    // wheel lacks (codegen's shims).
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's nvCOMP.
fn majors() -> Vec<u32> {
    [11, 12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("nvcomp"))
        .collect()
}

/// The stub build with the runtime and nvCOMP of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, nvcomp: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, nvcomp, &[])
}

/// `name=N` of `run`'s `nvcompGetProperties` line.
fn property(run: &Outcome, name: &str) -> i32 {
    let line = run.line("nvcompGetProperties rc=0");
    line.split(' ')
        .find_map(|field| field.strip_prefix(&format!("{name}=")))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{line:?}: {run}"))
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library at the version of the runtime it was built with.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in stubs_tests::variants(&majors(), 0) {
        let normal = PROGRAM.run_normal(major);
        // nvCOMP's own version, `1000 * major + 100 * minor + patch` (5000, 6000).
        let [own_major, own_minor, own_patch] = PROGRAM.wheel_version(major);
        assert_eq!(
            property(&normal, "version"),
            own_major * 1000 + own_minor * 100 + own_patch,
            "{normal}"
        );
        // Host-side sizes need no device: the library's own numbers.
        normal.assert_line("nvcompBatchedLZ4CompressGetMaxOutputChunkSize(65536) rc=0 bytes=65800");
        let version = property(&normal, "cudart_version");
        assert_eq!(version / 1000, major as i32, "{normal}");

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("nvcomp", &PROGRAM.real(major), version, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "nvcomp"),
            api_lines(&normal, "nvcomp"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// A program built against 5.0's header (CUDA 11) is refused 6.0's copy by its runtime: each
/// header's calls reach only the library of its own ABI. On the library of the other ABI, a
/// program built against 6.0's header (CUDA 12) on 5.0 (a CUDA 11 process): 6.0's
/// `nvcompBatchedLZ4CompressGetTempSize` is the stub's "absent" code, never a jump through
/// NULL, and `nvcompGetStatusString`, which 5.0 lacks, answers the enumerator's name (the
/// header documents no code); one built
/// against 5.0's on 6.0 (CUDA 12): 5.x's `nvcompBatchedLZ4CompressGetTempSizeAsync` is too.
#[test]
fn a_function_the_loaded_nvcomp_lacks_is_absent() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&11) && all.contains(&12),
        "nvCOMP of CUDA 11 and 12",
    ) {
        return;
    }
    let run = run_stub(12, Some(11), Some(11));
    run.assert_success()
        .assert_line(&format!(
            "nvcompBatchedLZ4CompressGetTempSize (header 6) rc={ABSENT} bytes=0"
        ))
        .assert_line("nvcompGetProperties rc=0 version=5000 cudart_version=11080")
        .assert_line("nvcompGetStatusString(10000)=nvcompErrorInternal");
    assert!(
        run.debug("nvcomp")
            .iter()
            .any(|l| l.starts_with("nvcompBatchedLZ4CompressGetTempSize: absent")),
        "{run}"
    );
    let run = run_stub(11, Some(12), Some(12));
    run.assert_success()
        .assert_line(&format!(
            "nvcompBatchedLZ4CompressGetTempSizeAsync (header 5) rc={ABSENT} bytes=0"
        ))
        .assert_line("nvcompGetProperties rc=0 version=6000 cudart_version=12090");
    assert_eq!(ABSENT, NVCOMP.errors.absent.value);
}

/// With no nvCOMP anywhere, every call is the typed error, the status texts are the
/// enumerators' names (the header documents no code) and, for the stub's own code, the
/// search's summary, which the status also says.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, NVCOMP.errors.no_library.value);
    for line in [
        format!("nvcompGetProperties rc={NO_LIBRARY} version=0 cudart_version=0"),
        format!("nvcompBatchedLZ4CompressGetMaxOutputChunkSize(65536) rc={NO_LIBRARY} bytes=0"),
        format!(
            "nvcompBatchedLZ4CompressGetRequiredAlignments rc={NO_LIBRARY} input=0 output=0 temp=0"
        ),
        format!("nvcompBatchedLZ4CompressGetTempSize (header 6) rc={NO_LIBRARY} bytes=0"),
        format!("nvcompBatchedLZ4CompressAsync(no device) rc={NO_LIBRARY}"),
        "nvcompGetStatusString(11)=nvcompErrorNotSupported".to_owned(),
        "status bound=0 version=0 found_by=(null)".to_owned(),
    ] {
        run.assert_line(&line);
    }
    let summary = "cuda-stubs: libnvcomp not found (searched libnvcomp.so.6, libnvcomp.so.5:";
    assert!(run.line("status message").contains(summary), "{run}");
    // The stub's own "no library" code is described by the search's summary.
    let text = format!("nvcompGetStatusString({NO_LIBRARY})={summary}");
    assert!(run.stdout.lines().any(|l| l.starts_with(&text)), "{run}");
}

/// NVIDIA's CUDA 12 build of nvCOMP 6.0.0 beside a 13.x runtime is refused once
/// `nvcompGetProperties` says 12.9 (its own version, 6.0.0, is the CUDA 13 build's too); every
/// call is then the "no library" code and the status names both releases.
#[test]
fn a_cu12_nvcomp_beside_a_13_runtime_is_refused_by_its_runtime_version() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "nvCOMP of CUDA 12 and 13",
    ) {
        return;
    }
    let run = run_stub(13, Some(13), Some(12));
    run.assert_success();
    let reason = "CUDA 12, but the process has CUDA 13 (libcudart.so.13): one CUDA release \
                  per process";
    run.assert_debug(
        "nvcomp",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(12).display()
        ),
    )
    .assert_line(&format!(
        "nvcompGetProperties rc={NO_LIBRARY} version=0 cudart_version=0"
    ))
    .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(run.line("status message").contains(reason), "{run}");
}

/// `libnvcomp.so.5` in a CUDA 12 process is refused by its soname before `dlopen` (5.x's ABI is
/// the stub's CUDA 11 one): its debug line says so.
#[test]
fn nvcomp_5_in_a_cuda_12_process_is_refused_by_its_soname() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&11) && all.contains(&12),
        "nvCOMP of CUDA 11 and 12",
    ) {
        return;
    }
    let run = run_stub(12, Some(12), Some(11));
    run.assert_success()
        .assert_line(&format!(
            "nvcompGetProperties rc={NO_LIBRARY} version=0 cudart_version=0"
        ))
        .assert_line("status bound=0 version=0 found_by=(null)");
    let real = PROGRAM.real(11);
    let tried = run
        .debug("nvcomp")
        .into_iter()
        .find(|l| l.starts_with(&format!("try {}", real.display())))
        .unwrap_or_else(|| panic!("no try line: {run}"));
    assert!(tried.contains("rejected: CUDA 11"), "{tried}");
}

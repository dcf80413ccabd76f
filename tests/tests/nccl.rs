//! NCCL through `libstubs_nccl.so`, on NVIDIA's real libnccl of CUDA 11.x (2.21.5), 12.x and
//! 13.x (2.32.3) from the wheels (no GPU: what NCCL answers without a driver) and on none, and
//! the rule of one CUDA release per process.
//!
//! `tests/c/nccl_host.c` is compiled against each major's real `nccl.h` twice: linked only to
//! the stubs, and linked normally to that major's `libnccl.so.2`. Both builds must print the
//! same lines (the version through both names, every error string, a unique id, the no-driver
//! answers of communicator creation and memory, the last error's text); the stub build must
//! report the CUDA version the real file says it was built for (`+cuda12.9` in its version
//! string), which is all that tells NVIDIA's CUDA 12 and CUDA 13 builds of NCCL 2.32.3 apart:
//! one of another release than the process's runtime is refused by it. Majors without an NCCL
//! wheel for the machine (aarch64 has no `nvidia-nccl-cu11`) are skipped.

use stub_model::libraries::NCCL;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, cuda_layout};

/// The stub's code for no library (of the process's release): `ncclUnhandledCudaError`.
const NO_LIBRARY: i32 = 1;
/// The stub's code for a function the loaded NCCL lacks: `ncclInvalidUsage`.
const ABSENT: i32 = 5;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NCCL,
    source: "c/nccl_host.c",
    also_stubs: &["cudart"],
    // nccl.h includes cuda_fp16.h, which includes CCCL's <nv/target>.
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's NCCL (all three on x86-64; 12 and 13 on aarch64).
fn majors() -> Vec<u32> {
    [11, 12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("nccl"))
        .collect()
}

/// `nvidia-nccl-cu12==2.32.3` → 23203: `NCCL_VERSION_CODE` of the spec's test wheel.
fn wheel_version(major: u32) -> i32 {
    let [major, minor, patch] = PROGRAM.wheel_version(major);
    major * 10000 + minor * 100 + patch
}

/// The CUDA version the real file of `major` says it was built for, read here from the file
/// itself (the `+cuda<major>.<minor>` of NCCL's version string): 13.4 → 13040.
fn built_for(major: u32) -> i32 {
    let file = std::fs::read(PROGRAM.real(major)).expect("the real libnccl");
    let at = file
        .windows(5)
        .position(|w| w == b"+cuda")
        .expect("a version string")
        + 5;
    let text: String = file[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit() || **b == b'.')
        .map(|&b| char::from(b))
        .collect();
    let (cuda_major, minor) = text.split_once('.').expect("major.minor");
    let version = cuda_major.parse::<i32>().unwrap() * 1000 + minor.parse::<i32>().unwrap() * 10;
    assert_eq!(version / 1000, major as i32, "the cu{major} wheel's NCCL");
    version
}

/// The stub build with the runtime and NCCL of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, nccl: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, nccl, &[])
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library reporting the CUDA version its file was built for.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in majors() {
        let normal = PROGRAM.run_normal(major);
        let own = wheel_version(major);
        normal
            .assert_line(&format!("ncclGetVersion rc=0 version={own}"))
            .assert_line(&format!("ncclGetVersion (pnccl) rc=0 version={own}"))
            .assert_line("ncclGetUniqueId rc=0")
            // No driver: NCCL's own "no CUDA" answer, the stub's "no library" code.
            .assert_line(&format!("ncclCommInitRank rc={NO_LIBRARY}"))
            .assert_line(
                "ncclGetErrorString(5) = invalid usage (run with NCCL_DEBUG=WARN for details)",
            );

        let cuda = built_for(major);
        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("nccl", &PROGRAM.real(major), cuda, OVERRIDE)
            .assert_debug(
                "nccl",
                &format!(
                    "ncclGetVersion {own}: built for CUDA {}.{}",
                    cuda / 1000,
                    cuda % 1000 / 10
                ),
            )
            .assert_line(&format!(
                "status bound=1 version={cuda} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "nccl"),
            api_lines(&normal, "nccl"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no NCCL anywhere, every call is the typed error, error strings are never NULL (the
/// places searched for the "no library" code, the enumerator's name for another), and the
/// status says what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    for call in [
        "ncclGetVersion rc=1 version=0",
        "ncclGetVersion (pnccl) rc=1 version=0",
        "ncclGetUniqueId rc=1",
        "ncclCommInitRank rc=1",
        "ncclCommInitAll rc=1",
        "ncclMemAlloc rc=1",
        "ncclGroupStart rc=1",
        "ncclCommInitRankConfig (header 23203) rc=1",
        "ncclCommSuspend (header 23203) rc=1",
        "ncclGetErrorString(0) = ncclSuccess",
        "ncclGetErrorString(5) = ncclInvalidUsage",
        "ncclGetErrorString (pnccl, 5) = ncclInvalidUsage",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(call);
    }
    assert_eq!(NO_LIBRARY, NCCL.errors.no_library.value);
    let searched = "cuda-stubs: libnccl not found (searched libnccl.so.2";
    for text in [
        run.line("ncclGetErrorString(1)"),
        run.line("ncclGetLastError before"),
        run.line("ncclGetLastError(NULL)"),
        run.line("ncclGetLastError (pnccl)"),
        run.line("status message"),
    ] {
        assert!(text.contains(searched), "{text:?}: {run}");
    }
    assert!(
        run.line("ncclGetErrorString(9)")
            .starts_with("ncclGetErrorString(9) = "),
        "{run}"
    );
    assert!(!run.stdout.contains("(null)]"), "{run}");
}

/// A program built against NCCL 2.32's header on 2.21.5 (CUDA 11): a function 2.21.5 lacks is
/// the typed "absent" error; `ncclCommInitRankConfig` with 2.32's larger `ncclConfig_t` is
/// forwarded (NCCL reads `config->size` and copies no more than it knows) and answers what
/// 2.21.5 answers without a driver.
#[test]
fn a_newer_header_on_an_older_nccl() {
    if !stubs_tests::runs_with(majors().contains(&11), "NCCL of CUDA 11") {
        return;
    }
    let run = run_stub(13, Some(11), Some(11));
    run.assert_success()
        .assert_bound("nccl", &PROGRAM.real(11), built_for(11), OVERRIDE)
        .assert_line(&format!("ncclCommSuspend (header 23203) rc={ABSENT}"))
        .assert_line(&format!(
            "ncclCommInitRankConfig (header 23203) rc={NO_LIBRARY}"
        ))
        .assert_line(&format!(
            "ncclGetVersion rc=0 version={}",
            wheel_version(11)
        ));
    assert_eq!(ABSENT, NCCL.errors.absent.value);
}

/// NVIDIA's CUDA 12 build of NCCL 2.32.3 beside a 13.5 runtime is refused once its file says
/// CUDA 12.9 (its `ncclGetVersion`, 23203, is the CUDA 13 build's too); every call is then the
/// "no library" code and the status names both releases.
#[test]
fn a_cu12_nccl_beside_a_13_runtime_is_refused_by_its_version_string() {
    if !stubs_tests::runs_with(majors().contains(&12), "NCCL of CUDA 12") {
        return;
    }
    let run = run_stub(13, Some(13), Some(12));
    run.assert_success();
    let cuda = built_for(12);
    let reason = "CUDA 12, but the process has CUDA 13 (libcudart.so.13): one CUDA release \
                  per process";
    run.assert_debug(
        "nccl",
        &format!(
            "ncclGetVersion {}: built for CUDA {}.{}",
            wheel_version(12),
            cuda / 1000,
            cuda % 1000 / 10
        ),
    )
    .assert_debug(
        "nccl",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(12).display()
        ),
    )
    .assert_line("ncclGetVersion rc=1 version=0")
    .assert_line("ncclCommInitRank rc=1");
    assert!(run.line("status message").contains(reason), "{run}");
}

/// The runtime the program uses decides the release; NCCL's stub reads it from the process
/// (`RTLD_NOLOAD`) and never has the runtime stub search.
#[test]
fn the_runtime_the_program_uses_decides_the_release() {
    let Some(&major) = majors().last() else {
        stubs_tests::runs_with(false, "NCCL");
        return;
    };
    let run = run_stub(major, Some(major), Some(major));
    run.assert_success();
    let nccl = run.debug("nccl");
    let soname = cuda_layout(major).cudart;
    let soname = soname.file_name().unwrap().to_string_lossy();
    assert!(
        nccl.contains(
            &format!("the process has CUDA {major} ({soname}): only that release is bound")
                .as_str()
        ),
        "{run}"
    );
    assert!(
        !nccl.iter().any(|l| l.contains("libstubs_cudart.so")),
        "{run}"
    );
}

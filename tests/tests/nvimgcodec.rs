//! nvImageCodec through `libstubs_nvimgcodec.so`, on NVIDIA's real `libnvimgcodec.so.0` of CUDA
//! 11.8, 12.9 and 13.x (the wheels `nvidia-nvimgcodec-cu11` 0.6.1.37, `-cu12` and `-cu13`
//! 0.9.0.20, the library and headers only: no codec extension; no GPU) and on none, and the rule
//! of one CUDA release per process.
//!
//! `tests/c/nvimgcodec_host.c` is compiled against each major's real `nvimgcodec.h` twice: linked
//! only to the stubs, and linked normally to that major's `libnvimgcodec.so.0`. Both builds must
//! print the same lines (the properties, an instance, a CPU-only decoder). One soname and one
//! version (0.9.0) serve CUDA 12 and 13: the stub must report the runtime version
//! `nvimgcodecGetProperties` gives (a self-describing struct the stub's probe fills), and refuse
//! a copy of another release by it. 0.7 changed the code-stream calls' prototypes and structs:
//! the stub's exports have 0.9's, and it refuses them on 0.6.1 (CUDA 11) as absent.

use stub_model::libraries::NVIMGCODEC;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, cuda_layout};

/// The stub's code for no library (of the process's release): `NVIMGCODEC_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 1;
/// The stub's code for a function the loaded nvImageCodec lacks, or has with another ABI:
/// `NVIMGCODEC_STATUS_IMPLEMENTATION_UNSUPPORTED`.
const ABSENT: i32 = 9;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NVIMGCODEC,
    source: "c/nvimgcodec_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// The majors whose layout has NVIDIA's nvImageCodec.
fn majors() -> Vec<u32> {
    [11, 12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("nvimgcodec"))
        .collect()
}

/// The stub build with the runtime and nvImageCodec of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, nvimgcodec: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, nvimgcodec, &[])
}

/// `name=N` of `run`'s `nvimgcodecGetProperties` line.
fn property(run: &Outcome, name: &str) -> i32 {
    let line = run.line("nvimgcodecGetProperties rc=0");
    line.split(' ')
        .find_map(|field| field.strip_prefix(&format!("{name}=")))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{line:?}: {run}"))
}

/// The code-stream line of `run` (0.7 changed that call's prototype).
fn code_stream(run: &Outcome) -> &str {
    run.line("codestream nvimgcodecCodeStreamCreateFromHostMem")
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library at the version of the runtime it was built with; on 0.6.1 (CUDA 11) the code-stream
/// call, whose ABI 0.7 changed, is refused as absent where the normal build makes it.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in stubs_tests::variants(&majors(), 0) {
        let normal = PROGRAM.run_normal(major);
        // nvImageCodec's own version, `1000 * major + 100 * minor + patch` (601, 900).
        let [own_major, own_minor, own_patch] = PROGRAM.wheel_version(major);
        assert_eq!(
            property(&normal, "version"),
            own_major * 1000 + own_minor * 100 + own_patch,
            "{normal}"
        );
        // An instance and a CPU-only decoder need no device.
        normal
            .assert_line("nvimgcodecInstanceCreate rc=0 instance=set")
            .assert_line("nvimgcodecDecoderCreate(cpu only) rc=0 decoder=set");
        let version = property(&normal, "cudart_version");
        assert_eq!(version / 1000, major as i32, "{normal}");

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("nvimgcodec", &PROGRAM.real(major), version, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "nvimgcodec"),
            api_lines(&normal, "nvimgcodec"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
        if major == 11 {
            assert!(code_stream(&normal).ends_with(" rc=0"), "{normal}");
            assert!(
                code_stream(&stub).ends_with(&format!(" rc={ABSENT}")),
                "{stub}"
            );
            assert!(
                stub.debug("nvimgcodec").iter().any(|l| l.starts_with(
                    "nvimgcodecCodeStreamCreateFromHostMem: ABI differs: refused in CUDA 11"
                )),
                "{stub}"
            );
        } else {
            assert_eq!(code_stream(&stub), code_stream(&normal), "{stub}");
        }
    }
}

/// A program built against 0.9's header (CUDA 12) in a CUDA 11 process, on 0.6.1: the calls
/// whose ABI 0.7 changed are the "absent" code, the others reach 0.6.1.
#[test]
fn a_call_of_another_abi_is_absent() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&11) && all.contains(&12),
        "nvImageCodec of CUDA 11 and 12",
    ) {
        return;
    }
    let run = run_stub(12, Some(11), Some(11));
    run.assert_success()
        .assert_line(&format!(
            "codestream nvimgcodecCodeStreamCreateFromHostMem (header 0.9) rc={ABSENT}"
        ))
        .assert_line("nvimgcodecGetProperties rc=0 version=601 cudart_version=11080")
        .assert_line("nvimgcodecInstanceCreate rc=0 instance=set");
    assert_eq!(ABSENT, NVIMGCODEC.errors.absent.value);
}

/// With no nvImageCodec anywhere, every call is the typed error and the status says what was
/// searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, NVIMGCODEC.errors.no_library.value);
    for line in [
        format!("nvimgcodecGetProperties rc={NO_LIBRARY} version=0 cudart_version=0"),
        format!("nvimgcodecInstanceCreate rc={NO_LIBRARY} instance=NULL"),
        format!("nvimgcodecDecoderCreate(cpu only) rc={NO_LIBRARY} decoder=NULL"),
        format!("codestream nvimgcodecCodeStreamCreateFromHostMem (header 0.9) rc={NO_LIBRARY}"),
        format!("nvimgcodecInstanceDestroy(NULL) rc={NO_LIBRARY}"),
        "status bound=0 version=0 found_by=(null)".to_owned(),
    ] {
        run.assert_line(&line);
    }
    assert!(
        run.line("status message")
            .contains("libnvimgcodec not found (searched libnvimgcodec.so.0:"),
        "{run}"
    );
}

/// NVIDIA's CUDA 12 build of nvImageCodec 0.9.0 beside a 13.x runtime is refused once
/// `nvimgcodecGetProperties` says 12.9 (its own version, 0.9.0, is the CUDA 13 build's too);
/// every call is then the "no library" code and the status names both releases.
#[test]
fn a_cu12_nvimgcodec_beside_a_13_runtime_is_refused_by_its_runtime_version() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "nvImageCodec of CUDA 12 and 13",
    ) {
        return;
    }
    let run = run_stub(13, Some(13), Some(12));
    run.assert_success();
    let reason = "CUDA 12, but the process has CUDA 13 (libcudart.so.13): one CUDA release \
                  per process";
    run.assert_debug(
        "nvimgcodec",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(12).display()
        ),
    )
    .assert_line(&format!(
        "nvimgcodecGetProperties rc={NO_LIBRARY} version=0 cudart_version=0"
    ))
    .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(run.line("status message").contains(reason), "{run}");
}

//! NVTX 2 through `libstubs_nvtx.so`, on NVIDIA's real `libnvToolsExt.so.1` of CUDA 11.8 and
//! 12.8 (the wheels `nvidia-nvtx-cu11` 11.8.86 and `-cu12` 12.8.90, its last release: 12.9 and
//! 13.x ship NVTX 3, header-only, and no such library) and on none.
//!
//! `tests/c/nvtx_host.c` is compiled against each major's real `nvToolsExt.h` twice: linked
//! only to the stub, and linked normally to that major's library. NVTX does nothing unless a
//! tool is injected, so the proof that calls reach NVIDIA's library is a tool of our own,
//! `tests/c/nvtx_tool.c`, which NVIDIA's library loads from `NVTX_INJECTION64_PATH` and which
//! prints each call with its arguments and answers nesting levels and range ids: both builds
//! must print the same lines with it and without it. With no library, the stub must answer what
//! NVIDIA's library answers with no tool (-2 for pushes and pops, range id 0, NULL handles), as
//! the spec's typed errors say.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stub_model::libraries::NVTX;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, compile_c, cuda_include_args, cuda_layout};

/// The majors with NVIDIA's `libnvToolsExt.so.1` (the spec's test wheels).
const MAJORS: [u32; 2] = [11, 12];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NVTX,
    source: "c/nvtx_host.c",
    also_stubs: &[],
    nv_target_shim: false,
};

/// The real libnvToolsExt.so.1 of `major`.
fn real(major: u32) -> PathBuf {
    PROGRAM.real(major)
}

/// `tests/c/nvtx_tool.c` as a shared library, built against 12.8's NVTX 3 headers (the export
/// table it uses is the same in every NVTX 2 library), once per test process.
fn tool() -> &'static Path {
    static TOOL: OnceLock<PathBuf> = OnceLock::new();
    TOOL.get_or_init(|| {
        let mut args: Vec<OsString> = cuda_include_args(12);
        args.extend(["-shared".into(), "-fPIC".into()]);
        let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        let file = compile_c("nvtx-tool.so", &[Path::new("c/nvtx_tool.c")], &refs);
        assert!(file.is_file());
        file
    })
}

/// The stub build of `major`'s headers with NVIDIA's library of `library`'s major (`None`: no
/// library) and, with `with_tool`, the tool injected.
fn run_stub(major: u32, library: Option<u32>, with_tool: bool) -> Outcome {
    let mut s = Scenario::new(PROGRAM.stub_program(major)).debug();
    if let Some(m) = library {
        s = s.env("CUDA_STUBS_NVTX_PATH", real(m));
    }
    if with_tool {
        s = s.env("NVTX_INJECTION64_PATH", tool());
    }
    let run = s.run();
    run.assert_success();
    run
}

/// The normal build of `major`, linked to NVIDIA's library, with or without the tool.
fn run_normal(major: u32, with_tool: bool) -> Outcome {
    let mut s = Scenario::new(PROGRAM.normal_program(major))
        .linked_normally()
        .library_path([PROGRAM.real_dir(major)]);
    if with_tool {
        s = s.env("NVTX_INJECTION64_PATH", tool());
    }
    let run = s.run();
    run.assert_success();
    run
}

/// What both builds print: the calls' lines and the tool's.
fn calls(run: &Outcome) -> Vec<&str> {
    let mut lines = api_lines(run, "nvtx");
    lines.extend(api_lines(run, "tool"));
    lines
}

/// On each major, with the tool injected, the stub build prints what the normal build prints:
/// every call reached NVIDIA's library and through it the tool, with the program's arguments,
/// and the tool's answers (levels, ids) came back. The stub binds the library with version 0:
/// NVTX has no CUDA release to report.
#[test]
fn each_major_reaches_an_injected_tool_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = run_normal(major, true);
        normal
            .assert_line("tool attached")
            .assert_line("tool push outer")
            .assert_line("tool mark a marker")
            .assert_line("tool start a range")
            .assert_line("nvtxRangeStartA id=100")
            .assert_line("tool end 100")
            .assert_line("tool name thread 1234 main");
        assert_eq!(
            api_lines(&normal, "nvtxRangePushA"),
            ["nvtxRangePushA rc=0", "nvtxRangePushA rc=1"],
            "{normal}"
        );

        let stub = run_stub(major, Some(major), true);
        stub.assert_bound("nvtx", &real(major), 0, OVERRIDE)
            .assert_line(&format!("status bound=1 version=0 found_by={OVERRIDE}"));
        assert_eq!(
            calls(&stub),
            calls(&normal),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// Without a tool, NVIDIA's library answers "not tracked" (-2) to pushes and pops, range id 0
/// and NULL handles; the stub build on it prints the same.
#[test]
fn without_a_tool_the_stub_answers_as_nvidias_library() {
    for major in MAJORS {
        let normal = run_normal(major, false);
        normal
            .assert_line("nvtxRangePushA rc=-2")
            .assert_line("nvtxRangePop rc=-2")
            .assert_line("nvtxRangeStartA id=0")
            .assert_line("nvtxDomainCreateA null")
            .assert_line("nvtxDomainRangePushEx rc=-2");
        let stub = run_stub(major, Some(major), false);
        stub.assert_bound("nvtx", &real(major), 0, OVERRIDE);
        assert_eq!(
            calls(&stub),
            calls(&normal),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no NVTX anywhere, every call answers what NVIDIA's library answers with no tool: the
/// pushes and pops the spec's typed error, `NVTX_NO_PUSH_POP_TRACKING` (-2), never 0 ("pushed
/// at level 0"); range ids 0; handles NULL; and the tool is never loaded (it is NVIDIA's
/// library that loads it). The status says what was searched.
#[test]
fn without_a_library_every_call_answers_as_with_no_tool() {
    assert_eq!(NVTX.errors.no_library.value, -2);
    assert_eq!(NVTX.errors.no_library.name, "NVTX_NO_PUSH_POP_TRACKING");
    for major in MAJORS {
        let normal = run_normal(major, false);
        let stub = run_stub(major, None, true);
        assert_eq!(
            calls(&stub),
            calls(&normal),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
        assert!(!stub.stdout.contains("tool attached"), "{stub}");
        stub.assert_line("status bound=0 version=0 found_by=(null)");
        let message = stub.line("status message");
        assert!(
            message.contains("libnvtx not found (searched libnvToolsExt.so.1"),
            "{stub}"
        );
    }
}

/// NVTX's release is its own: the 11.8 library binds in a program built with 12.8's headers
/// whose process has CUDA 13's runtime mapped (preloaded: NVTX links no CUDA library, and the
/// spec names no release rule, where cuRAND's stub would refuse an 11.8 copy), and its calls
/// reach the tool.
#[test]
fn any_release_binds_beside_any_runtime() {
    let cudart = cuda_layout(13).cudart;
    let run = Scenario::new(PROGRAM.stub_program(12))
        .debug()
        .env("CUDA_STUBS_NVTX_PATH", real(11))
        .env("LD_PRELOAD", &cudart)
        .env("NVTX_INJECTION64_PATH", tool())
        .run();
    run.assert_success()
        .assert_bound("nvtx", &real(11), 0, OVERRIDE)
        .assert_line("nvtxRangePushA rc=0")
        .assert_line("tool push outer");
    assert!(
        !run.debug("nvtx")
            .iter()
            .any(|l| l.contains("one CUDA release")),
        "{run}"
    );
}

//! cuDNN 9 through `libstubs_cudnn.so`, on NVIDIA's real front library `libcudnn.so.9` of CUDA
//! 11.x (9.10.2), 12.x and 13.x (9.27.0) from the wheels (no GPU: what cuDNN answers without a
//! driver) and on none, the rule of one CUDA release per process, and a copy without the graph
//! sub-library every call of it needs.
//!
//! The tests' layout holds what `scripts/fetch-cuda.py` reads out of each wheel: the front
//! library, `libcudnn_graph.so.9` beside it (the spec's lazy dependency) and the headers; the
//! other sub-libraries (ops, cnn, adv, engines: hundreds of MB) are absent, as in an
//! installation without them, which 9.27 answers with
//! `CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE` and 9.10.2 with `abort()`.
//!
//! `tests/c/cudnn_host.c` is compiled against each major's real `cudnn.h` twice: linked only to
//! the stubs, and linked normally to that major's `libcudnn.so.9`. Both builds must print the
//! same lines (the versions, every error string, the properties, the no-driver answer of
//! `cudnnCreate` and the last error's text, a backend descriptor); the stub build must report
//! the CUDA version the real library says it was built with (`cudnnGetCudartVersion`), which is
//! all that tells NVIDIA's CUDA 12 and CUDA 13 builds of cuDNN 9.27.0 apart: one of another
//! release than the process's runtime is refused by it. Majors without a cuDNN wheel for the
//! machine (aarch64 has no `nvidia-cudnn-cu11`) are skipped.

use stub_model::libraries::CUDNN;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, cuda_layout, temp_dir};

/// The stub's code for no library (of the process's release): `CUDNN_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 1001;
/// The stub's code for a function the loaded cuDNN lacks:
/// `CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH`.
const ABSENT: i32 = 1002;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUDNN,
    source: "c/cudnn_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// The majors whose layout has NVIDIA's cuDNN (all three on x86-64; 12 and 13 on aarch64).
fn majors() -> Vec<u32> {
    [11, 12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("cudnn"))
        .collect()
}

/// `nvidia-cudnn-cu12==9.27.0.42` → 92700: `CUDNN_VERSION` of the spec's test wheel.
fn wheel_version(major: u32) -> usize {
    let [major, minor, patch] = PROGRAM.wheel_version(major);
    usize::try_from(major * 10000 + minor * 100 + patch).expect("a version")
}

/// The program's arguments on `major`: `ops` (a function of `libcudnn_ops.so.9`, absent from
/// the layout) where the real library answers that without aborting (9.27, not 9.10.2).
fn args(major: u32) -> &'static [&'static str] {
    if major == 11 { &[] } else { &["ops"] }
}

/// The normal build of `major`, run with its library's folder on `LD_LIBRARY_PATH`: NVIDIA's
/// library asked directly. Asserted to exit 0.
fn run_normal(major: u32) -> Outcome {
    let run = Scenario::new(PROGRAM.normal_program(major))
        .linked_normally()
        .library_path([PROGRAM.real_dir(major)])
        .args(args(major))
        .run();
    run.assert_success();
    run
}

/// The number the normal build printed for `what` (`cudnnGetCudartVersion = 12090`).
fn printed(run: &Outcome, what: &str) -> usize {
    let line = run.line(what);
    line.rsplit(' ')
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("a number in {line:?}: {run}"))
}

/// The stub build with the runtime and cuDNN of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, cudnn: Option<u32>, args: &[&str]) -> Outcome {
    PROGRAM.run_stub(header, cudart, cudnn, args)
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library reporting the CUDA version it says it was built with, having loaded its graph
/// sub-library first.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in majors() {
        let normal = run_normal(major);
        let own = wheel_version(major);
        normal
            .assert_line(&format!("cudnnGetVersion = {own}"))
            .assert_line(&format!("cudnnCreate rc={NO_LIBRARY} handle=NULL"))
            .assert_line("cudnnGetErrorString(1001) = CUDNN_STATUS_NOT_INITIALIZED")
            .assert_line("cudnnGetErrorString(1002) = CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH")
            .assert_line("cudnnBackendCreateDescriptor rc=0 descriptor=set");
        // What the real library itself says it was built with (`cudnnGetCudartVersion`), of
        // the wheel's CUDA major.
        let cuda = printed(&normal, "cudnnGetCudartVersion");
        assert_eq!(cuda / 1000, major as usize, "{normal}");
        let cuda = i32::try_from(cuda).expect("a version");

        let real = PROGRAM.real(major);
        let graph = PROGRAM.real_dir(major).join("libcudnn_graph.so.9");
        let stub = run_stub(major, Some(major), Some(major), args(major));
        stub.assert_success()
            .assert_debug("cudnn", &format!("loaded {}", graph.display()))
            .assert_debug("cudnn", &format!("cudnnGetCudartVersion {cuda}"))
            .assert_bound("cudnn", &real, cuda, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={cuda} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "cudnn"),
            api_lines(&normal, "cudnn"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no cuDNN anywhere, every call is the typed error (0 for the versions), error strings
/// are never NULL (the enumerator's name, as cuDNN's; a text naming an unknown code), the last
/// error's text is the places searched (at every read: nothing clears it), and the status says
/// what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None, &["ops"]);
    run.assert_success();
    for call in [
        "cudnnGetVersion = 0",
        "cudnnGetCudartVersion = 0",
        "cudnnGetMaxDeviceVersion = 0",
        "cudnnGetProperty(0) rc=1001 value=-1",
        "cudnnGraphVersionCheck rc=1001",
        "cudnnCreate rc=1001 handle=NULL",
        "cudnnDestroy(NULL) rc=1001",
        "cudnnBackendCreateDescriptor rc=1001 descriptor=NULL",
        "cudnnGetExecutionPlanWorkspaceSize (header 92700) rc=1001",
        "cudnnCreateTensorDescriptor rc=1001",
        "cudnnGetErrorString(0) = CUDNN_STATUS_SUCCESS",
        "cudnnGetErrorString(1002) = CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH",
        "cudnnGetErrorString(2001) = CUDNN_STATUS_INVALID_VALUE",
        "cudnnGetErrorString(3009) = CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE",
        "cudnnGetLastErrorString size 0 = [xyz]",
        "cudnnGetLastErrorString size 1 = []",
        "cudnnGetLastErrorString NULL returned",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(call);
    }
    assert_eq!(NO_LIBRARY, CUDNN.errors.no_library.value);
    let searched = "cuda-stubs: libcudnn not found (searched libcudnn.so.9";
    // cuDNN's error strings are the enumerators' names; the last error's text says why.
    run.assert_line("cudnnGetErrorString(1001) = CUDNN_STATUS_NOT_INITIALIZED");
    for text in [
        run.line("cudnnGetLastErrorString before"),
        run.line("cudnnGetLastErrorString after cudnnCreate"),
        run.line("cudnnGetLastErrorString again"),
        run.line("status message"),
    ] {
        assert!(text.contains(searched), "{text:?}: {run}");
    }
    assert!(
        run.line("cudnnGetErrorString(7)")
            .starts_with("cudnnGetErrorString(7) = "),
        "{run}"
    );
    assert!(!run.stdout.contains("= (null)"), "{run}");
}

/// A program built against cuDNN 9.27's header on 9.10.2 (CUDA 11): a function 9.10.2 lacks is
/// the typed "absent" error (the real front library would abort), the others answer as 9.10.2
/// does.
#[test]
fn a_newer_header_on_an_older_cudnn() {
    if !stubs_tests::runs_with(majors().contains(&11), "cuDNN of CUDA 11") {
        return;
    }
    let built_with = printed(&run_normal(11), "cudnnGetCudartVersion");
    let run = run_stub(13, Some(11), Some(11), &[]);
    run.assert_success()
        .assert_bound(
            "cudnn",
            &PROGRAM.real(11),
            i32::try_from(built_with).expect("a version"),
            OVERRIDE,
        )
        .assert_line(&format!(
            "cudnnGetExecutionPlanWorkspaceSize (header 92700) rc={ABSENT}"
        ))
        .assert_line(&format!("cudnnGetVersion = {}", wheel_version(11)))
        .assert_line(&format!("cudnnCreate rc={NO_LIBRARY} handle=NULL"));
    assert_eq!(ABSENT, CUDNN.errors.absent.value);
}

/// NVIDIA's CUDA 12 build of cuDNN 9.27.0 beside a 13.5 runtime is refused once its
/// `cudnnGetCudartVersion` says CUDA 12 (its `cudnnGetVersion`, 92700, is the CUDA 13 build's
/// too); nothing else of it is called: every call is the "no library" code, and the status
/// names both releases.
#[test]
fn a_cu12_cudnn_beside_a_13_runtime_is_refused_by_its_runtime_version() {
    if !stubs_tests::runs_with(majors().contains(&12), "cuDNN of CUDA 12") {
        return;
    }
    let built_with = printed(&run_normal(12), "cudnnGetCudartVersion");
    let run = run_stub(13, Some(13), Some(12), &[]);
    run.assert_success();
    let reason = "CUDA 12, but the process has CUDA 13 (libcudart.so.13): one CUDA release \
                  per process";
    run.assert_debug("cudnn", &format!("cudnnGetCudartVersion {built_with}"))
        .assert_debug(
            "cudnn",
            &format!(
                "try {} [{OVERRIDE}]: rejected: {reason}",
                PROGRAM.real(12).display()
            ),
        )
        .assert_line("cudnnGetVersion = 0")
        .assert_line(&format!("cudnnCreate rc={NO_LIBRARY} handle=NULL"))
        .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(run.line("status message").contains(reason), "{run}");
    assert!(
        run.line("cudnnGetLastErrorString before").contains(reason),
        "{run}"
    );
}

/// A front library without `libcudnn_graph.so.9` beside it (nor loaded, nor on the loader's
/// path): linked normally, its first call aborts the process; through the stub it is rejected
/// before anything of it is called, and every call is the "no library" code with the reason in
/// the status. The copy stays mapped: the runtime stub searching afterwards does not ask it for
/// its release either, and binds.
#[test]
fn a_copy_without_its_graph_sub_library_is_refused_not_called() {
    let all = majors();
    let Some(&major) = all.last() else {
        stubs_tests::runs_with(false, "cuDNN");
        return;
    };
    let dir = temp_dir("cudnn-front-only");
    let front = dir.join("libcudnn.so.9");
    std::fs::copy(PROGRAM.real(major), &front).expect("copy the front library");

    let normal = Scenario::new(PROGRAM.normal_program(major))
        .linked_normally()
        .library_path([&dir])
        .run();
    assert!(!normal.status.success(), "NVIDIA's library alone: {normal}");
    assert!(
        normal.stderr.contains("Cannot load symbol cudnnGetVersion"),
        "{normal}"
    );

    // The runtime's first call comes after cuDNN's: its stub reads the release of the cuDNN
    // the process has mapped, the rejected copy, which must not be asked either.
    let runtime = cuda_layout(major);
    let run = Scenario::new(PROGRAM.stub_program(major))
        .debug()
        .env("CUDA_STUBS_CUDNN_PATH", &front)
        .env("CUDA_STUBS_CUDART_PATH", &runtime.cudart)
        .args(["runtime"])
        .run();
    run.assert_success().assert_line(&format!(
        "cudaRuntimeGetVersion rc=0 version={}",
        runtime.version_code()
    ));
    let reason = "cannot load libcudnn_graph.so.9, which it loads at its first call and aborts \
                  without";
    let tried = format!("try {} [{OVERRIDE}]: rejected: {reason}", front.display());
    assert!(
        run.debug("cudnn").iter().any(|l| l.starts_with(&tried)),
        "{run}"
    );
    run.assert_line("cudnnGetVersion = 0")
        .assert_line(&format!("cudnnCreate rc={NO_LIBRARY} handle=NULL"))
        .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(run.line("status message").contains(reason), "{run}");
    assert!(!run.stderr.contains("Cannot load symbol"), "{run}");
}

/// A candidate rejected for its release leaves its graph sub-library loaded (nothing is ever
/// unloaded), and a later candidate's own `dlopen` of `libcudnn_graph.so.9` would get that copy
/// (the loader matches the loaded soname first): such a candidate is refused with the reason,
/// never bound to another release's sub-library. The same candidate alone binds.
#[test]
fn a_later_copy_is_refused_when_another_graph_sub_library_is_loaded() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "cuDNN of CUDA 12 and 13",
    ) {
        return;
    }
    // A Python environment holding the CUDA 13 build (its front library and graph beside it).
    let venv = temp_dir("cudnn-venv");
    let lib = venv.join("lib/python3.11/site-packages/nvidia/cudnn/lib");
    std::fs::create_dir_all(&lib).expect("create the wheel folder");
    for name in ["libcudnn.so.9", "libcudnn_graph.so.9"] {
        std::os::unix::fs::symlink(PROGRAM.real_dir(13).join(name), lib.join(name))
            .expect("link the CUDA 13 build");
    }
    let front = lib.join("libcudnn.so.9");
    let in_venv = "wheel layout in the Python environment";
    let scenario = |cudnn: Option<u32>| {
        let mut s = Scenario::new(PROGRAM.stub_program(13))
            .debug()
            .env("CUDA_STUBS_CUDART_PATH", cuda_layout(13).cudart)
            .env("STUBS_TESTS_RUNTIME_FIRST", "1")
            .env("VIRTUAL_ENV", &venv);
        if let Some(m) = cudnn {
            s = s.env("CUDA_STUBS_CUDNN_PATH", PROGRAM.real(m));
        }
        s.run()
    };

    let alone = scenario(None);
    alone.assert_success();
    assert!(
        alone
            .bound("cudnn")
            .starts_with(&format!("bound {} (version 13", front.display())),
        "{alone}"
    );

    let run = scenario(Some(12));
    run.assert_success();
    let foreign = format!(
        "the process has another libcudnn_graph.so.9 loaded ({}), which it would use instead \
         of its own",
        PROGRAM.real_dir(12).join("libcudnn_graph.so.9").display()
    );
    run.assert_debug(
        "cudnn",
        &format!(
            "try {} [{OVERRIDE}]: rejected: CUDA 12, but the process has CUDA 13 \
             (libcudart.so.13): one CUDA release per process",
            PROGRAM.real(12).display()
        ),
    )
    .assert_debug(
        "cudnn",
        &format!("try {} [{in_venv}]: rejected: {foreign}", front.display()),
    )
    .assert_line("cudnnGetVersion = 0")
    .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(run.line("status message").contains(&foreign), "{run}");
}

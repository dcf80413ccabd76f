//! cuDSS through `libstubs_cudss.so`, on NVIDIA's real `libcudss.so.1` of CUDA 12 and 13 (the
//! wheels `nvidia-cudss-cu12` and `-cu13` 1.0.0.35; no GPU: what cuDSS answers without a
//! driver) and on none, the rule of one CUDA release per process, and a cuDSS without the
//! cuBLAS it needs.
//!
//! `tests/c/cudss_host.c` is compiled against each major's real `cudss.h` twice: linked only to
//! the stubs, and linked normally to that major's `libcudss.so.1`. Both builds must print the
//! same lines (cuDSS's version, host-side configurations and matrix wrappers, the logger,
//! `cudssCreate`'s no-GPU answer, handle-less calls). Both majors' files are 1.0.0 under one
//! soname: the stub must report the release of the cuBLAS the file needs, and refuse a copy
//! whose `DT_NEEDED` names another major's cuBLAS before `dlopen`.

use stub_model::libraries::CUDSS;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, cuda_layout, temp_dir};

/// The stub's code for no library (of the process's release): `CUDSS_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 1;
/// What the real `cudssCreate` answers without a GPU: `CUDSS_STATUS_EXECUTION_FAILED`.
const NO_GPU: i32 = 5;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUDSS,
    source: "c/cudss_host.c",
    also_stubs: &["cudart"],
    // cudss.h includes cuda_runtime.h, whose cuda_fp16.h includes CCCL's <nv/target>.
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's cuDSS.
fn majors() -> Vec<u32> {
    [12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("cudss"))
        .collect()
}

/// The stub build with the runtime and cuDSS of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, cudss: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cudss, &[])
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library at the release of the cuBLAS it needs (`1000 * major`: its `DT_NEEDED` says the major
/// only), while its own version is the wheel's in both.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in stubs_tests::variants(&majors(), 0) {
        let normal = PROGRAM.run_normal(major);
        let [own_major, own_minor, own_patch] = PROGRAM.wheel_version(major);
        normal
            .assert_line(&format!(
                "cudssGetProperty(MAJOR_VERSION) rc=0 value={own_major}"
            ))
            .assert_line(&format!(
                "cudssGetProperty(MINOR_VERSION) rc=0 value={own_minor}"
            ))
            .assert_line(&format!(
                "cudssGetProperty(PATCH_LEVEL) rc=0 value={own_patch}"
            ))
            // Host-side objects work without a GPU.
            .assert_line("cudssConfigCreate rc=0")
            .assert_line("cudssMatrixCreateDn rc=0")
            .assert_line("cudssMatrixCreateCsr rc=0")
            // Without a GPU cuDSS makes no handle, and says so with its own code.
            .assert_line(&format!("cudssCreate rc={NO_GPU}"));

        let version = major as i32 * 1000;
        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("cudss", &PROGRAM.real(major), version, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "cudss"),
            api_lines(&normal, "cudss"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no cuDSS anywhere, every call is the typed error and the status says what was
/// searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, CUDSS.errors.no_library.value);
    for line in [
        format!("cudssGetProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"),
        format!("cudssGetProperty(PATCH_LEVEL) rc={NO_LIBRARY} value=-1"),
        format!("cudssConfigCreate rc={NO_LIBRARY}"),
        format!("cudssMatrixCreateDn rc={NO_LIBRARY}"),
        format!("cudssMatrixCreateCsr rc={NO_LIBRARY}"),
        format!("cudssLoggerSetLevel rc={NO_LIBRARY}"),
        format!("cudssCreate rc={NO_LIBRARY}"),
        format!("cudssDataCreate(no handle) rc={NO_LIBRARY}"),
        format!("cudssSetStream(no handle) rc={NO_LIBRARY}"),
        "status bound=0 version=0 found_by=(null)".to_owned(),
    ] {
        run.assert_line(&line);
    }
    assert!(
        run.line("status message")
            .contains("libcudss not found (searched libcudss.so.1"),
        "{run}"
    );
}

/// NVIDIA's CUDA 12 build of cuDSS 1.0.0 beside a 13.x runtime is refused before `dlopen`: its
/// `DT_NEEDED` names `libcublas.so.12` (its version, 1.0.0, is the CUDA 13 build's too); every
/// call is then the "no library" code and the status names both releases.
#[test]
fn a_cu12_cudss_beside_a_13_runtime_is_refused_before_dlopen() {
    if !stubs_tests::runs_with(
        majors().contains(&12) && majors().contains(&13),
        "cuDSS of CUDA 12 and 13",
    ) {
        return;
    }
    let run = run_stub(13, Some(13), Some(12));
    run.assert_success();
    let reason = "CUDA 12 (needs libcublas.so.12), but the process has CUDA 13 \
                  (libcudart.so.13): one CUDA release per process";
    run.assert_debug(
        "cudss",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(12).display()
        ),
    )
    .assert_line(&format!(
        "cudssGetProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"
    ))
    .assert_line(&format!("cudssCreate rc={NO_LIBRARY}"))
    .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(run.line("status message").contains(reason), "{run}");
    assert!(
        !run.debug("cudss").iter().any(|l| l.starts_with("bound ")),
        "the refused library was never loaded: {run}"
    );
}

/// A cuDSS installed without its cuBLAS (the wheel alone, `pip install --no-deps`): its
/// `DT_NEEDED libcublas.so.<major>` is nowhere to be found, so linked normally the program does
/// not start, and through the stub the copy is rejected with the dynamic loader's reason, which
/// names the missing library, in the status; every call is the "no library" code.
#[test]
fn a_cudss_without_its_cublas_is_the_typed_error_naming_it() {
    let Some(&major) = majors().last() else {
        stubs_tests::runs_with(false, "cuDSS");
        return;
    };
    // The file alone in a folder of its own (a link: 170 to 300 MB), where its RUNPATH
    // (`$ORIGIN`, `$ORIGIN/../../cublas/lib`) finds no cuBLAS.
    let dir = temp_dir("cudss-alone");
    let alone = dir.join("libcudss.so.1");
    std::os::unix::fs::symlink(PROGRAM.real(major), &alone).expect("link the library");
    let missing = format!("libcublas.so.{major}");

    let normal = Scenario::new(PROGRAM.normal_program(major))
        .linked_normally()
        .library_path([&dir])
        .run();
    assert!(!normal.status.success(), "NVIDIA's library alone: {normal}");
    assert!(normal.stderr.contains(&missing), "{normal}");

    let run = Scenario::new(PROGRAM.stub_program(major))
        .debug()
        .env("CUDA_STUBS_CUDSS_PATH", &alone)
        .run();
    run.assert_success()
        .assert_line(&format!(
            "cudssGetProperty(MAJOR_VERSION) rc={NO_LIBRARY} value=-1"
        ))
        .assert_line(&format!("cudssCreate rc={NO_LIBRARY}"))
        .assert_line("status bound=0 version=0 found_by=(null)");
    // The candidate, and what the dynamic loader could not find for it.
    let reason = format!("dlopen: {missing}: cannot open shared object file");
    let tried = format!("try {} [{OVERRIDE}]: rejected: {reason}", alone.display());
    assert!(
        run.debug("cudss").iter().any(|l| l.starts_with(&tried)),
        "{run}"
    );
    let message = run.line("status message");
    assert!(
        message.contains(&alone.display().to_string()) && message.contains(&reason),
        "the summary names the candidate and the library it lacks: {run}"
    );
}

//! cuBLASMp through `libstubs_cublasmp.so`, on NVIDIA's real `libcublasmp.so.0` of CUDA 12.x
//! and 13.x (wheels `nvidia-cublasmp-cu12` and `-cu13` 0.10.0.3695; no GPU) and on none, and
//! the rule of one CUDA release per process.
//!
//! NVIDIA's file needs the driver (`DT_NEEDED libcuda.so.1`, six entry points bound when it is
//! loaded): the tests' driver is the stand-in (`tests/mocks/stand_in_driver.c`) with no device
//! (`STAND_IN_DEVICE_COUNT=0`: `cuInit` answers 100), as on a machine with a driver and no GPU;
//! the stub build is pointed at it by `CUDA_STUBS_CUDA_PATH` (the stub loads the driver before
//! its library, as the library would), the normal build finds it on `LD_LIBRARY_PATH`.
//!
//! `tests/c/cublasmp_host.c` is compiled against each major's real `cublasmp.h` twice: linked
//! only to the stubs, and linked normally to that major's library. Both builds must print the
//! same lines (the version, every status string, the logger, `cublasMpNumroc`'s host
//! arithmetic, `cublasMpCreate`'s no-GPU answer, handle-less calls). Both builds report 0.10.0
//! (1000): only the cuBLAS a copy needs (`DT_NEEDED libcublas.so.12` / `.13`) tells them apart,
//! which the stub reads as its release and by which it refuses a copy of another release than
//! the process's runtime before loading it. Majors without a cuBLASMp wheel are skipped.

use std::path::{Path, PathBuf};
use stub_model::libraries::CUBLASMP;
use stubs_tests::two_builds::{TwoBuilds, api_lines, assert_only_cublas_of};
use stubs_tests::{
    Outcome, Scenario, compile_c, cuda_include_args, cuda_layout, stand_in_driver_dir, temp_dir,
    workspace_root,
};

/// The stub's code for no library (of the process's release): `CUBLASMP_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 1;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUBLASMP,
    source: "c/cublasmp_host.c",
    also_stubs: &["cudart"],
    // cublasmp.h includes cublas_v2.h, whose cuda_fp16.h includes CCCL's <nv/target>.
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's cuBLASMp.
fn majors() -> Vec<u32> {
    [12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("cublasmp"))
        .collect()
}

/// The stand-in driver's file (soname `libcuda.so.1`).
fn driver() -> PathBuf {
    stand_in_driver_dir().join("libcuda.so.1")
}

/// The stub build with the runtime and cuBLASMp of the given majors as overrides, and the
/// stand-in driver without a device when `with_driver`.
fn run_stub(header: u32, cudart: Option<u32>, cublasmp: Option<u32>, with_driver: bool) -> Outcome {
    let mut s = Scenario::new(PROGRAM.stub_program(header)).debug();
    if with_driver {
        s = s
            .env("CUDA_STUBS_CUDA_PATH", driver())
            .env("STAND_IN_DEVICE_COUNT", "0");
    }
    if let Some(m) = cudart {
        s = s
            .env("CUDA_STUBS_CUDART_PATH", cuda_layout(m).cudart)
            .env("STUBS_TESTS_RUNTIME_FIRST", "1");
    }
    if let Some(m) = cublasmp {
        s = s.env("CUDA_STUBS_CUBLASMP_PATH", PROGRAM.real(m));
    }
    s.run()
}

/// The program linked normally to NVIDIA's library of `major` (TwoBuilds's normal build, with
/// the stand-in driver for the link: the library's `DT_NEEDED libcuda.so.1`), run with the
/// library's folder and the stand-in's (no device) on `LD_LIBRARY_PATH`; asserted to exit 0.
fn run_normal(major: u32) -> Outcome {
    let real = PROGRAM.real(major);
    let dir = PROGRAM.real_dir(major);
    let mut args: Vec<String> = cuda_include_args(major)
        .into_iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    args.push(format!(
        "-I{}",
        workspace_root().join("codegen/shim-include").display()
    ));
    args.push(format!("-L{}", dir.display()));
    args.push(format!(
        "-l:{}",
        real.file_name().expect("a file").to_string_lossy()
    ));
    args.push(format!("-Wl,-rpath-link,{}", dir.display()));
    args.push(format!(
        "-Wl,-rpath-link,{}",
        stand_in_driver_dir().display()
    ));
    for other in cuda_layout(major).libraries.values() {
        if let Some(folder) = other.parent().filter(|f| *f != dir) {
            args.push(format!("-Wl,-rpath-link,{}", folder.display()));
        }
    }
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    let exe = compile_c(
        &format!("cublasmp-normal-{major}"),
        &[Path::new(PROGRAM.source)],
        &refs,
    );
    let run = Scenario::new(exe)
        .linked_normally()
        .library_path([dir, stand_in_driver_dir()])
        .env("STAND_IN_DEVICE_COUNT", "0")
        .run();
    run.assert_success();
    run
}

/// The debug line of the version probe for a copy needing `major`'s cuBLAS.
fn probe_line(major: u32) -> String {
    format!("cublasMpGetVersion 1000: needs libcublas.so.{major}: CUDA {major}")
}

/// On every major, the stub build prints what the normal build prints (version 1000 both ways,
/// the same codes without a GPU, the library's own arithmetic), and binds the real library at
/// the major of the cuBLAS its file needs.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    let all = majors();
    if !stubs_tests::runs_with(!all.is_empty(), "cuBLASMp") {
        return;
    }
    for major in stubs_tests::variants(&all, 0) {
        let normal = run_normal(major);
        normal
            .assert_line("cublasMpGetVersion rc=0 version=1000")
            .assert_line("cublasMpGetStatusString(1) = the library was not initialized")
            // 100 rows in blocks of 8 over 2 processes: process 1 holds 6 blocks, 48 rows.
            .assert_line("cublasMpNumroc(100, 8, 1, 0, 2) = 48");
        // Not the stub's "no library" code: a program tells a machine without a GPU apart.
        assert_ne!(
            normal.line("cublasMpCreate"),
            format!("cublasMpCreate rc={NO_LIBRARY}"),
            "{normal}"
        );

        let version = major as i32 * 1000;
        let stub = run_stub(major, Some(major), Some(major), true);
        stub.assert_success()
            .assert_bound("cublasmp", &PROGRAM.real(major), version, OVERRIDE)
            .assert_debug("cublasmp", &probe_line(major))
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "cublasMp"),
            api_lines(&normal, "cublasMp"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
        assert_only_cublas_of(&stub, major);
    }
}

/// With no runtime in the process, nothing but the file says a release: a copy binds at the
/// major of the cuBLAS it needs, which it brings in (and NCCL), and no other.
#[test]
fn without_a_runtime_the_needed_cublas_is_the_release() {
    for major in majors() {
        let stub = run_stub(major, None, Some(major), true);
        stub.assert_success()
            .assert_bound(
                "cublasmp",
                &PROGRAM.real(major),
                major as i32 * 1000,
                OVERRIDE,
            )
            .assert_debug("cublasmp", &probe_line(major));
        assert_only_cublas_of(&stub, major);
        assert!(stub.line("mapped").ends_with("libnccl.so.2=1"), "{stub}");
    }
}

/// With no cuBLASMp anywhere, every status is the typed error, the version is not written,
/// the status strings are the header's (never NULL), the host arithmetic answers 0, and the
/// status says what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None, true);
    run.assert_success();
    assert_eq!(NO_LIBRARY, CUBLASMP.errors.no_library.value);
    for line in [
        "cublasMpGetVersion rc=1 version=-1",
        "cublasMpGetStatusString(0) = The operation completed successfully.",
        "cublasMpGetStatusString(7) = The functionality requested is not supported.",
        "cublasMpLoggerSetLevel rc=1",
        "cublasMpLoggerForceDisable rc=1",
        "cublasMpNumroc(100, 8, 1, 0, 2) = 0",
        "cublasMpCreate rc=1",
        "cublasMpDestroy(no handle) rc=1",
        "cublasMpGetStream(no handle) rc=1",
        "mapped libcublasmp.so.0=0 libcublas.so.12=0 libcublas.so.13=0 libnccl.so.2=0",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
    let searched = "cuda-stubs: libcublasmp not found (searched libcublasmp.so.0";
    assert!(run.line("status message").contains(searched), "{run}");
    assert!(!run.stdout.contains("= (null)"), "{run}");
    // For the stub's own "no library" code, why there is none.
    assert!(
        run.line("cublasMpGetStatusString(1)").contains(searched),
        "{run}"
    );
}

/// NVIDIA's CUDA 12 build beside a 13 runtime (its version is the CUDA 13 build's too) is
/// refused before `dlopen`, by the `libcublas.so.12` its file needs: neither it nor that cuBLAS
/// is mapped; every call is then the "no library" code and the status names both releases. The
/// same the other way round.
#[test]
fn a_copy_of_another_release_is_refused_before_loading() {
    let all = majors();
    if !stubs_tests::runs_with(
        all.contains(&12) && all.contains(&13),
        "cuBLASMp of CUDA 12 and 13",
    ) {
        return;
    }
    for (process, copy) in [(13, 12), (12, 13)] {
        let run = run_stub(process, Some(process), Some(copy), true);
        run.assert_success();
        let reason = format!(
            "CUDA {copy} (needs libcublas.so.{copy}), but the process has CUDA {process} \
             (libcudart.so.{process}): one CUDA release per process"
        );
        run.assert_debug(
            "cublasmp",
            &format!(
                "try {} [{OVERRIDE}]: rejected: {reason}",
                PROGRAM.real(copy).display()
            ),
        )
        .assert_line("cublasMpGetVersion rc=1 version=-1")
        .assert_line(&format!("cublasMpCreate rc={NO_LIBRARY}"))
        .assert_line("mapped libcublasmp.so.0=0 libcublas.so.12=0 libcublas.so.13=0 libnccl.so.2=0")
        .assert_line("status bound=0 version=0 found_by=(null)");
        assert!(run.line("status message").contains(&reason), "{run}");
    }
}

/// A copy of the CUDA 13 library alone in a folder, whose RPATH leads to no cuBLAS (a wheel
/// installed without the cuBLAS wheel it needs): `dlopen` fails, every call is the "no library"
/// code, and the status's summary names the library that is missing.
#[test]
fn a_copy_without_the_cublas_it_needs_is_the_typed_error() {
    let Some(&major) = majors().last() else {
        stubs_tests::runs_with(false, "cuBLASMp");
        return;
    };
    let dir = temp_dir("cublasmp-alone");
    let copy = dir.join("libcublasmp.so.0");
    link_or_copy(&PROGRAM.real(major), &copy);
    let run = Scenario::new(PROGRAM.stub_program(major))
        .debug()
        .env("CUDA_STUBS_CUDA_PATH", driver())
        .env("STAND_IN_DEVICE_COUNT", "0")
        .env("CUDA_STUBS_CUBLASMP_PATH", &copy)
        .run();
    run.assert_success()
        .assert_line(&format!("cublasMpCreate rc={NO_LIBRARY}"))
        .assert_line("status bound=0 version=0 found_by=(null)");
    let missing = format!("libcublas.so.{major}");
    let message = run.line("status message");
    assert!(
        message.contains(&copy.display().to_string()) && message.contains(&missing),
        "{run}"
    );
}

/// Without a driver (a machine with no NVIDIA driver installed), NVIDIA's file cannot be
/// loaded at all, since it needs `libcuda.so.1`: the stub answers the "no library" code and its
/// summary names the driver; the normally linked program does not start. Skipped on a machine
/// whose dynamic loader finds a driver.
#[test]
fn without_a_driver_the_summary_names_it() {
    let Some(&major) = majors().last() else {
        stubs_tests::runs_with(false, "cuBLASMp");
        return;
    };
    if system_has_driver() {
        eprintln!("skipped: this machine has a driver (libcuda.so.1)");
        return;
    }
    let run = run_stub(major, None, Some(major), false);
    run.assert_success()
        .assert_line(&format!("cublasMpCreate rc={NO_LIBRARY}"))
        .assert_line("cublasMpGetVersion rc=1 version=-1")
        .assert_line("status bound=0 version=0 found_by=(null)");
    let message = run.line("status message");
    assert!(
        message.contains("libcuda.so.1: cannot open shared object file"),
        "{run}"
    );
}

/// Whether the system's dynamic loader finds a `libcuda.so.1` (a driver is installed).
fn system_has_driver() -> bool {
    // SAFETY: a NUL-terminated name; RTLD_LAZY loads nothing more than the driver would.
    let handle = unsafe { libc::dlopen(c"libcuda.so.1".as_ptr(), libc::RTLD_LAZY) };
    !handle.is_null()
}

/// A hard link to `src` at `dst` (the cache and the temporary folder share a file system in
/// CI), else a copy.
fn link_or_copy(src: &Path, dst: &Path) {
    let _ = std::fs::remove_file(dst);
    if std::fs::hard_link(src, dst).is_err() {
        std::fs::copy(src, dst).expect("copy the library");
    }
}

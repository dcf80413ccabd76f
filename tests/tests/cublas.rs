//! cuBLAS through `libstubs_cublas.so`, on NVIDIA's real libcublas of CUDA 11.8, 12.9 and 13.5
//! (the wheels: `libcublas.so.11` / `.12` / `.13`, each loading its `libcublasLt`) and on none.
//!
//! `tests/c/cublas_host.c` is compiled against each major's real `cublas_v2.h` twice: linked
//! only to the stubs, and linked normally to that major's libcublas. Both builds must print the
//! same lines: properties and version, the library's own answers without a GPU
//! (`cublasCreate`: 1, `CUBLAS_STATUS_NOT_INITIALIZED`), a status string, SGEMM with no handle
//! through `cublasSgemm_v2` and (12.x+ headers) `cublasSgemm_v2_64`. A program built against
//! 12.9's header runs on 11.8, which lacks the `_64` entry points: the stub answers 15,
//! `CUBLAS_STATUS_NOT_SUPPORTED`, for those. A cuBLAS of another release than the process's
//! runtime is refused by its soname, before `dlopen`.
//!
//! `cublas_api.h` includes `cuda_fp16.h`, which includes CCCL's `<nv/target>`: NVIDIA's runtime
//! wheels do not ship CCCL, so the programs build with codegen's shim of it (empty: C never
//! reaches what uses it).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stub_model::libraries::CUBLAS;
use stubs_tests::{
    Outcome, Scenario, compile_c, cuda_include_args, cuda_layout, stubs_dir, workspace_root,
};

const MAJORS: [u32; 3] = [11, 12, 13];
const OVERRIDE: &str = "environment override";

/// The real libcublas of `major`.
fn real(major: u32) -> PathBuf {
    cuda_layout(major)
        .libraries
        .get("cublas")
        .cloned()
        .unwrap_or_else(|| panic!("the CUDA {major} layout has no cublas"))
}

fn slot(major: u32) -> usize {
    MAJORS
        .iter()
        .position(|&m| m == major)
        .expect("a tested major")
}

/// `-I` flags for `major`'s headers and the `<nv/target>` shim.
fn include_args(major: u32) -> Vec<OsString> {
    let mut args = cuda_include_args(major);
    args.push(
        format!(
            "-I{}",
            workspace_root().join("codegen/shim-include").display()
        )
        .into(),
    );
    args
}

/// The program built against `major`'s header, linked to the stubs (cuBLAS's and the
/// runtime's, kept although it calls none of the runtime, as a CUDA program has it).
fn stub_program(major: u32) -> &'static Path {
    static BUILT: [OnceLock<PathBuf>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    BUILT[slot(major)].get_or_init(|| {
        let dir = stubs_dir();
        let mut args = include_args(major);
        args.push("-DWITH_STATUS".into());
        args.push(format!("-L{}", dir.display()).into());
        args.push("-Wl,--no-as-needed".into());
        args.push("-lstubs_cublas".into());
        args.push("-lstubs_cudart".into());
        args.push(format!("-Wl,-rpath,{}", dir.display()).into());
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
        compile_c(
            &format!("cublas-stub-{major}"),
            &[Path::new("c/cublas_host.c")],
            &refs,
        )
    })
}

/// The same program linked normally to NVIDIA's libcublas of `major`.
fn normal_program(major: u32) -> &'static Path {
    static BUILT: [OnceLock<PathBuf>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    BUILT[slot(major)].get_or_init(|| {
        let file = real(major);
        let lib_dir = file.parent().expect("a folder").to_path_buf();
        let soname = file
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned();
        let mut args = include_args(major);
        args.push(format!("-L{}", lib_dir.display()).into());
        args.push(format!("-l:{soname}").into());
        args.push(format!("-Wl,-rpath-link,{}", lib_dir.display()).into());
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
        compile_c(
            &format!("cublas-normal-{major}"),
            &[Path::new("c/cublas_host.c")],
            &refs,
        )
    })
}

/// `nvidia-cublas-cu12==12.9.1.4` → (12, 9, 1).
fn wheel_version(major: u32) -> (i32, i32, i32) {
    let wheel = CUBLAS
        .test_wheels
        .iter()
        .find(|w| w.major == major)
        .expect("a test wheel of the major");
    let version = wheel.requirement.split("==").nth(1).expect("pinned");
    let parts: Vec<i32> = version
        .split('.')
        .take(3)
        .map(|p| p.parse().expect("numeric"))
        .collect();
    (parts[0], parts[1], parts[2])
}

/// The stub build of `header` with the runtime and cuBLAS of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, cublas: Option<u32>) -> Outcome {
    let mut s = Scenario::new(stub_program(header)).debug();
    if let Some(m) = cudart {
        s = s.env("CUDA_STUBS_CUDART_PATH", cuda_layout(m).cudart);
    }
    if let Some(m) = cublas {
        s = s.env("CUDA_STUBS_CUBLAS_PATH", real(m));
    }
    s.run()
}

/// The lines both builds print.
fn api_lines(run: &Outcome) -> Vec<&str> {
    run.stdout
        .lines()
        .filter(|l| l.starts_with("cublas"))
        .collect()
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library at the version it reports.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = Scenario::new(normal_program(major))
            .library_path([real(major).parent().expect("a folder")])
            .run();
        normal.assert_success();
        let (maj, min, patch) = wheel_version(major);
        normal
            .assert_line(&format!(
                "cublasGetProperty(MAJOR_VERSION) rc=0 value={maj}"
            ))
            .assert_line(&format!(
                "cublasGetProperty(MINOR_VERSION) rc=0 value={min}"
            ))
            .assert_line(&format!(
                "cublasGetProperty(PATCH_LEVEL) rc=0 value={patch}"
            ))
            .assert_line("cublasCreate rc=1");

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("cublas", &real(major), maj * 1000 + min * 10, OVERRIDE);
        assert_eq!(
            api_lines(&stub),
            api_lines(&normal),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// A program built against 12.9's header on cuBLAS 11.8: what 11.8 has answers as 11.8 does,
/// the `_64` entry points it lacks are `CUBLAS_STATUS_NOT_SUPPORTED` (15), never looked up.
#[test]
fn a_12_9_program_on_11_8_gets_not_supported_for_the_64_bit_entry_points() {
    let run = run_stub(12, Some(11), Some(11));
    assert_eq!(CUBLAS.errors.absent.value, 15);
    run.assert_success()
        .assert_line("cublasSgemm(no handle) rc=1")
        .assert_line("cublasSgemm_64(no handle) rc=15")
        .assert_debug(
            "cublas",
            "cublasSgemm_v2_64: absent in CUDA 11 (symbol majors 12,13, exported ABI majors 12,13)",
        );
}

/// With no cuBLAS anywhere, every status is `CUBLAS_STATUS_NOT_INITIALIZED` (1); the status
/// string function, which returns a pointer, returns NULL.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(CUBLAS.errors.no_library.value, 1);
    for line in [
        "cublasGetProperty(MAJOR_VERSION) rc=1 value=-1",
        "cublasGetVersion rc=1 version=0",
        "cublasCreate rc=1",
        "cublasGetStatusString(15)=(null)",
        "cublasSgemm(no handle) rc=1",
        "cublasSgemm_64(no handle) rc=1",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
}

/// 13.5's `libcublas.so.13` beside a runtime stub bound to 12.9 is refused by its soname,
/// before `dlopen`; the process's own release is bound instead when it is there.
#[test]
fn another_releases_cublas_is_refused_by_its_name() {
    let run = run_stub(13, Some(12), Some(13));
    run.assert_success();
    let reason =
        "CUDA 13, but the process has CUDA 12 (libcudart.so.12): one CUDA release per process";
    run.assert_debug(
        "cublas",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            real(13).display()
        ),
    )
    .assert_line("cublasCreate rc=1")
    .assert_line("status bound=0 version=0 found_by=(null)");
    assert!(run.line("status message").contains(reason), "{run}");
}

//! NVML through `libstubs_nvml.so`. NVML ships with the driver (`libnvidia-ml.so.1`) and no
//! machine in CI has one, so the library here is a mock (`tests/mocks/nvml.c`: a driver serving
//! CUDA 12 and one serving CUDA 13, answering as the real one does before and after
//! `nvmlInit`); the real one runs in the GPU proof (`tests/gpu/nvml.sh`). The program,
//! `tests/c/nvml_query.c`, is compiled against NVIDIA's `nvml.h` of 12.9 and of 13.5 (from the
//! `nvidia-nvml-dev` wheels): its calls arrive under the header's `_v2` names, the legacy
//! `nvmlInit` under its own.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stub_model::libraries::NVML;
use stubs_tests::{Outcome, Scenario, compile_c, cuda_include_args, mock, stubs_dir};

const OVERRIDE: &str = "environment override";

/// The program built against `major`'s `nvml.h`, linked only to the NVML stub.
fn program(major: u32) -> &'static Path {
    static BUILT: [OnceLock<PathBuf>; 2] = [OnceLock::new(), OnceLock::new()];
    BUILT[usize::from(major == 13)].get_or_init(|| {
        let dir = stubs_dir();
        let mut args = cuda_include_args(major);
        args.extend(["-DWITH_STATUS".into(), "-DLEGACY_INIT".into()]);
        args.push(format!("-L{}", dir.display()).into());
        args.push("-lstubs_nvml".into());
        args.push(format!("-Wl,-rpath,{}", dir.display()).into());
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
        compile_c(
            &format!("nvml-{major}"),
            &[Path::new("c/nvml_query.c")],
            &refs,
        )
    })
}

/// The mock driver's NVML serving CUDA `major`.
fn driver(major: u32) -> PathBuf {
    mock(&format!("mock-nvml-{major}")).join("libnvidia-ml.so.1")
}

fn run(header: u32, driver_major: Option<u32>) -> Outcome {
    let mut s = Scenario::new(program(header)).debug();
    if let Some(m) = driver_major {
        s = s.env("CUDA_STUBS_NVML_PATH", driver(m));
    }
    s.run()
}

/// Every call reaches the driver's NVML, under the name the header binds, and the stub learns
/// the CUDA major the driver serves without calling `nvmlInit`: before the program's own
/// `nvmlInit`, the library still answers "uninitialized".
#[test]
fn calls_reach_the_drivers_nvml_under_the_headers_names() {
    for (header, drv) in [(12, 12), (12, 13), (13, 13)] {
        let run = run(header, Some(drv));
        run.assert_success()
            .assert_bound("nvml", &driver(drv), 1000 * drv as i32, OVERRIDE)
            .assert_line(&format!(
                "nvmlSystemGetNVMLVersion rc=0 version={drv}.580.0"
            ))
            .assert_line("nvmlDeviceGetCount(before init) rc=1")
            .assert_line("nvmlInit rc=0")
            .assert_line(&format!(
                "nvmlSystemGetCudaDriverVersion_v2 rc=0 version={}",
                drv * 1000
            ))
            .assert_line("nvmlDeviceGetCount rc=0 count=2")
            .assert_line("device 0 handle rc=0 name rc=0 name=Mock GPU 0")
            .assert_line("device 1 handle rc=0 name rc=0 name=Mock GPU 1")
            // The legacy v1 entry point is its own (the mock's answers 4242), never `_v2`.
            .assert_line("legacy nvmlInit rc=4242")
            .assert_line("nvmlShutdown rc=0")
            // The mock has no nvmlErrorString: the header's description, from the stub.
            .assert_line("nvmlErrorString(1)=NVML was not first initialized with nvmlInit()")
            .assert_line(&format!(
                "status bound=1 version={} found_by={OVERRIDE}",
                drv * 1000
            ));
    }
}

/// A function first declared by 13.x's `nvml.h` (`nvmlDeviceGetAddressingMode`) is forwarded
/// to a driver serving CUDA 13 and is the stub's `NVML_ERROR_FUNCTION_NOT_FOUND` (13) on one
/// serving CUDA 12, without being looked up there.
#[test]
fn a_newer_headers_function_on_an_older_driver_is_function_not_found() {
    assert_eq!(NVML.errors.absent.value, 13);
    run(13, Some(13)).assert_line("nvmlDeviceGetAddressingMode rc=0");
    let old = run(13, Some(12));
    old.assert_line("nvmlDeviceGetAddressingMode rc=13").assert_debug(
        "nvml",
        "nvmlDeviceGetAddressingMode: absent in CUDA 12 (symbol majors 13, exported ABI majors 13)",
    );
}

/// With no driver, every call is `NVML_ERROR_LIBRARY_NOT_FOUND` (12), NVML's own word for it,
/// and the stub prints nothing unless asked.
#[test]
fn without_a_driver_every_call_is_library_not_found() {
    assert_eq!(NVML.errors.no_library.value, 12);
    let run = Scenario::new(program(13)).run();
    run.assert_success().assert_silent();
    for line in [
        "nvmlSystemGetNVMLVersion rc=12 version=",
        "nvmlDeviceGetCount(before init) rc=12",
        "nvmlInit rc=12",
        "nvmlDeviceGetCount rc=12 count=0",
        "legacy nvmlInit rc=12",
        "nvmlShutdown rc=12",
        "status bound=0 version=0 found_by=(null)",
        "nvmlErrorString(1)=NVML was not first initialized with nvmlInit()",
    ] {
        run.assert_line(line);
    }
    // The "not found" code says where the stub searched; never NULL.
    assert!(
        run.line("nvmlErrorString(12)").starts_with(
            "nvmlErrorString(12)=cuda-stubs: libnvml not found (searched libnvidia-ml.so.1"
        ),
        "{run}"
    );
}

//! The stand-in driver (`tests/mocks/stand_in_driver.c`, a `libcuda.so.1` in
//! [`stand_in_driver_dir`]) judges device code the way a real driver does (issue 36: PTX
//! `.version 9.5` from NVRTC 13.5 is refused by a CUDA 13.0 driver with 222), so that the
//! driver stub's tests can prove what reached "the driver". Here it is loaded directly
//! (`tests/c/stand_in_driver.c` dlopens it) and handed what NVIDIA's real tools make: PTX from
//! NVRTC 13.5 and 12.9, CUBINs from NVRTC and nvJitLink, fat binaries from nvFatbin (the wheels,
//! no GPU needed; a missing wheel fails these tests, as `cuda_layout` does everywhere).

use std::path::{Path, PathBuf};
use stubs_tests::device_code_inputs::{input, inputs, release, stand_in_program as program};
use stubs_tests::{Outcome, Scenario, stand_in_driver_dir, temp_dir};

/// `CUDA_ERROR_UNSUPPORTED_PTX_VERSION`, `CUDA_ERROR_NO_BINARY_FOR_GPU`.
const UNSUPPORTED_PTX: i32 = 222;
const NO_BINARY: i32 = 209;

fn libcuda() -> PathBuf {
    stand_in_driver_dir().join("libcuda.so.1")
}

/// The stand-in under this driver version and device, logging into `log`.
fn scenario(args: &[&str], version: i32, sm: u32, log: &Path) -> Scenario {
    Scenario::new(program())
        .args(args)
        .env("STAND_IN_DRIVER_VERSION", version.to_string())
        .env("STAND_IN_DEVICE_SM", sm.to_string())
        .env("STAND_IN_DRIVER_LOG", log)
}

/// `load ENTRY FILE` on the stand-in: its outcome and the log's lines.
fn load(entry: &str, file: &Path, version: i32, sm: u32) -> (Outcome, Vec<String>) {
    let log = temp_dir("stand-in-log").join("driver.log");
    let lib = libcuda();
    let args = [
        "load",
        lib.to_str().expect("UTF-8"),
        entry,
        file.to_str().expect("UTF-8"),
    ];
    let run = scenario(&args, version, sm, &log).run();
    run.assert_success()
        .assert_line("cuInit rc=0")
        .assert_line("context rc=0");
    let lines = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect();
    (run, lines)
}

/// A loaded module: its function launches, and no longer once the module is unloaded.
fn assert_launches(run: &Outcome) {
    run.assert_line("cuModuleGetFunction rc=0")
        .assert_line("cuModuleUnload rc=0");
    let launches: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("cuLaunchKernel "))
        .collect();
    assert_eq!(
        launches,
        ["cuLaunchKernel rc=0", "cuLaunchKernel rc=400"],
        "{run}"
    );
}

/// Versions, attributes, contexts (current per thread), error texts, cuGetProcAddress (500:
/// the caller falls back to dlsym) and NULL arguments: no wheels needed.
#[test]
fn answers_as_configured() {
    let log = temp_dir("stand-in-basics").join("driver.log");
    let lib = libcuda();
    let args = ["basics", lib.to_str().expect("UTF-8")];
    let run = scenario(&args, 12080, 86, &log).run();
    run.assert_success();
    for line in [
        "cuDeviceGetCount before cuInit rc=3",
        "cuDriverGetVersion rc=0 out=12080",
        "cuInit(1) rc=1",
        "cuInit rc=0",
        "cuDeviceGetCount rc=0 out=1",
        "cuDeviceGet rc=0 out=0",
        "cuDeviceGet(5) rc=101",
        "major rc=0 out=8",
        "minor rc=0 out=6",
        "cuDeviceGetName rc=0 out=Stand-in sm_86 device",
        "cuCtxGetDevice none rc=201",
        "cuCtxGetCurrent none rc=0 null=1",
        "cuModuleLoadData no context rc=201",
        "cuCtxCreate_v2 rc=0",
        "cuCtxGetDevice rc=0 out=0",
        "thread cuCtxGetDevice rc=201",
        "cuCtxGetDevice destroyed rc=201",
        "cuCtxDestroy_v2 again rc=201",
        "cuCtxCreate_v4 rc=0",
        "cuDevicePrimaryCtxRetain rc=0",
        "cuCtxSetCurrent rc=0",
        "cuCtxGetDevice primary rc=0 out=0",
        "cuDevicePrimaryCtxRelease_v2 rc=0",
        "cuGetErrorName 222 CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
        "cuGetErrorString 209 no kernel image is available for execution on the device",
        "cuGetErrorName 12345 rc=1",
        "cuGetProcAddress rc=500 null=1",
        "cuGetProcAddress_v2 rc=500 status=1 null=1",
        "nulls refused",
    ] {
        run.assert_line(line);
    }
    // The module load without a context is refused before any image is looked at; the NULL
    // images (with the primary context current) are seen and refused.
    let lines = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(
        lines, "cuModuleLoadData null -> 1\ncuModuleLoadDataEx null -> 1\n",
        "{run}"
    );

    let none = Scenario::new(program())
        .args(args)
        .env("STAND_IN_DEVICE_COUNT", "0")
        .run();
    none.assert_success().assert_line("cuInit rc=100");
}

/// What real CUBINs say in their ELF headers, which `cubin_sm` in the stand-in reads: CUDA
/// 12.9's tools keep the sm in e_flags' low byte (ABI version 7), 13.5's in bits 8-15 (ABI
/// version 8, EI_OSABI 65); NVRTC and nvJitLink of one release alike.
#[test]
fn real_cubins_e_flags() {
    let twelve = &inputs(12).1;
    twelve
        .assert_line("elf nvrtc90.cubin class=2 osabi=51 abiversion=7 machine=190 flags=0x005a055a")
        .assert_line(
            "elf jitlink90.cubin class=2 osabi=51 abiversion=7 machine=190 flags=0x005a055a",
        )
        .assert_line(
            "elf jitlink80.cubin class=2 osabi=51 abiversion=7 machine=190 flags=0x00500550",
        );
    let thirteen = &inputs(13).1;
    thirteen
        .assert_line("elf nvrtc90.cubin class=2 osabi=65 abiversion=8 machine=190 flags=0x06005a04")
        .assert_line(
            "elf jitlink90.cubin class=2 osabi=65 abiversion=8 machine=190 flags=0x06005a04",
        )
        .assert_line(
            "elf jitlink80.cubin class=2 osabi=65 abiversion=8 machine=190 flags=0x06005004",
        );
}

/// Issue 36: NVRTC 13.5's PTX is too new for a 13.0 driver (222, its own ISA in the log), and
/// loads on a driver of its release; 12.9's PTX loads on both.
#[test]
fn ptx_isa_against_the_driver_version() {
    let (thirteen, isa13) = release(13);
    let (twelve, isa12) = release(12);
    let ptx13 = input(13, "c90.ptx");
    for entry in ["cuModuleLoadData", "cuModuleLoad"] {
        let (run, log) = load(entry, &ptx13, 13000, 90);
        run.assert_line(&format!("{entry} rc={UNSUPPORTED_PTX}"));
        assert_eq!(
            log,
            [format!("{entry} ptx {isa13} sm_90 -> {UNSUPPORTED_PTX}")],
            "{run}"
        );
        let (run, log) = load(entry, &ptx13, thirteen, 90);
        run.assert_line(&format!("{entry} rc=0"));
        assert_launches(&run);
        assert_eq!(log, [format!("{entry} ptx {isa13} sm_90 -> 0")], "{run}");
    }
    // 12.9's PTX (8.8): on 12.9 and 13.0 drivers alike; on a 12.8 driver (8.7), too new.
    let ptx12 = input(12, "c90.ptx");
    for (version, rc) in [(twelve, 0), (13000, 0), (12080, UNSUPPORTED_PTX)] {
        let (run, log) = load("cuModuleLoadData", &ptx12, version, 90);
        run.assert_line(&format!("cuModuleLoadData rc={rc}"));
        assert_eq!(
            log,
            [format!("cuModuleLoadData ptx {isa12} sm_90 -> {rc}")],
            "{run}"
        );
    }
    // .target sm_90 on an sm_80 device: 209; sm_80 PTX JITs for sm_90.
    let (run, log) = load("cuModuleLoadData", &ptx13, thirteen, 80);
    run.assert_line(&format!("cuModuleLoadData rc={NO_BINARY}"));
    assert_eq!(
        log,
        [format!("cuModuleLoadData ptx {isa13} sm_90 -> {NO_BINARY}")]
    );
    let (run, _) = load("cuModuleLoadData", &input(13, "c80.ptx"), thirteen, 90);
    run.assert_line("cuModuleLoadData rc=0");
}

/// The 13.5 PTX made a CUBIN by real nvJitLink 13.5 for sm_90 loads on a 13.0 driver (what the
/// driver stub does for issue 36), as do NVRTC's own CUBIN and 12.9's; a CUBIN for sm_80 is
/// no binary for an sm_90 device (209), but runs on an sm_86 one.
#[test]
fn cubins_against_the_device() {
    for (major, file) in [
        (13, "jitlink90.cubin"),
        (13, "nvrtc90.cubin"),
        (12, "jitlink90.cubin"),
        (12, "nvrtc90.cubin"),
    ] {
        let (run, log) = load("cuModuleLoadData", &input(major, file), 13000, 90);
        run.assert_line("cuModuleLoadData rc=0");
        assert_launches(&run);
        assert_eq!(
            log,
            ["cuModuleLoadData cubin sm_90 -> 0"],
            "{major} {file}: {run}"
        );
    }
    for major in [12, 13] {
        let sm80 = input(major, "jitlink80.cubin");
        let (run, log) = load("cuModuleLoadData", &sm80, 13000, 90);
        run.assert_line(&format!("cuModuleLoadData rc={NO_BINARY}"));
        assert_eq!(
            log,
            [format!("cuModuleLoadData cubin sm_80 -> {NO_BINARY}")]
        );
        let (run, _) = load("cuModuleLoadData", &sm80, 13000, 86);
        run.assert_line("cuModuleLoadData rc=0");
    }
    // Not device code at all: 200.
    let text = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let (run, log) = load("cuModuleLoadData", &text, 13000, 90);
    run.assert_line("cuModuleLoadData rc=200");
    assert_eq!(log, ["cuModuleLoadData other -> 200"]);
}

/// A fat binary from real nvFatbin holding only NVRTC 13.5's PTX: 222 on a 13.0 driver, plain
/// or inside nvcc's wrapper; loads on a driver of its release; one holding the sm_90 CUBIN
/// loads anywhere.
#[test]
fn fatbins() {
    let (thirteen, isa13) = release(13);
    let ptx_only = input(13, "ptx90.fatbin");
    let (run, log) = load("cuModuleLoadFatBinary", &ptx_only, 13000, 90);
    run.assert_line(&format!("cuModuleLoadFatBinary rc={UNSUPPORTED_PTX}"));
    assert_eq!(
        log,
        [format!(
            "cuModuleLoadFatBinary fatbin ptx {isa13} sm_90 -> {UNSUPPORTED_PTX}"
        )]
    );
    let (run, log) = load("cuModuleLoadData", &ptx_only, thirteen, 90);
    run.assert_line("cuModuleLoadData rc=0");
    assert_eq!(
        log,
        [format!("cuModuleLoadData fatbin ptx {isa13} sm_90 -> 0")]
    );
    let (run, log) = load("cuModuleLoadData", &input(13, "cubin90.fatbin"), 13000, 90);
    run.assert_line("cuModuleLoadData rc=0");
    assert_eq!(log, ["cuModuleLoadData fatbin cubin sm_90 -> 0"]);

    let lib = libcuda();
    for (file, rc) in [("ptx90.fatbin", UNSUPPORTED_PTX), ("cubin90.fatbin", 0)] {
        let log = temp_dir("stand-in-wrapped").join("driver.log");
        let path = input(13, file);
        let args = [
            "wrapped",
            lib.to_str().expect("UTF-8"),
            path.to_str().expect("UTF-8"),
        ];
        let run = scenario(&args, 13000, 90, &log).run();
        run.assert_success()
            .assert_line(&format!("cuModuleLoadFatBinary rc={rc}"));
    }
}

/// The JIT error log as the real driver fills it (NUL-terminated, the size option's slot
/// overwritten with the bytes written, NUL included), for a module load, a library load and
/// a link; the linker hands out a CUBIN that loads only once every input was accepted.
#[test]
fn error_logs_and_the_linker() {
    let (thirteen, isa13) = release(13);
    let ptx13 = input(13, "c90.ptx");
    let message = format!(
        "ptxas application ptx input, line 9; fatal   : Unsupported .version {isa13}; current \
         version is '9.0'"
    );
    let log_line = format!("errorlog size={} text={message}", message.len() + 1);
    for entry in ["cuModuleLoadDataEx", "cuLibraryLoadData", "cuLinkAddData"] {
        let (run, log) = load(entry, &ptx13, 13000, 90);
        run.assert_line(&format!("{entry} rc={UNSUPPORTED_PTX}"))
            .assert_line(&log_line)
            .assert_line("infolog size=0")
            .assert_line("walltime ok");
        assert_eq!(
            log,
            [format!("{entry} ptx {isa13} sm_90 -> {UNSUPPORTED_PTX}")],
            "{run}"
        );
    }
    // The link refused: no CUBIN.
    let (run, _) = load("cuLinkAddData", &ptx13, 13000, 90);
    run.assert_line(&format!("cuLinkComplete rc={UNSUPPORTED_PTX} size=0"))
        .assert_line("cuLinkDestroy rc=0");
    // Accepted: nothing in the error log, and the linked CUBIN loads and launches.
    for entry in ["cuLinkAddData", "cuLinkAddFile"] {
        let (run, log) = load(entry, &ptx13, thirteen, 90);
        run.assert_line(&format!("{entry} rc=0"))
            .assert_line("cuLinkComplete rc=0 size=64")
            .assert_line("errorlog size=0 text=")
            .assert_line("linked cuModuleLoadData rc=0");
        assert_launches(&run);
        assert_eq!(
            log,
            [
                format!("{entry} ptx {isa13} sm_90 -> 0"),
                "cuModuleLoadData cubin sm_90 -> 0".to_owned(),
            ],
            "{run}"
        );
    }
    // A CUBIN input for the wrong sm: 209 from cuLinkAddData_v2 (CU_JIT_INPUT_CUBIN).
    let (run, log) = load("cuLinkAddData", &input(13, "jitlink80.cubin"), 13000, 90);
    run.assert_line(&format!("cuLinkAddData rc={NO_BINARY}"))
        .assert_line("errorlog size=50 text=no kernel image for sm_90: the CUBIN is for sm_80");
    assert_eq!(log, [format!("cuLinkAddData cubin sm_80 -> {NO_BINARY}")]);
    // The library path: a kernel handle it gave out launches.
    let (run, _) = load("cuLibraryLoadData", &ptx13, thirteen, 90);
    run.assert_line("cuLibraryLoadData rc=0")
        .assert_line("cuLibraryGetKernel rc=0")
        .assert_line("cuLaunchKernel rc=0")
        .assert_line("cuLibraryUnload rc=0");
}

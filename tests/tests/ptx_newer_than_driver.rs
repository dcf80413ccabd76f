//! PTX newer than the driver runs (issue 36 item 2): NVRTC 13.5 writes PTX `.version 9.5`,
//! which a CUDA 13.0 driver refuses with 222 (`CUDA_ERROR_UNSUPPORTED_PTX_VERSION`); the driver
//! stub's load entry points and the runtime stub's (`stub_loader::device_code`) compile it
//! to a CUBIN for the device with the nvJitLink they find, and hand that on instead.
//!
//! The driver is the stand-in (`tests/mocks/stand_in_driver.c`, through
//! `CUDA_STUBS_CUDA_PATH`): it judges device code as a real driver of `STAND_IN_DRIVER_VERSION`
//! does on an `STAND_IN_DEVICE_SM` device and logs what it was handed (with the address, to
//! tell the caller's buffer from another). The runtime is a mock that logs the same
//! (`tests/mocks/cudart_device_code.c`, `mock-device-code`). The device code is real: NVRTC,
//! nvJitLink and nvFatbin of CUDA 13.5 and 12.9 from the wheels (`device_code_inputs`), and
//! the nvJitLink that reconciles is NVIDIA's 13.5 (`CUDA_STUBS_NVJITLINK_PATH`). No GPU; a
//! missing wheel fails these tests, as `cuda_layout` does everywhere.
//!
//! `tests/c/ptx_loads.c` is the program: see its header for what it prints.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::device_code_inputs::{input, release};
use stubs_tests::{
    Outcome, Scenario, build_stubs, compile_c, cuda_include_args, cuda_layout, mock,
    stand_in_driver_dir, temp_dir,
};

/// `CUDA_ERROR_UNSUPPORTED_PTX_VERSION`.
const UNSUPPORTED_PTX: i32 = 222;

/// `tests/c/ptx_loads.c` against CUDA 13.5's headers, linked against the driver stub only, or
/// (`runtime`) also against the runtime stub; once per test process. Only the stubs needed
/// are built.
fn program(runtime: bool) -> &'static Path {
    static BUILT: [OnceLock<PathBuf>; 2] = [OnceLock::new(), OnceLock::new()];
    BUILT[usize::from(runtime)].get_or_init(|| {
        let crates: &[&str] = if runtime {
            &["stubs-cuda", "stubs-cudart"]
        } else {
            &["stubs-cuda"]
        };
        let dir = build_stubs(crates);
        let mut args: Vec<OsString> = cuda_include_args(13);
        args.push(format!("-L{}", dir.display()).into());
        if runtime {
            args.push("-DPTX_LOADS_RUNTIME".into());
            args.push("-lstubs_cudart".into());
        }
        args.push("-lstubs_cuda".into());
        args.push(format!("-Wl,-rpath,{}", dir.display()).into());
        let args: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
        let name = if runtime {
            "ptx-loads-runtime"
        } else {
            "ptx-loads"
        };
        compile_c(name, &[Path::new("c/ptx_loads.c")], &args)
    })
}

/// NVIDIA's nvJitLink 13.5 (it reads PTX 9.5).
fn nvjitlink13() -> PathBuf {
    cuda_layout(13)
        .nvjitlink
        .expect("nvJitLink 13 in the layout")
}

/// A path where no nvJitLink is.
fn no_nvjitlink() -> PathBuf {
    temp_dir("no-nvjitlink").join("libnvJitLink.so.13")
}

/// One run of the driver program (`args`) on the stand-in of `version` and device `sm`, the
/// reconciling nvJitLink at `nvjitlink`: what it printed, and the stand-in's log lines.
fn on_driver(args: &[&Path], version: i32, sm: u32, nvjitlink: &Path) -> (Outcome, Vec<String>) {
    let log = temp_dir("ptx-loads-log").join("driver.log");
    let run = Scenario::new(program(false))
        .args(args)
        .debug()
        .env(
            "CUDA_STUBS_CUDA_PATH",
            stand_in_driver_dir().join("libcuda.so.1"),
        )
        .env("CUDA_STUBS_NVJITLINK_PATH", nvjitlink)
        .env("STAND_IN_DRIVER_VERSION", version.to_string())
        .env("STAND_IN_DEVICE_SM", sm.to_string())
        .env("STAND_IN_DRIVER_LOG", &log)
        .env("STAND_IN_DRIVER_LOG_ADDRESSES", "1")
        .run();
    let lines = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect();
    (run, lines)
}

/// The address the program printed for load `n`'s image (`N ENTRY image=0x...`).
fn image_of(run: &Outcome, n: usize, entry: &str) -> String {
    run.line(&format!("{n} {entry} image"))
        .rsplit_once('=')
        .expect("image=")
        .1
        .to_owned()
}

/// A stand-in log line split into what it says and the address it was handed (`at 0x...`).
fn split_at(line: &str) -> (&str, &str) {
    line.rsplit_once(" at ").unwrap_or((line, ""))
}

/// The stand-in's log without addresses.
fn said(log: &[String]) -> Vec<&str> {
    log.iter().map(|l| split_at(l).0).collect()
}

/// The debug lines of the driver stub about device code (`… PTX …`).
fn reconcile_lines(run: &Outcome) -> Vec<&str> {
    run.debug("cuda")
        .into_iter()
        .filter(|l| l.contains("PTX "))
        .collect()
}

/// Every load entry point of the driver stub, on a 13.0 driver and an sm_90 device, hands the
/// driver an sm_90 CUBIN made by nvJitLink 13.5 from NVRTC 13.5's PTX 9.5 (which that driver
/// refuses, `stand_in_driver.rs`), not the caller's image; JIT options shape it and their logs
/// and wall time are filled as cuda.h says; an image and options seen before come from the
/// cache.
#[test]
fn newer_ptx_becomes_a_cubin_at_every_entry() {
    let (_, isa) = release(13);
    let ptx = input(13, "c90.ptx");
    let fatbin = input(13, "ptx90.fatbin");
    let loads: [(&str, &Path); 7] = [
        ("cuModuleLoadDataEx", &ptx),
        ("cuModuleLoadDataEx", &ptx),
        ("cuModuleLoadData", &ptx),
        ("cuModuleLoad", &ptx),
        ("cuModuleLoadFatBinary", &fatbin),
        ("cuLibraryLoadData", &ptx),
        ("cuLibraryLoadFromFile", &ptx),
    ];
    let args: Vec<&Path> = loads
        .iter()
        .flat_map(|(entry, file)| [Path::new(entry), *file])
        .collect();
    let (run, log) = on_driver(&args, 13000, 90, &nvjitlink13());
    run.assert_success()
        .assert_line("cuInit rc=0")
        .assert_line("cuCtxSetCurrent rc=0");
    for (i, (entry, _)) in loads.iter().enumerate() {
        let n = i + 1;
        run.assert_line(&format!("{n} {entry} rc=0"));
        let handle = if entry.starts_with("cuLibrary") {
            "cuLibraryGetKernel"
        } else {
            "cuModuleGetFunction"
        };
        run.assert_line(&format!("{n} {handle} rc=0"));
    }
    // What the driver got: CUBINs for sm_90, never PTX; those of the file entry points and the
    // fat binary through the in-memory entry of their kind.
    assert_eq!(
        said(&log),
        [
            "cuModuleLoadDataEx cubin sm_90 -> 0",
            "cuModuleLoadDataEx cubin sm_90 -> 0",
            "cuModuleLoadData cubin sm_90 -> 0",
            "cuModuleLoadData cubin sm_90 -> 0",
            "cuModuleLoadData cubin sm_90 -> 0",
            "cuLibraryLoadData cubin sm_90 -> 0",
            "cuLibraryLoadData cubin sm_90 -> 0",
        ],
        "{run}"
    );
    // Not the caller's buffer.
    for (n, entry) in [
        (1, "cuModuleLoadDataEx"),
        (3, "cuModuleLoadData"),
        (5, "cuModuleLoadFatBinary"),
        (6, "cuLibraryLoadData"),
    ] {
        assert_ne!(
            split_at(&log[n - 1]).1,
            image_of(&run, n, entry),
            "load {n}: {run}"
        );
    }
    // Made by nvJitLink the first time an image and options are seen, from the cache after:
    // cuModuleLoad's file is cuModuleLoadData's text (no options), the library loads' options
    // are cuModuleLoadDataEx's, the fat binary is another input.
    let made = |entry: &str| format!("{entry}: PTX {isa} > the driver's 9.0: sm_90 CUBIN (");
    let cached =
        |entry: &str| format!("{entry}: PTX {isa} > the driver's 9.0: sm_90 CUBIN from the cache");
    let lines = reconcile_lines(&run);
    assert_eq!(lines.len(), 7, "{run}");
    for (line, (entry, from_cache)) in lines.iter().zip([
        ("cuModuleLoadDataEx", false),
        ("cuModuleLoadDataEx", true),
        ("cuModuleLoadData", false),
        ("cuModuleLoad", true),
        ("cuModuleLoadFatBinary", false),
        ("cuLibraryLoadData", true),
        ("cuLibraryLoadFromFile", true),
    ]) {
        if from_cache {
            assert_eq!(*line, cached(entry), "{run}");
        } else {
            assert!(
                line.starts_with(&made(entry)) && line.contains(" bytes) by nvJitLink 13.5 in "),
                "{line}: {run}"
            );
        }
    }
    // JIT outputs of the first load (compiled): the info log nvJitLink wrote (-verbose: ptxas's
    // report for the kernel, so -maxrregcount and -lineinfo reached it as options it took),
    // NUL-terminated, its size written back with the NUL; the error log empty (size 0, NUL at
    // 0); the wall time positive.
    let info = run.line("1 infolog");
    assert!(info.contains(" terminated=1 text="), "{run}");
    let size: usize = info
        .split_once("size=")
        .and_then(|(_, r)| r.split_once(' '))
        .and_then(|(s, _)| s.parse().ok())
        .expect("size=N");
    assert!(size > 1, "{run}");
    assert!(
        info.contains("for 'scale' with  32 of maxrregcount option"),
        "{run}"
    );
    run.assert_line("1 errorlog size=0 terminated=1 text=")
        .assert_line("1 walltime positive=1");
    // From the cache: nothing to say, no time taken.
    run.assert_line("2 infolog size=0 terminated=1 text=")
        .assert_line("2 errorlog size=0 terminated=1 text=");
    for n in [6, 7] {
        run.assert_line(&format!("{n} errorlog size=0 terminated=1 text="));
    }
}

/// A library loaded with no current context is loaded for every device: the CUBIN is made for
/// the devices' architecture, asked of the driver.
#[test]
fn library_without_a_context() {
    let ptx = input(13, "c90.ptx");
    let args = [
        Path::new("--no-context"),
        Path::new("cuLibraryLoadData"),
        &ptx,
    ];
    let (run, log) = on_driver(&args, 13000, 90, &nvjitlink13());
    run.assert_success()
        .assert_line("1 cuLibraryLoadData rc=0")
        .assert_line("1 cuLibraryGetKernel rc=0");
    assert_eq!(said(&log), ["cuLibraryLoadData cubin sm_90 -> 0"], "{run}");
}

/// What the driver reads passes untouched, the caller's own buffer, and no nvJitLink is looked
/// for: PTX 8.8 (NVRTC 12.9) on a 13.0 driver, PTX 9.5 on a 13.5 one, a CUBIN, a fat binary
/// holding a CUBIN for the device.
#[test]
fn what_the_driver_reads_passes_untouched() {
    let (thirteen, isa13) = release(13);
    let (_, isa12) = release(12);
    let cases: [(i32, &str, PathBuf, String); 5] = [
        (
            13000,
            "cuModuleLoadData",
            input(12, "c90.ptx"),
            format!("cuModuleLoadData ptx {isa12} sm_90 -> 0"),
        ),
        (
            thirteen,
            "cuModuleLoadDataEx",
            input(13, "c90.ptx"),
            format!("cuModuleLoadDataEx ptx {isa13} sm_90 -> 0"),
        ),
        (
            13000,
            "cuModuleLoadData",
            input(13, "jitlink90.cubin"),
            "cuModuleLoadData cubin sm_90 -> 0".to_owned(),
        ),
        (
            13000,
            "cuModuleLoadFatBinary",
            input(13, "cubin90.fatbin"),
            "cuModuleLoadFatBinary fatbin cubin sm_90 -> 0".to_owned(),
        ),
        (
            thirteen,
            "cuLibraryLoadData",
            input(13, "c90.ptx"),
            format!("cuLibraryLoadData ptx {isa13} sm_90 -> 0"),
        ),
    ];
    for (version, entry, file, expected) in cases {
        // No nvJitLink to find: none is needed.
        let (run, log) = on_driver(&[Path::new(entry), &file], version, 90, &no_nvjitlink());
        run.assert_success().assert_line(&format!("1 {entry} rc=0"));
        assert_eq!(said(&log), [expected.as_str()], "{run}");
        assert_eq!(
            split_at(&log[0]).1,
            image_of(&run, 1, entry),
            "not the caller's buffer: {run}"
        );
        assert!(reconcile_lines(&run).is_empty(), "{run}");
        assert!(!run.stderr.contains("nvJitLink"), "{run}");
    }
    // The file entry point: the driver reads the PTX file itself.
    let ptx12 = input(12, "c90.ptx");
    let (run, log) = on_driver(
        &[Path::new("cuModuleLoad"), &ptx12],
        13000,
        90,
        &no_nvjitlink(),
    );
    run.assert_line("1 cuModuleLoad rc=0");
    assert_eq!(
        said(&log),
        [format!("cuModuleLoad ptx {isa12} sm_90 -> 0")],
        "{run}"
    );
}

/// Without an nvJitLink that reads PTX 9.5 the image is passed on and the driver answers its
/// own 222 (and fills its own error log); the debug log says why and what would fix it.
#[test]
fn without_nvjitlink_the_driver_answers() {
    let (_, isa) = release(13);
    let ptx = input(13, "c90.ptx");
    let args = [
        Path::new("cuModuleLoadData"),
        &ptx,
        Path::new("cuModuleLoadDataEx"),
        &ptx,
    ];
    let missing = no_nvjitlink();
    let (run, log) = on_driver(&args, 13000, 90, &missing);
    run.assert_success()
        .assert_line(&format!("1 cuModuleLoadData rc={UNSUPPORTED_PTX}"))
        .assert_line(&format!("2 cuModuleLoadDataEx rc={UNSUPPORTED_PTX}"));
    assert!(
        run.line("2 errorlog")
            .contains(&format!("Unsupported .version {isa}")),
        "{run}"
    );
    assert_eq!(
        said(&log),
        [
            format!("cuModuleLoadData ptx {isa} sm_90 -> {UNSUPPORTED_PTX}"),
            format!("cuModuleLoadDataEx ptx {isa} sm_90 -> {UNSUPPORTED_PTX}"),
        ],
        "{run}"
    );
    // The caller's own buffer reached the driver.
    assert_eq!(split_at(&log[0]).1, image_of(&run, 1, "cuModuleLoadData"));
    let lines = reconcile_lines(&run);
    assert!(!lines.is_empty(), "{run}");
    for line in &lines {
        assert!(
            line.contains("no nvJitLink was found")
                && line.contains("the driver answers 222")
                && line.contains("nvidia-nvjitlink")
                && line.contains("13.5"),
            "{line}: {run}"
        );
    }
    // The search looked where it was told and everywhere else (no LD_LIBRARY_PATH, no
    // VIRTUAL_ENV, CONDA_PREFIX or CUDA_HOME: `Scenario` passes only what it sets), found
    // nothing, and looked once.
    run.assert_debug(
        "nvjitlink",
        &format!(
            "try {} [environment override]: rejected: not found",
            missing.display()
        ),
    )
    .assert_debug(
        "nvjitlink",
        "no library found: calls return the stub's \"library not found\" error",
    );
    assert_eq!(
        run.debug("nvjitlink")
            .iter()
            .filter(|l| l.starts_with("no library found"))
            .count(),
        1,
        "{run}"
    );

    // An nvJitLink that is too old to read it (12.9's reads up to 8.8): the same.
    let old = cuda_layout(12).nvjitlink.expect("nvJitLink 12");
    let (run, log) = on_driver(&args[..2], 13000, 90, &old);
    run.assert_line(&format!("1 cuModuleLoadData rc={UNSUPPORTED_PTX}"));
    assert_eq!(
        said(&log),
        [format!(
            "cuModuleLoadData ptx {isa} sm_90 -> {UNSUPPORTED_PTX}"
        )]
    );
    let lines = reconcile_lines(&run);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("CUDA 12.9) reads PTX up to 8.8")
                && l.contains("nvidia-nvjitlink")
                && l.contains("13.5")),
        "{run}"
    );
}

/// An architecture-specific target stays specific on its own device: `.target sm_90a` (NVRTC
/// 13.5's compute_90 PTX, its target made sm_90a: the kernel uses nothing specific) becomes an
/// sm_90a CUBIN.
#[test]
fn arch_specific_target_stays_specific() {
    let text = std::fs::read_to_string(input(13, "c90.ptx")).expect("PTX");
    let specific = text.replace("\n.target sm_90\n", "\n.target sm_90a\n");
    assert_ne!(text, specific);
    let file = temp_dir("ptx-sm90a").join("c90a.ptx");
    std::fs::write(&file, specific).expect("write");
    let (run, log) = on_driver(
        &[Path::new("cuModuleLoadData"), &file],
        13000,
        90,
        &nvjitlink13(),
    );
    run.assert_success().assert_line("1 cuModuleLoadData rc=0");
    assert_eq!(said(&log), ["cuModuleLoadData cubin sm_90 -> 0"], "{run}");
    let lines = reconcile_lines(&run);
    assert!(
        lines.len() == 1 && lines[0].contains(": sm_90a CUBIN ("),
        "{run}"
    );
}

/// A driver link (`cuLinkCreate` … `cuLinkComplete`) given NVRTC 13.5's PTX 9.5 on a 13.0
/// driver, which answers 222 at `cuLinkAddData`/`cuLinkAddFile` (`stand_in_driver.rs`): that
/// input is held back from the driver, and `cuLinkComplete` hands out the sm_90 CUBIN nvJitLink
/// 13.5 links from every input of the link, in order (PTX 8.8 from NVRTC 12.9, of another
/// kernel, went to the driver as well), which the driver loads; the link's logs and wall time
/// are filled as cuda.h says. By data (the caller's buffer cleared before completion) and by
/// file. On a 13.5 driver the link is the driver's alone; without nvJitLink the driver answers
/// 222 and the debug log says what would fix it.
#[test]
fn links_with_newer_ptx_are_linked_by_nvjitlink() {
    let (_, isa) = release(13);
    let (_, old_isa) = release(12);
    let ptx = input(13, "c90.ptx");
    // Another kernel of a PTX ISA the 13.0 driver reads.
    let text = std::fs::read_to_string(input(12, "c90.ptx")).expect("PTX");
    let other = temp_dir("ptx-link").join("other.ptx");
    std::fs::write(&other, text.replace("scale", "other_scale")).expect("write");
    let both = std::ffi::OsString::from(format!("{},{}", other.display(), ptx.display()));
    let both = Path::new(&both);
    let args = [
        Path::new("cuLinkAddData"),
        both,
        Path::new("cuLinkAddFile"),
        &ptx,
    ];
    let (run, log) = on_driver(&args, 13000, 90, &nvjitlink13());
    run.assert_success()
        .assert_line("1 cuLinkAddData input=1 rc=0")
        .assert_line("1 cuLinkAddData input=2 rc=0")
        .assert_line("2 cuLinkAddFile input=1 rc=0");
    for (n, entry) in [(1, "cuLinkAddData"), (2, "cuLinkAddFile")] {
        let size: usize = field(run.line(&format!("{n} cuLinkComplete rc=0")), "size")
            .parse()
            .expect("size");
        // Not the stand-in's own 64-byte link output: nvJitLink's CUBIN.
        assert!(size > 64, "{run}");
        run.assert_line(&format!("{n} cuModuleLoadData rc=0"))
            .assert_line(&format!("{n} cuModuleGetFunction rc=0"))
            .assert_line(&format!("{n} errorlog size=0 terminated=1 text="))
            .assert_line(&format!("{n} walltime positive=1"))
            .assert_line(&format!("{n} cuLinkDestroy rc=0"))
            .assert_line(&format!("{n} {entry} rc=0"));
        // cuLinkCreate's options reached nvJitLink (-verbose, -maxrregcount=32), for the
        // first input's kernel (the driver's PTX of the first link included).
        let kernel = if n == 1 { "other_scale" } else { "scale" };
        assert!(
            run.line(&format!("{n} infolog"))
                .contains(&format!("for '{kernel}' with  32 of maxrregcount option")),
            "{run}"
        );
    }
    // The driver saw the PTX it reads and the CUBINs it loads, never PTX 9.5.
    assert_eq!(
        said(&log),
        [
            format!("cuLinkAddData ptx {old_isa} sm_90 -> 0"),
            "cuModuleLoadData cubin sm_90 -> 0".to_owned(),
            "cuModuleLoadData cubin sm_90 -> 0".to_owned(),
        ],
        "{run}"
    );
    let lines = reconcile_lines(&run);
    let held = |entry: &str| {
        format!(
            "{entry}: PTX {isa} > the driver's 9.0: held back, nvJitLink links the whole link for sm_90 at cuLinkComplete"
        )
    };
    assert_eq!(lines.len(), 4, "{run}");
    assert_eq!(lines[0], held("cuLinkAddData"), "{run}");
    assert_eq!(lines[2], held("cuLinkAddFile"), "{run}");
    for (line, inputs) in [(lines[1], 2), (lines[3], 1)] {
        assert!(
            line.starts_with(&format!(
                "cuLinkComplete: PTX {isa} > the driver's CUDA 13.0: sm_90 CUBIN ("
            )) && line.contains(&format!(" bytes) of {inputs} inputs by nvJitLink 13.5 in ")),
            "{line}: {run}"
        );
    }

    // A 13.5 driver reads PTX 9.5: the link is the driver's, its 64-byte output loaded.
    let (run, log) = on_driver(&args[2..], 13050, 90, &nvjitlink13());
    run.assert_success()
        .assert_line("1 cuLinkAddFile input=1 rc=0")
        .assert_line("1 cuLinkComplete rc=0 size=64")
        .assert_line("1 cuModuleLoadData rc=0");
    assert_eq!(
        said(&log),
        [
            format!("cuLinkAddFile ptx {isa} sm_90 -> 0"),
            "cuModuleLoadData cubin sm_90 -> 0".to_owned()
        ],
        "{run}"
    );
    assert!(reconcile_lines(&run).is_empty(), "{run}");

    // No nvJitLink: the driver's 222, and why.
    let (run, log) = on_driver(&args[..2], 13000, 90, &no_nvjitlink());
    run.assert_success()
        .assert_line("1 cuLinkAddData input=1 rc=0")
        .assert_line(&format!("1 cuLinkAddData input=2 rc={UNSUPPORTED_PTX}"))
        .assert_line(&format!("1 cuLinkComplete rc={UNSUPPORTED_PTX} size=0"));
    assert_eq!(
        said(&log),
        [
            format!("cuLinkAddData ptx {old_isa} sm_90 -> 0"),
            format!("cuLinkAddData ptx {isa} sm_90 -> {UNSUPPORTED_PTX}"),
        ],
        "{run}"
    );
    let lines = reconcile_lines(&run);
    assert!(
        lines.len() == 1
            && lines[0].starts_with(&format!(
                "cuLinkAddData: PTX {isa} is newer than this driver's 9.0"
            ))
            && lines[0].contains("no nvJitLink was found"),
        "{run}"
    );
}

/// One run of the runtime program on the mock runtime (driver `version`, sm_90 devices).
fn on_runtime(args: &[&Path], version: i32, nvjitlink: &Path) -> (Outcome, Vec<String>) {
    let log = temp_dir("ptx-loads-runtime-log").join("runtime.log");
    let run = Scenario::new(program(true))
        .args(args)
        .debug()
        .env(
            "CUDA_STUBS_CUDART_PATH",
            mock("mock-device-code").join("libcudart.so.13"),
        )
        .env("CUDA_STUBS_NVJITLINK_PATH", nvjitlink)
        .env("MOCK_DRIVER_VERSION", version.to_string())
        .env("MOCK_DEVICE_CODE_LOG", &log)
        .run();
    let lines = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect();
    (run, lines)
}

/// The `key=value` of a line of words.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split(' ')
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
}

/// The runtime stub: nvcc's registration of a fat binary whose only code is PTX 9.5 registers
/// a copy with an sm_90 CUBIN first (the PTX still in it); `cudaLibraryLoadData` and
/// `cudaLibraryLoadFromFile` of the PTX hand the runtime a CUBIN; a fat binary with an sm_90
/// CUBIN, and everything on a 13.5 driver, is passed untouched.
#[test]
fn runtime_registers_and_loads_cubins() {
    let (thirteen, isa) = release(13);
    let ptx = input(13, "c90.ptx");
    let ptx_fat = input(13, "ptx90.fatbin");
    let cubin_fat = input(13, "cubin90.fatbin");
    let args = [
        Path::new("register"),
        &ptx_fat,
        Path::new("register"),
        &cubin_fat,
        Path::new("cudaLibraryLoadData"),
        &ptx,
        Path::new("cudaLibraryLoadFromFile"),
        &ptx,
    ];
    let (run, log) = on_runtime(&args, 13000, &nvjitlink13());
    assert!(
        run.line("1 register wrapper").ends_with(" handle-null=0"),
        "{run}"
    );
    run.assert_success()
        .assert_line("3 cudaLibraryLoadData rc=0")
        .assert_line("4 cudaLibraryLoadFromFile rc=0");
    assert_eq!(log.len(), 4, "{run}\n{log:?}");
    // 1: a copy (wrapper and data), a CUBIN entry first, the PTX kept.
    let given = run.line("1 register wrapper");
    let got = &log[0];
    assert!(got.starts_with("__cudaRegisterFatBinary "), "{got}");
    assert_ne!(field(got, "wrapper"), field(given, "wrapper"), "{got}");
    assert_ne!(field(got, "data"), field(given, "data"), "{got}");
    assert!(
        got.contains("magic=0x466243b1 version=1 ")
            && got.ends_with(&format!(" fatbin cubin sm_90 elf=1 ptx {isa} compute_90")),
        "{got}\n{run}"
    );
    // 2: untouched.
    let given = run.line("2 register wrapper");
    let got = &log[1];
    assert_eq!(field(got, "wrapper"), field(given, "wrapper"), "{got}");
    assert_eq!(field(got, "data"), field(given, "data"), "{got}");
    assert!(got.ends_with(" fatbin cubin sm_90 elf=1"), "{got}");
    // 3, 4: a CUBIN, not the caller's PTX.
    assert!(log[2].starts_with("cudaLibraryLoadData at ") && log[2].ends_with(" cubin sm_90"));
    assert_ne!(
        log[2].split(' ').nth(2),
        Some(image_of(&run, 3, "cudaLibraryLoadData").as_str()),
        "{run}"
    );
    assert!(log[3].ends_with(" cubin sm_90"), "{log:?}");

    // On a 13.5 driver: every image as given.
    let (run, log) = on_runtime(&args, thirteen, &no_nvjitlink());
    run.assert_success();
    let given = run.line("1 register wrapper");
    assert_eq!(field(&log[0], "wrapper"), field(given, "wrapper"));
    assert!(
        log[0].ends_with(&format!(" fatbin ptx {isa} compute_90")),
        "{log:?}"
    );
    assert_eq!(
        log[2],
        format!(
            "cudaLibraryLoadData at {} ptx {isa}",
            image_of(&run, 3, "cudaLibraryLoadData")
        )
    );
    assert_eq!(log[3], format!("cudaLibraryLoadFromFile file ptx {isa}"));
}

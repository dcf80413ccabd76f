//! NVIDIA's real libraries (the 11.8, 12.9 and 13.0 wheels from `scripts/fetch-cuda.py`) behind
//! the stubs, each major in its own process with `LD_LIBRARY_PATH` = that wheel's library
//! folders, and no library at all. There is no GPU and no driver: the runtime answers
//! `cudaErrorInsufficientDriver` (35) where it needs one, NVRTC compiles for real. Never skipped.

use stubs_tests::{Layout, Scenario, cuda_layout, temp_dir};

const LOADER: &str = "dynamic loader search";
const NO_DRIVER: &str = "CUDA driver version is insufficient for CUDA runtime version";

/// The PTX ISA version each fetched NVRTC (11.8, 12.9, 13.5) emits by default.
fn ptx_isa(major: u32) -> &'static str {
    match major {
        11 => "7.8",
        12 => "8.8",
        _ => "9.5",
    }
}

/// `nvrtcVersion` is the wheel's `major.minor`; the stub bound the wheel's file by the loader
/// search with that version.
fn nvrtc_version(major: u32) {
    let layout = cuda_layout(major);
    let run = Scenario::probe(["nvrtcVersion", "status:nvrtc"])
        .library_path(layout.lib_dirs())
        .debug()
        .run();
    let (maj, min) = layout
        .major_minor()
        .split_once('.')
        .map(|(a, b)| {
            (
                a.parse::<i32>().expect("major"),
                b.parse::<i32>().expect("minor"),
            )
        })
        .expect("major.minor");
    run.assert_success()
        .assert_line(&format!("nvrtcVersion rc=0 out={maj}.{min}"))
        .assert_bound("nvrtc", &layout.nvrtc, maj * 1000 + min * 10, LOADER)
        .assert_line(&format!("status nvrtc path={}", layout.nvrtc.display()))
        .assert_line(&format!("status nvrtc found_by={LOADER}"));
}

/// A vector add compiled to PTX and to CUBIN through the stub, the bytes checked.
fn nvrtc_compiles(major: u32) {
    let layout = cuda_layout(major);
    let dir = temp_dir(&format!("real-{major}-nvrtc"));
    let ptx = dir.join("vector_add.ptx");
    let cubin = dir.join("vector_add.cubin");
    let run = Scenario::probe([
        format!("nvrtc-compile:compute_80:ptx:{}", ptx.display()),
        format!("nvrtc-compile:sm_80:cubin:{}", cubin.display()),
    ])
    .library_path(layout.lib_dirs())
    .run();
    run.assert_success().assert_silent();
    let lines: Vec<&str> = run.stdout.lines().collect();
    let ptx_size = run.line("nvrtcGetPTXSize rc=0 out")["nvrtcGetPTXSize rc=0 out=".len()..]
        .parse::<u64>()
        .expect("PTX size");
    let cubin_size = run.line("nvrtcGetCUBINSize rc=0 out")["nvrtcGetCUBINSize rc=0 out=".len()..]
        .parse::<u64>()
        .expect("CUBIN size");
    assert_eq!(
        lines
            .iter()
            .filter(|l| **l == "nvrtcCompileProgram rc=0")
            .count(),
        2,
        "{run}"
    );
    run.assert_line("nvrtcGetPTX rc=0")
        .assert_line("nvrtcGetCUBIN rc=0");

    let text = std::fs::read(&ptx).expect("PTX written");
    assert_eq!(text.len() as u64, ptx_size);
    let text = String::from_utf8_lossy(&text);
    assert!(text.starts_with("//"), "{text}");
    assert!(text.contains(".visible .entry vector_add("), "{text}");
    assert!(
        text.contains(&format!("\n.version {}\n", ptx_isa(major))),
        "{text}"
    );
    assert!(text.contains("\n.target compute_80\n") || text.contains("\n.target sm_80\n"));
    assert!(
        text.contains(&format!(
            "Cuda compilation tools, release {}",
            layout.major_minor()
        )),
        "{text}"
    );

    let bytes = std::fs::read(&cubin).expect("CUBIN written");
    assert_eq!(bytes.len() as u64, cubin_size);
    assert_eq!(&bytes[..4], b"\x7fELF");
    assert_eq!(bytes[4], 2, "ELFCLASS64");
    assert_eq!(
        u16::from_le_bytes([bytes[18], bytes[19]]),
        190,
        "e_machine EM_CUDA"
    );
}

/// The runtime without a driver: version (11.8 cannot report it: 35, bound by soname as 11000),
/// device count 35 or 100, error strings forwarded, `cudaThreadSynchronize` gated on 13 only,
/// `cudaMemPoolCreate` forwarded to every major (13.5's `cudaMemLocation` keeps the ABI: the
/// runtime's own no-driver answer, never the stub's 801).
fn runtime(major: u32) {
    let layout: Layout = cuda_layout(major);
    let run = Scenario::probe([
        "cudaRuntimeGetVersion",
        "cudaGetDeviceCount",
        "cudaThreadSynchronize",
        "cudaMemPoolCreate",
        "cudaGetErrorString:35",
        "cudaGetErrorName:35",
        "status:cudart",
    ])
    .library_path(layout.lib_dirs())
    .debug()
    .run();
    run.assert_success()
        .assert_line(&format!("cudaGetErrorString(35) = {NO_DRIVER}"))
        .assert_line("cudaGetErrorName(35) = cudaErrorInsufficientDriver");
    let version = match major {
        11 => {
            run.assert_line("cudaRuntimeGetVersion rc=35 out=-7777");
            11000
        }
        12 => {
            run.assert_line("cudaRuntimeGetVersion rc=0 out=12090");
            12090
        }
        _ => {
            let code = layout.version_code();
            run.assert_line(&format!("cudaRuntimeGetVersion rc=0 out={code}"));
            code
        }
    };
    run.assert_bound("cudart", &layout.cudart, version, LOADER);
    assert!(
        run.line("status cudart rc=0")
            .starts_with(&format!("status cudart rc=0 bound=1 version={version} ")),
        "{run}"
    );
    let count = run.line("cudaGetDeviceCount");
    assert!(
        count == "cudaGetDeviceCount rc=35 out=-7777"
            || count.starts_with("cudaGetDeviceCount rc=100 "),
        "{run}"
    );
    let pool = run.line("cudaMemPoolCreate");
    assert!(
        pool.starts_with("cudaMemPoolCreate rc=35 ")
            || pool.starts_with("cudaMemPoolCreate rc=100 "),
        "{run}"
    );
    assert!(!run.stderr.contains("cudaMemPoolCreate"), "{run}");
    if major >= 13 {
        // Gone from 13.0: bound to cudaDeviceSynchronize, which answers 35 without a driver.
        run.assert_line("cudaThreadSynchronize rc=35");
        let absent = run
            .debug("cudart")
            .into_iter()
            .any(|l| l.starts_with("cudaThreadSynchronize: absent in CUDA 13 ("));
        assert!(absent, "{run}");
        run.assert_debug(
            "cudart",
            "cudaThreadSynchronize: absent, bound to its replacement cudaDeviceSynchronize",
        );
    } else {
        // Forwarded: the real runtime's own answer without a driver.
        let line = run.line("cudaThreadSynchronize");
        assert!(
            line == "cudaThreadSynchronize rc=35" || line == "cudaThreadSynchronize rc=100",
            "{run}"
        );
        assert!(!run.stderr.contains("cudaThreadSynchronize"), "{run}");
    }
}

/// `nvrtcGetNVVM` with a NULL program: forwarded on 11/12 (the real NVRTC rejects the input,
/// `NVRTC_ERROR_INVALID_PROGRAM` = 4); 13.x removed the name and has it as `nvrtcGetLTOIR`
/// (renamed in 12.0, same prototype), which answers the same.
fn nvrtc_gating(major: u32) {
    let layout = cuda_layout(major);
    let run = Scenario::probe(["nvrtcGetNVVM", "nvrtcGetErrorString:4"])
        .library_path(layout.lib_dirs())
        .debug()
        .run();
    run.assert_success()
        .assert_line("nvrtcGetErrorString(4) = NVRTC_ERROR_INVALID_PROGRAM")
        .assert_line("nvrtcGetNVVM rc=4 out=sentinel");
    let replaced = run
        .debug("nvrtc")
        .contains(&"nvrtcGetNVVM: absent, bound to its replacement nvrtcGetLTOIR");
    assert_eq!(replaced, major >= 13, "{run}");
}

/// `-dlto` output read through both names of the LTO-IR getters (renamed in CUDA 12.0): on
/// every major both give the same real LTO-IR, through whichever name the NVRTC has.
fn nvrtc_lto_ir_under_both_names(major: u32) {
    let layout = cuda_layout(major);
    let dir = temp_dir(&format!("real-{major}-ltoir"));
    let files = ["ltoir", "nvvm"].map(|kind| dir.join(format!("saxpy.{kind}")));
    let run = Scenario::probe([
        format!("nvrtc-compile:compute_80:ltoir:{}", files[0].display()),
        format!("nvrtc-compile:compute_80:nvvm:{}", files[1].display()),
    ])
    .library_path(layout.lib_dirs())
    .run();
    run.assert_success()
        .assert_silent()
        .assert_line("nvrtcGetLTOIR rc=0")
        .assert_line("nvrtcGetNVVM rc=0");
    let sizes = ["nvrtcGetLTOIRSize", "nvrtcGetNVVMSize"].map(|name| {
        let prefix = format!("{name} rc=0 out");
        run.line(&prefix)[prefix.len() + 1..]
            .parse::<u64>()
            .expect("size")
    });
    let [a, b] = files.map(|f| std::fs::read(f).expect("LTO-IR written"));
    assert!(sizes[0] > 0 && sizes[0] == a.len() as u64, "{run}");
    assert_eq!(sizes[0], sizes[1], "{run}");
    assert!(a == b, "the two names gave different LTO-IR on {major}");
}

#[test]
fn real_11_nvrtc_lto_ir_under_both_names() {
    nvrtc_lto_ir_under_both_names(11);
}

#[test]
fn real_12_nvrtc_lto_ir_under_both_names() {
    nvrtc_lto_ir_under_both_names(12);
}

#[test]
fn real_13_nvrtc_lto_ir_under_both_names() {
    nvrtc_lto_ir_under_both_names(13);
}

#[test]
fn real_11_nvrtc_version() {
    nvrtc_version(11);
}

#[test]
fn real_12_nvrtc_version() {
    nvrtc_version(12);
}

#[test]
fn real_13_nvrtc_version() {
    nvrtc_version(13);
}

#[test]
fn real_11_nvrtc_compiles_ptx_and_cubin() {
    nvrtc_compiles(11);
}

#[test]
fn real_12_nvrtc_compiles_ptx_and_cubin() {
    nvrtc_compiles(12);
}

#[test]
fn real_13_nvrtc_compiles_ptx_and_cubin() {
    nvrtc_compiles(13);
}

#[test]
fn real_11_runtime_without_driver() {
    runtime(11);
}

#[test]
fn real_12_runtime_without_driver() {
    runtime(12);
}

#[test]
fn real_13_runtime_without_driver() {
    runtime(13);
}

#[test]
fn real_11_nvrtc_gating() {
    nvrtc_gating(11);
}

#[test]
fn real_12_nvrtc_gating() {
    nvrtc_gating(12);
}

#[test]
fn real_13_nvrtc_gating() {
    nvrtc_gating(13);
}

/// The override pins a major even where the loader search would find a newer one (what the
/// main job does): 12.9 by `CUDA_STUBS_*_PATH` with 13.0 on LD_LIBRARY_PATH.
#[test]
fn real_override_pins_12_over_13() {
    let twelve = cuda_layout(12);
    let thirteen = cuda_layout(13);
    let run = Scenario::probe(["cudaRuntimeGetVersion", "nvrtcVersion"])
        .env("CUDA_STUBS_CUDART_PATH", &twelve.cudart)
        .env("CUDA_STUBS_NVRTC_PATH", &twelve.nvrtc)
        .library_path(thirteen.lib_dirs())
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_line("nvrtcVersion rc=0 out=12.9")
        .assert_bound("cudart", &twelve.cudart, 12090, "environment override")
        .assert_bound("nvrtc", &twelve.nvrtc, 12090, "environment override");
}

/// NVRTC 13 found by path (override), outside LD_LIBRARY_PATH: its builtins library is
/// preloaded from its folder, and a compilation works.
#[test]
fn real_13_nvrtc_by_path_preloads_builtins() {
    let layout = cuda_layout(13);
    let ptx = temp_dir("real-13-override").join("out.ptx");
    let run = Scenario::probe([format!("nvrtc-compile:compute_80:ptx:{}", ptx.display())])
        .env("CUDA_STUBS_NVRTC_PATH", &layout.nvrtc)
        .debug()
        .run();
    let dir = layout.nvrtc.parent().expect("dir");
    run.assert_success()
        .assert_line("nvrtcCompileProgram rc=0")
        .assert_line("nvrtcGetPTX rc=0")
        .assert_debug(
            "nvrtc",
            &format!(
                "preloaded {}",
                dir.join(format!("libnvrtc-builtins.so.{}", layout.major_minor()))
                    .display()
            ),
        )
        .assert_bound(
            "nvrtc",
            &layout.nvrtc,
            layout.version_code(),
            "environment override",
        );
    let text = std::fs::read_to_string(&ptx).expect("PTX");
    assert!(text.contains(".entry vector_add("));
}

/// No library: empty LD_LIBRARY_PATH, no override. 34 / 11 / 34 and the stubs' own strings.
#[test]
fn real_none() {
    let run = Scenario::probe([
        "cudaRuntimeGetVersion",
        "cudaGetDeviceCount",
        "nvrtcVersion",
        "cuInit:0",
        "cudaGetErrorString:34",
        "nvrtcGetErrorString:11",
        "cuGetErrorString:34",
    ])
    .env("LD_LIBRARY_PATH", "")
    .run();
    run.assert_success()
        .assert_silent()
        .assert_line("cudaRuntimeGetVersion rc=34 out=-7777")
        .assert_line("cudaGetDeviceCount rc=34 out=-7777")
        .assert_line("nvrtcVersion rc=11 out=-7777.-7777")
        .assert_line("cuInit rc=34");
    for (prefix, text) in [
        (
            "cudaGetErrorString(34)",
            "cudaGetErrorString(34) = cuda-stubs: libcudart not found (searched ",
        ),
        (
            "nvrtcGetErrorString(11)",
            "nvrtcGetErrorString(11) = cuda-stubs: libnvrtc not found (searched ",
        ),
        (
            "cuGetErrorString(34)",
            "cuGetErrorString(34) rc=0 out=cuda-stubs: libcuda not found (searched ",
        ),
    ] {
        assert!(run.line(prefix).starts_with(text), "{run}");
    }
}

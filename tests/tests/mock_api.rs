//! The rest of the API real programs call, on the mock device (issue 48 item 5): functions'
//! attributes read off the kernel's CUBIN and the occupancy API computed from them and the
//! profile (`tests/cuda/occupancy.cu`, built by NVIDIA's nvcc 13.x, linked only to the runtime
//! and driver stubs). What the mock answers is checked against sources independent of it: the
//! registers, local and shared memory `ptxas -v` reports for the same kernels, and NVIDIA's own
//! occupancy calculator (`cuda_occupancy.h`, compiled into the program) over the attributes and
//! properties the API gave. `tests/gpu/occupancy.sh` runs the same program on a board and
//! compares its lines with the mock's.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use stubs_tests::{Outcome, Scenario, build_stubs, cuda_layout, stubs_dir, temp_dir};

/// The kernels of `occupancy.cu`.
const KERNELS: [&str; 4] = ["heavy", "light", "bounded", "dyn"];

/// What `ptxas -v` says of one kernel: registers, local bytes (its stack frame), static shared
/// bytes.
#[derive(Debug, Default, Clone, Copy)]
struct Ptxas {
    regs: u64,
    local: u64,
    shared: u64,
}

/// The program, the CUBIN of its source for sm_90 (the profile's device), and what `ptxas -v`
/// said of each kernel while building it.
fn built() -> &'static (PathBuf, PathBuf, BTreeMap<String, Ptxas>) {
    static BUILT: OnceLock<(PathBuf, PathBuf, BTreeMap<String, Ptxas>)> = OnceLock::new();
    BUILT.get_or_init(|| {
        build_stubs(&[stubs_tests::MOCK_PACKAGE]);
        let dir = temp_dir("mock-api");
        let stubs = stubs_dir();
        let lib_dir = format!("-L{}", stubs.display());
        let exe = stubs_tests::nvcc_with_stub(
            &dir,
            "occupancy",
            "cuda/occupancy.cu",
            &["-arch=sm_90", &lib_dir, "-lstubs_cuda"],
        );
        let nvcc = cuda_layout(13).nvcc.expect("CUDA 13's nvcc");
        let cubin = dir.join("occupancy.cubin");
        let out = Command::new(&nvcc)
            .args(["-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o"])
            .arg(&cubin)
            .arg(stubs_tests::workspace_root().join("tests/cuda/occupancy.cu"))
            .env("TMPDIR", &dir)
            .output()
            .expect("run nvcc");
        let log = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "nvcc -cubin: {log}");
        (exe, cubin, ptxas_report(&log))
    })
}

/// The number before `unit` in `line` (`Used 40 registers`, `160 bytes stack frame`).
fn number_before(line: &str, unit: &str) -> Option<u64> {
    let (before, _) = line.split_once(unit)?;
    before.split_whitespace().last()?.parse().ok()
}

/// Each kernel's figures from `ptxas -v`'s log: `Compiling entry function 'K'`, then its
/// `N bytes stack frame` and `Used N registers, …, N bytes smem` lines.
fn ptxas_report(log: &str) -> BTreeMap<String, Ptxas> {
    let mut report = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in log.lines() {
        if let Some(rest) = line.split_once("Compiling entry function '") {
            current = rest.1.split('\'').next().map(str::to_owned);
            continue;
        }
        let Some(name) = &current else { continue };
        let entry: &mut Ptxas = report.entry(name.clone()).or_default();
        if let Some(frame) = number_before(line, "bytes stack frame") {
            entry.local = frame;
        }
        if let Some(regs) = number_before(line, "registers") {
            entry.regs = regs;
            entry.shared = number_before(line, "bytes smem").unwrap_or(0);
        }
    }
    report
}

fn run() -> &'static Outcome {
    static RUN: OnceLock<Outcome> = OnceLock::new();
    RUN.get_or_init(|| {
        let (exe, cubin, _) = built();
        let run = Scenario::new(exe)
            .env("CUDA_STUBS_MOCK", "h200")
            .arg_path(cubin)
            .run();
        run.assert_success();
        run
    })
}

/// The `key=value` fields of the one line starting with `prefix`.
fn fields(run: &Outcome, prefix: &str) -> BTreeMap<String, String> {
    let found: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with(prefix))
        .collect();
    assert_eq!(found.len(), 1, "expected one line `{prefix}…`: {run}");
    found[0]
        .split_whitespace()
        .filter_map(|w| w.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// `cudaFuncGetAttributes` and `cuFuncGetAttribute` answer what `ptxas -v` reported for each
/// kernel, the two APIs the same; `__launch_bounds__` bounds the threads per block.
#[test]
fn function_attributes_are_read_off_the_cubin() {
    let (_, _, ptxas) = built();
    let run = run();
    for kernel in KERNELS {
        let want = ptxas
            .get(kernel)
            .unwrap_or_else(|| panic!("ptxas said nothing of {kernel}: {ptxas:?}"));
        let rt = fields(run, &format!("{kernel} cudaFuncGetAttributes "));
        let drv = fields(run, &format!("{kernel} cuFuncGetAttribute "));
        assert_eq!(rt["rc"], "0", "{run}");
        assert_eq!(drv["rc"], "0", "{run}");
        assert_eq!(rt["regs"], want.regs.to_string(), "{kernel}: {run}");
        assert_eq!(rt["local"], want.local.to_string(), "{kernel}: {run}");
        assert_eq!(rt["shared"], want.shared.to_string(), "{kernel}: {run}");
        assert_eq!(rt["binary"], "90", "{kernel}: {run}");
        for key in [
            "regs",
            "shared",
            "const",
            "local",
            "maxThreads",
            "ptx",
            "binary",
            "maxDynShared",
            "carveout",
        ] {
            assert_eq!(rt[key], drv[key], "{kernel} {key}: {run}");
        }
        // The default dynamic limit: 48 KiB less the static.
        assert_eq!(
            rt["maxDynShared"].parse::<u64>().unwrap(),
            49152 - want.shared,
            "{run}"
        );
    }
    // `__constant__ float coef[64]`: 256 bytes of the module's.
    assert_eq!(fields(run, "heavy cudaFuncGetAttributes ")["const"], "256");
    assert_eq!(
        fields(run, "bounded cudaFuncGetAttributes ")["maxThreads"],
        "256"
    );
    assert_eq!(
        fields(run, "light cudaFuncGetAttributes ")["maxThreads"],
        "1024"
    );
    run.assert_line("not a kernel rc=400")
        .assert_line("cuModuleLoadData rc=0")
        .assert_line("cuFuncGetModule rc=0 same=1");
}

/// Every occupancy the API answers is what NVIDIA's calculator (`cuda_occupancy.h`) computes
/// for the same attributes and device properties; the templates over it search block sizes.
#[test]
fn occupancy_is_nvidias_calculator_over_the_profile() {
    let run = run();
    let lines: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(" occupancy block="))
        .collect();
    assert_eq!(lines.len(), KERNELS.len() * 7 * 4, "{run}");
    let mut limited = 0;
    for line in &lines {
        let f: BTreeMap<&str, &str> = line
            .split_whitespace()
            .filter_map(|w| w.split_once('='))
            .collect();
        assert_eq!(f["rc"], "0", "{line}");
        assert_eq!(f["blocks"], f["calculator"], "{line}");
        limited += usize::from(f["blocks"] != "32");
    }
    // Not every answer the device's block limit: registers, warps and shared memory bind.
    assert!(limited > lines.len() / 2, "{run}");
    for kernel in KERNELS {
        let p = fields(run, &format!("{kernel} potential rc="));
        assert_eq!(p["rc"], "0", "{run}");
        let block: u32 = p["block"].parse().unwrap();
        let grid: u32 = p["grid"].parse().unwrap();
        // A multiple of the warp, and whole SMs' worth of blocks (132 on the H200).
        assert!(block % 32 == 0 && block > 0 && grid % 132 == 0, "{run}");
        // The driver's search finds the same block.
        let d = fields(run, &format!("{kernel} cuPotential rc="));
        assert_eq!(
            (d["grid"].as_str(), d["block"].as_str()),
            (p["grid"].as_str(), p["block"].as_str())
        );
    }
    // `__launch_bounds__(256)`: never a larger block.
    assert_eq!(fields(run, "bounded potential rc=")["block"], "256");
}

/// Setting a function's attributes: more dynamic shared memory opted in (up to the device's
/// opt-in limit, `CUDA_ERROR_INVALID_VALUE` 1 beyond), a carveout that limits occupancy, an
/// attribute that cannot be set refused.
#[test]
fn function_settings_change_what_occupancy_allows() {
    let run = run();
    for kernel in KERNELS {
        let opt = fields(run, &format!("{kernel} opt-in rc="));
        assert_eq!(opt["rc"], "0", "{run}");
        assert_eq!(opt["maxDynShared"], "100000", "{run}");
        // 100000 + 1 KiB reserved, in 128-byte units, twice in the 228 KiB carveout.
        assert_eq!(opt["blocks_128_100000"], "2", "{run}");
        run.assert_line(&format!("{kernel} opt-in too much rc=1"))
            .assert_line(&format!("{kernel} set NUM_REGS rc=1"));
    }
    run.assert_line("dyn runtime opt-in rc=0 blocks_128_100000=2");
    // A 25% carveout (57 KiB, aligned up to the 64 KiB configuration) holds 7 blocks of 8 KiB
    // and 1 KiB reserved; `heavy` with its 4 KiB static, 4.
    assert_eq!(fields(run, "light carveout 25 rc=")["blocks_128_8192"], "7");
    assert_eq!(fields(run, "heavy carveout 25 rc=")["blocks_128_8192"], "4");
}

/// The driver's entry points (`tests/c/entry_points.c`): `cuGetProcAddress` chooses the ABI
/// version and the stream variant, and what it gives works; the runtime's
/// `cudaGetDriverEntryPoint` and `...ByVersion` ask it, a missing name no error but a status.
#[test]
fn driver_entry_points_are_the_mocks_own_functions() {
    build_stubs(&[stubs_tests::MOCK_PACKAGE]);
    let dir = stubs_dir();
    let mut args = stubs_tests::cuda_include_args(13);
    args.push(format!("-L{}", dir.display()).into());
    args.push("-lstubs_cudart".into());
    args.push("-lstubs_cuda".into());
    args.push(format!("-Wl,-rpath,{}", dir.display()).into());
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let exe = stubs_tests::compile_c(
        "entry_points",
        &[std::path::Path::new("c/entry_points.c")],
        &refs,
    );
    let run = Scenario::new(&exe).env("CUDA_STUBS_MOCK", "h200").run();
    run.assert_success().assert_lines(&[
        "cuGetProcAddress(cuMemAlloc) rc=0 status=0 found=1 alloc rc=0 free rc=0",
        // CUDA_SUCCESS with CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND (1), and
        // _VERSION_NOT_SUFFICIENT (2) for a name newer than the version asked, with a status
        // and without, as driver 580.159.04 answered (not cuda.h's CUDA_ERROR_NOT_FOUND).
        "cuGetProcAddress(missing) rc=0 status=1 null=1",
        "cuGetProcAddress(missing, no status) rc=0 null=1",
        "cuGetProcAddress(too new) rc=0 status=2 null=1",
        "cuStreamQuery legacy=1 per-thread=1 differ=1",
        "cuDeviceGetCount found=1 same=1",
        "cudaGetDriverEntryPoint(cuDeviceGetCount) rc=0 status=0 called rc=0 count=1 \
         runtime count=1",
        "cudaGetDriverEntryPoint(missing) rc=0 status=1 null=1",
        "cudaGetDriverEntryPointByVersion(too new) rc=0 status=2 null=1",
        "cudaGetDriverEntryPointByVersion(cuMemAlloc, 12000) rc=0 status=0 found=1",
        "cudaGetDriverEntryPoint(bad flags) rc=1",
    ]);
}

/// Graph nodes built by hand (`tests/cuda/graph_nodes.cu`): kernel nodes keep their own copies
/// of the arguments and run on launch; their parameters are got back and set in the graph and
/// in an executable graph apart; `cudaGraphExecUpdate` brings the graph's to the executable
/// graph when the topology is the same and refuses another; event record and wait nodes.
#[test]
fn graph_nodes_built_by_hand_run_and_update() {
    build_stubs(&[stubs_tests::MOCK_PACKAGE]);
    let dir = temp_dir("mock-graph-nodes");
    let exe =
        stubs_tests::nvcc_with_stub(&dir, "graph_nodes", "cuda/graph_nodes.cu", &["-arch=sm_90"]);
    let run = Scenario::new(&exe).env("CUDA_STUBS_MOCK", "h200").run();
    run.assert_success().assert_lines(&[
        "add nodes rc=0,0,0,0",
        // cudaGraphNodeTypeKernel, …EventRecord, …WaitEvent.
        "types kernel=0 record=7 wait=6",
        "record node event rc=0 same=1",
        "wait event of a record node rc=1",
        // The value at the add, not the program's variable changed since.
        "get params rc=0 func=1 grid=2 block=64 shared=0 v=1 n=128",
        // Every element: 1 then 10.
        "instantiate rc=0 launch rc=0 x[0]=11 x[127]=11 event=0",
        // 11 + 100 + 10; then the executable graph unchanged by the graph's set: + 110.
        "exec set params rc=0 x[0]=121",
        "graph set params rc=0 x[0]=231",
        // The update: the graph's add(1) and add(1000).
        "update rc=0 result=0 x[0]=1232",
        // cudaErrorGraphExecUpdateFailure, cudaGraphExecUpdateErrorTopologyChanged.
        "update other topology rc=910 result=2",
        // cudaErrorInvalidDeviceFunction, cudaErrorInvalidConfiguration, …InvalidValue.
        "not a kernel rc=400",
        "block too big rc=1",
        "kernel params on a record node rc=1",
        // cudaGraphNodeTypeMemAlloc, …MemFree; the address known when the node is added.
        "mem nodes rc=0,0,0 address=1 types alloc=10 free=11",
        "mem node params rc=0,0 bytes=4096 same=1,1",
        "mem graph instantiate rc=0 launch rc=0,0 sync rc=0",
    ]);
}

/// The driver's graph nodes built by hand (`tests/c/driver_graph_nodes.c`, on a PTX module's
/// kernel): as the runtime's, through `cuGraphAddKernelNode` and the rest.
#[test]
fn driver_graph_nodes_built_by_hand_run_and_update() {
    build_stubs(&[stubs_tests::MOCK_PACKAGE]);
    let dir = stubs_dir();
    let mut args = stubs_tests::cuda_include_args(13);
    args.push(format!("-L{}", dir.display()).into());
    args.push("-lstubs_cuda".into());
    args.push(format!("-Wl,-rpath,{}", dir.display()).into());
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let exe = stubs_tests::compile_c(
        "driver_graph_nodes",
        &[std::path::Path::new("c/driver_graph_nodes.c")],
        &refs,
    );
    let run = Scenario::new(&exe).env("CUDA_STUBS_MOCK", "h200").run();
    run.assert_success().assert_lines(&[
        "module rc=0,0",
        "add nodes rc=0,0,0,0",
        "wait node event rc=0 same=1",
        "get params rc=0 func=1 grid=2 block=64 v=1",
        "instantiate rc=0 launch rc=0 x[0]=11",
        "exec set params rc=0 x[0]=121",
        "graph set params rc=0 x[0]=231",
        "update rc=0 result=0 x[0]=1232",
        // CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED.
        "update other topology rc=910 result=2",
    ]);
}

/// CUDA arrays from the host (`tests/cuda/arrays.cu`): made, described, copied to, across and
/// from (the bytes come back), windows and the extent's bounds; texture objects over an array
/// and over pitched memory, described back; surface objects only over an array made for
/// load/store; a mipmapped array's levels, each half the last.
#[test]
fn arrays_textures_and_surfaces_from_the_host() {
    build_stubs(&[stubs_tests::MOCK_PACKAGE]);
    let dir = temp_dir("mock-arrays");
    let exe = stubs_tests::nvcc_with_stub(&dir, "arrays", "cuda/arrays.cu", &["-arch=sm_90"]);
    let run = Scenario::new(&exe).env("CUDA_STUBS_MOCK", "h200").run();
    run.assert_success().assert_lines(&[
        // cudaChannelFormatKindFloat (2), …Unsigned (1).
        "channel desc x=32 y=0 z=0 w=0 f=2",
        "uchar4 desc x=8 y=8 z=8 w=8 f=1",
        "cudaMallocArray rc=0,0,0",
        // cudaArraySurfaceLoadStore (2); a 1D array's height is 0.
        "info rc=0 x=32 f=2 extent=100x37x0 flags=2",
        "1D info rc=0 extent=100x0x0",
        "round trip rc=0,0,0 same=1",
        // Row 5, x 20 to 29: 5 * 1000 + x.
        "window rc=0 first=5020 last=5029",
        "past the width rc=1",
        "past the height rc=1",
        "texture rc=0 nonzero=1",
        // cudaResourceTypeArray, cudaAddressModeWrap, …Clamp, cudaFilterModeLinear.
        "texture descs rc=0,0 type=0 same array=1 address=0,1 filter=1 normalized=1",
        "pitched texture rc=0",
        "surface rc=0 without the flag rc=0",
        "surface desc rc=0 same array=1",
        "mipmapped rc=0",
        "level 0 rc=0 extent=64x32x0",
        "level 1 rc=0 extent=32x16x0",
        "level 2 rc=0 extent=16x8x0",
        "level 3 rc=0 extent=8x4x0",
        "level 4 rc=1 extent=0x0x0",
        "destroy rc=0,0,0",
        "free rc=0,0,0,0",
    ]);
}

/// The driver's CUDA arrays (`tests/c/driver_arrays.c`): made and described, 2D and 3D copies
/// to and from them (the bytes come back), texture and surface objects, mipmapped levels.
#[test]
fn driver_arrays_copies_and_objects() {
    build_stubs(&[stubs_tests::MOCK_PACKAGE]);
    let dir = stubs_dir();
    let mut args = stubs_tests::cuda_include_args(13);
    args.push(format!("-L{}", dir.display()).into());
    args.push("-lstubs_cuda".into());
    args.push(format!("-Wl,-rpath,{}", dir.display()).into());
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let exe = stubs_tests::compile_c(
        "driver_arrays",
        &[std::path::Path::new("c/driver_arrays.c")],
        &refs,
    );
    let run = Scenario::new(&exe).env("CUDA_STUBS_MOCK", "h200").run();
    run.assert_success().assert_lines(&[
        // CU_AD_FORMAT_FLOAT (0x20).
        "cuArrayCreate rc=0 descriptor rc=0 16x8 format=32 channels=2",
        "three channels rc=1",
        "2D round trip rc=0,0 same=1",
        "past the width rc=1",
        // CUDA_ARRAY3D_SURFACE_LDST (2).
        "cuArray3DCreate rc=0 descriptor rc=0 16x8x3 flags=2",
        "3D round trip rc=0,0 same=1",
        // CU_TR_ADDRESS_MODE_CLAMP (1), CU_TRSF_NORMALIZED_COORDINATES (2).
        "texture rc=0 desc rc=0 address=1 flags=2",
        "surface rc=0 without the flag rc=0",
        "mipmapped rc=0 level 2 rc=0 4x2x0",
        "destroy rc=0,0,0,0,0",
    ]);
}

//! The mock device (issue 37, `CUDA_STUBS_MOCK`): with the variable set, the runtime, driver and
//! NVML stubs bind cuda-stubs' `libcuda_stubs_mock.so` (`stub-mock`) from their own folder and
//! search nothing; the three answer from one device model (the same devices, one memory
//! account); what the mock does not model answers the library's "not supported"; fault
//! injection applies as on a real library; a math library binds nothing; a bad profile is an
//! error naming its field. `tests/c/mock_device.c` is compiled against NVIDIA's 13.5 headers
//! and linked only to the three stubs.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::{
    Outcome, Scenario, build_stubs, compile_c, cuda_include_args, stub, stubs_dir, temp_dir,
};

/// The H200 profile's values the program prints (`stub-mock/profiles/h200.toml`).
const H200_MEMORY: u64 = 150_109_880_320;
/// NVML's reserved memory on the board, which its total and used memory count.
const H200_NVML_RESERVED: u64 = 644_939_776;
const GIB: u64 = 1 << 30;

/// The mock library, built beside the stubs.
fn mock_built() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| build_stubs(&[stubs_tests::MOCK_PACKAGE]).join("libcuda_stubs_mock.so"))
        .clone()
}

fn program() -> &'static Path {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        mock_built();
        let dir = stubs_dir();
        let mut args = cuda_include_args(13);
        args.push(format!("-L{}", dir.display()).into());
        for lib in [
            "-lstubs_cudart",
            "-lstubs_cuda",
            "-lstubs_nvml",
            "-lstubs_nvrtc",
        ] {
            args.push(lib.into());
        }
        args.push(format!("-Wl,-rpath,{}", dir.display()).into());
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        compile_c("mock_device", &[Path::new("c/mock_device.c")], &refs)
    })
}

/// The one stdout line starting with `prefix`.
fn starting<'a>(run: &'a Outcome, prefix: &str) -> &'a str {
    let found: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with(prefix))
        .collect();
    assert_eq!(found.len(), 1, "expected one line `{prefix}…`: {run}");
    found[0]
}

/// The program under `CUDA_STUBS_MOCK=mock`, NVIDIA's 13.5 NVRTC and nvJitLink beside it (the
/// compilers stay real under the mock).
fn scenario(mock: &str) -> Scenario {
    let cuda = stubs_tests::cuda_layout(13);
    Scenario::new(program())
        .env("CUDA_STUBS_MOCK", mock)
        .env("CUDA_STUBS_NVRTC_PATH", &cuda.nvrtc)
        .env(
            "CUDA_STUBS_NVJITLINK_PATH",
            cuda.nvjitlink.as_ref().expect("13.5's nvJitLink"),
        )
}

fn run(mock: &str) -> Outcome {
    scenario(mock).run()
}

/// The runtime, the driver and NVML see the same device, the same allocations and the same
/// free memory; copies move real bytes; the profile's memory is the limit.
#[test]
fn runtime_driver_and_nvml_share_one_device() {
    let run = run("h200");
    let free = H200_MEMORY - GIB;
    for line in [
        "cudaGetDeviceCount rc=0 count=1".to_string(),
        format!(
            "cudart status: cuda-stubs: libcudart bound to {}, version 13050, found by \
             CUDA_STUBS_MOCK (the mock device beside the stub): mock (profile h200 \u{d7}1, \
             driver 580.159.04, CUDA 13.0)",
            mock_built().display()
        ),
        "cudaGetDeviceProperties(count) rc=101".into(),
        format!(
            "cudaMalloc(1 GiB) rc=0 runtime free={free} total={H200_MEMORY} driver free={free} \
             nvml used={} free={free}",
            GIB + H200_NVML_RESERVED
        ),
        "round trip rc=0,0,0 same=1 memset rc=0,0 byte=7".into(),
        // Past the allocation's end, and a host pointer given as device memory.
        "past the end rc=1 not device memory rc=1".into(),
        // cudaErrorMemoryAllocation, read once as the last error; CUDA_ERROR_OUT_OF_MEMORY.
        "cudaMalloc(total) rc=2 last=2 then=0 cuMemAlloc(total) rc=2".into(),
        "cudaEventElapsedTime rc=0 nonnegative=1".into(),
        // cudaErrorNotSupported, CUDA_ERROR_NOT_SUPPORTED, NVML_ERROR_NOT_SUPPORTED.
        "unmodelled cudaGraphDebugDotPrint rc=801 cuGraphDebugDotPrint rc=801 \
         nvmlDeviceGetFanSpeed rc=3"
            .into(),
        // An event record node: cudaErrorNotSupported.
        "external event record in a capture rc=801".into(),
        // cudaErrorIllegalAddress, also the last error, then sticky in both APIs.
        "graph replay rc=0 after cudaFree rc=700 last error=700 then cudaMalloc rc=700 \
         cuMemAlloc rc=700"
            .into(),
        // Freed: NVML's used memory back to its reserved part; a second free is invalid.
        format!("cudaFree rc=0 nvml used={H200_NVML_RESERVED} twice rc=1"),
    ] {
        run.assert_line(&line);
    }
    let props = starting(&run, "cudaGetDeviceProperties rc=0 ");
    let driver = starting(&run, "cuInit rc=0 ");
    let nvml = starting(&run, "nvmlInit rc=0 ");
    assert!(props.contains("name=NVIDIA H200 cc=9.0 sms=132 "), "{run}");
    assert!(
        driver.contains(&format!(
            "count=1 version=13000 name=NVIDIA H200 sms=132 mem={H200_MEMORY}"
        )),
        "{run}"
    );
    assert!(
        nvml.contains(&format!(
            "count=1 name=NVIDIA H200 uuid=GPU-c0da5b0b-0200-4000-8000-000000000000 total={} \
             used={H200_NVML_RESERVED}",
            H200_MEMORY + H200_NVML_RESERVED
        )),
        "{run}"
    );
    run.assert_line("cudaDeviceGetAttribute(sms) rc=0 value=132");
}

/// Modules: PTX and CUBIN checked against the profile's device and driver as a driver checks
/// them; kernels found by name; launches checked against the device's limits and run by the
/// kernel executor; a host function registered for a kernel runs in its place, on the launch's
/// arguments. NVIDIA's
/// NVRTC compiles for real under the mock; its PTX (ISA 9.5) is newer than the profile's driver
/// (CUDA 13.0 reads 9.0), so the driver stub has nvJitLink make a CUBIN for the device first,
/// which the mock loads.
#[test]
fn modules_load_as_the_driver_would_and_launches_are_checked() {
    let run = scenario("h200").args(["nvrtc"]).debug().run();
    // Kernel found, "thrice" not (CUDA_ERROR_NOT_FOUND); 64 threads launch, 2048 exceed the
    // block's 1024 (CUDA_ERROR_INVALID_VALUE).
    // Captured in a graph, the launch is kept with its arguments (their sizes from the PTX's
    // `.param` list, or the CUBIN's EIATTR_KPARAM_INFO) and replayed: the registered host
    // function runs again on them, doubling x twice per module.
    let steps = "load rc=0 get rc=0 missing rc=500 launch rc=0 too big rc=1 captured rc=0 replay \
                 rc=0 unload rc=0";
    run.assert_success()
        .assert_line(&format!("module hand-written PTX (unregistered) {steps}"))
        .assert_line(&format!("module hand-written PTX {steps}"))
        .assert_line("registered rc=0 threads=64 x[3]=12")
        // PTX 9.5 made a CUBIN by the driver stub (nvJitLink); CUDA_ERROR_NO_BINARY_FOR_GPU,
        // CUDA_ERROR_INVALID_IMAGE.
        .assert_line("PTX 9.5 rc=0")
        .assert_line("PTX sm_100 rc=209")
        .assert_line("not an image rc=200")
        .assert_line("nvrtc rc=0,0 ptx version=.version 9.5")
        .assert_line(&format!("module NVRTC's PTX {steps}"))
        .assert_line("registered threads=64 x[3]=48")
        .assert_debug(
            "mock",
            "launch twice<<<(1,1,1),(64,1,1),0>>> on device 0: its PTX runs on the kernel \
             executor",
        )
        .assert_debug(
            "mock",
            "launch twice<<<(1,1,1),(64,1,1),0>>> on device 0: ran its registered host function",
        );
}

/// Without nvJitLink, PTX newer than the profile's driver reaches the mock as PTX, which refuses
/// it as that driver would: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (NVRTC's own PTX too).
#[test]
fn ptx_newer_than_the_profiles_driver_is_refused_without_nvjitlink() {
    let cuda = stubs_tests::cuda_layout(13);
    let run = Scenario::new(program())
        .args(["nvrtc"])
        .env("CUDA_STUBS_MOCK", "h200")
        .env("CUDA_STUBS_NVRTC_PATH", &cuda.nvrtc)
        .run();
    run.assert_success()
        .assert_line("PTX 9.5 rc=222")
        .assert_line("PTX sm_100 rc=209")
        .assert_line("nvrtc rc=0,0 ptx version=.version 9.5");
    assert!(
        starting(&run, "module NVRTC's PTX ").starts_with("module NVRTC's PTX load rc=222 "),
        "{run}"
    );
}

/// What the mock does not model is the mock's own export, with the header's prototype,
/// answering "not supported" with a debug line: the stub binds it (no "absent" function), and
/// the runtime's refusal is the thread's last error. The counts the book states are the mock's.
#[test]
fn what_the_mock_does_not_model_says_so() {
    let run = scenario("h200").debug().run();
    run.assert_success();
    for name in [
        "cudaGraphDebugDotPrint",
        "cuGraphDebugDotPrint",
        "nvmlDeviceGetFanSpeed",
    ] {
        let code = if name.starts_with("nvml") { 3 } else { 801 };
        run.assert_debug(
            "mock",
            &format!("{name}: not modelled by the mock device: {code} (not supported)"),
        );
    }
    // The book's table, against the mock's own counts.
    let book = std::fs::read_to_string(
        stubs_tests::workspace_root().join("docs/src/testing-without-a-gpu.md"),
    )
    .expect("the book's chapter");
    let mock = mock_built();
    // SAFETY: the mock library, whose initialisers run nothing.
    let library = unsafe {
        libloading::os::unix::Library::open(
            Some(&mock),
            libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL,
        )
    }
    .unwrap_or_else(|e| panic!("dlopen {}: {e}", mock.display()));
    // SAFETY: the symbol's C prototype (stub-mock/src/lib.rs).
    let counts = unsafe {
        library.get::<unsafe extern "C" fn(*const libc::c_char, *mut i32, *mut i32) -> i32>(
            b"cuda_stubs_mock_counts\0",
        )
    }
    .expect("cuda_stubs_mock_counts");
    for (lib, row) in [("cudart", "runtime"), ("cuda", "driver"), ("nvml", "NVML")] {
        let (mut modelled, mut refused) = (0, 0);
        let name = std::ffi::CString::new(lib).unwrap();
        // SAFETY: as declared; valid pointers.
        assert_eq!(
            unsafe { counts(name.as_ptr(), &mut modelled, &mut refused) },
            0
        );
        assert!(
            modelled > 20 && refused > 200,
            "{lib}: {modelled}, {refused}"
        );
        let line = format!("| {row} (`{lib}`) | {modelled} | {refused} |");
        assert!(book.contains(&line), "the book lacks `{line}`");
    }
}

/// `NAME:COUNT`: that many devices, each its own.
#[test]
fn a_count_after_the_name_makes_that_many_devices() {
    let run = run("h200:2");
    run.assert_success()
        .assert_line("cudaGetDeviceCount rc=0 count=2")
        .assert_line("cudaGetDeviceProperties(count) rc=101");
    assert!(starting(&run, "cuInit rc=0 ").contains("count=2 "), "{run}");
    assert!(
        starting(&run, "nvmlInit rc=0 ").contains("count=2 "),
        "{run}"
    );
}

/// A profile that does not parse, or names what no header has, is refused with the field in
/// the status; the runtime then answers its "no library" code (`cudaErrorStubLibrary`).
#[test]
fn a_bad_profile_is_an_error_naming_the_field() {
    let dir = temp_dir("mock-profiles");
    let good =
        std::fs::read_to_string(stubs_tests::workspace_root().join("stub-mock/profiles/h200.toml"))
            .expect("the built-in profile");
    let cases = [
        (
            "no-uuid.toml",
            good.lines()
                .filter(|l| !l.starts_with("uuid"))
                .collect::<Vec<_>>()
                .join("\n"),
            "missing field `uuid`",
        ),
        (
            "bad-attribute.toml",
            good.replace(
                "[attributes]\n",
                "[attributes]\nCU_DEVICE_ATTRIBUTE_WARP = 32\n",
            ),
            "[attributes] CU_DEVICE_ATTRIBUTE_WARP: no such CUdevice_attribute",
        ),
        (
            "bad-version.toml",
            good.replace("cuda_version = 13000", "cuda_version = 13"),
            "[driver] cuda_version: 13:",
        ),
        (
            "bad-compute-mode.toml",
            good.replace("compute_mode = 0", "compute_mode = 7"),
            "[nvml] compute_mode: 7: 0 to 3",
        ),
        (
            "bad-bar1.toml",
            good.replace("bar1_used = 5177344", "bar1_used = 274877906945"),
            "[nvml] bar1_used: 274877906945: at most bar1_total",
        ),
    ];
    for (file, text, expected) in cases {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let run = run(path.to_str().unwrap());
        run.assert_success()
            .assert_line("cudaGetDeviceCount rc=34 count=-1");
        let status = starting(&run, "cudart status: ");
        assert!(status.contains(expected), "{file}: {run}");
    }
    let run = run("h900");
    assert!(
        starting(&run, "cudart status: ").contains("no built-in profile \"h900\" (built in: h200"),
        "{run}"
    );
}

/// Fault injection (`CUDA_STUBS_FAULT`) fires on the mock as on a real library, and the
/// injected failure is the thread's last error, as the real one would be.
#[test]
fn faults_are_injected_on_the_mock() {
    let run = scenario("h200")
        .env("CUDA_STUBS_FAULT", "cudaMalloc=2@1")
        .run();
    assert!(
        starting(&run, "cudaMalloc(1 GiB) rc=").starts_with("cudaMalloc(1 GiB) rc=2 "),
        "{run}"
    );
    // The program's earlier failure (cudaGetDeviceProperties of device 1: 101) is older than
    // the injected one, which wins, as a real failure of cudaMalloc would.
    run.assert_line("after cudaMalloc: last error 2 then 0");
    // Without the fault, cudaMalloc succeeds and the earlier error is still the last.
    scenario("h200")
        .run()
        .assert_line("after cudaMalloc: last error 101 then 0");
}

/// A math library under the mock binds nothing (a real one would load a real runtime beside
/// the mock's): its "no library" code, and the debug log says why.
#[test]
fn a_math_library_binds_nothing_under_the_mock() {
    let curand = stub("curand");
    let load = format!("dlopen:{}", curand.display());
    let call = format!("call:{}:curandCreateGenerator", curand.display());
    let run = Scenario::probe([load, call])
        .env("CUDA_STUBS_MOCK", "h200")
        .debug()
        .run();
    // CURAND_STATUS_INITIALIZATION_FAILED.
    run.assert_success()
        .assert_line("curandCreateGenerator rc=203")
        .assert_debug(
            "curand",
            "CUDA_STUBS_MOCK=h200: the mock device stands for the runtime, the driver and NVML: \
             this library would load a real one beside it, so none is bound",
        );
}

/// The built-in H200 profile against the real board: `tests/gpu/device_props/dump.sh` (which
/// read `h200-real.toml` off an H200) built against NVIDIA's 13.5 headers and linked to the
/// stubs, run on the mock. Every attribute and every `cudaDeviceProp` field the board answered
/// is the mock's too, except the UUID (the profile's own); so are NVML's identity, memory total,
/// limits, clocks and readings, except the idle memory use the board happened to have. What
/// the mock does not model, the dump prints as an error comment, so the key is missing: those
/// are listed.
#[test]
fn the_h200_profile_answers_what_the_real_board_answers() {
    if stubs_tests::memcheck_pass() {
        // The dump is a shell script building a C program: memcheck would check bash and gcc;
        // the mock's code runs under it in the other tests of this file.
        return;
    }
    mock_built();
    let dir = stubs_dir();
    let cuda_home = stubs_tests::cuda_layout(13)
        .include
        .iter()
        .find(|d| d.join("cuda.h").is_file())
        .and_then(|d| d.parent())
        .expect("CUDA 13.5's include folder")
        .to_path_buf();
    let root = stubs_tests::workspace_root();
    let link = format!(
        "-L{0} -lstubs_cuda -lstubs_cudart -lstubs_nvml -Wl,-rpath,{0}",
        dir.display()
    );
    let run = Scenario::new("bash")
        .arg_path(root.join("tests/gpu/device_props/dump.sh"))
        .env("CUDA_HOME", &cuda_home)
        .env("DUMP_LINK", &link)
        .env("CUDA_STUBS_MOCK", "h200")
        .run();
    run.assert_success();
    let real_text = std::fs::read_to_string(root.join("tests/gpu/device_props/h200-real.toml"))
        .expect("the real board's values");
    let real: toml::Table = toml::from_str(&real_text).expect("h200-real.toml parses");
    let mock: toml::Table = toml::from_str(&run.stdout).expect("the mock's dump parses");
    // Identity the profile makes up or the board's idle use at that minute; the runtime's
    // version (the mock implements 13.5's headers, the board had 13.0's runtime).
    let differ = [
        "device.uuid",
        "properties.uuid",
        "nvml.uuid",
        "device.runtime_version",
        "nvml.handle_by",
        "nvml.memory_free",
        "nvml.memory_used",
        "nvml.memory_v2_free",
        "nvml.memory_v2_used",
    ];
    let mut same = 0;
    let mut missing = Vec::new();
    for section in ["device", "attributes", "properties", "nvml"] {
        let (Some(r), Some(m)) = (real.get(section), mock.get(section)) else {
            panic!("no [{section}] in both: {run}");
        };
        let (r, m) = (r.as_table().unwrap(), m.as_table().unwrap());
        for (key, value) in r {
            let name = format!("{section}.{key}");
            match m.get(key) {
                None => missing.push(name),
                Some(_) if differ.contains(&name.as_str()) => {}
                Some(v) => {
                    assert_eq!(v, value, "{name}: the mock's differs from the board's");
                    same += 1;
                }
            }
        }
    }
    // The 153 attributes and 91 properties (all but the UUID), and NVML's identity, readings
    // and fixed facts.
    assert!(same >= 153 + 91 + 40, "only {same} values compared: {run}");
    // Every value the dump reads is the mock's too.
    assert_eq!(
        missing,
        Vec::<String>::new(),
        "not answered by the mock: {run}"
    );
}

/// Many threads at once (`tests/c/mock_threads.c`): eight threads on two devices allocate,
/// capture, replay and free on their own streams, reading NVML beside; every round comes back
/// right and the devices' free memory is what it was (the model's locks and accounting hold).
#[test]
fn many_threads_share_the_mock() {
    mock_built();
    let dir = stubs_dir();
    let mut args = cuda_include_args(13);
    args.push(format!("-L{}", dir.display()).into());
    for lib in ["-lstubs_cudart", "-lstubs_nvml", "-lpthread"] {
        args.push(lib.into());
    }
    args.push(format!("-Wl,-rpath,{}", dir.display()).into());
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let exe = compile_c("mock_threads", &[Path::new("c/mock_threads.c")], &refs);
    let run = Scenario::new(exe).env("CUDA_STUBS_MOCK", "h200:2").run();
    run.assert_success();
    for i in 0..8 {
        run.assert_line(&format!("thread {i} good=200 of 200 first error=0"));
    }
    run.assert_line("device 0 free memory unchanged=1")
        .assert_line("device 1 free memory unchanged=1");
}

/// The error texts under the mock are the board's: `tests/gpu/error_texts.c` (every code 0 to
/// 1099 of the runtime and the driver, -3 to 1099 of NVML), compiled against NVIDIA's 13.5 headers
/// and linked to the stubs, prints under the mock exactly the lines it printed on a lent H100
/// linked to NVIDIA's runtime, driver and NVML (`stub-mock/data/error-texts.tsv`, written by
/// `tests/gpu/error_texts.sh`): "invalid argument", not the header's paragraph; for a code the
/// driver does not know, its `CUDA_ERROR_INVALID_VALUE`, with the driver stub's text where the
/// driver writes NULL (a stub's error texts are never NULL).
#[test]
fn the_error_texts_are_the_boards() {
    mock_built();
    let dir = stubs_dir();
    let mut args = cuda_include_args(13);
    args.push(format!("-L{}", dir.display()).into());
    for lib in ["-lstubs_cudart", "-lstubs_cuda", "-lstubs_nvml"] {
        args.push(lib.into());
    }
    args.push(format!("-Wl,-rpath,{}", dir.display()).into());
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let program = compile_c("error_texts", &[Path::new("gpu/error_texts.c")], &refs);
    let run = Scenario::new(&program).env("CUDA_STUBS_MOCK", "h100").run();
    run.assert_success();
    let board_file = stubs_tests::workspace_root().join("stub-mock/data/error-texts.tsv");
    let board = std::fs::read_to_string(&board_file).expect("the board's error texts");
    // A code the driver does not know: it answers CUDA_ERROR_INVALID_VALUE and writes NULL; the
    // driver stub keeps the code and writes its own text instead (error texts are never NULL:
    // the 13.5 headers' description for the codes 13.5 added, else "unrecognized error code").
    let same = |board: &str, mock: &str| {
        board == mock
            || board
                .strip_suffix("\t1\t(null)\t1\t(null)")
                .is_some_and(|start| {
                    let f: Vec<&str> = mock.split('\t').collect();
                    f.len() == 6
                        && mock.starts_with(&format!("{start}\t"))
                        && (f[2], f[4]) == ("1", "1")
                        && !f[3].is_empty()
                        && f[3] != "(null)"
                        && !f[5].is_empty()
                        && f[5] != "(null)"
                })
    };
    let differing: Vec<(&str, &str)> = board
        .lines()
        .zip(run.stdout.lines())
        .filter(|(b, m)| !same(b, m))
        .collect();
    assert_eq!(
        board.lines().count(),
        run.stdout.lines().count(),
        "lines: board vs mock"
    );
    assert!(
        differing.is_empty(),
        "{} of {} lines differ from the board's, first: {:?}",
        differing.len(),
        board.lines().count(),
        differing.first()
    );
}

//! A real CUDA program (`tests/cuda/launch.cu`) compiled by NVIDIA's nvcc 13.5 and linked only
//! against `libstubs_cudart.so` (`-cudart none`), twice: with the legacy default stream and with
//! `--default-stream per-thread`. nvcc 12+ turns each `k<<<grid, block, smem, stream>>>(args)`
//! into `__cudaPushCallConfiguration`, then in the kernel's host stub `__cudaGetKernel` (once),
//! `__cudaPopCallConfiguration` and `__cudaLaunchKernel` (`__cudaLaunchKernel_ptsz` per-thread).
//! CUDA 11.8's runtime has neither `__cudaGetKernel` nor `__cudaLaunchKernel`: there the stub
//! must launch through `cudaLaunchKernel(hostFun, …)` (`cudaLaunchKernel_ptsz`) instead.
//!
//! - On the mock runtimes (`tests/mocks/cudart_launch.c`, which print every launch that
//!   arrives with its entry point, kernel, configuration and argument values) the whole output
//!   is asserted: which entry point each launch reached on 13, 12 and 11, the values, and the
//!   last error each launch left (9 for a zero grid, on the launching thread only).
//! - On NVIDIA's real 11.8 / 12.9 / 13.5 runtimes (no GPU, no driver here) every launch must
//!   reach the runtime's own launch entry point (seen by an rtld-audit module,
//!   `tests/c/launch_spy.c`: the runtime's sticky no-driver error alone cannot tell a launch
//!   that reached it from one the stub dropped) and leave its error as the thread's last error:
//!   never cudaSuccess for a kernel that did not run.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use stubs_tests::{Outcome, Scenario, compile_c, cuda_layout, mock, stubs_dir, temp_dir};

/// The two builds of the program.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stream {
    /// The default: the legacy default stream (`__cudaLaunchKernel`, `cudaLaunchKernel`).
    Legacy,
    /// `--default-stream per-thread` (`__cudaLaunchKernel_ptsz`, `cudaLaunchKernel_ptsz`).
    PerThread,
}

const BUILDS: [Stream; 2] = [Stream::Legacy, Stream::PerThread];

impl Stream {
    fn flag(self) -> &'static str {
        match self {
            Stream::Legacy => "legacy",
            Stream::PerThread => "per-thread",
        }
    }

    /// The suffix of every launch entry point of this build.
    fn suffix(self) -> &'static str {
        match self {
            Stream::Legacy => "",
            Stream::PerThread => "_ptsz",
        }
    }
}

/// The program built by nvcc with this default stream, once per test process.
fn program(stream: Stream) -> &'static Path {
    static BUILT: OnceLock<[PathBuf; 2]> = OnceLock::new();
    let built = BUILT.get_or_init(|| BUILDS.map(compile));
    &built[BUILDS.iter().position(|&s| s == stream).expect("a build")]
}

fn compile(stream: Stream) -> PathBuf {
    let dir = temp_dir(&format!("nvcc-launch-{}", stream.flag()));
    // sm_80 device code only: nothing here runs it; what matters is nvcc's host code.
    let args = ["-arch=sm_80", "--default-stream", stream.flag()];
    stubs_tests::nvcc_with_stub(&dir, "launch", "cuda/launch.cu", &args)
}

/// `readelf -d` entries of one kind (`NEEDED`, `RUNPATH`).
fn dynamic(file: &Path, kind: &str) -> Vec<String> {
    let out = Command::new("readelf")
        .arg("-d")
        .arg(file)
        .output()
        .expect("readelf");
    assert!(out.status.success(), "readelf -d {}", file.display());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains(&format!("({kind})")))
        .filter_map(|l| Some(l.split('[').nth(1)?.split(']').next()?.to_string()))
        .collect()
}

/// The undefined dynamic symbols of `file`: what it takes from the libraries it needs.
fn imports(file: &Path) -> Vec<String> {
    use object::{Object, ObjectSymbol};
    let data = std::fs::read(file).expect("read the program");
    let elf = object::File::parse(&*data).expect("parse the program");
    elf.dynamic_symbols()
        .filter(|s| s.is_undefined())
        .filter_map(|s| s.name().ok().map(str::to_string))
        .collect()
}

/// The names `file` exports (defined dynamic symbols).
fn exports(file: &Path) -> Vec<String> {
    use object::{Object, ObjectSymbol};
    let data = std::fs::read(file).expect("read the library");
    let elf = object::File::parse(&*data).expect("parse the library");
    elf.dynamic_symbols()
        .filter(|s| s.is_definition())
        .filter_map(|s| s.name().ok().map(str::to_string))
        .collect()
}

/// The launch-path entry points: each mock major exports those its real runtime exports (11.8
/// none of nvcc 12+'s `__cudaGetKernel` / `__cudaLaunchKernel*`), so the mocks test the stub
/// against the real sets.
#[test]
fn launch_mocks_export_what_the_real_runtimes_export() {
    let names = [
        "__cudaGetKernel",
        "__cudaLaunchKernel",
        "__cudaLaunchKernel_ptsz",
        "__cudaPushCallConfiguration",
        "__cudaPopCallConfiguration",
        "__cudaRegisterFatBinary",
        "__cudaRegisterFatBinaryEnd",
        "__cudaUnregisterFatBinary",
        "__cudaRegisterFunction",
        "__cudaRegisterVar",
        "cudaLaunchKernel",
        "cudaLaunchKernel_ptsz",
        "cudaGetLastError",
        "cudaPeekAtLastError",
        "cudaStreamCreate",
        "cudaStreamDestroy",
    ];
    for major in [11, 12, 13] {
        let real = cuda_layout(major).cudart;
        let soname = real.file_name().expect("file name").to_owned();
        let (real, mocked) = (
            exports(&real),
            exports(&mock(&format!("mock-{major}")).join(soname)),
        );
        for name in names {
            assert_eq!(
                mocked.iter().any(|n| n == name),
                real.iter().any(|n| n == name),
                "{name} on {major}: the mock and the real runtime disagree"
            );
        }
    }
}

/// Both builds need the stub and nothing of NVIDIA's, and import nvcc 12+'s launch path (so
/// the mocks' expectations below are about that path, not a legacy one).
#[test]
fn nvcc_program_links_only_against_the_stub() {
    for stream in BUILDS {
        let exe = program(stream);
        let needed = dynamic(exe, "NEEDED");
        assert!(
            needed.iter().any(|n| n == "libstubs_cudart.so"),
            "{stream:?}: {needed:?}"
        );
        assert!(
            !needed
                .iter()
                .any(|n| n.starts_with("libcudart") || n.starts_with("libcuda.")),
            "{stream:?}: an NVIDIA library in NEEDED: {needed:?}"
        );
        let runpath = dynamic(exe, "RUNPATH");
        assert_eq!(runpath, [stubs_dir().display().to_string()], "{stream:?}");
        let imports = imports(exe);
        for name in [
            format!("__cudaLaunchKernel{}", stream.suffix()),
            format!("cudaLaunchKernel{}", stream.suffix()),
            "__cudaGetKernel".into(),
            "__cudaPushCallConfiguration".into(),
            "__cudaPopCallConfiguration".into(),
            "__cudaRegisterFatBinary".into(),
            "__cudaRegisterFunction".into(),
        ] {
            assert!(
                imports.contains(&name),
                "{stream:?}: {name} not imported: {imports:?}"
            );
        }
        let other = if stream == Stream::Legacy {
            "__cudaLaunchKernel_ptsz"
        } else {
            "__cudaLaunchKernel"
        };
        assert!(
            !imports.iter().any(|n| n == other),
            "{stream:?}: {imports:?}"
        );
    }
}

/// Everything the program prints on a mock runtime of `major`: the registration nvcc's
/// constructor makes, then each step's launch line and the last error it left. 12 and 13 get
/// nvcc's `__cudaLaunchKernel*` with the mock's kernel handle; 11, which lacks it, must get
/// `cudaLaunchKernel*` with the host function — the same values either way.
fn expected_on_mock(major: u32, stream: Stream) -> String {
    let sfx = stream.suffix();
    let nvcc_entry = if major >= 12 {
        format!("__cudaLaunchKernel{sfx}")
    } else {
        format!("cudaLaunchKernel{sfx}")
    };
    let fill = "_Z4filliPfd";
    let apply = "_Z5apply6ParamsPKfPf";
    let launch = |entry: &str, kernel: &str, config: &str, args: &str| {
        format!("mock-launch {entry} {kernel} {config} args={args}\n")
    };
    let ok = |step: &str| format!("{step} peek=0 last=0 after=0\n");
    let mut s = String::new();
    for line in [
        "mock-register fatbinary magic=0x466243b1",
        "mock-register function _Z6noargsv",
        "mock-register function _Z5apply6ParamsPKfPf",
        "mock-register function _Z4filliPfd",
        "mock-register end ok",
        "start peek=0 last=0 after=0",
        "stream-create rc=0",
        "stream-create peek=0 last=0 after=0",
    ] {
        s += line;
        s += "\n";
    }
    s += &launch(
        &nvcc_entry,
        fill,
        "grid=2,3,4 block=32,2,1 smem=0 stream=(nil)",
        "1000,0xd0000100,2.5",
    );
    s += &ok("fill");
    s += &launch(
        &nvcc_entry,
        apply,
        "grid=5,1,1 block=64,1,1 smem=256 stream=0x57ea0",
        "{3,1.5,x},0xd0000200,0xd0000100",
    );
    s += &ok("apply");
    s += &launch(
        &nvcc_entry,
        "_Z6noargsv",
        "grid=1,1,1 block=1,1,1 smem=0 stream=(nil)",
        "none",
    );
    s += &ok("noargs");
    // The runtime refuses a zero grid dimension: 9, the launching thread's last error.
    s += &launch(
        &nvcc_entry,
        fill,
        "grid=0,1,1 block=1,1,1 smem=0 stream=0x57ea0",
        "1,0xd0000100,0.5",
    );
    s += "fill-zero-grid peek=9 last=9 after=0\n";
    s += &launch(
        &format!("cudaLaunchKernel{sfx}"),
        fill,
        "grid=9,1,1 block=128,1,1 smem=64 stream=0x57ea0",
        "7,0xd0000100,-0.25",
    );
    s += "cudaLaunchKernel rc=0\n";
    s += &ok("explicit");
    s += &launch(
        &nvcc_entry,
        apply,
        "grid=0,1,1 block=1,1,1 smem=0 stream=0x57ea0",
        "{1,0,t},0xd0000200,0xd0000100",
    );
    s += "thread-zero-grid peek=9 last=9 after=0\n";
    s += &ok("main-after-thread");
    s += "stream-destroy rc=0\n";
    s += "mock-unregister ok\n";
    s
}

fn on_mock(major: u32) {
    for stream in BUILDS {
        let run = Scenario::new(program(stream))
            .library_path([mock(&format!("mock-{major}"))])
            .run();
        run.assert_success().assert_silent();
        let expected = expected_on_mock(major, stream);
        // The first line that differs names the launch that went wrong.
        let mut got = run.stdout.lines();
        for (i, want) in expected.lines().enumerate() {
            assert_eq!(
                got.next(),
                Some(want),
                "mock {major}, {stream:?} default stream, line {}: {run}",
                i + 1
            );
        }
        assert_eq!(
            got.next(),
            None,
            "mock {major}, {stream:?}: extra output: {run}"
        );
    }
}

#[test]
fn nvcc_launches_arrive_on_mock_13() {
    on_mock(13);
}

#[test]
fn nvcc_launches_arrive_on_mock_12() {
    on_mock(12);
}

/// 11.8 has no `__cudaGetKernel` / `__cudaLaunchKernel`: the stub's translation must make each
/// launch arrive as `cudaLaunchKernel(hostFun, …)` with the same configuration and arguments.
#[test]
fn nvcc_launches_arrive_on_mock_11() {
    on_mock(11);
}

/// The `<step> peek=P last=L after=A` line of `step`: (P, L, A).
fn errors(run: &Outcome, step: &str) -> (i32, i32, i32) {
    let line = run.line(step);
    let field = |name: &str| -> i32 {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
            .unwrap_or_else(|| panic!("no {name}= in `{line}`: {run}"))
            .parse()
            .unwrap_or_else(|e| panic!("{name} of `{line}`: {e}"))
    };
    (field("peek"), field("last"), field("after"))
}

/// The rtld-audit module recording the real runtime's launch entry points the stub calls.
fn launch_spy() -> &'static Path {
    static SPY: OnceLock<PathBuf> = OnceLock::new();
    SPY.get_or_init(|| {
        compile_c(
            "launch_spy.so",
            &[Path::new("c/launch_spy.c")],
            &["-shared".as_ref(), "-fPIC".as_ref()],
        )
    })
}

/// What the spy must record on the real runtime of `major`, each returning `rc`: the same
/// launches, in the program's order, as the mocks print (fill, apply, noargs, the zero grid,
/// the explicit cudaLaunchKernel, the other thread's zero grid).
fn expected_real_launches(major: u32, stream: Stream, rc: i32) -> Vec<String> {
    let sfx = stream.suffix();
    let nvcc_entry = if major >= 12 {
        format!("__cudaLaunchKernel{sfx}")
    } else {
        format!("cudaLaunchKernel{sfx}")
    };
    let explicit = format!("cudaLaunchKernel{sfx}");
    [
        (&nvcc_entry, "grid=2,3,4 block=32,2,1"),
        (&nvcc_entry, "grid=5,1,1 block=64,1,1"),
        (&nvcc_entry, "grid=1,1,1 block=1,1,1"),
        (&nvcc_entry, "grid=0,1,1 block=1,1,1"),
        (&explicit, "grid=9,1,1 block=128,1,1"),
        (&nvcc_entry, "grid=0,1,1 block=1,1,1"),
    ]
    .iter()
    .map(|(entry, config)| format!("{entry} {config} rc={rc}"))
    .collect()
}

/// On NVIDIA's runtime without a driver, every launch fails: each must reach the runtime's
/// launch entry point (the spy's record), and its error must be the thread's last error, the
/// runtime's own code (what its `cudaLaunchKernel` returns, 35 here), never 0 and never one of
/// the stub's codes. (Without a driver the runtime's error is sticky: `after` stays non-zero
/// too, so only `peek` and `last` are asserted.)
fn on_real(major: u32) {
    let layout = cuda_layout(major);
    for stream in BUILDS {
        let record = temp_dir(&format!("nvcc-spy-{major}-{}", stream.flag())).join("launches");
        let mut scenario = Scenario::new(program(stream)).library_path(layout.lib_dirs());
        // Under valgrind (the suite's second, memcheck run) an audit module breaks the process
        // (glibc aborts in free(): the audit namespace's libc and valgrind's malloc
        // replacement); the plain run checks the launches, this one the memory.
        let spy = !stubs_tests::memcheck_pass();
        if spy {
            scenario = scenario
                .env("LD_AUDIT", launch_spy())
                .env("LAUNCH_SPY_FILE", &record);
        }
        let run = scenario.run();
        run.assert_success().assert_silent();
        let rc: i32 = run
            .line("cudaLaunchKernel rc")
            .strip_prefix("cudaLaunchKernel rc=")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("cudaLaunchKernel rc: {run}"));
        assert!(
            rc != 0 && rc != 34 && rc != 801,
            "real {major}, {stream:?}: the runtime's cudaLaunchKernel without a driver: {run}"
        );
        if spy {
            let recorded = std::fs::read_to_string(&record).unwrap_or_default();
            assert_eq!(
                recorded.lines().collect::<Vec<_>>(),
                expected_real_launches(major, stream, rc),
                "real {major}, {stream:?}: the launches the runtime received: {run}"
            );
        }
        for step in [
            "fill",
            "apply",
            "noargs",
            "fill-zero-grid",
            "explicit",
            "thread-zero-grid",
        ] {
            let (peek, last, _) = errors(&run, step);
            assert_eq!(
                (peek, last),
                (rc, rc),
                "real {major}, {stream:?}: the launch of `{step}` must leave the runtime's \
                 error {rc} as the last error: {run}"
            );
        }
        assert!(
            !run.stdout.contains("mock-"),
            "real {major}: a mock answered: {run}"
        );
    }
}

#[test]
fn nvcc_launch_errors_visible_on_real_13() {
    on_real(13);
}

#[test]
fn nvcc_launch_errors_visible_on_real_12() {
    on_real(12);
}

#[test]
fn nvcc_launch_errors_visible_on_real_11() {
    on_real(11);
}

/// `CUDA_STUBS_TRACE` shows the launches `<<<>>>` makes: nvcc's `__cudaLaunchKernel*` on 12 and
/// 13, and on 11 the `cudaLaunchKernel*` the stub translates them to (the translated launch
/// goes through that function's slot). Every launch that reaches the mock is traced once,
/// under one of the two names (the program's explicit `cudaLaunchKernel` under its own).
#[test]
fn kernel_launches_are_traced_on_every_major() {
    for major in [11, 12, 13] {
        for stream in BUILDS {
            let sfx = stream.suffix();
            let run = Scenario::new(program(stream))
                .library_path([mock(&format!("mock-{major}"))])
                .env("CUDA_STUBS_TRACE", "__cudaLaunchKernel*,cudaLaunchKernel*")
                .run();
            run.assert_success();
            let launches = run
                .stdout
                .lines()
                .filter(|l| l.starts_with("mock-launch "))
                .count();
            let traced = |name: &str| {
                let prefix = format!("trace {name}{sfx} -> ");
                run.debug("cudart")
                    .into_iter()
                    .filter(|l| l.starts_with(&prefix))
                    .count()
            };
            let (nvcc, plain) = (traced("__cudaLaunchKernel"), traced("cudaLaunchKernel"));
            assert_eq!(
                nvcc + plain,
                launches,
                "mock {major}, {stream:?}: every launch traced once: {run}"
            );
            // 11 has no __cudaLaunchKernel: all of them are traced as the translated call.
            let (want_nvcc, want_plain) = if major == 11 {
                (0, launches)
            } else {
                (launches - 1, 1)
            };
            assert_eq!(
                (nvcc, plain),
                (want_nvcc, want_plain),
                "mock {major}, {stream:?}: {run}"
            );
        }
    }
}

/// The program on the mock device (`CUDA_STUBS_MOCK=h200`, issue 37): nvcc's registration and
/// `<<<>>>` path reach the mock through the stub, and each launch is checked as the runtime
/// checks it. Its fat binary holds `sm_80` code and NVRTC-era PTX (nvcc 13.5's ISA 9.5) only: with
/// NVIDIA's nvJitLink beside it the stub makes a CUBIN for the H200 (PTX newer than the profile's
/// CUDA 13.0 driver), and every launch succeeds but the zero grids (9), recorded, not run; without
/// nvJitLink the device has no code it can load: `cudaErrorUnsupportedPtxVersion` (222), as on
/// the real board with that driver.
#[test]
fn nvcc_launches_are_checked_on_the_mock_device() {
    let mock_dir = stubs_tests::build_stubs(&[stubs_tests::MOCK_PACKAGE]);
    assert_eq!(mock_dir, stubs_dir());
    let cuda = cuda_layout(13);
    let nvjitlink = cuda.nvjitlink.as_ref().expect("13.5's nvJitLink");
    for stream in BUILDS {
        let run = Scenario::new(program(stream))
            .env("CUDA_STUBS_MOCK", "h200")
            .env("CUDA_STUBS_NVJITLINK_PATH", nvjitlink)
            .debug()
            .run();
        run.assert_success();
        for (step, code) in [
            ("fill", 0),
            ("apply", 0),
            ("noargs", 0),
            ("fill-zero-grid", 9),
            ("explicit", 0),
            ("thread-zero-grid", 9),
            ("main-after-thread", 0),
        ] {
            assert_eq!(
                errors(&run, step),
                (code, code, 0),
                "{step}, {stream:?}: {run}"
            );
        }
        run.assert_line("stream-create rc=0")
            .assert_line("cudaLaunchKernel rc=0")
            .assert_line("stream-destroy rc=0")
            // The kernels ran on the mock's executor, in issue order.
            .assert_line(
                "results rc=0 out[2]=-0.5 out[6]=-1.5 out[7]=17.5 out[63]=157.5 out[64]=0",
            );
        let launches: Vec<&str> = run
            .debug("mock")
            .into_iter()
            .filter(|l| l.starts_with("launch "))
            .collect();
        assert_eq!(
            launches,
            [
                "launch _Z4filliPfd<<<(2,3,4),(32,2,1),0>>> on device 0: its PTX runs on the kernel executor",
                "launch _Z5apply6ParamsPKfPf<<<(5,1,1),(64,1,1),256>>> on device 0: its PTX runs on the kernel executor",
                "launch _Z6noargsv<<<(1,1,1),(1,1,1),0>>> on device 0: its PTX runs on the kernel executor",
                "launch _Z4filliPfd<<<(9,1,1),(128,1,1),64>>> on device 0: its PTX runs on the kernel executor",
            ],
            "{stream:?}: {run}"
        );
    }
    // No nvJitLink: the PTX is too new for the profile's driver, and no CUBIN is for sm_90.
    let run = Scenario::new(program(Stream::Legacy))
        .env("CUDA_STUBS_MOCK", "h200")
        .env(
            "CUDA_STUBS_NVJITLINK_PATH",
            "/nonexistent/libnvJitLink.so.13",
        )
        .run();
    run.assert_success();
    assert_eq!(errors(&run, "fill"), (222, 222, 0), "{run}");
    run.assert_line("cudaLaunchKernel rc=222");
}

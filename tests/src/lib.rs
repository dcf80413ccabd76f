//! Test harness shared by the integration tests.
//!
//! - [`stubs_dir`]: the stubs, built once per test process with the test's own profile;
//! - [`mock_dir`] / [`mock`]: the mock CUDA libraries `build.rs` compiled (real sonames);
//! - [`cuda_layout`]: NVIDIA's real libraries from the wheels `scripts/fetch-cuda.py` fetches
//!   (never skipped: a failed fetch fails the test);
//! - [`compile_c`] / [`probe`]: C programs built with the `cc` crate's compiler;
//! - [`run`] / [`Scenario`]: each scenario in its own process (a stub searches once per process),
//!   with a clean environment and a 60 s timeout;
//! - cross-built (`cargo test --target aarch64-unknown-linux-gnu`, `scripts/test-aarch64.sh`):
//!   the stubs are built for the same target, C programs with the target's cross compiler,
//!   NVIDIA's wheels of the target's architecture are fetched, and every spawned target program
//!   runs under the emulator named by [`runner`];
//! - [`wine`]: the Windows DLL stubs, MinGW programs and NVIDIA's `win_amd64` DLLs under wine.

pub mod conformance;
pub mod decls;
pub mod device_code_inputs;
pub mod dynamic;
pub mod mock_values;
pub mod nvrtc_inputs;
pub mod symbol_versions;
pub mod topology;
pub mod two_builds;
pub mod versioned_calls;
pub mod wine;

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long one scenario may run before it is killed and the test fails.
pub const TIMEOUT: Duration = Duration::from_secs(300);

/// `G_SLICE` for every qemu-user process (`scripts/test-aarch64.sh` exports it for the test
/// harnesses, [`emulator`] sets it for the programs they start): see [`emulator`].
pub const GSLICE_FORK_SAFE: &str = "always-malloc";

/// The value the probe pre-fills `int` out parameters with.
pub const SENTINEL_INT: i32 = -7777;

/// The workspace root (`/work/main`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// The profile directory of this test binary (`target/debug`): the binary is
/// `target/debug/deps/<name>-<hash>`.
pub(crate) fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .and_then(Path::parent)
        .expect("test binary lives in <target>/<profile>/deps")
        .to_path_buf()
}

/// The target triple the tests were built for (`x86_64-unknown-linux-gnu`,
/// `aarch64-unknown-linux-gnu`).
pub fn target() -> &'static str {
    env!("STUBS_TESTS_TARGET")
}

/// The target triple when it is not the building machine's (`cargo test --target
/// aarch64-unknown-linux-gnu` on x86-64): what a nested `cargo build` must pass as `--target`.
pub fn cross_target() -> Option<&'static str> {
    (target() != env!("STUBS_TESTS_HOST")).then(target)
}

/// Whether a test that needs NVIDIA's wheels of some majors runs (`present`: the layouts have
/// them): on x86-64, where `fetch-cuda.py` fetches every one, a missing wheel fails the test;
/// elsewhere (aarch64: no cu11 cuDNN, cuTENSOR or CUPTI) the test is skipped, and says so.
pub fn runs_with(present: bool, what: &str) -> bool {
    if !present {
        assert!(
            target_arch() != "x86_64",
            "{what}: not in the x86-64 layouts (run scripts/fetch-cuda.py)"
        );
        eprintln!("skipped: no {what} for {}", target_arch());
    }
    present
}

/// True in the memcheck pass (`STUBS_TESTS_VALGRIND=1`: `scripts/test.sh`'s valgrind stage runs
/// the suite a second time, every scenario process that loads a stub under valgrind memcheck).
pub fn memcheck_pass() -> bool {
    std::env::var_os("STUBS_TESTS_VALGRIND").is_some_and(|v| v == "1")
}

/// The variants of one check that a test runs: all of `all` natively; in the
/// [memcheck pass](memcheck_pass) only the one at `turn % all.len()`, so that a test looping
/// over majors (`turn`: the major's index) puts a different variant under memcheck on each.
///
/// For variants that run the same stub code (an ordering of library folders, a binding mode)
/// around NVIDIA's libraries: the native pass checks every variant's answers, memcheck checks
/// the stub's memory, which the variants do not change, at a fraction of the time (each
/// memcheck process of a real runtime and NVRTC takes 10 to 30 s on 2 cores).
pub fn variants<T: Clone>(all: &[T], turn: usize) -> Vec<T> {
    if memcheck_pass() && !all.is_empty() {
        vec![all[turn % all.len()].clone()]
    } else {
        all.to_vec()
    }
}

/// The architecture part of [`target`] (`x86_64`, `aarch64`): which NVIDIA wheels to fetch.
pub fn target_arch() -> &'static str {
    target().split('-').next().unwrap_or("x86_64")
}

/// The command prefix that runs a program of the target machine: `$STUBS_TESTS_RUNNER`, else
/// the runner cargo itself uses for this target (`CARGO_TARGET_<TRIPLE>_RUNNER`, e.g.
/// `qemu-aarch64 -L /usr/aarch64-linux-gnu`), split on whitespace; empty when running natively.
/// Cargo only applies its runner to the test binaries, not to what they spawn.
pub fn runner() -> Vec<OsString> {
    let cargo_var = format!(
        "CARGO_TARGET_{}_RUNNER",
        target().to_uppercase().replace('-', "_")
    );
    std::env::var("STUBS_TESTS_RUNNER")
        .or_else(|_| std::env::var(cargo_var))
        .map(|v| v.split_whitespace().map(OsString::from).collect())
        .unwrap_or_default()
}

/// The emulator command that runs a program of the target machine ([`runner`]), without the
/// program, or `None` when running natively. Its `G_SLICE` setting keeps qemu-user from
/// deadlocking across `fork`: qemu-user 7.2 (Debian 12) allocates translated blocks with GLib's
/// GSlice, which before GLib 2.76 holds a global lock, and a guest that forks while another of
/// its threads holds it (a multithreaded scenario; the test harness itself, spawning from
/// parallel tests) leaves the child stuck before it execs, and whoever waits on it hangs.
/// `always-malloc` makes GSlice plain `malloc`, whose locks glibc resets across `fork`.
pub fn emulator() -> Option<Command> {
    let runner = runner();
    let (emulator, options) = runner.split_first()?;
    let mut c = Command::new(emulator);
    c.args(options).env("G_SLICE", GSLICE_FORK_SAFE);
    Some(c)
}

/// The directory holding every spec'd library's stub (`libstubs_cudart.so`,
/// `libstubs_nvrtc.so`, `libstubs_cuda.so`, `libstubs_nvjitlink.so`) and the link-time stub
/// `libstubs_cudart_abi12.so`, built once per test process by `$CARGO build` with this binary's
/// profile and target dir.
pub fn stubs_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // Every spec'd library's stub crate, and the link-time stub of a two-ABI one.
        let crates: Vec<String> = stub_model::libraries::ALL
            .iter()
            .flat_map(|lib| [Some(lib.crate_name.to_string()), lib.link_stub_crate()])
            .flatten()
            .collect();
        let crates: Vec<&str> = crates.iter().map(String::as_str).collect();
        build_stubs(&crates)
    })
}

/// The mock device's package (`stub-mock`): a workspace of its own (its Cargo.toml says why),
/// built by [`build_stubs`] through its manifest into the same directory as the stubs.
pub const MOCK_PACKAGE: &str = "cuda-stubs-mock";

/// Builds only the stub crates `crates` (`stubs-cuda`, or [`MOCK_PACKAGE`]) as [`stubs_dir`]
/// builds them all (same profile, target dir and target, so into the same directory), and
/// returns that directory: for a test that needs one or two stubs, on a machine where building
/// all of them is slow.
pub fn build_stubs(crates: &[&str]) -> PathBuf {
    let dir = profile_dir();
    // `cargo test --target T` puts the binaries under `<target dir>/T/<profile>`: the stubs
    // are then built with `--target T` into the same `<target dir>`.
    let parent = dir.parent().expect("target dir");
    let cross = parent.file_name() == Some(OsStr::new(target()));
    let target_dir = if cross {
        parent.parent().expect("target dir above the triple")
    } else {
        parent
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let (mock, members): (Vec<&str>, Vec<&str>) =
        crates.iter().partition(|name| **name == MOCK_PACKAGE);
    // One build of the main workspace's members, one of the mock's own workspace.
    let builds = [
        (!members.is_empty()).then(|| members.iter().flat_map(|n| ["-p", n]).collect::<Vec<_>>()),
        (!mock.is_empty()).then(|| vec!["--manifest-path", "stub-mock/Cargo.toml"]),
    ];
    for args in builds.into_iter().flatten() {
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(workspace_root())
            .args(["build", "--quiet"])
            .args(args);
        cmd.arg("--target-dir").arg(target_dir);
        if cross {
            cmd.args(["--target", target()]);
        }
        if dir.file_name() == Some(OsStr::new("release")) {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("run cargo build for the stubs");
        assert!(status.success(), "building the stubs failed: {cmd:?}");
    }
    for name in crates {
        // Cargo's file name of a cdylib: `lib` + the crate name with `_` for `-` + `.so`.
        let file = dir.join(format!("lib{}.so", name.replace('-', "_")));
        assert!(file.is_file(), "{} missing after the build", file.display());
    }
    dir
}

/// Path of one stub: `stub("nvrtc")` is `<stubs_dir>/libstubs_nvrtc.so`.
pub fn stub(lib: &str) -> PathBuf {
    stubs_dir().join(format!("libstubs_{lib}.so"))
}

/// Where `build.rs` put the mock libraries: one directory per variant (`mock-12`,
/// `mock-13-all`, `mock-12-partial`, `mock-driver`, `stand-in-driver` …) and `bad/` (`empty`,
/// `not-elf`, `elf32`, `wrong-machine`).
pub fn mock_dir() -> PathBuf {
    PathBuf::from(env!("STUBS_TESTS_MOCKS"))
}

/// One mock variant's directory, checked to exist.
pub fn mock(variant: &str) -> PathBuf {
    let dir = mock_dir().join(variant);
    assert!(dir.is_dir(), "no mock variant {}", dir.display());
    dir
}

/// The stand-in driver's directory (`mocks/stand-in-driver`, holding `libcuda.so.1` built from
/// `tests/mocks/stand_in_driver.c`): a driver that checks device code as a real one does,
/// configured by `STAND_IN_DRIVER_VERSION`, `STAND_IN_DEVICE_SM`, `STAND_IN_DEVICE_COUNT`, and
/// `STAND_IN_DRIVER_LOG` (the file it appends one line to per image handed in).
pub fn stand_in_driver_dir() -> PathBuf {
    mock("stand-in-driver")
}

/// One real CUDA major from NVIDIA's wheels (`<cache>/cuda-<major>/layout.json`).
#[derive(Debug, Clone)]
pub struct Layout {
    /// 11, 12 or 13.
    pub major: u32,
    /// The runtime wheel's version, e.g. `12.9.79`.
    pub version: String,
    /// The site-packages-like tree of this major.
    pub root: PathBuf,
    /// `libcudart.so.<soname major>`.
    pub cudart: PathBuf,
    /// `libnvrtc.so.<soname major>`.
    pub nvrtc: PathBuf,
    /// `libnvJitLink.so.<major>`, where the major has nvJitLink (12 and 13).
    pub nvjitlink: Option<PathBuf>,
    /// Header directories.
    pub include: Vec<PathBuf>,
    /// `nvcc` of this major's toolkit, where `fetch-cuda.py` unpacks one (13.x only).
    pub nvcc: Option<PathBuf>,
    /// Every spec'd library this major's wheels hold, by its spec name (`layout.json` keys
    /// `cudart`, `nvrtc`, `nvjitlink`).
    pub libraries: BTreeMap<&'static str, PathBuf>,
}

impl Layout {
    /// The directories of the runtime and of NVRTC (one for 13.x, two before).
    pub fn lib_dirs(&self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = Vec::new();
        for lib in [&self.cudart, &self.nvrtc] {
            let dir = lib.parent().expect("library has a directory").to_path_buf();
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
        dirs
    }

    /// [`Layout::lib_dirs`] joined for `LD_LIBRARY_PATH`.
    pub fn ld_library_path(&self) -> OsString {
        std::env::join_paths(self.lib_dirs()).expect("join paths")
    }

    /// `major.minor` of the wheel's version (`12.9`).
    /// The version as the CUDA APIs report it: `1000 * major + 10 * minor` (13.5.37 → 13050).
    pub fn version_code(&self) -> i32 {
        let mut parts = self
            .version
            .split('.')
            .map(|p| p.parse::<i32>().unwrap_or(0));
        let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
        major * 1000 + minor * 10
    }

    pub fn major_minor(&self) -> String {
        self.version
            .split('.')
            .take(2)
            .collect::<Vec<_>>()
            .join(".")
    }
}

/// The cache `scripts/fetch-cuda.py` fills, fetching once per test process. Never skips: a
/// failed fetch panics.
pub(crate) fn cuda_cache() -> &'static Path {
    static CACHE: OnceLock<PathBuf> = OnceLock::new();
    CACHE.get_or_init(|| {
        let script = workspace_root().join("scripts/fetch-cuda.py");
        let out = Command::new("python3")
            .arg(&script)
            .args(["--arch", target_arch()])
            .output()
            .expect("run python3 scripts/fetch-cuda.py");
        assert!(
            out.status.success(),
            "fetch-cuda.py failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let out = Command::new("python3")
            .arg(&script)
            .args(["--arch", target_arch(), "--print-cache"])
            .output()
            .expect("run fetch-cuda.py --print-cache");
        assert!(out.status.success(), "fetch-cuda.py --print-cache failed");
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
    })
}

/// The real libraries of one CUDA major (11, 12 or 13), fetched if needed.
pub fn cuda_layout(major: u32) -> Layout {
    let file = cuda_cache().join(format!("cuda-{major}/layout.json"));
    let text =
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
    let v: serde_json::Value = serde_json::from_str(&text).expect("layout.json is JSON");
    let path = |key: &str| PathBuf::from(v[key].as_str().unwrap_or_else(|| panic!("{key}")));
    let layout = Layout {
        major: u32::try_from(v["major"].as_u64().expect("major")).expect("major fits"),
        version: v["version"].as_str().expect("version").to_string(),
        root: path("root"),
        cudart: path("cudart"),
        nvrtc: path("nvrtc"),
        nvjitlink: v["nvjitlink"].as_str().map(PathBuf::from),
        include: v["include"]
            .as_array()
            .expect("include")
            .iter()
            .map(|d| PathBuf::from(d.as_str().expect("include dir")))
            .collect(),
        nvcc: v["nvcc"].as_str().map(PathBuf::from),
        libraries: stub_model::libraries::ALL
            .iter()
            .filter_map(|lib| Some((lib.name(), PathBuf::from(v[lib.name()].as_str()?))))
            .collect(),
    };
    assert_eq!(layout.major, major, "{}", file.display());
    for lib in [&layout.cudart, &layout.nvrtc] {
        assert!(lib.is_file(), "{} missing", lib.display());
    }
    layout
}

/// A fresh, empty directory for one test, under `<target>/<profile>/stubs-tests/`; unique per
/// call, not only per name and process: two tests of one binary that build the same program
/// run in parallel, and a shared folder let one wipe the other's files mid-run (windows.rs's
/// driver tests both build `stub13d` and copy `nvcuda.dll` beside it).
pub fn temp_dir(name: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = profile_dir()
        .join("stubs-tests")
        .join(format!("{name}-{}-{call}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clear temp dir");
    }
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// The C compiler the `cc` crate picks for this target.
fn c_compiler(out_dir: &Path) -> cc::Tool {
    cc::Build::new()
        .target(env!("STUBS_TESTS_TARGET"))
        .host(env!("STUBS_TESTS_HOST"))
        .opt_level(1)
        .debug(false)
        .out_dir(out_dir)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .get_compiler()
}

/// Builds the CUDA program `source` (relative to `tests/`) with NVIDIA's nvcc 13.x
/// (`fetch-cuda.py`'s tree) into `dir/name`, `args` first (the architecture, the default
/// stream), linked only to the runtime stub (`-cudart none`, `-lstubs_cudart`, its folder as the
/// rpath). The host compiler is the machine's g++ (nvcc finds it on `PATH`); its warnings are
/// errors, as for the C programs. nvcc's temporary files stay in `dir`.
pub fn nvcc_with_stub(dir: &Path, name: &str, source: &str, args: &[&str]) -> PathBuf {
    let nvcc = cuda_layout(13)
        .nvcc
        .expect("layout.json of CUDA 13 names nvcc (scripts/fetch-cuda.py)");
    assert!(nvcc.is_file(), "{} missing", nvcc.display());
    let exe = dir.join(name);
    let stubs = stubs_dir();
    let mut cmd = Command::new(nvcc);
    cmd.args(args)
        .args([
            "-cudart",
            "none",
            "-Xcompiler",
            "-Wall,-Wextra,-Werror",
            "-o",
        ])
        .arg(&exe)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(source))
        .arg(format!("-L{}", stubs.display()))
        .args(["-lstubs_cudart", "-Xlinker", "-rpath", "-Xlinker"])
        .arg(stubs)
        .env("TMPDIR", dir);
    let out = cmd.output().expect("run nvcc");
    assert!(
        out.status.success(),
        "nvcc failed: {cmd:?}\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Compiles and links the C program `name` from `sources` (relative paths are under `tests/`),
/// with `link_args` after the sources; warnings are errors. Returns the executable, in a fresh
/// directory of its own.
pub fn compile_c(name: &str, sources: &[&Path], link_args: &[&OsStr]) -> PathBuf {
    let dir = temp_dir(&format!("c-{name}"));
    let exe = dir.join(name);
    let mut cmd = c_compiler(&dir).to_command();
    cmd.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg("-I")
        .arg(workspace_root().join("include"));
    for source in sources {
        cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(source));
    }
    cmd.args(link_args);
    let out = cmd.output().expect("run the C compiler");
    assert!(
        out.status.success(),
        "compiling {name} failed: {cmd:?}\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// `tests/c/probe.c` linked against the three stubs (`-lstubs_cudart -lstubs_nvrtc
/// -lstubs_cuda`, RPATH to [`stubs_dir`]), once per test process.
pub fn probe() -> &'static Path {
    static PROBE: OnceLock<PathBuf> = OnceLock::new();
    PROBE.get_or_init(|| {
        let dir = stubs_dir();
        let mut rpath = OsString::from("-Wl,-rpath,");
        rpath.push(dir);
        let mut libdir = OsString::from("-L");
        libdir.push(dir);
        compile_c(
            "probe",
            &[Path::new("c/probe.c")],
            &[
                &libdir,
                "-lstubs_cudart".as_ref(),
                "-lstubs_nvrtc".as_ref(),
                "-lstubs_cuda".as_ref(),
                &rpath,
                "-ldl".as_ref(),
                "-pthread".as_ref(),
                // `main` in the dynamic symbol table: the unwinding test names it.
                "-rdynamic".as_ref(),
            ],
        )
    })
}

/// Runs `cmd` in its own process with a clean environment: only `PATH` and the variables set
/// on `cmd` itself (`Command::env`), none inherited. Killed after [`TIMEOUT`] (generous for valgrind runs; the test then
/// fails, it never hangs).
pub fn run(mut cmd: Command) -> Output {
    let set: Vec<(OsString, Option<OsString>)> = cmd
        .get_envs()
        .map(|(k, v)| (k.to_os_string(), v.map(OsStr::to_os_string)))
        .collect();
    cmd.env_clear();
    cmd.env("PATH", std::env::var_os("PATH").unwrap_or_default());
    for (k, v) in set {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("spawn {cmd:?}: {e}"));
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = pipe.read_to_end(&mut buf);
            buf
        })
    };
    let stdout = reader(Box::new(child.stdout.take().expect("stdout")));
    let stderr = reader(Box::new(child.stderr.take().expect("stderr")));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout = stdout.join().expect("stdout reader");
    let stderr = stderr.join().expect("stderr reader");
    match status {
        Some(status) => Output {
            status,
            stdout,
            stderr,
        },
        None => panic!(
            "{cmd:?} still running after {TIMEOUT:?}: killed\nstdout:\n{}\nstderr:\n{}",
            bounded(&String::from_utf8_lossy(&stdout)),
            bounded(&String::from_utf8_lossy(&stderr))
        ),
    }
}

/// What one scenario printed.
#[derive(Debug)]
pub struct Outcome {
    /// Exit status.
    pub status: ExitStatus,
    /// Everything on stdout.
    pub stdout: String,
    /// Everything on stderr (the `CUDA_STUBS_DEBUG` lines).
    pub stderr: String,
}

impl Outcome {
    /// Asserts the process exited with 0.
    pub fn assert_success(&self) -> &Self {
        assert!(self.status.success(), "scenario failed: {self}");
        self
    }

    /// The stdout line that starts with `prefix` followed by a space, `(`, `=` or end of line;
    /// panics (showing everything) when there is none or more than one.
    pub fn line(&self, prefix: &str) -> &str {
        let found: Vec<&str> = self
            .stdout
            .lines()
            .filter(|l| {
                l.strip_prefix(prefix)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '(', '=']))
            })
            .collect();
        assert_eq!(found.len(), 1, "expected one line `{prefix} …`: {self}");
        found[0]
    }

    /// Asserts stdout has exactly this line.
    pub fn assert_line(&self, expected: &str) -> &Self {
        assert!(
            self.stdout.lines().any(|l| l == expected),
            "expected the line `{expected}`: {self}"
        );
        self
    }

    /// Asserts stdout is exactly `expected`, in any order: a sweep of thousands of calls
    /// reports only the lines missing and the lines not expected (a few of each), so the reason
    /// fits in the tail of a CI log.
    pub fn assert_lines<S: AsRef<str>>(&self, expected: &[S]) -> &Self {
        let mut unexpected: BTreeMap<&str, usize> = BTreeMap::new();
        for line in self.stdout.lines() {
            *unexpected.entry(line).or_default() += 1;
        }
        let mut missing = Vec::new();
        for line in expected {
            match unexpected.get_mut(line.as_ref()) {
                Some(n) if *n > 0 => *n -= 1,
                _ => missing.push(line.as_ref()),
            }
        }
        let unexpected: Vec<&str> = unexpected
            .into_iter()
            .flat_map(|(line, n)| std::iter::repeat_n(line, n))
            .collect();
        let few = |lines: &[&str]| {
            let shown: Vec<&str> = lines.iter().take(20).copied().collect();
            format!("{} line(s):\n  {}", lines.len(), shown.join("\n  "))
        };
        assert!(
            missing.is_empty() && unexpected.is_empty(),
            "stdout differs from the {} expected lines\nmissing {}\nnot expected {}\n{self}",
            expected.len(),
            few(&missing),
            few(&unexpected)
        );
        self
    }

    /// The debug lines of one stub (`cuda-stubs[<lib>]: `), without that prefix.
    pub fn debug(&self, lib: &str) -> Vec<&str> {
        let prefix = format!("cuda-stubs[{lib}]: ");
        self.stderr
            .lines()
            .filter_map(|l| l.strip_prefix(prefix.as_str()))
            .collect()
    }

    /// Asserts one debug line of `lib` is exactly `expected`.
    pub fn assert_debug(&self, lib: &str, expected: &str) -> &Self {
        assert!(
            self.debug(lib).contains(&expected),
            "expected the debug line `cuda-stubs[{lib}]: {expected}`: {self}"
        );
        self
    }

    /// The single `bound …` debug line of `lib`.
    pub fn bound(&self, lib: &str) -> &str {
        let lines: Vec<&str> = self
            .debug(lib)
            .into_iter()
            .filter(|l| l.starts_with("bound "))
            .collect();
        assert_eq!(lines.len(), 1, "expected one `bound` line of {lib}: {self}");
        lines[0]
    }

    /// Asserts `lib` bound `path` with `version`, found by `origin`.
    pub fn assert_bound(&self, lib: &str, path: &Path, version: i32, origin: &str) -> &Self {
        let expected = format!("bound {} (version {version}) [{origin}]", path.display());
        assert_eq!(self.bound(lib), expected, "{self}");
        self
    }

    /// Asserts stderr is empty (no debug output unless asked for).
    pub fn assert_silent(&self) -> &Self {
        assert!(self.stderr.is_empty(), "stderr not empty: {self}");
        self
    }

    /// The paths the probe's `maps` command printed.
    pub fn mapped(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter_map(|l| l.strip_prefix("mapped "))
            .collect()
    }
}

/// At most this many lines of each stream go into a failure message: the first and last half.
const SHOWN_LINES: usize = 400;

/// `text`, or its first and last `SHOWN_LINES / 2` lines and how many were left out between.
fn bounded(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= SHOWN_LINES {
        return text.to_string();
    }
    let half = SHOWN_LINES / 2;
    format!(
        "{}\n[… {} lines left out …]\n{}\n",
        lines[..half].join("\n"),
        lines.len() - SHOWN_LINES,
        lines[lines.len() - half..].join("\n")
    )
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "status {}\n--- stdout\n{}--- stderr\n{}---",
            self.status,
            bounded(&self.stdout),
            bounded(&self.stderr)
        )
    }
}

/// One process to run: a program, its arguments and the only environment it gets (plus
/// `PATH`).
#[derive(Debug, Clone)]
pub struct Scenario {
    program: PathBuf,
    args: Vec<OsString>,
    env: BTreeMap<OsString, OsString>,
    cwd: Option<PathBuf>,
    linked_normally: bool,
}

impl Scenario {
    /// The probe ([`probe`]) with these commands.
    pub fn probe<I, S>(commands: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        Scenario::new(probe()).args(commands)
    }

    /// Any program.
    pub fn new(program: impl AsRef<Path>) -> Self {
        Scenario {
            program: program.as_ref().to_path_buf(),
            args: Vec::new(),
            env: BTreeMap::new(),
            cwd: None,
            linked_normally: false,
        }
    }

    /// Marks a program that loads no stub (linked to NVIDIA's libraries as usual, the
    /// reference a stub build is compared with): under `STUBS_TESTS_VALGRIND=1` it runs
    /// natively, since memcheck there would check NVIDIA's code, not the stubs' (NPP 12.4's
    /// uninitialised buffer size is NVIDIA's), at half the valgrind stage's time.
    pub fn linked_normally(mut self) -> Self {
        self.linked_normally = true;
        self
    }

    /// Runs it in `dir` instead of the test's working directory.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.cwd = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Appends arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    /// Appends one path argument.
    pub fn arg_path(mut self, path: impl AsRef<Path>) -> Self {
        self.args.push(path.as_ref().as_os_str().to_os_string());
        self
    }

    /// Sets one environment variable.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.env
            .insert(key.as_ref().to_os_string(), value.as_ref().to_os_string());
        self
    }

    /// `CUDA_STUBS_DEBUG=1`.
    pub fn debug(self) -> Self {
        self.env("CUDA_STUBS_DEBUG", "1")
    }

    /// `LD_LIBRARY_PATH` from these directories, in order.
    pub fn library_path<I, P>(self, dirs: I) -> Self
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let joined = std::env::join_paths(dirs.into_iter().map(|d| d.as_ref().to_path_buf()))
            .expect("join LD_LIBRARY_PATH");
        self.env("LD_LIBRARY_PATH", joined)
    }

    /// Runs it (see [`run`]). With `STUBS_TESTS_VALGRIND=1` in the test's environment, the
    /// program runs under valgrind memcheck and any memcheck error fails the scenario (exit
    /// 99); `scripts/test.sh` runs the whole suite once that way. setuid scenarios (`setpriv`)
    /// run natively: valgrind cannot run setuid programs; so do programs
    /// [linked normally](Self::linked_normally). Cross-built, a program given by path
    /// (what the tests built) runs under [`runner`]; a bare command name is a host tool.
    pub fn run(mut self) -> Outcome {
        let valgrind =
            memcheck_pass() && self.program != Path::new("setpriv") && !self.linked_normally;
        let mut cmd = if valgrind {
            let mut c = Command::new("valgrind");
            c.args([
                "-q",
                "--error-exitcode=99",
                "--leak-check=no",
                "--child-silent-after-fork=yes",
            ])
            .arg(format!(
                "--suppressions={}",
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("valgrind.supp")
                    .display()
            ))
            .arg(&self.program);
            c
        } else if let Some(mut c) = emulator().filter(|_| self.program.components().count() > 1) {
            // A cross-built program runs under the emulator (`qemu-aarch64 -L <sysroot>`).
            // Its environment reaches the emulated program unchanged, except the loader's
            // preload and audit lists: the emulator is a host program, and its own loader would
            // try (and complain about) the target's libraries named there, so these go through
            // qemu's `-E`, which sets them in the emulated process only.
            for key in ["LD_PRELOAD", "LD_AUDIT"] {
                if let Some(value) = self.env.remove(OsStr::new(key)) {
                    // qemu splits `-E` values at commas.
                    assert!(
                        !value.to_string_lossy().contains(','),
                        "{key} with a comma cannot pass through qemu's -E: {value:?}"
                    );
                    let mut set = OsString::from(key);
                    set.push("=");
                    set.push(value);
                    c.arg("-E").arg(set);
                }
            }
            c.arg(&self.program);
            c
        } else {
            Command::new(&self.program)
        };
        cmd.args(&self.args).envs(&self.env);
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        let out = run(cmd);
        Outcome {
            status: out.status,
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// Copies `src` to `dst` (creating `dst`'s directory).
pub fn copy(src: &Path, dst: &Path) {
    if let Some(parent) = dst.parent() {
        std::fs::create_dir_all(parent).expect("create dir");
    }
    std::fs::copy(src, dst)
        .unwrap_or_else(|e| panic!("copy {} -> {}: {e}", src.display(), dst.display()));
}

/// Puts `src` at `dst` as a hard link, or a copy where the two are on different file systems:
/// for the stub DLLs set beside each Windows probe (30 of them, ~150 MB a folder in debug),
/// which no test writes to. Copies filled the CI machine's disk (ENOSPC).
pub fn link_file(src: &Path, dst: &Path) {
    if std::fs::hard_link(src, dst).is_err() {
        copy(src, dst);
    }
}

/// `-I` flags for the real CUDA headers of `major` (from its `layout.json`), for C programs
/// compiled against NVIDIA's headers with [`compile_c`].
pub fn cuda_include_args(major: u32) -> Vec<OsString> {
    cuda_layout(major)
        .include
        .iter()
        .map(|d| {
            let mut arg = OsString::from("-I");
            arg.push(d);
            arg
        })
        .collect()
}

/// The fields of a struct in a generated stub file (`stubs-cudart/src/generated/types.rs`, or a module of
/// `abi_types.rs` when `module` is given): name, Rust type text and array length (0 for none).
pub fn struct_fields(file: &str, module: Option<&str>, name: &str) -> Vec<(String, String, usize)> {
    use quote::ToTokens;
    let path = workspace_root().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut items = parsed.items;
    if let Some(module) = module {
        items = items
            .into_iter()
            .find_map(|i| match i {
                syn::Item::Mod(m) if m.ident == module => m.content.map(|c| c.1),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{}: no module {module}", path.display()));
    }
    let strukt = items
        .into_iter()
        .find_map(|i| match i {
            syn::Item::Struct(s) if s.ident == name => Some(s),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{}: no struct {name}", path.display()));
    strukt
        .fields
        .iter()
        .map(|f| {
            let ident = f.ident.as_ref().expect("named field").to_string();
            match &f.ty {
                syn::Type::Array(a) => {
                    let len = a.len.to_token_stream().to_string();
                    let len = len
                        .trim_end_matches("usize")
                        .trim()
                        .parse()
                        .expect("array length");
                    (ident, a.elem.to_token_stream().to_string(), len)
                }
                other => (ident, other.to_token_stream().to_string(), 0),
            }
        })
        .collect()
}

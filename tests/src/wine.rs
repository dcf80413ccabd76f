//! Windows under wine: the DLL stubs cross-built for `x86_64-pc-windows-gnu`, C programs
//! built with MinGW, NVIDIA's `win_amd64` DLLs (`scripts/fetch-cuda.py --arch win_amd64`), and
//! wine 8 (`/usr/lib/wine/wine64`) to run them, in one wine prefix kept under the cache.
//! `scripts/setup-machine.sh test` installs wine64, gcc-mingw-w64-x86-64 and the Rust target.
//!
//! Only the x86-64 Linux suite runs them, and not its valgrind pass (wine under memcheck is
//! neither useful nor fast): [`skip`] says when.

use crate::{Outcome, Scenario, cuda_cache, temp_dir, workspace_root};
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The Rust target of the DLL stubs.
pub const WINDOWS_TARGET: &str = "x86_64-pc-windows-gnu";

/// wine's 64-bit loader as Debian installs it (not on `PATH`).
pub const WINE: &str = "/usr/lib/wine/wine64";

/// Its wineserver (Debian's wine64 package).
pub const WINESERVER: &str = "/usr/lib/wine/wineserver64";

/// The MinGW C compiler.
pub const MINGW_CC: &str = "x86_64-w64-mingw32-gcc";

/// True (with a note on stderr) where the Windows tests do not run: the valgrind pass, a
/// cross-built (aarch64) suite.
pub fn skip() -> bool {
    let valgrind = crate::memcheck_pass();
    let cross = crate::target_arch() != "x86_64";
    if valgrind || cross {
        eprintln!("windows tests: not in the valgrind pass or a cross-built suite");
    }
    valgrind || cross
}

/// The stubs with a Windows DLL (`RealLibrary::windows`): `cudart`, `nvrtc`, `cuda`,
/// `nvjitlink`, the math libraries, `nvml`.
pub fn windows_libraries() -> Vec<&'static stub_model::Library> {
    stub_model::libraries::ALL
        .iter()
        .copied()
        .filter(|lib| lib.real.windows.is_some())
        .collect()
}

/// The folder of `stubs_<name>.dll` and rustc's `libstubs_<name>.dll.a`, built once per test
/// process (`cargo build --release --target x86_64-pc-windows-gnu`, this test's target dir).
///
/// Release whatever this test's profile: these are the DLLs the win_amd64 wheel ships
/// (`scripts/test-packaging-windows.sh` builds the same packages the same way), and one
/// Windows build serves both, where a debug one would be a second compile of every DLL stub.
/// The debug build's extra checks (overflow, debug assertions) run on the same loader and
/// macro code in the Linux suites.
pub fn stubs_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let profile = crate::profile_dir();
        let target_dir = profile.parent().expect("target dir");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(workspace_root())
            .args(["build", "--quiet", "--release", "--target", WINDOWS_TARGET])
            .arg("--target-dir")
            .arg(target_dir);
        for lib in windows_libraries() {
            cmd.args(["-p", lib.crate_name]);
        }
        let status = cmd.status().expect("run cargo build for the Windows stubs");
        assert!(
            status.success(),
            "building the Windows stubs failed: {cmd:?}"
        );
        let dir = target_dir.join(WINDOWS_TARGET).join("release");
        for lib in windows_libraries() {
            let dll = dir.join(format!("stubs_{}.dll", lib.name()));
            assert!(dll.is_file(), "{} missing after the build", dll.display());
        }
        dir
    })
}

/// The mock device built for Windows, `cuda_stubs_mock.dll` (`stub-mock`, a workspace of its
/// own: its Cargo.toml says why), into [`stubs_dir`], where the stubs look for it beside
/// themselves under `CUDA_STUBS_MOCK`.
pub fn mock_dll() -> &'static Path {
    static DLL: OnceLock<PathBuf> = OnceLock::new();
    DLL.get_or_init(|| {
        let dir = stubs_dir();
        let target_dir = dir
            .parent()
            .and_then(Path::parent)
            .expect("<target dir>/<triple>/release");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(workspace_root())
            .args(["build", "--quiet", "--release", "--target", WINDOWS_TARGET])
            .args(["--manifest-path", "stub-mock/Cargo.toml"])
            .arg("--target-dir")
            .arg(target_dir);
        let status = cmd.status().expect("run cargo build for the Windows mock");
        assert!(
            status.success(),
            "building the Windows mock failed: {cmd:?}"
        );
        let dll = dir.join("cuda_stubs_mock.dll");
        assert!(dll.is_file(), "{} missing after the build", dll.display());
        dll
    })
}

/// One CUDA major's `win_amd64` DLLs (`<cache>/windows/cuda-<major>/layout.json`).
#[derive(Debug, Clone)]
pub struct WinLayout {
    /// 11, 12 or 13.
    pub major: u32,
    /// The runtime wheel's version (`12.9.79`).
    pub version: String,
    /// The folder the DLLs' paths are relative to (`<cache>/windows/cuda-<major>`), laid out as
    /// a `site-packages` holding NVIDIA's wheels (`nvidia/cublas/bin`).
    pub root: PathBuf,
    /// DLL by key (`cudart`, `nvrtc`, `nvrtc_companion`, `nvjitlink`, `curand`, `cufft`,
    /// `cublas`, `cublaslt`, `cusparse`, `cusolver`), absolute.
    pub dlls: BTreeMap<String, PathBuf>,
}

impl WinLayout {
    /// The DLL of `key`, which must exist.
    pub fn dll(&self, key: &str) -> &Path {
        self.dlls
            .get(key)
            .unwrap_or_else(|| panic!("no {key} DLL in CUDA {}", self.major))
    }

    /// The folder of `key`'s DLL.
    pub fn dir(&self, key: &str) -> &Path {
        self.dll(key).parent().expect("a DLL has a folder")
    }

    /// `1000 * major + 10 * minor` of [`WinLayout::version`].
    pub fn version_code(&self) -> i32 {
        let mut parts = self
            .version
            .split('.')
            .map(|p| p.parse::<i32>().expect("number"));
        let (major, minor) = (parts.next().expect("major"), parts.next().expect("minor"));
        major * 1000 + minor * 10
    }
}

/// NVIDIA's `win_amd64` DLLs of `major`, fetched once per test process if needed.
pub fn win_layout(major: u32) -> WinLayout {
    static FETCHED: OnceLock<()> = OnceLock::new();
    FETCHED.get_or_init(|| {
        let out = Command::new("python3")
            .arg(workspace_root().join("scripts/fetch-cuda.py"))
            .args(["--arch", "win_amd64"])
            .output()
            .expect("run python3 scripts/fetch-cuda.py --arch win_amd64");
        assert!(
            out.status.success(),
            "fetch-cuda.py --arch win_amd64 failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    });
    let root = cuda_cache().join(format!("windows/cuda-{major}"));
    let file = root.join("layout.json");
    let text =
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
    let v: serde_json::Value = serde_json::from_str(&text).expect("layout.json is JSON");
    let dlls = v["dlls"]
        .as_object()
        .expect("dlls")
        .iter()
        .map(|(k, p)| (k.clone(), root.join(p.as_str().expect("a path"))))
        .collect();
    WinLayout {
        major,
        version: v["version"].as_str().expect("version").to_string(),
        dlls,
        root,
    }
}

/// The wine prefix of the tests, `<cache>/wine-prefix`, booted (`wineboot -i`) once per test
/// process; kept between runs (the first boot takes a few seconds).
pub fn prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let prefix = cuda_cache().join("wine-prefix");
        let out = crate::run({
            let mut c = Command::new(WINE);
            c.args(["wineboot", "-i"])
                .env("WINEPREFIX", &prefix)
                .env("WINEDEBUG", "-all");
            c
        });
        assert!(
            out.status.success() && prefix.join("system.reg").is_file(),
            "wineboot in {} failed ({}): {}",
            prefix.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        // One wineserver for the test process's runs, kept a minute past the last: by default
        // it exits 3 s after its last client, and a client connecting as it exits fails with
        // "wine client error: recvmsg: Connection reset by peer" (CI, 2026-12-02). A server
        // already running keeps its own setting; this one's status is not needed.
        let _ = Command::new(WINESERVER)
            .arg("-p60")
            .env("WINEPREFIX", &prefix)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
        prefix
    })
}

/// `path` as wine's Windows programs see it: `Z:\` (wine's view of `/`) and backslashes.
pub fn win_path(path: &Path) -> String {
    format!("Z:{}", path.display()).replace('/', "\\")
}

/// Builds the C program `name` with MinGW from `sources` (relative to `tests/`), defines,
/// include folders and link arguments (after the sources), in a fresh folder; returns the
/// `.exe`. Warnings are shown, not errors: NVIDIA's `host_defines.h` redefines MinGW's
/// built-in `__cdecl`.
pub fn mingw_exe(
    name: &str,
    sources: &[&str],
    defines: &[String],
    includes: &[PathBuf],
    link: &[&OsStr],
) -> PathBuf {
    let dir = temp_dir(&format!("win-{name}"));
    let exe = dir.join(format!("{name}.exe"));
    let mut cmd = Command::new(MINGW_CC);
    cmd.args(["-std=c11", "-O1", "-Wall", "-Wextra", "-o"])
        .arg(&exe)
        .arg("-I")
        .arg(workspace_root().join("include"));
    for d in defines {
        cmd.arg(format!("-D{d}"));
    }
    for i in includes {
        cmd.arg("-I").arg(i);
    }
    for s in sources {
        cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(s));
    }
    cmd.args(link);
    let out = cmd.output().expect("run x86_64-w64-mingw32-gcc");
    assert!(
        out.status.success(),
        "MinGW build of {name} failed: {cmd:?}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Builds a DLL with MinGW from one source (relative to `tests/`) and defines into `dir/file`.
/// GCC's runtime is linked in (`-static-libgcc`): complex arithmetic (`tests/mocks/cpu_blas.c`'s
/// `zgemm_`) would otherwise import `libgcc_s_seh-1.dll`, which no folder wine searches holds.
pub fn mingw_dll(source: &str, defines: &[String], dir: &Path, file: &str) -> PathBuf {
    let dll = dir.join(file);
    let out = Command::new(MINGW_CC)
        .args(["-shared", "-static-libgcc", "-O1", "-o"])
        .arg(&dll)
        .args(defines.iter().map(|d| format!("-D{d}")))
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(source))
        .output()
        .expect("run x86_64-w64-mingw32-gcc");
    assert!(
        out.status.success(),
        "MinGW build of {file} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dll
}

/// A Windows program run under wine, with only the environment given here (plus `PATH`, the
/// prefix and `WINEDEBUG=-all`): wine passes the variables on to the Windows process.
#[derive(Debug)]
pub struct Wine(Scenario);

impl Wine {
    /// `exe` with arguments.
    pub fn new<I, S>(exe: &Path, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        Wine(
            Scenario::new(WINE)
                .arg_path(exe)
                .args(args)
                .env("WINEPREFIX", prefix())
                .env("WINEDEBUG", "-all"),
        )
    }

    /// Sets one environment variable of the Windows process.
    pub fn env(self, key: &str, value: impl AsRef<OsStr>) -> Self {
        Wine(self.0.env(key, value))
    }

    /// Sets `key` to a folder or file, as a Windows path ([`win_path`]).
    pub fn env_path(self, key: &str, path: &Path) -> Self {
        let value = win_path(path);
        self.env(key, value)
    }

    /// Runs it in `dir`.
    pub fn current_dir(self, dir: &Path) -> Self {
        Wine(self.0.current_dir(dir))
    }

    /// Runs it; the outcome must be a clean exit. A run that wine itself lost (its client's
    /// connection to wineserver reset, `wine client error:`, before the program ran: a
    /// wineserver exiting as the client connected) runs once more; the program's own failures
    /// never do.
    pub fn run(self) -> Outcome {
        let mut out = self.0.clone().run();
        if !out.status.success() && out.stderr.contains("wine client error:") {
            out = self.0.run();
        }
        out.assert_success();
        out
    }
}

/// The `status LIB key=value` line's value.
pub fn field<'a>(out: &'a Outcome, lib: &str, key: &str) -> &'a str {
    let prefix = format!("status {lib} {key}=");
    out.stdout
        .lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("no `{prefix}` line: {out}"))
}

/// A no-library status code of `lib`'s spec.
pub fn no_library(lib: &str) -> i64 {
    let spec = windows_libraries()
        .into_iter()
        .find(|l| l.name() == lib)
        .unwrap_or_else(|| panic!("no Windows stub {lib}"));
    i64::from(spec.errors.no_library.value)
}

/// wine's `PATH` for a program linked to NVIDIA's DLLs: the folders of `win`'s DLLs (one per
/// wheel for 11.x and 12.x, one for 13.x's).
pub fn wine_path(win: &WinLayout) -> String {
    let dirs: BTreeSet<String> = win
        .dlls
        .values()
        .map(|d| win_path(d.parent().expect("a folder")))
        .collect();
    dirs.into_iter().collect::<Vec<_>>().join(";")
}

/// `status LIB rc=.. bound=..` without the version.
pub fn status_line<'a>(out: &'a Outcome, lib: &str) -> &'a str {
    let line = out.line(&format!("status {lib} rc"));
    let rest = line
        .strip_prefix(&format!("status {lib} "))
        .expect("prefix");
    rest.rsplit_once(" version=").map_or(rest, |(head, _)| head)
}

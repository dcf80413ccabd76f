//! The math libraries', NVML's and the framework libraries' Windows DLL stubs under wine: every
//! Windows stub with a probe in `tests/windows/libraries/<name>.c` (cuRAND, cuFFT, cuBLAS,
//! cuBLASLt, cuSPARSE, cuSOLVER, NVML, cuTENSOR, cuSPARSELt, cuDNN, NPP, CUPTI, nvFatbin,
//! nvJPEG, cuFFTW, nvBLAS, cuSOLVERMg, libNVVM, Perfworks …),
//! against NVIDIA's own `win_amd64` DLLs of CUDA 11.8, 12.9 and 13.5 (`scripts/fetch-cuda.py
//! --arch win_amd64`; each library's test wheel of that major, none where it has none: nvFatbin
//! and cuSPARSELt have no 11.x; NPP's core and `nppitc` only, the other nine without a DLL,
//! and cuDSS and cuSOLVERMg without one),
//! and a DLL no wheel ships (NVML's `nvml.dll`, the driver's) against a stand-in, its mock
//! `tests/mocks/<name>.c` built with MinGW. No GPU, no driver: each library answers its
//! version, and the call that needs a device answers what the library answers without one.
//!
//! The program (`tests/windows/win_math.c` and the libraries' files) is built twice per major
//! with that major's headers, once linked to the stubs' import libraries and once to NVIDIA's
//! DLLs themselves, and both builds must print the same lines. Then what only the stubs do: find
//! what a DLL imports in the other wheels' folders (NVIDIA's 11.x and 12.x wheels put each DLL
//! in its own wheel's `bin`), refuse a DLL of another CUDA release than the process has before
//! loading it (its imports say which), find CUPTI's DLL, named after CUPTI's own release, by
//! its pattern, and answer each library's "no library" code when nothing is found. `tests/src/wine.rs` is the harness; `tests/tests/windows.rs` covers the runtime,
//! NVRTC, nvJitLink and the driver (and every DLL stub's `.def` file).

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stub_model::libraries::ALL;
use stub_model::{Library, VersionProbe};
use stubs_tests::wine::{
    WinLayout, Wine, field, mingw_dll, mingw_exe, no_library, skip, status_line, stubs_dir,
    win_layout, win_path, windows_libraries, wine_path,
};
use stubs_tests::{Outcome, cuda_layout, link_file, temp_dir, workspace_root};

/// The probe's folder of per-library sources, relative to `tests/`.
const PROBES: &str = "windows/libraries";

/// The Windows stubs this file tests: those with a probe, `tests/windows/libraries/<name>.c`,
/// in spec order. Every library under the one-release rule (`same_release_as`: the math
/// libraries, nvJPEG) with a Windows stub must have one.
fn all_libraries() -> Vec<&'static Library> {
    let has_probe = |lib: &Library| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("{PROBES}/{}.c", lib.name()))
            .is_file()
    };
    let libs: Vec<&'static Library> = windows_libraries()
        .into_iter()
        .filter(|lib| has_probe(lib))
        .collect();
    for lib in windows_libraries() {
        assert!(
            lib.real.same_release_as.is_empty() || has_probe(lib),
            "{} has a Windows stub and no {PROBES}/{}.c",
            lib.name(),
            lib.name()
        );
    }
    libs
}

/// Those of [`all_libraries`] that CUDA `major` has: a DLL no wheel ships (NVML's, a
/// stand-in) in every major, a wheel's where the spec has a test wheel of `major` (no nvFatbin
/// in 11.x: its header is not in 11.8's either).
fn libraries(major: u32) -> Vec<&'static Library> {
    all_libraries()
        .into_iter()
        .filter(|lib| !in_wheels(lib) || lib.test_wheels.iter().any(|w| w.major == major))
        .collect()
}

/// Those of [`libraries`]`(major)` run against NVIDIA's DLL (or the stand-in): all but the
/// stubs whose DLL `fetch-cuda.py` does not fetch (`WindowsDlls::fetched`: NPP's large image
/// and signal libraries), which are run without a DLL only.
fn compared(major: u32) -> Vec<&'static Library> {
    libraries(major)
        .into_iter()
        .filter(|lib| !in_wheels(lib) || lib.real.windows.is_some_and(|w| w.fetched))
        .collect()
}

/// Whether NVIDIA's wheels ship `lib`'s DLL (else it comes with the driver: a stand-in).
fn in_wheels(lib: &Library) -> bool {
    lib.real.windows.is_some_and(|w| !w.wheel_dirs.is_empty())
}

/// `lib`'s Windows DLL name of `major` (`cufft64_11.dll`, `nvml.dll`).
fn dll_name(lib: &Library, major: u32) -> String {
    let dll = lib.windows_dll(major).expect("a Windows DLL");
    dll.to_string_lossy().into_owned()
}

/// The stand-in for `lib`'s driver DLL in `dir` under its Windows name: `tests/mocks/<name>.c`
/// built with MinGW, serving CUDA `major` (`MOCK_CUDA_MAJOR`).
fn stand_in(lib: &Library, major: u32, dir: &Path) -> PathBuf {
    let built = temp_dir(&format!("win-stand-in-{}-{major}", lib.name()));
    let dll = mingw_dll(
        &format!("mocks/{}.c", lib.name()),
        &[format!("MOCK_CUDA_MAJOR={major}")],
        &built,
        &dll_name(lib, major),
    );
    let to = dir.join(dll.file_name().expect("a name"));
    std::fs::copy(&dll, &to).expect("copy the stand-in");
    to
}

/// `win_math.c` with the file of each of `libs`, built with `major`'s headers and `link` (after
/// the sources), in a fresh folder; `win_math_libraries.h` lists `libs`.
fn probe(name: &str, major: u32, libs: &[&Library], link: &[&OsStr]) -> PathBuf {
    let generated = temp_dir(&format!("win-math-h-{name}"));
    let list: String = libs
        .iter()
        .map(|l| format!("WIN_MATH_LIBRARY({})\n", l.name()))
        .collect();
    std::fs::write(generated.join("win_math_libraries.h"), list).expect("write the list");
    let sources: Vec<String> = std::iter::once("windows/win_math.c".to_owned())
        .chain(libs.iter().map(|l| format!("{PROBES}/{}.c", l.name())))
        .collect();
    let sources: Vec<&str> = sources.iter().map(String::as_str).collect();
    let mut includes = cuda_layout(major).include;
    // cublas_api.h includes cuda_fp16.h, which includes CCCL's <nv/target>: the empty shim.
    includes.push(workspace_root().join("codegen/shim-include"));
    includes.push(generated);
    mingw_exe(
        name,
        &sources,
        &[format!("HEADER_MAJOR={major}")],
        &includes,
        link,
    )
}

/// The program of `major`'s headers and `libs` linked to the stubs (rustc's MinGW import
/// libraries), the stub DLLs copied beside it; with `stand_ins`, the driver DLLs' stand-ins too (the
/// application's folder: where the safe DLL search finds them, as it finds the driver's in
/// `System32`).
fn stub_probe(major: u32, libs: &[&Library], stand_ins: bool) -> PathBuf {
    let mut libdir = OsString::from("-L");
    libdir.push(stubs_dir());
    let names: Vec<OsString> = libs
        .iter()
        .map(|l| OsString::from(format!("-lstubs_{}", l.name())))
        .collect();
    let mut link: Vec<&OsStr> = vec![&libdir];
    link.extend(names.iter().map(OsString::as_os_str));
    let exe = probe(&format!("math-stub{major}{stand_ins}"), major, libs, &link);
    let dir = exe.parent().expect("a folder");
    for &lib in libs {
        let dll = format!("stubs_{}.dll", lib.name());
        link_file(&stubs_dir().join(&dll), &dir.join(&dll));
        if stand_ins && !in_wheels(lib) {
            stand_in(lib, major, dir);
        }
    }
    exe
}

/// The program of `major`'s headers linked to NVIDIA's DLLs themselves (MinGW links a DLL
/// directly) and to the stand-ins, which lie beside it.
fn normal_probe(major: u32, win: &WinLayout) -> PathBuf {
    let stand_ins = temp_dir(&format!("win-math-stand-ins-{major}"));
    let libs = compared(major);
    let link: Vec<OsString> = libs
        .iter()
        .map(|l| match in_wheels(l) {
            true => win.dll(l.name()).into(),
            false => stand_in(l, major, &stand_ins).into(),
        })
        .collect();
    let link: Vec<&OsStr> = link.iter().map(OsString::as_os_str).collect();
    let exe = probe(&format!("math-normal{major}"), major, &libs, &link);
    for dll in std::fs::read_dir(&stand_ins).expect("the stand-ins") {
        let dll = dll.expect("an entry").path();
        std::fs::copy(&dll, exe.with_file_name(dll.file_name().expect("a name"))).expect("copy");
    }
    exe
}

/// The version `lib` must answer on `major`: its test wheel's `major.minor.patch`
/// (`nvidia-cusolver-cu12==11.7.5.82`: `11.7.5`), or `major.minor` where the library's version
/// call answers no more (`nvFatbinVersion`: `12.9` of `nvidia-nvfatbin-cu12==12.9.82`) or
/// another patch (cuTENSOR); a
/// stand-in's, its mock's (`13.580.0`, the form of the driver's `13.580.159.04`).
fn expected_version(lib: &Library, major: u32) -> String {
    if !in_wheels(lib) {
        return format!("{major}.580.0");
    }
    let wheel = lib
        .test_wheels
        .iter()
        .find(|w| w.major == major)
        .expect("a test wheel of the major");
    let version = wheel.requirement.split("==").nth(1).expect("a version");
    // cuTENSOR's patch is not its wheel's: 2.8.1's `cutensorGetVersion` answers 20800.
    // libNVVM's: the CUDA release of its build string, which the PTX it writes names too
    // (`nvidia-nvvm==13.5.37`: 13.5).
    let parts = match lib.real.version {
        VersionProbe::MajorMinor(_) | VersionProbe::BuiltForMajorMinor { .. } => 2,
        _ if lib.name() == "cutensor" => 2,
        _ => 3,
    };
    version.split('.').take(parts).collect::<Vec<_>>().join(".")
}

/// The override of each library NVIDIA's wheels ship (`CUDA_STUBS_<NAME>_PATH`): the folder of
/// its DLL in NVIDIA's wheel layout (the cache's `windows/cuda-<major>` is laid out as a
/// `site-packages`).
fn overrides(mut wine: Wine, win: &WinLayout) -> Wine {
    for lib in compared(win.major).into_iter().filter(|l| in_wheels(l)) {
        let var = lib.real.env_path.to_str().expect("ASCII");
        wine = wine.env_path(var, win.dir(lib.name()));
    }
    wine
}

/// An nvBLAS configuration (`NVBLAS_CONFIG_FILE`) naming the test's CPU BLAS,
/// `tests/mocks/cpu_blas.c` built with MinGW, with nvBLAS's log beside it; made once per test
/// process. Without a GPU NVIDIA's nvBLAS hands every routine to that library, and without one
/// configured it calls through a NULL pointer (its log: "CPU Blas library need to be
/// provided"), in 11.8, 12.9 and 13.5 alike.
fn nvblas_config() -> &'static Path {
    static CONFIG: OnceLock<PathBuf> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let dir = temp_dir("win-nvblas-config");
        let cpu = mingw_dll("mocks/cpu_blas.c", &[], &dir, "cpu_blas.dll");
        let file = dir.join("nvblas.conf");
        std::fs::write(
            &file,
            format!(
                "NVBLAS_LOGFILE {}\nNVBLAS_CPU_BLAS_LIB {}\n",
                win_path(&dir.join("nvblas.log")),
                win_path(&cpu)
            ),
        )
        .expect("write nvblas.conf");
        file
    })
}

/// Every command of `libs`, then each one's status.
fn all_commands(libs: &[&Library]) -> Vec<String> {
    let names: Vec<&str> = libs.iter().map(|l| l.name()).collect();
    names
        .iter()
        .map(|n| (*n).to_owned())
        .chain(names.iter().map(|n| format!("status:{n}")))
        .collect()
}

/// Each library's lines of `out`: from its `== <name>` line to the next `== ` or `status `.
fn sections(out: &Outcome) -> BTreeMap<String, Vec<String>> {
    let mut sections: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in out.stdout.lines() {
        if let Some(name) = line.strip_prefix("== ") {
            current = Some(name.to_owned());
            sections.entry(name.to_owned()).or_default();
        } else if line.starts_with("status ") {
            current = None;
        } else if let Some(name) = &current {
            sections
                .entry(name.clone())
                .or_default()
                .push(line.to_owned());
        }
    }
    sections
}

/// On each major, the stub build prints what the build linked to NVIDIA's DLLs prints: every
/// library's version (the test wheel's), what each answers without a device, NVML through the
/// stand-in. The stubs find NVIDIA's DLLs through `CUDA_STUBS_<LIB>_PATH` (the DLL's wheel
/// folder: cuSOLVER's imports then come from the other wheels' folders), NVML's by the safe DLL
/// search (the application's folder); the normal build through wine's `PATH` (`WINEPATH`).
fn same_as_nvidias_own(major: u32) {
    if skip() {
        return;
    }
    let win = win_layout(major);
    let normal = normal_probe(major, &win);
    let libs = compared(major);
    let stub = stub_probe(major, &libs, true);
    let commands = all_commands(&libs);
    let expected = Wine::new(&normal, &commands)
        .env("WINEPATH", wine_path(&win))
        .env_path("NVBLAS_CONFIG_FILE", nvblas_config())
        .run();
    let got = overrides(Wine::new(&stub, &commands), &win)
        .env_path("NVBLAS_CONFIG_FILE", nvblas_config())
        .run();
    let without_status = |out: &Outcome| -> String {
        let lines: Vec<&str> = out
            .stdout
            .lines()
            .filter(|l| !l.starts_with("status "))
            .collect();
        lines.join("\n")
    };
    assert_eq!(
        without_status(&got),
        without_status(&expected),
        "stub build vs normal build"
    );
    // cuSPARSE's own message about the missing device, nvBLAS's banner and the CPU BLAS's line
    // per routine it ran, nothing of the stubs'. NVIDIA's nvBLAS 13.5 loaded after the process
    // started (`LoadLibrary`, as the stub loads it; a plain program doing so alike) says first
    // that it finds no GPU, a line it does not write when the program is linked to it (11.8's
    // and 12.9's write it in neither case).
    const NO_GPU: &str = "[NVBLAS] No Gpu available\r\n";
    let no_gpu = usize::from(major == 13);
    assert_eq!(got.stderr.matches(NO_GPU).count(), no_gpu, "{got}");
    assert_eq!(
        got.stderr.replacen(NO_GPU, "", 1),
        expected.stderr,
        "stub build vs normal build"
    );
    for &lib in &libs {
        // The real library of the test wheel answered, through the stub as directly; NPP's,
        // whose DLL name says the major (its version is `nppc`'s, below), that major's.
        let name = lib.name();
        let version = field(&got, name, "rc")
            .rsplit_once(" version=")
            .map(|(_, v)| v);
        if let VersionProbe::Soname = lib.real.version {
            assert_eq!(version, Some(format!("{}", major * 1000).as_str()), "{got}");
        } else if name == "cupti" {
            // CUPTI answers its API version (18, 28), not its wheel's, and 13.x none without a
            // driver: the stub's release is the major, from that version or the DLL's name
            // (`cupti64_2026.3.1.dll`: 13).
            let version = version.and_then(|v| v.parse::<u32>().ok());
            assert_eq!(version.map(|v| v / 1000), Some(major), "{got}");
        } else if let VersionProbe::QueryVersionNumber { .. } = lib.real.version {
            // Perfworks answers CUPTI's release numbering (2025.2.0, 2026.3.1), which the stub
            // maps to the major; 11.8's knows no SDK API set: bound, release unknown (0).
            let version = version.and_then(|v| v.parse::<u32>().ok());
            let want = if major == 11 { 0 } else { major };
            assert_eq!(version.map(|v| v / 1000), Some(want), "{name}: {got}");
        } else {
            expected.assert_line(&format!("version {name} {}", expected_version(lib, major)));
        }
        assert_eq!(status_line(&got, name), "rc=0 bound=1", "{got}");
        if in_wheels(lib) {
            // By the override, or (cuBLASLt) as what an earlier library imported: NVIDIA's DLL
            // of this major, once.
            let by = field(&got, name, "found_by");
            assert!(
                by == "environment override" || by == "already loaded (GetModuleHandleExW)",
                "{name}: {by}"
            );
            assert_eq!(field(&got, name, "path"), win_path(win.dll(name)), "{got}");
        } else {
            assert_eq!(
                field(&got, name, "found_by"),
                "safe DLL search (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)"
            );
        }
    }
    // libNVVM's release, read by the stub from the DLL's `.rdata` (its name says none), and a
    // kernel compiled to PTX through the stub as through NVIDIA's DLL.
    if libs.iter().any(|l| l.name() == "nvvm") {
        let (cuda_major, cuda_minor) = win
            .version
            .split_once('.')
            .map(|(a, b)| (a.to_owned(), b.split('.').next().unwrap_or("").to_owned()))
            .expect("major.minor");
        let release = format!(
            "version={}",
            cuda_major.parse::<u32>().expect("a major") * 1000
                + cuda_minor.parse::<u32>().expect("a minor") * 10
        );
        assert!(
            got.line("status nvvm rc=0").ends_with(&release),
            "nvvm: not {release}: {got}"
        );
        expected
            .assert_line("nvvmCompileProgram rc=0")
            .assert_line("ptx entry=1");
    }
    // Perfworks without a device: the host library's chips, no device, as linked normally.
    if libs.iter().any(|l| l.name() == "nvperf_host") {
        expected
            .assert_line("NVPW_InitializeHost rc=0")
            .assert_line("NVPW_GetDeviceCount rc=0 devices=0");
        assert!(
            expected
                .line("NVPW_GetSupportedChipNames rc=0")
                .contains("GA100=1"),
            "{expected}"
        );
    }
    // NPP's release, which its core answers.
    let nppc = ALL.iter().find(|l| l.name() == "nppc").expect("spec");
    expected.assert_line(&format!("version nppc {}", expected_version(nppc, major)));
    // Without a device: cuBLAS's and cuSOLVER's "not initialized", cuRAND's "initialization
    // failed", nvJPEG's "execution failed", cuTENSOR's "CUDA error", cuDNN's "not
    // initialized", as linked normally.
    expected
        .assert_line("cublasCreate rc=1")
        .assert_line("cusolverDnCreate rc=1")
        .assert_line("curandCreateGenerator rc=203")
        .assert_line("nvjpegCreateSimple rc=6")
        .assert_line("cutensorCreate rc=18")
        .assert_line("cudnnCreate rc=1001");
    // CUPTI without a driver: 11.8 and 12.9 "not initialized", 13.4 "unknown" at every call.
    expected.assert_line(match major {
        13 => "cuptiActivityEnable rc=999",
        _ => "cuptiActivityEnable rc=15",
    });
    if major >= 12 {
        // cuSPARSELt (12.x, 13.x): without a device "not initialized", as linked normally; its
        // release read from the DLL's device code (`.nv_fatb`: PTX ISA 8.8 in 0.8.1, 9.2 in
        // 0.10.0), as the name of 0.8.1's `cusparseLt.dll` says none.
        expected.assert_line("cusparseLtInit rc=1");
        let version = field(&got, "cusparselt", "rc")
            .rsplit_once(" version=")
            .and_then(|(_, v)| v.parse::<u32>().ok());
        assert_eq!(version.map(|v| v / 1000), Some(major), "{got}");
    }
    // cuFFTW's planners without a device: NULL, FFTW's "cannot plan", host memory allocated.
    expected
        .assert_line("fftw_malloc memory")
        .assert_line("fftw_plan_dft_1d NULL")
        .assert_line("fftwf_plan_many_dft_r2c NULL");
    // nvBLAS without a device: every routine run by the configured CPU BLAS (its line on
    // stderr), through the stub as linked normally; none left unmade.
    expected
        .assert_line("dgemm_ 23 34 31 46")
        .assert_line("dgemm 24 35 32 47")
        .assert_line("dsyrk_ 10 14 20")
        .assert_line("sgemm_ 4 6 8 10")
        .assert_line("zgemm_ -1 0");
    assert!(
        expected.stderr.contains("cpu_blas: dgemm_ NN 2 2 2"),
        "{expected}"
    );
    got.assert_line("status nvblas missing=0");
    // nvFatbin (12.x, 13.x) needs none: the fatbinary of the PTX is built (176 bytes by 12.9,
    // 192 by 13.4), the same size through the stub.
    if major >= 12 {
        expected.assert_line("nvFatbinAddPTX rc=0");
        let size = expected.line("nvFatbinSize rc=0");
        let size: usize = size
            .rsplit_once("size=")
            .and_then(|(_, n)| n.parse().ok())
            .unwrap_or_else(|| panic!("no size: {size}"));
        assert!(size > 0, "an empty fatbinary: {expected}");
    }
}

#[test]
fn cuda_11_8_math_runs_as_nvidias_own() {
    same_as_nvidias_own(11);
}

#[test]
fn cuda_12_9_math_runs_as_nvidias_own() {
    same_as_nvidias_own(12);
}

#[test]
fn cuda_13_5_math_runs_as_nvidias_own() {
    same_as_nvidias_own(13);
}

/// Symbolic links to `win`'s wheel folders of `libs` under `site` (a `Lib\site-packages`),
/// as pip lays out NVIDIA's wheels.
fn link_wheels(win: &WinLayout, libs: &[&str], site: &Path) {
    for lib in libs {
        let dir = win.dir(lib);
        let to = site.join(
            dir.strip_prefix(&win.root)
                .expect("under the layout's root"),
        );
        if to.exists() {
            continue;
        }
        std::fs::create_dir_all(to.parent().expect("a folder")).expect("mkdir");
        std::os::unix::fs::symlink(dir, &to).expect("symlink");
    }
}

/// 12.x's cuSOLVER, found in a Python environment's wheel layout (`nvidia\cusolver\bin`), loads:
/// what it imports (cuSPARSE, cuBLAS, cuBLASLt) and what those import in turn (nvJitLink) is
/// loaded first from the other wheels' folders beside it, which Windows' loader alone would
/// not search. Without those wheels, the DLL cannot load and the stub says why.
#[test]
fn cusolver_finds_its_imports_in_the_other_wheels() {
    if skip() {
        return;
    }
    let win = win_layout(12);
    let stub = stub_probe(12, &compared(12), false);
    let cusolver = ALL.iter().find(|l| l.name() == "cusolver").expect("spec");
    let version = format!("version cusolver {}", expected_version(cusolver, 12));
    let venv = temp_dir("win-math-venv");
    let site = venv.join("Lib/site-packages");
    link_wheels(
        &win,
        &["cusolver", "cusparse", "cublas", "nvjitlink"],
        &site,
    );
    let out = Wine::new(
        &stub,
        ["cusolver", "status:cusolver", "loaded:nvJitLink_120_0.dll"],
    )
    .env_path("VIRTUAL_ENV", &venv)
    .env("CUDA_STUBS_DEBUG", "1")
    .run();
    out.assert_line(&version)
        .assert_line("cusolverDnCreate rc=1")
        .assert_line("loaded nvJitLink_120_0.dll 1");
    assert_eq!(
        field(&out, "cusolver", "found_by"),
        "wheel layout in the Python environment"
    );
    // In the order cuSOLVER imports them, each after what it imports itself: nvJitLink before
    // the cuSPARSE that imports it (another wheel's folder), cuBLASLt before cuBLAS (its own).
    let preloaded: Vec<&str> = out
        .stderr
        .lines()
        .filter_map(|l| l.split_once(" preloaded ").map(|(_, rest)| rest))
        .filter_map(|rest| rest.strip_suffix(" (needed by the candidate)"))
        .filter_map(|path| path.rsplit('\\').next())
        .collect();
    assert_eq!(
        preloaded,
        [
            "nvJitLink_120_0.dll",
            "cusparse64_12.dll",
            "cublasLt64_12.dll",
            "cublas64_12.dll"
        ],
        "{out}"
    );

    // cuSOLVER's wheel alone: its imports are nowhere, Windows' own error says so.
    let alone = temp_dir("win-math-venv-alone");
    link_wheels(&win, &["cusolver"], &alone.join("Lib/site-packages"));
    let out = Wine::new(&stub, ["cusolver", "status:cusolver"])
        .env_path("VIRTUAL_ENV", &alone)
        .run();
    out.assert_line(&format!(
        "cusolverGetProperty rc={}",
        no_library("cusolver")
    ));
    let message = field(&out, "cusolver", "message");
    assert!(
        message.contains("cusolver64_11.dll [wheel layout in the Python environment]: "),
        "{message}"
    );
}

/// cuTENSOR (`cutensor\bin\cutensor.dll`, a package of its own) found in a Python environment
/// loads with the cuBLASLt DLL of its major (12.x's `cublasLt64_12.dll`) preloaded from the
/// cuBLAS wheel's folder; without that wheel it cannot load, and the stub says why.
#[test]
fn cutensor_finds_cublaslt_in_the_cublas_wheel() {
    if skip() {
        return;
    }
    let win = win_layout(12);
    let stub = stub_probe(12, &compared(12), false);
    let cutensor = ALL.iter().find(|l| l.name() == "cutensor").expect("spec");
    let venv = temp_dir("win-math-venv-cutensor");
    link_wheels(
        &win,
        &["cutensor", "cublaslt"],
        &venv.join("Lib/site-packages"),
    );
    let out = Wine::new(
        &stub,
        ["cutensor", "status:cutensor", "loaded:cublasLt64_12.dll"],
    )
    .env_path("VIRTUAL_ENV", &venv)
    .env("CUDA_STUBS_DEBUG", "1")
    .run();
    out.assert_line(&format!(
        "version cutensor {}",
        expected_version(cutensor, 12)
    ))
    .assert_line("cutensorCreate rc=18")
    .assert_line("loaded cublasLt64_12.dll 1");
    assert_eq!(
        field(&out, "cutensor", "found_by"),
        "wheel layout in the Python environment"
    );
    assert!(
        out.stderr
            .lines()
            .any(|l| l.contains(" preloaded ") && l.contains("\\cublasLt64_12.dll (needed by")),
        "{out}"
    );

    let alone = temp_dir("win-math-venv-cutensor-alone");
    link_wheels(&win, &["cutensor"], &alone.join("Lib/site-packages"));
    let out = Wine::new(&stub, ["cutensor", "status:cutensor"])
        .env_path("VIRTUAL_ENV", &alone)
        .run();
    out.assert_line(&format!("cutensorCreate rc={}", no_library("cutensor")));
    let message = field(&out, "cutensor", "message");
    assert!(
        message.contains("cutensor.dll [wheel layout in the Python environment]: "),
        "{message}"
    );
}

/// cuDNN's front DLL jumps into `cudnn_graph64_9.dll` at every call (`WindowsDlls::
/// lazy_dependency`): one without it beside is refused before anything of it is called, the
/// status says why, and every call answers the no-library code; with it (the wheel's folder,
/// `same_as_nvidias_own`) the stub has loaded it first.
#[test]
fn cudnn_without_its_graph_dll_is_refused() {
    if skip() {
        return;
    }
    let win = win_layout(12);
    let stub = stub_probe(12, &compared(12), false);
    let alone = temp_dir("win-math-cudnn-alone");
    let front = win.dll("cudnn");
    let name = front.file_name().expect("a name");
    std::fs::copy(front, alone.join(name)).expect("copy cudnn64_9.dll");
    let out = Wine::new(&stub, ["cudnn", "status:cudnn"])
        .env_path("CUDA_STUBS_CUDNN_PATH", &alone)
        .run();
    out.assert_line("cudnnGetVersion 0")
        .assert_line(&format!("cudnnCreate rc={}", no_library("cudnn")));
    assert_eq!(status_line(&out, "cudnn"), "rc=0 bound=0", "{out}");
    let message = field(&out, "cudnn", "message");
    assert!(
        message.contains("cannot load cudnn_graph64_9.dll, which it loads at its first call"),
        "{message}"
    );

    let with = temp_dir("win-math-cudnn-with-graph");
    for key in ["cudnn", "cudnn_lazy_dependency"] {
        let dll = win.dll(key);
        std::fs::copy(dll, with.join(dll.file_name().expect("a name"))).expect("copy");
    }
    let out = Wine::new(
        &stub,
        ["cudnn", "status:cudnn", "loaded:cudnn_graph64_9.dll"],
    )
    .env_path("CUDA_STUBS_CUDNN_PATH", &with)
    .run();
    out.assert_line(&format!(
        "version cudnn {}",
        expected_version(ALL.iter().find(|l| l.name() == "cudnn").expect("spec"), 12)
    ))
    .assert_line("loaded cudnn_graph64_9.dll 1");
    assert_eq!(status_line(&out, "cudnn"), "rc=0 bound=1", "{out}");
}

/// A process with CUDA 11.8's runtime (`cudart64_110.dll`, loaded by the program) never gets
/// 12.x's cuSOLVER: its name (`cusolver64_11.dll`, shared by 11.x and 12.x) does not say its
/// release, its imports do (`cublas64_12.dll`), and the stub reads them before loading it, so
/// neither it nor the cuBLAS it imports is loaded. With 12.9's runtime the same DLL binds.
#[test]
fn another_release_is_refused_before_loading() {
    if skip() {
        return;
    }
    let (w11, w12) = (win_layout(11), win_layout(12));
    let stub = stub_probe(12, &compared(12), false);
    let load11 = format!("load:{}", win_path(w11.dll("cudart")));
    let refused = Wine::new(
        &stub,
        [
            load11.as_str(),
            "cusolver",
            "status:cusolver",
            "loaded:cusolver64_11.dll",
            "loaded:cublas64_12.dll",
        ],
    )
    .env_path("CUDA_STUBS_CUSOLVER_PATH", w12.dir("cusolver"))
    .run();
    refused
        .assert_line("load ok")
        .assert_line(&format!(
            "cusolverGetProperty rc={}",
            no_library("cusolver")
        ))
        .assert_line("loaded cusolver64_11.dll 0")
        .assert_line("loaded cublas64_12.dll 0");
    let message = field(&refused, "cusolver", "message");
    assert!(
        message.contains(
            "CUDA 12 (needs cublas64_12.dll), but the process has CUDA 11 (cudart64_110.dll)"
        ),
        "{message}"
    );

    let load12 = format!("load:{}", win_path(w12.dll("cudart")));
    let bound = Wine::new(&stub, [load12.as_str(), "cusolver", "status:cusolver"])
        .env_path("CUDA_STUBS_CUSOLVER_PATH", w12.dir("cusolver"))
        .run();
    bound.assert_line("cusolverGetProperty rc=0");
    assert_eq!(status_line(&bound, "cusolver"), "rc=0 bound=1", "{bound}");
}

/// With no NVIDIA DLL anywhere (no override, no wheel, no `CUDA_PATH`, no driver DLL), every
/// call of every library answers its spec's "no library" code, no version is answered, error
/// texts are never NULL, and the status message lists the Windows search with the library's
/// DLL names and wheel folders.
#[test]
fn nothing_found_gives_typed_errors() {
    if skip() {
        return;
    }
    let libs = libraries(13);
    let stub = stub_probe(13, &libs, false);
    let out = Wine::new(&stub, all_commands(&libs)).run();
    let sections = sections(&out);
    for &lib in &libs {
        let name = lib.name();
        let lines = sections.get(name).expect("the library's section");
        assert!(!lines.is_empty(), "{name}: no call: {out}");
        let code = format!("rc={}", no_library(name));
        let statuses: Vec<&String> = lines.iter().filter(|l| l.contains(" rc=")).collect();
        for line in statuses {
            assert!(line.split(' ').any(|w| w == code), "{name}: {line}: {out}");
        }
        for line in lines {
            assert!(!line.starts_with("version "), "{name}: {line}");
            assert!(
                !(line.starts_with("text ") && line.ends_with("(null)")),
                "{line}"
            );
        }
        assert_eq!(status_line(&out, name), "rc=0 bound=0", "{out}");
        let message = field(&out, name, "message");
        let windows = lib.real.windows.expect("a Windows stub");
        let names: Vec<String> = windows
            .dlls
            .iter()
            .map(|d| d.name.to_string_lossy().into_owned())
            .collect();
        assert!(message.contains(&names.join(", ")), "{message}");
        assert!(
            message.contains("safe DLL search (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)"),
            "{message}"
        );
        if in_wheels(lib) {
            let dirs: Vec<String> = windows
                .wheel_dirs
                .iter()
                .map(|d| d.to_string_lossy().into_owned())
                .collect();
            let place = format!("wheel layout beside the stub ({})", dirs.join(", "));
            assert!(message.contains(&place), "{place} not in {message}");
        }
    }
    // The two NPP calls that answer no status: version 0.0.0, never NULL; no image.
    out.assert_line("nppGetLibVersion 0.0.0")
        .assert_line("nppiMalloc_8u_C1 null");
    // cuFFTW's calls answer no status either: FFTW's "failed" values, no memory, no plan.
    out.assert_line("fftw_malloc NULL")
        .assert_line("fftw_plan_dft_1d NULL")
        .assert_line("fftwf_plan_many_dft_r2c NULL");
    // nvBLAS's routines return nothing: with no DLL and no next definition of the name on
    // Windows, each call is not made, its output every element NaN, and counted (the five).
    out.assert_line("dgemm_ nan nan nan nan")
        .assert_line("dgemm nan nan nan nan")
        .assert_line("dsyrk_ nan nan nan")
        .assert_line("sgemm_ nan nan nan nan")
        .assert_line("zgemm_ nan nan")
        .assert_line("status nvblas missing=5");
    assert!(out.stderr.is_empty(), "printed without being asked: {out}");
}

/// CUPTI's DLL is named after CUPTI's own release (`cupti64_2025.2.1.dll` in 12.9, a new name
/// every release: `WindowsDlls::release_named`), so the stub finds it by pattern and reads its
/// major off the name. In a Python environment's wheel layout; the newest of two in one folder
/// (13.4's `cupti64_2026.3.1.dll` over 12.9's); one the program loaded itself, however the
/// search would go (never a second CUPTI); one beside the program (the safe DLL search's first
/// folder); and, with 12.9's runtime loaded, 13.4's refused before it is loaded.
#[test]
fn cupti_is_found_by_its_release_named_dll() {
    if skip() {
        return;
    }
    let (win12, win13) = (win_layout(12), win_layout(13));
    let cupti = ALL.iter().find(|l| l.name() == "cupti").expect("spec");
    let stub = stub_probe(12, &[cupti], false);
    let (dll12, dll13) = (win12.dll("cupti"), win13.dll("cupti"));
    let commands = ["cupti", "status:cupti"];

    let venv = temp_dir("win-math-venv-cupti");
    link_wheels(&win12, &["cupti"], &venv.join("Lib/site-packages"));
    let out = Wine::new(&stub, commands)
        .env_path("VIRTUAL_ENV", &venv)
        .run();
    out.assert_line("version cupti 28");
    assert_eq!(
        field(&out, "cupti", "found_by"),
        "wheel layout in the Python environment"
    );
    assert!(
        field(&out, "cupti", "path").ends_with("\\nvidia\\cuda_cupti\\bin\\cupti64_2025.2.1.dll"),
        "{out}"
    );

    // Both in one folder: the newest release, whose name says 13 (13.4 answers no version
    // without a driver).
    let both = temp_dir("win-math-cupti-both");
    for dll in [dll12, dll13] {
        std::fs::copy(dll, both.join(dll.file_name().expect("a name"))).expect("copy");
    }
    let out = Wine::new(&stub, commands)
        .env_path("CUDA_STUBS_CUPTI_PATH", &both)
        .run();
    assert_eq!(status_line(&out, "cupti"), "rc=0 bound=1", "{out}");
    assert!(
        field(&out, "cupti", "rc").ends_with(" version=13000"),
        "{out}"
    );
    assert!(
        field(&out, "cupti", "path").ends_with("\\cupti64_2026.3.1.dll"),
        "{out}"
    );

    // Loaded by the program first: that copy, not the override's newer one.
    let load = format!("load:{}", win_path(dll12));
    let out = Wine::new(&stub, [load.as_str(), "cupti", "status:cupti"])
        .env_path("CUDA_STUBS_CUPTI_PATH", &both)
        .run();
    out.assert_line("load ok").assert_line("version cupti 28");
    assert_eq!(
        field(&out, "cupti", "found_by"),
        "already loaded (GetModuleHandleExW)"
    );

    // Beside the program: found by the safe DLL search, in the application's folder.
    let beside = stub.with_file_name(dll12.file_name().expect("a name"));
    std::fs::copy(dll12, &beside).expect("copy beside the program");
    let out = Wine::new(&stub, commands).run();
    std::fs::remove_file(&beside).expect("remove");
    out.assert_line("version cupti 28");
    assert_eq!(
        field(&out, "cupti", "found_by"),
        "safe DLL search (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)"
    );

    // 12.9's runtime loaded: the process's release is 12, and 13.4's DLL is refused by its
    // name before it is loaded; the 12.9 one beside it binds.
    let load = format!("load:{}", win_path(win12.dll("cudart")));
    let out = Wine::new(
        &stub,
        [
            load.as_str(),
            "cupti",
            "status:cupti",
            "loaded:cupti64_2026.3.1.dll",
        ],
    )
    .env_path("CUDA_STUBS_CUPTI_PATH", &both)
    .env("CUDA_STUBS_DEBUG", "1")
    .run();
    out.assert_line("version cupti 28")
        .assert_line("loaded cupti64_2026.3.1.dll 0");
    assert!(
        out.stderr.lines().any(|l| l.contains(
            "cupti64_2026.3.1.dll [environment override]: rejected: CUDA 13, but the process has \
             CUDA 12 (cudart64_12.dll)"
        )),
        "{out}"
    );
}

//! The Windows DLL stubs under wine, against NVIDIA's own `win_amd64` DLLs of CUDA 11.8, 12.9
//! and 13.5 (no GPU, no driver: NVRTC and nvJitLink do real work, the runtime answers as it does
//! without a driver), and a stand-in driver `nvcuda.dll` (`tests/windows/fake_nvcuda.c`).
//!
//! The program (`tests/windows/win_probe.c`) is built twice per major with that major's
//! headers, once linked to the stubs' import libraries and once to NVIDIA's DLLs themselves,
//! and both builds must print the same lines. Then the search: a DLL the process already has,
//! NVIDIA's wheel layouts, the toolkit's folders, never the current directory or `PATH`, and
//! the stubs' typed errors when nothing is found. `tests/src/wine.rs` is the harness.

use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use stubs_tests::wine::{
    WinLayout, Wine, field, mingw_dll, mingw_exe, no_library, skip, status_line, stubs_dir,
    win_layout, win_path, windows_libraries, wine_path,
};
use stubs_tests::{cuda_layout, link_file, temp_dir, workspace_root};

/// The probe of `major`'s headers linked to the four stubs (`-lstubs_*`: rustc's MinGW import
/// libraries), without the driver command (`driver: false`) or with it.
fn stub_probe(major: u32, driver: bool) -> PathBuf {
    let mut libdir = OsString::from("-L");
    libdir.push(stubs_dir());
    let mut link: Vec<&OsStr> = vec![&libdir];
    link.extend(
        [
            "-lstubs_cudart",
            "-lstubs_nvrtc",
            "-lstubs_nvjitlink",
            "-lstubs_cuda",
        ]
        .iter()
        .map(OsStr::new),
    );
    let name = format!("stub{major}{}", if driver { "d" } else { "" });
    let exe = probe(&name, major, driver, &link);
    for lib in windows_libraries() {
        let dll = format!("stubs_{}.dll", lib.name());
        link_file(&stubs_dir().join(&dll), &exe.with_file_name(&dll));
    }
    exe
}

/// The probe of `major`'s headers linked to NVIDIA's DLLs themselves (MinGW links a DLL
/// directly), and to `nvcuda.dll` (the stand-in, copied beside it) with the driver command.
fn normal_probe(major: u32, driver: bool, win: &WinLayout) -> PathBuf {
    let dir = temp_dir(&format!("win-fake-{major}-{driver}"));
    let mut link: Vec<OsString> = vec![win.dll("cudart").into(), win.dll("nvrtc").into()];
    if let Some(jit) = win.dlls.get("nvjitlink") {
        link.push(jit.into());
    }
    if driver {
        link.push(mingw_dll("windows/fake_nvcuda.c", &[], &dir, "nvcuda.dll").into());
    }
    let link: Vec<&OsStr> = link.iter().map(OsString::as_os_str).collect();
    let exe = probe(&format!("normal{major}{driver}"), major, driver, &link);
    if driver {
        std::fs::copy(dir.join("nvcuda.dll"), exe.with_file_name("nvcuda.dll")).expect("copy");
    }
    exe
}

fn probe(name: &str, major: u32, driver: bool, link: &[&OsStr]) -> PathBuf {
    let mut defines = vec![format!("HEADER_MAJOR={major}")];
    if driver {
        defines.push("WITH_DRIVER=1".into());
    }
    mingw_exe(
        name,
        &["windows/win_probe.c"],
        &defines,
        &cuda_layout(major).include,
        link,
    )
}

/// The commands of `major` that both builds run: NVRTC, nvJitLink (12+), the runtime.
fn commands(major: u32) -> Vec<&'static str> {
    let mut c = vec!["nvrtc"];
    if major >= 12 {
        c.push("nvjitlink");
    }
    c.push("cudart");
    c
}

/// Every export of the four DLLs is what `packaging/windows/stubs_<name>.def` (codegen) lists,
/// from which the MSVC import libraries are made, and no DLL stub is named like NVIDIA's.
#[test]
fn def_files_list_every_export() {
    if skip() {
        return;
    }
    for lib in windows_libraries() {
        let file = format!("stubs_{}.dll", lib.name());
        let data = std::fs::read(stubs_dir().join(&file)).expect("read the DLL");
        let pe = object::read::pe::PeFile64::parse(&*data).expect("a PE32+ DLL");
        let exports: BTreeSet<String> = pe
            .export_table()
            .expect("export table")
            .expect("an export table")
            .exports()
            .expect("exports")
            .into_iter()
            .filter_map(|e| e.name.map(|n| String::from_utf8_lossy(n).into_owned()))
            .collect();
        let def = workspace_root().join(format!("packaging/windows/stubs_{}.def", lib.name()));
        let text = std::fs::read_to_string(&def).expect("read the .def");
        let listed: BTreeSet<String> = text
            .lines()
            .skip_while(|l| *l != "EXPORTS")
            .skip(1)
            .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
            .collect();
        assert_eq!(exports, listed, "{file} vs {}", def.display());
        let real = lib.real.windows.expect("a Windows stub").dlls;
        assert!(
            real.iter()
                .all(|d| !d.name.to_bytes().starts_with(b"stubs_")),
            "{file}"
        );
        assert!(exports.contains(&lib.real.status_export()), "{file}");
        assert!(exports.contains(&lib.real.driver_status_export()), "{file}");
    }
}

/// On each major, the stub build prints what the build linked to NVIDIA's DLLs prints: NVRTC
/// compiles to PTX and LTO-IR, nvJitLink links LTO-IR to a CUBIN, the runtime answers as it does
/// without a driver. The stubs find the DLLs through `CUDA_STUBS_<LIB>_PATH`; the normal build
/// through wine's `PATH` (`WINEPATH`).
fn same_as_nvidias_own(major: u32) {
    if skip() {
        return;
    }
    let win = win_layout(major);
    let normal = normal_probe(major, false, &win);
    let stub = stub_probe(major, false);
    let cmds = commands(major);
    let expected = Wine::new(&normal, &cmds)
        .env("WINEPATH", wine_path(&win))
        .run();
    let mut got = Wine::new(&stub, &cmds)
        .env_path("CUDA_STUBS_NVRTC_PATH", win.dir("nvrtc"))
        .env_path("CUDA_STUBS_CUDART_PATH", win.dir("cudart"));
    if let Some(jit) = win.dlls.get("nvjitlink") {
        got = got.env_path("CUDA_STUBS_NVJITLINK_PATH", jit);
    }
    let got = got.run();
    // NVIDIA's 13.x runtime without a driver names its own 35 NULL; the stub never answers NULL
    // (README, typed errors): the enumerator's name, from the headers, as 11.8 and 12.9 answer.
    let normal_stdout = expected.stdout.replace(
        "cudaGetErrorName (null)",
        "cudaGetErrorName cudaErrorInsufficientDriver",
    );
    assert_eq!(got.stdout, normal_stdout, "stub build vs normal build");
    assert!(got.stderr.is_empty(), "the stubs printed: {got}");
    // The work is real: PTX with the kernel's entry, LTO-IR, a CUBIN.
    expected.assert_line("nvrtcGetPTX rc=0 entry=1");
    if major >= 12 {
        expected
            .assert_line("nvrtcGetLTOIR rc=0 nonempty=1")
            .assert_line("nvJitLinkGetLinkedCubin rc=0 elf=1");
    }
    let (maj, min) = (win.version_code() / 1000, win.version_code() % 1000 / 10);
    expected.assert_line(&format!("nvrtcVersion rc=0 {maj}.{min}"));
    let found = Wine::new(&stub, ["status:nvrtc", "status:cudart"])
        .env_path("CUDA_STUBS_NVRTC_PATH", win.dir("nvrtc"))
        .env_path("CUDA_STUBS_CUDART_PATH", win.dll("cudart"))
        .run();
    assert_eq!(status_line(&found, "nvrtc"), "rc=0 bound=1", "{found}");
    assert_eq!(field(&found, "nvrtc", "found_by"), "environment override");
    assert_eq!(
        field(&found, "nvrtc", "path"),
        win_path(win.dll("nvrtc")),
        "{found}"
    );
    assert_eq!(field(&found, "cudart", "path"), win_path(win.dll("cudart")));
}

#[test]
fn cuda_11_8_runs_as_nvidias_own() {
    same_as_nvidias_own(11);
}

#[test]
fn cuda_12_9_runs_as_nvidias_own() {
    same_as_nvidias_own(12);
}

#[test]
fn cuda_13_5_runs_as_nvidias_own() {
    same_as_nvidias_own(13);
}

/// The driver stub against the stand-in `nvcuda.dll` beside the program (the safe DLL search's
/// application folder, where Windows' own `System32` copy would otherwise be): the same answers
/// and arguments as the program linked to it directly (untraced, the stub is not on the stack:
/// its exports and resolver only jump); traced, the call runs in the stub's traced frame, which
/// a stack walk from inside the driver passes through to the program (its unwind data).
#[test]
fn driver_against_a_stand_in_nvcuda() {
    if skip() {
        return;
    }
    let win = win_layout(13);
    let normal = normal_probe(13, true, &win);
    let stub = stub_probe(13, true);
    std::fs::copy(
        normal.with_file_name("nvcuda.dll"),
        stub.with_file_name("nvcuda.dll"),
    )
    .expect("copy the stand-in driver");
    let expected = Wine::new(&normal, ["driver"])
        .env("WINEPATH", wine_path(&win))
        .run();
    // Every argument where its prototype puts it (seven of eleven on the stack).
    let launch = "fake nvcuda: cuLaunchKernel 0000000000001001 2 3 4 5 6 7 8 0000000000001009 \
                  000000000000100a 000000000000100b";
    expected
        .assert_line("fake nvcuda: stack walk: program > program")
        .assert_line("cuDriverGetVersion rc=0 v=12080")
        .assert_line("cuDeviceGetCount rc=0 n=3")
        .assert_line(launch)
        .assert_line("cuLaunchKernel rc=0");
    let got = Wine::new(&stub, ["driver", "status:cuda"]).run();
    let lines = expected.stdout.lines().count();
    assert_eq!(
        got.stdout.lines().take(lines).collect::<Vec<_>>(),
        expected.stdout.lines().collect::<Vec<_>>(),
        "{got}"
    );
    assert_eq!(status_line(&got, "cuda"), "rc=0 bound=1", "{got}");
    assert_eq!(
        field(&got, "cuda", "found_by"),
        "safe DLL search (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)"
    );
    let traced = Wine::new(&stub, ["driver"])
        .env(
            "CUDA_STUBS_TRACE",
            "cuDeviceGetCount,cuDriverGetVersion,cuLaunchKernel",
        )
        .run();
    traced
        .assert_line("fake nvcuda: stack walk: stubs_cuda.dll > program")
        .assert_line(launch)
        .assert_line("cuDeviceGetCount rc=0 n=3")
        .assert_line("cuDriverGetVersion rc=0 v=12080");
    for name in ["cuDeviceGetCount", "cuDriverGetVersion", "cuLaunchKernel"] {
        assert!(
            traced
                .stderr
                .lines()
                .any(|l| l.starts_with(&format!("cuda-stubs[cuda]: trace {name} -> 0 "))),
            "no trace line of {name}: {traced}"
        );
    }
    // Fault injection through the same frame: the driver is not called.
    let faulted = Wine::new(&stub, ["driver"])
        .env("CUDA_STUBS_FAULT", "cuDeviceGetCount=101")
        .run();
    faulted.assert_line("cuDeviceGetCount rc=101 n=-1");
    assert!(!faulted.stdout.contains("stack walk"), "{faulted}");
}

/// With no NVIDIA DLL anywhere (no override, no wheel, no `CUDA_PATH`, no driver), every stub
/// answers its spec's "no library" code, the runtime's last error says so on every read, and
/// the status message lists the Windows search.
#[test]
fn nothing_found_gives_typed_errors() {
    if skip() {
        return;
    }
    let stub = stub_probe(13, true);
    let out = Wine::new(
        &stub,
        ["nvrtc", "nvjitlink", "cudart", "driver", "status:nvrtc"],
    )
    .run();
    let nvrtc = no_library("nvrtc");
    out.assert_line(&format!("nvrtcVersion rc={nvrtc} -1.-1"))
        .assert_line(&format!(
            "nvJitLinkVersion rc={} 0.0",
            no_library("nvjitlink")
        ));
    let cudart = no_library("cudart");
    out.assert_line(&format!("cudaRuntimeGetVersion rc={cudart} v=-1"))
        .assert_line(&format!("cudaGetDeviceCount rc={cudart}"))
        .assert_line("cudaGetErrorName cudaErrorStubLibrary")
        .assert_line(&format!("cuInit rc={}", no_library("cuda")));
    let last: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("cudaGetLastError"))
        .collect();
    let sticky = format!("cudaGetLastError rc={cudart}");
    assert_eq!(last, [sticky.as_str(), sticky.as_str()], "{out}");
    assert_eq!(status_line(&out, "nvrtc"), "rc=0 bound=0", "{out}");
    let message = field(&out, "nvrtc", "message");
    for place in [
        "nvrtc64_130_0.dll, nvrtc64_120_0.dll, nvrtc64_112_0.dll",
        "already loaded (GetModuleHandleExW)",
        "wheel layout beside the stub (nvidia/cu13/bin/x86_64, nvidia/cuda_nvrtc/bin)",
        "%CUDA_PATH%/%CUDA_HOME% bin\\x64, bin",
        "safe DLL search (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)",
    ] {
        assert!(message.contains(place), "{place} not in {message}");
    }
    assert!(out.stderr.is_empty(), "printed without being asked: {out}");
}

/// A runtime DLL the process loaded itself (12.9's) is the one the stub binds, whatever the
/// override says (13.5's): never a second runtime in one process.
#[test]
fn a_dll_the_process_has_wins() {
    if skip() {
        return;
    }
    let (w12, w13) = (win_layout(12), win_layout(13));
    let stub = stub_probe(13, false);
    let load = format!("load:{}", win_path(w12.dll("cudart")));
    let out = Wine::new(&stub, [load.as_str(), "cudart", "status:cudart"])
        .env_path("CUDA_STUBS_CUDART_PATH", w13.dir("cudart"))
        .run();
    out.assert_line("load ok")
        .assert_line("cudaRuntimeGetVersion rc=0 v=12090");
    assert_eq!(
        field(&out, "cudart", "found_by"),
        "already loaded (GetModuleHandleExW)",
        "{out}"
    );
    assert_eq!(field(&out, "cudart", "path"), win_path(w12.dll("cudart")));
}

/// A copy of NVRTC in the current directory, or in a folder on `PATH`, is never loaded (a
/// planted DLL must not be); the override finds the same folder.
#[test]
fn never_the_current_directory_or_path() {
    if skip() {
        return;
    }
    let win = win_layout(13);
    let planted = temp_dir("win-planted");
    link_dlls(&win, &["nvrtc", "nvrtc_companion"], &planted);
    let stub = stub_probe(13, false);
    let out = Wine::new(&stub, ["nvrtc", "status:nvrtc"])
        .current_dir(&planted)
        .env_path("WINEPATH", &planted)
        .run();
    out.assert_line(&format!("nvrtcVersion rc={} -1.-1", no_library("nvrtc")));
    assert_eq!(status_line(&out, "nvrtc"), "rc=0 bound=0", "{out}");
    let found = Wine::new(&stub, ["nvrtc"])
        .current_dir(&planted)
        .env_path("CUDA_STUBS_NVRTC_PATH", &planted)
        .run();
    found.assert_line("nvrtcVersion rc=0 13.5");
}

/// Links (symbolic) to `win`'s DLLs of `keys` in `dir`.
fn link_dlls(win: &WinLayout, keys: &[&str], dir: &Path) {
    std::fs::create_dir_all(dir).expect("mkdir");
    for key in keys {
        let dll = win.dll(key);
        std::os::unix::fs::symlink(dll, dir.join(dll.file_name().expect("name"))).expect("symlink");
    }
}

/// NVIDIA's wheel layouts: the stub inside a `site-packages` finds the `nvidia/` wheels beside
/// it (13.x's `nvidia/cu13/bin/x86_64`), a stub elsewhere finds them through `VIRTUAL_ENV`
/// (12.x's `nvidia/cuda_nvrtc/bin`, `Lib\site-packages`), and a toolkit through `CUDA_PATH`
/// (`bin\x64` before `bin`).
#[test]
fn wheel_and_toolkit_layouts() {
    if skip() {
        return;
    }
    let (w12, w13) = (win_layout(12), win_layout(13));
    let nvrtc = ["nvrtc", "nvrtc_companion"];
    let stub = stub_probe(13, false);

    let env = temp_dir("win-venv");
    let site = env.join("Lib/site-packages");
    link_dlls(&w13, &nvrtc, &site.join("nvidia/cu13/bin/x86_64"));
    let bin = site.join("cuda_stubs/bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let exe = bin.join("probe.exe");
    std::fs::copy(&stub, &exe).expect("copy the probe");
    for lib in windows_libraries() {
        let dll = format!("stubs_{}.dll", lib.name());
        link_file(&stubs_dir().join(&dll), &bin.join(&dll));
    }
    let beside = Wine::new(&exe, ["nvrtc", "status:nvrtc"]).run();
    beside.assert_line("nvrtcVersion rc=0 13.5");
    assert_eq!(
        field(&beside, "nvrtc", "found_by"),
        "wheel layout beside the stub"
    );

    let venv = temp_dir("win-venv12");
    link_dlls(
        &w12,
        &nvrtc,
        &venv.join("Lib/site-packages/nvidia/cuda_nvrtc/bin"),
    );
    let in_env = Wine::new(&stub, ["nvrtc", "status:nvrtc"])
        .env_path("VIRTUAL_ENV", &venv)
        .run();
    in_env.assert_line("nvrtcVersion rc=0 12.9");
    assert_eq!(
        field(&in_env, "nvrtc", "found_by"),
        "wheel layout in the Python environment"
    );

    let toolkit = temp_dir("win-toolkit");
    link_dlls(&w13, &nvrtc, &toolkit.join("bin/x64"));
    link_dlls(&w12, &nvrtc, &toolkit.join("bin"));
    let cuda_path = Wine::new(&stub, ["nvrtc", "status:nvrtc"])
        .env_path("CUDA_PATH", &toolkit)
        .run();
    cuda_path.assert_line("nvrtcVersion rc=0 13.5");
    assert_eq!(
        field(&cuda_path, "nvrtc", "found_by"),
        "%CUDA_PATH%/%CUDA_HOME% bin\\x64, bin"
    );
    assert_eq!(
        field(&cuda_path, "nvrtc", "path"),
        win_path(&toolkit.join("bin/x64/nvrtc64_130_0.dll"))
    );
}

/// A stub copied under NVIDIA's name (`nvrtc64_130_0.dll` that is `stubs_nvrtc.dll`) is loaded,
/// recognised by its `cuda_stubs_marker` export and never called: the search goes on, and with
/// nothing else found the status says why that file was skipped.
#[test]
fn a_stub_under_nvidias_name_is_refused() {
    if skip() {
        return;
    }
    let stub = stub_probe(13, false);
    let decoy = temp_dir("win-decoy");
    std::fs::copy(
        stubs_dir().join("stubs_nvrtc.dll"),
        decoy.join("nvrtc64_130_0.dll"),
    )
    .expect("copy the stub under NVIDIA's name");
    let out = Wine::new(&stub, ["nvrtc", "status:nvrtc"])
        .env_path("CUDA_STUBS_NVRTC_PATH", &decoy)
        .run();
    out.assert_line(&format!("nvrtcVersion rc={} -1.-1", no_library("nvrtc")));
    assert_eq!(status_line(&out, "nvrtc"), "rc=0 bound=0", "{out}");
    let rejected = format!(
        "{} [environment override]: is a cuda-stubs library, not NVIDIA's (would call itself)",
        win_path(&decoy.join("nvrtc64_130_0.dll"))
    );
    assert!(field(&out, "nvrtc", "message").contains(&rejected), "{out}");
}

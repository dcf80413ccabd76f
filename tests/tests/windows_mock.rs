//! The mock device as a Windows DLL (issue 48, item 6): `cuda_stubs_mock.dll` (`stub-mock` built
//! for `x86_64-pc-windows-gnu`) under wine, bound by the Windows DLL stubs from their own folder
//! under `CUDA_STUBS_MOCK`, as the Linux stubs bind `libcuda_stubs_mock.so`.
//!
//! Two checks, neither the mock's own word: the kernel executor's conformance families
//! (`tests/c/conformance_runner.c` built with MinGW, NVIDIA's `win_amd64` NVRTC and nvJitLink
//! 13.5 compiling and linking each family) against the values recorded on a GPU, as
//! `mock_kernels.rs` checks the Linux mock; and `tests/c/mock_device.c` (runtime, driver, NVML
//! and the mock's own API) printing under wine what the same program prints on Linux.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::wine::{Wine, mingw_exe, mock_dll, skip, stubs_dir, win_layout, win_path};
use stubs_tests::{Scenario, build_stubs, compile_c, conformance, cuda_include_args, link_file};

/// `name` built with MinGW from `source` against 13.5's headers and the stubs of `libs`
/// (import libraries), with those DLLs and the mock DLL beside the `.exe`, where the stubs look
/// for the mock.
fn windows_program(name: &str, source: &str, libs: &[&str]) -> PathBuf {
    let mut link: Vec<OsString> = vec![format!("-L{}", stubs_dir().display()).into()];
    link.extend(libs.iter().map(|l| OsString::from(format!("-lstubs_{l}"))));
    let refs: Vec<&std::ffi::OsStr> = link.iter().map(OsString::as_os_str).collect();
    let exe = mingw_exe(
        name,
        &[source],
        &[],
        &stubs_tests::cuda_layout(13).include,
        &refs,
    );
    let dir = exe.parent().expect("a folder");
    for l in libs {
        let dll = format!("stubs_{l}.dll");
        link_file(&stubs_dir().join(&dll), &dir.join(&dll));
    }
    link_file(mock_dll(), &dir.join("cuda_stubs_mock.dll"));
    exe
}

/// The conformance runner for Windows (driver and NVRTC stubs).
fn runner() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        windows_program(
            "conformance_runner",
            "c/conformance_runner.c",
            &["cuda", "nvrtc"],
        )
    })
}

/// The families run under wine: those where the Windows build could differ from the Linux one
/// (threads made with `CreateThread` in `warp`, `atomics` and `memory`; the real-time clock
/// of `%globaltimer` in `sreg`; MinGW's code generation for integer and fp32 arithmetic), held
/// to the board's recordings as `mock_kernels.rs` holds the Linux build to all fifteen (the
/// executor's code is the same Rust on both; all fifteen passed under wine on 2026-12-07, in 70
/// s, too long for CI's budget).
const FAMILIES: &[&str] = &["int", "fp32", "warp", "atomics", "memory", "sreg"];

#[test]
fn the_windows_mock_runs_kernels_as_the_board() {
    if skip() {
        return;
    }
    let win = win_layout(13);
    let include = stubs_tests::cuda_layout(13).include;
    let mut args = vec![win_path(&conformance::sources())];
    args.extend(FAMILIES.iter().map(|f| f.to_string()));
    let run = Wine::new(runner(), &args)
        .env("CUDA_STUBS_MOCK", "h200")
        .env_path("CUDA_STUBS_NVRTC_PATH", win.dll("nvrtc"))
        .env_path("CUDA_STUBS_NVJITLINK_PATH", win.dll("nvjitlink"))
        .env_path(
            "CONFORMANCE_INCLUDE",
            include.first().expect("13.5's include"),
        )
        .run();
    let diagnostics = format!("wine: {}; stderr:\n{}", run.status, run.stderr);
    for family in FAMILIES {
        conformance::check(family, &run.stdout, &diagnostics);
    }
}

/// `source` (under `tests/`) linked to the stubs of `libs`, run on Linux and, built with MinGW,
/// under wine, each against its own mock (`h200`) and NVIDIA's NVRTC and nvJitLink 13.5 of its
/// system: the two stdouts' lines, without Windows' carriage returns.
fn on_both(name: &str, source: &str, libs: &[&str]) -> (Vec<String>, Vec<String>) {
    let exe = windows_program(name, source, libs);
    let win = win_layout(13);
    let windows = Wine::new(&exe, std::iter::empty::<&str>())
        .env("CUDA_STUBS_MOCK", "h200")
        .env_path("CUDA_STUBS_NVRTC_PATH", win.dll("nvrtc"))
        .env_path("CUDA_STUBS_NVJITLINK_PATH", win.dll("nvjitlink"))
        .run();
    let mut crates: Vec<String> = libs.iter().map(|l| format!("stubs-{l}")).collect();
    crates.push(stubs_tests::MOCK_PACKAGE.into());
    let crates: Vec<&str> = crates.iter().map(String::as_str).collect();
    let dir = build_stubs(&crates);
    let mut args = cuda_include_args(13);
    args.push(format!("-L{}", dir.display()).into());
    for l in libs {
        args.push(format!("-lstubs_{l}").into());
    }
    args.push(format!("-Wl,-rpath,{}", dir.display()).into());
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
    let linux = compile_c(&format!("{name}_vs_windows"), &[Path::new(source)], &refs);
    let cuda = stubs_tests::cuda_layout(13);
    let linux = Scenario::new(linux)
        .env("CUDA_STUBS_MOCK", "h200")
        .env("CUDA_STUBS_NVRTC_PATH", &cuda.nvrtc)
        .env(
            "CUDA_STUBS_NVJITLINK_PATH",
            cuda.nvjitlink.as_ref().expect("13.5's nvJitLink"),
        )
        .run();
    // The one line that differs: where the mock was bound (its path, as each system writes it).
    let lines = |text: &str| {
        text.lines()
            .map(|l| {
                let l = l.trim_end_matches('\r');
                match (l.find(" bound to "), l.find(", version ")) {
                    (Some(a), Some(b)) if a < b => {
                        format!("{} bound to <mock>{}", &l[..a], &l[b..])
                    }
                    _ => l.to_string(),
                }
            })
            .collect::<Vec<_>>()
    };
    (lines(&linux.stdout), lines(&windows.stdout))
}

/// `tests/c/mock_device.c` (the runtime, driver and NVML on one device, copies, errors,
/// modules, the mock's own kernel registration) prints the same lines on both systems.
#[test]
fn the_windows_mock_answers_as_the_linux_mock() {
    if skip() {
        return;
    }
    let (linux, windows) = on_both(
        "mock_device",
        "c/mock_device.c",
        &["cudart", "cuda", "nvml", "nvrtc"],
    );
    assert!(linux.len() > 20, "too few lines on Linux: {linux:#?}");
    assert_eq!(linux, windows);
}

/// A kernel's `printf` formats on Windows as on Linux (C99's conversions, not msvcrt's
/// `1.234568e+004`), each thread's line at the synchronizing call.
#[test]
fn device_printf_formats_as_on_linux() {
    if skip() {
        return;
    }
    let (linux, windows) = on_both("device_printf", "c/device_printf.c", &["cuda", "nvrtc"]);
    let expected = "t1  3.14 1.234568e+04 0.00123457 1.23457E+24 0x1.921fap+1 str ff \
                    18446744064709551616 -9000000000 z|42    |+3.333e-01|-12345.679|010";
    assert!(linux.iter().any(|l| l == expected), "{linux:#?}");
    assert_eq!(linux, windows);
}

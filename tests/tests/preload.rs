//! A program linked directly against NVIDIA's library, run with the stub in `LD_PRELOAD`: the
//! program's calls resolve to the stub, which finds the real library already loaded
//! (RTLD_NOLOAD) and forwards to it; the result is the real one. Without the preload the same
//! program runs unchanged and the stub is absent.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use stubs_tests::{Scenario, compile_c, cuda_layout, stub};

/// `tests/c/direct.c` with `define`, linked against `lib` by its file name, RUNPATH to its
/// folder.
fn direct(name: &str, define: &str, lib: &Path) -> PathBuf {
    let dir = lib.parent().expect("library folder");
    let file = lib.file_name().expect("file name").to_string_lossy();
    let mut libdir = OsString::from("-L");
    libdir.push(dir);
    let mut rpath = OsString::from("-Wl,-rpath,");
    rpath.push(dir);
    let define = OsString::from(format!("-D{define}"));
    compile_c(
        name,
        &[Path::new("c/direct.c")],
        &[
            &define,
            &libdir,
            OsString::from(format!("-l:{file}")).as_os_str(),
            &rpath,
            "-ldl".as_ref(),
        ],
    )
}

#[test]
fn preloaded_nvrtc_stub_forwards_to_the_linked_real_nvrtc() {
    let layout = cuda_layout(12);
    let exe = direct("direct-nvrtc", "USE_NVRTC", &layout.nvrtc);

    let run = Scenario::new(&exe)
        .env("LD_PRELOAD", stub("nvrtc"))
        .debug()
        .run();
    run.assert_success()
        .assert_line("stub libstubs_nvrtc.so loaded")
        .assert_line("resolved-in libstubs_nvrtc.so")
        .assert_line("nvrtcVersion rc=0 out=12.9")
        .assert_line("nvrtcCreateProgram rc=0")
        .assert_line("nvrtcCompileProgram rc=0")
        .assert_line("nvrtcGetPTX rc=0 entry=1")
        .assert_bound(
            "nvrtc",
            &layout.nvrtc,
            12090,
            "already loaded (RTLD_NOLOAD)",
        );
    // The only search step taken: step 1 finds 12 among the loaded objects; nothing else is
    // tried (13 on the path is never looked at).
    assert!(run.debug("nvrtc")[0].starts_with("bound "), "{run}");

    // Baseline: the same program without the stub.
    let run = Scenario::new(&exe).debug().run();
    run.assert_success()
        .assert_silent()
        .assert_line("stub libstubs_nvrtc.so absent")
        .assert_line("resolved-in libnvrtc.so.12")
        .assert_line("nvrtcVersion rc=0 out=12.9")
        .assert_line("nvrtcGetPTX rc=0 entry=1");
}

#[test]
fn preloaded_cudart_stub_forwards_to_the_linked_real_cudart() {
    let layout = cuda_layout(12);
    let exe = direct("direct-cudart", "USE_CUDART", &layout.cudart);

    let run = Scenario::new(&exe)
        .env("LD_PRELOAD", stub("cudart"))
        .debug()
        .run();
    run.assert_success()
        .assert_line("stub libstubs_cudart.so loaded")
        .assert_line("resolved-in libstubs_cudart.so")
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_bound(
            "cudart",
            &layout.cudart,
            12090,
            "already loaded (RTLD_NOLOAD)",
        );
    let count = run.line("cudaGetDeviceCount");
    assert!(
        count == "cudaGetDeviceCount rc=35 out=-7777"
            || count.starts_with("cudaGetDeviceCount rc=100 "),
        "{run}"
    );

    let run = Scenario::new(&exe).run();
    run.assert_success()
        .assert_silent()
        .assert_line("stub libstubs_cudart.so absent")
        .assert_line("resolved-in libcudart.so.12")
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090");
}

/// With the preload, a newer NVRTC on LD_LIBRARY_PATH is never loaded: the program's own 12 is
/// reused (no second NVRTC in the process).
#[test]
fn preloaded_stub_ignores_a_newer_major_on_the_path() {
    let twelve = cuda_layout(12);
    let thirteen = cuda_layout(13);
    let exe = direct("direct-nvrtc-13-on-path", "USE_NVRTC", &twelve.nvrtc);
    let run = Scenario::new(&exe)
        .env("LD_PRELOAD", stub("nvrtc"))
        .library_path(thirteen.lib_dirs())
        .debug()
        .run();
    run.assert_success()
        .assert_line("nvrtcVersion rc=0 out=12.9")
        .assert_bound(
            "nvrtc",
            &twelve.nvrtc,
            12090,
            "already loaded (RTLD_NOLOAD)",
        );
}

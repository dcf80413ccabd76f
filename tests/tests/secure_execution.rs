//! AT_SECURE: in a setuid program run by another user, every path from the environment is
//! ignored (the override, debug output), as glibc ignores LD_LIBRARY_PATH there.
//!
//! This runs a real setuid-root binary as `nobody` (`setpriv`), which needs root: the test
//! fails, rather than passing vacuously, when it is not run as root.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use stubs_tests::{Scenario, compile_c, copy, mock, stub};

fn world_readable(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn setuid_process_ignores_the_environment() {
    // SAFETY: geteuid has no preconditions.
    assert_eq!(
        unsafe { libc::geteuid() },
        0,
        "this test makes a setuid-root binary: run it as root"
    );
    // Outside target/ (which may sit under a home folder nobody cannot enter).
    let dir = std::env::temp_dir().join(format!("cuda-stubs-secure-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    world_readable(&dir, 0o755);
    for lib in ["cudart", "nvrtc", "cuda"] {
        let dst = dir.join(format!("libstubs_{lib}.so"));
        copy(&stub(lib), &dst);
        world_readable(&dst, 0o755);
    }
    let real = dir.join("libnvrtc.so.12");
    copy(&mock("mock-12").join("libnvrtc.so.12"), &real);
    world_readable(&real, 0o755);
    // RUNPATH, not LD_LIBRARY_PATH: the dynamic loader ignores the latter under AT_SECURE.
    let built = compile_c(
        "secure-probe",
        &[Path::new("c/probe.c")],
        &[
            format!("-L{}", dir.display()).as_ref(),
            "-lstubs_cudart".as_ref(),
            "-lstubs_nvrtc".as_ref(),
            "-lstubs_cuda".as_ref(),
            format!("-Wl,-rpath,{}", dir.display()).as_ref(),
            "-ldl".as_ref(),
            "-pthread".as_ref(),
        ],
    );
    let exe = dir.join("secure-probe");
    copy(&built, &exe);
    world_readable(&exe, 0o755);

    let scenario = |setuid: bool| {
        world_readable(&exe, if setuid { 0o4755 } else { 0o755 });
        Scenario::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg_path(&exe)
            .args(["auxv-secure", "nvrtcVersion", "status:nvrtc"])
            .env("CUDA_STUBS_NVRTC_PATH", &real)
            .env("CUDA_STUBS_DEBUG", "1")
            .run()
    };

    let plain = scenario(false);
    plain
        .assert_success()
        .assert_line("auxv-secure 0")
        .assert_line("nvrtcVersion rc=0 out=12.9");
    assert!(plain.stderr.contains("[environment override]"), "{plain}");

    let secure = scenario(true);
    secure
        .assert_success()
        .assert_line("auxv-secure 1")
        .assert_line("nvrtcVersion rc=11 out=-7777.-7777");
    assert!(
        secure.stderr.is_empty(),
        "debug output in a secure process: {secure}"
    );
    assert!(
        secure.line("status nvrtc rc=0").contains("bound=0"),
        "{secure}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

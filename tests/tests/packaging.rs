//! The stubs as packaged (issue 11): `cuda_stubs.h` from C and C++, the prefix install
//! (`scripts/install.sh --prefix DIR`), the CMake package consumed by a C++ project — directly
//! (`cuda-stubs::nvrtc`) and through `cuda_stubs_use_for_cuda_toolkit()` (`CUDA::nvrtc`) — and
//! the pkg-config files, each consumer run against NVIDIA's real NVRTC; and how each picks the
//! cudart ABI (issue 15): a library compiled against 12.9 or 13.5 headers records the version
//! node of its headers' ABI, and the CMake package refuses a choice its toolkit contradicts.
//! The Python wheel is tested by `scripts/test-packaging.sh`.
//!
//! Consumer programs run natively: NVRTC compiling a kernel under memcheck would cost minutes
//! and test nothing of the packaging. So the valgrind pass of `scripts/test.sh`
//! (`STUBS_TESTS_VALGRIND=1`) skips these tests, which its native pass has run.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use stubs_tests::symbol_versions;
use stubs_tests::{cuda_layout, run, stubs_dir, temp_dir, workspace_root};

/// True in the valgrind pass, where these tests (nothing of them under memcheck) are not rerun.
fn valgrind_pass() -> bool {
    std::env::var_os("STUBS_TESTS_VALGRIND").is_some_and(|v| v == "1")
}

/// Runs `cmd`, panics with its output unless it succeeds; returns stdout.
fn check(mut cmd: Command) -> String {
    // `run` clears the environment: keep what the build tools need.
    for key in [
        "HOME",
        "CARGO_HOME",
        "RUSTUP_HOME",
        "RUSTUP_TOOLCHAIN",
        "PKG_CONFIG_PATH",
    ] {
        if let Some(v) = std::env::var_os(key) {
            if cmd.get_envs().all(|(k, _)| k != key) {
                cmd.env(key, v);
            }
        }
    }
    let shown = format!("{cmd:?}");
    let out = run(cmd);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{shown} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The prefix `scripts/install.sh --prefix` filled, once per test process.
fn prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let dir = temp_dir("install");
        let prefix = dir.join("prefix");
        let mut cmd = Command::new(workspace_root().join("scripts/install.sh"));
        cmd.arg("--prefix")
            .arg(&prefix)
            .arg("--build-dir")
            .arg(dir.join("build"));
        check(cmd);
        prefix
    })
}

/// `DT_NEEDED` entries of an executable, from `readelf -d`.
fn needed(exe: &Path) -> Vec<String> {
    let mut cmd = Command::new("readelf");
    cmd.arg("-d").arg(exe);
    check(cmd)
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| Some(l.split('[').nth(1)?.trim_end_matches(']').to_string()))
        .collect()
}

/// Runs a consumer of the NVRTC stub with the real NVRTC of `major` on LD_LIBRARY_PATH and
/// checks it compiled a kernel with it (found by the dynamic loader's search).
fn assert_compiles_with_real_nvrtc(exe: &Path, major: u32) {
    let layout = cuda_layout(major);
    let mut cmd = Command::new(exe);
    cmd.env("LD_LIBRARY_PATH", layout.ld_library_path());
    let out = check(cmd);
    assert!(
        out.contains(&format!("nvrtc {}\n", layout.major_minor())),
        "{}: {out}",
        exe.display()
    );
    assert!(out.contains("ptx has .entry scale\n"), "{out}");
    assert!(out.contains("found_by dynamic loader search\n"), "{out}");
}

/// The installed tree: the stubs, the header, the CMake package, the pkg-config files.
#[test]
fn install_script_fills_the_prefix() {
    if valgrind_pass() {
        return;
    }
    let p = prefix();
    for file in [
        "lib/libstubs_cudart.so",
        "lib/libstubs_cudart_abi12.so",
        "lib/libstubs_nvrtc.so",
        "lib/libstubs_cuda.so",
        "lib/libstubs_nvjitlink.so",
        "include/cuda_stubs.h",
        "lib/cmake/cuda-stubs/cuda-stubsConfig.cmake",
        "lib/cmake/cuda-stubs/cuda-stubsConfigVersion.cmake",
        "lib/pkgconfig/cuda-stubs-cudart.pc",
        "lib/pkgconfig/cuda-stubs-cudart-12.pc",
        "lib/pkgconfig/cuda-stubs-cudart-13.pc",
        "lib/pkgconfig/cuda-stubs-nvrtc.pc",
        "lib/pkgconfig/cuda-stubs-cuda.pc",
        "lib/pkgconfig/cuda-stubs-nvjitlink.pc",
    ] {
        assert!(
            p.join(file).is_file(),
            "{file} missing under {}",
            p.display()
        );
    }
    let header = std::fs::read_to_string(p.join("include/cuda_stubs.h")).expect("header");
    let ours = std::fs::read_to_string(workspace_root().join("include/cuda_stubs.h"))
        .expect("checked-in header");
    assert_eq!(header, ours);
    // The installed (stripped) stubs keep their symbol versions.
    for (file, default) in [
        ("libstubs_cudart.so", "CUDA_STUBS_CUDART_13"),
        ("libstubs_cudart_abi12.so", "CUDA_STUBS_CUDART_12"),
    ] {
        let versions = symbol_versions::read(&p.join("lib").join(file));
        let advise = &versions.exports["cudaMemAdvise"];
        assert_eq!(advise.len(), 2, "{file}: {advise:?}");
        assert!(
            advise
                .iter()
                .any(|e| e.default && e.node.as_deref() == Some(default)),
            "{file}: {advise:?}"
        );
    }
}

/// `-I` flags of a major's CUDA headers.
fn include_flags(major: u32) -> Vec<String> {
    cuda_layout(major)
        .include
        .iter()
        .map(|d| format!("-I{}", d.display()))
        .collect()
}

/// `tests/c/abi_versions_calls.c` as a shared library compiled against `major`'s headers and
/// linked with `pkg-config --libs module`: its `cudaMemAdvise` records `node`.
#[test]
fn pkg_config_modules_record_their_cudart_abi() {
    if valgrind_pass() {
        return;
    }
    let dir = temp_dir("pkg-config-abi");
    let pc_path = prefix().join("lib/pkgconfig");
    for (module, major, node) in [
        ("cuda-stubs-cudart", 13, "CUDA_STUBS_CUDART_13"),
        ("cuda-stubs-cudart-13", 13, "CUDA_STUBS_CUDART_13"),
        ("cuda-stubs-cudart-12", 12, "CUDA_STUBS_CUDART_12"),
    ] {
        let mut cmd = Command::new("pkg-config");
        cmd.args(["--cflags", "--libs", module])
            .env("PKG_CONFIG_PATH", &pc_path);
        let flags = check(cmd);
        let lib = dir.join(format!("lib{module}.so"));
        let mut cmd = Command::new("cc");
        cmd.args([
            "-std=c11", "-shared", "-fPIC", "-Wall", "-Wextra", "-Werror", "-o",
        ])
        .arg(&lib)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("c/abi_versions_calls.c"))
        .args(include_flags(major))
        .args(flags.split_whitespace())
        .arg("-ldl");
        check(cmd);
        let versions = symbol_versions::read(&lib);
        assert_eq!(versions.needs("cudaMemAdvise"), Some(node), "{module}");
        assert_eq!(needed(&lib)[0], "libstubs_cudart.so", "{module}");
    }
}

/// Configures `tests/cmake/cudart_abi` against the installed package with `-D` arguments and
/// CUDA `major`'s headers; returns whether it configured and generated, all it printed (CMake
/// wraps messages: whitespace runs made one space) and the build folder.
fn configure_cudart_abi(name: &str, major: u32, defines: &[&str]) -> (bool, String, PathBuf) {
    let build = temp_dir(&format!("cmake-cudart-abi-{name}")).join("build");
    let mut cmd = Command::new("cmake");
    cmd.arg("-S")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("cmake/cudart_abi"))
        .arg("-B")
        .arg(&build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix().display()))
        .arg(format!(
            "-DCUDA_HEADERS={}",
            cuda_layout(major)
                .include
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(";")
        ))
        .args(defines.iter().map(|d| format!("-D{d}")));
    let out = run(cmd);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (out.status.success(), text, build)
}

/// The CMake package links `cuda-stubs::cudart` for the ABI of the toolkit's headers (or
/// `CUDA_STUBS_CUDART_ABI`), and refuses, at configure time, a choice the toolkit contradicts.
#[test]
fn cmake_package_picks_the_cudart_abi_and_refuses_a_mismatch() {
    if valgrind_pass() {
        return;
    }
    let toolkit = |major: &str, version: &str| {
        [
            format!("CUDAToolkit_VERSION_MAJOR={major}"),
            format!("CUDAToolkit_VERSION={version}"),
        ]
    };
    let t12 = toolkit("12", "12.9.79");
    let t13 = toolkit("13", "13.5.37");
    let t11 = toolkit("11", "11.8.89");
    fn as_refs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    for (name, major, defines, abi) in [
        ("toolkit-12", 12, as_refs(&t12), "12"),
        ("toolkit-13", 13, as_refs(&t13), "13"),
        ("none", 13, vec![], "13"),
        ("set-12", 12, vec!["CUDA_STUBS_CUDART_ABI=12"], "12"),
        (
            "toolkit-12-set-12",
            12,
            [as_refs(&t12), vec!["CUDA_STUBS_CUDART_ABI=12"]].concat(),
            "12",
        ),
    ] {
        let (ok, text, build) = configure_cudart_abi(name, major, &defines);
        assert!(ok, "{name}: {text}");
        assert!(
            text.contains(&format!("-- cuda-stubs cudart ABI: {abi} --")),
            "{name}: {text}"
        );
        let mut compile = Command::new("cmake");
        compile.arg("--build").arg(&build);
        check(compile);
        let lib = build.join("libcalls.so");
        let node = format!("CUDA_STUBS_CUDART_{abi}");
        assert_eq!(
            symbol_versions::read(&lib).needs("cudaMemAdvise"),
            Some(node.as_str()),
            "{name}"
        );
        assert_eq!(needed(&lib)[0], "libstubs_cudart.so", "{name}");
    }
    // The toolkit's headers say 12, the project asks for 13: configuration fails, saying why.
    let (ok, text, _) = configure_cudart_abi(
        "mismatch",
        12,
        &[as_refs(&t12), vec!["CUDA_STUBS_CUDART_ABI=13"]].concat(),
    );
    assert!(!ok, "{text}");
    assert!(
        text.contains(
            "CUDA_STUBS_CUDART_ABI=13, but this project compiles against CUDA 12.x headers"
        ),
        "{text}"
    );
    let (ok, text, _) = configure_cudart_abi("unknown", 13, &["CUDA_STUBS_CUDART_ABI=14"]);
    assert!(!ok && text.contains("CUDA_STUBS_CUDART_ABI=14"), "{text}");
    // 11.x headers: no cudart ABI; a target linking cuda-stubs::cudart fails to generate.
    let (ok, text, _) = configure_cudart_abi("toolkit-11", 12, &as_refs(&t11));
    assert!(!ok, "{text}");
    assert!(
        text.contains("compiles against CUDA 11.x headers"),
        "{text}"
    );
    assert!(
        text.contains("cuda-stubs::cudart-has-no-ABI-for-these-CUDA-headers"),
        "{text}"
    );
}

/// `cuda_stubs.h` compiled as C and as C++ (`extern "C"`): both link the status functions from
/// the stubs and get the same answers (no library, NULL refused).
#[test]
fn header_works_from_c_and_cxx() {
    if valgrind_pass() {
        return;
    }
    let dir = temp_dir("header");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("c/status_api.c");
    let mut outputs = Vec::new();
    for (lang, cpp, std) in [("c", false, "-std=c11"), ("c++", true, "-std=c++17")] {
        let exe = dir.join(format!("status_api_{}", if cpp { "cxx" } else { "c" }));
        let compiler = cc::Build::new()
            .cpp(cpp)
            .target(env!("STUBS_TESTS_TARGET"))
            .host(env!("STUBS_TESTS_TARGET"))
            .opt_level(1)
            .out_dir(&dir)
            .cargo_metadata(false)
            .cargo_warnings(false)
            .get_compiler();
        let mut rpath = OsString::from("-Wl,-rpath,");
        rpath.push(stubs_dir());
        let mut cmd = compiler.to_command();
        cmd.args(["-x", lang, std, "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(workspace_root().join("include"))
            .arg(&source)
            .args(["-x", "none", "-o"])
            .arg(&exe)
            .arg("-L")
            .arg(stubs_dir())
            .args(["-lstubs_cudart", "-lstubs_nvrtc", "-lstubs_cuda"])
            .arg("-lstubs_nvjitlink")
            .arg(&rpath);
        check(cmd);
        outputs.push(check(Command::new(&exe)));
    }
    for out in &outputs {
        for lib in ["cudart", "nvrtc", "cuda", "nvjitlink"] {
            assert!(
                out.contains(&format!("{lib} rc=0 bound=0 version=0 found_by=(null)\n")),
                "{out}"
            );
        }
        assert!(out.contains("null rc=-1\n"), "{out}");
    }
    assert_eq!(outputs[0], outputs[1]);
}

/// A C++ CMake project finds the installed package, links `cuda-stubs::nvrtc` directly and
/// `CUDA::nvrtc` after `cuda_stubs_use_for_cuda_toolkit()`; both executables need the stub,
/// not NVIDIA's library, and compile a kernel with real NVRTC 12.9 and 13.5.
#[test]
fn cmake_package_consumer_runs_on_real_nvrtc() {
    if valgrind_pass() {
        return;
    }
    let dir = temp_dir("cmake-consumer");
    let build = dir.join("build");
    let include = &cuda_layout(13).include[0];
    let mut configure = Command::new("cmake");
    configure
        .arg("-S")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("cmake/consumer"))
        .arg("-B")
        .arg(&build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix().display()))
        .arg(format!("-DNVRTC_INCLUDE={}", include.display()));
    check(configure);
    let mut compile = Command::new("cmake");
    compile.arg("--build").arg(&build);
    check(compile);
    for exe in ["nvrtc_direct", "nvrtc_toolkit"] {
        let exe = build.join(exe);
        let needed = needed(&exe);
        assert!(
            needed.iter().any(|n| n == "libstubs_nvrtc.so"),
            "{needed:?}"
        );
        assert!(
            !needed.iter().any(|n| n.starts_with("libnvrtc")),
            "{needed:?}"
        );
        for major in [12, 13] {
            assert_compiles_with_real_nvrtc(&exe, major);
        }
    }
}

/// `pkg-config --cflags --libs cuda-stubs-nvrtc` with the installed `.pc` files builds a C
/// program that runs on real NVRTC; the `.pc` files are relocatable (`${pcfiledir}`).
#[test]
fn pkg_config_consumer_runs_on_real_nvrtc() {
    if valgrind_pass() {
        return;
    }
    let dir = temp_dir("pkg-config-consumer");
    let pc_path = prefix().join("lib/pkgconfig");
    let pkg_config = |args: &[&str]| {
        let mut cmd = Command::new("pkg-config");
        cmd.args(args).env("PKG_CONFIG_PATH", &pc_path);
        check(cmd).trim().to_string()
    };
    let flags = pkg_config(&["--cflags", "--libs", "cuda-stubs-nvrtc"]);
    let libdir = PathBuf::from(pkg_config(&["--variable=libdir", "cuda-stubs-nvrtc"]));
    assert_eq!(
        libdir.canonicalize().expect("libdir exists"),
        prefix().join("lib").canonicalize().expect("prefix lib")
    );
    assert_eq!(pkg_config(&["--modversion", "cuda-stubs-cudart"]), "0.1.0");
    let nvjitlink = pkg_config(&["--libs", "cuda-stubs-nvjitlink"]);
    assert!(
        nvjitlink.ends_with(" -lstubs_nvjitlink"),
        "cuda-stubs-nvjitlink: {nvjitlink}"
    );
    let exe = dir.join("nvrtc_pkgconfig");
    let mut cmd = Command::new("cc");
    cmd.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("c/nvrtc_consumer.c"))
        .arg("-isystem")
        .arg(&cuda_layout(13).include[0])
        .args(flags.split_whitespace())
        .arg(format!("-Wl,-rpath,{}", libdir.display()));
    check(cmd);
    assert_compiles_with_real_nvrtc(&exe, 13);
}

/// A CUDA toolkit root FindCUDAToolkit accepts, made of NVIDIA's CUDA 13.5 wheels (nvcc, cicc,
/// headers, libraries): `bin`, `include`, `nvvm` linked, `lib64` with the toolkit's
/// development links (`libcudart.so`, which the wheels lack).
fn toolkit_from_wheels(dir: &Path) -> (PathBuf, PathBuf) {
    let layout = cuda_layout(13);
    let lib = layout.cudart.parent().expect("lib folder").to_path_buf();
    let top = lib.parent().expect("wheel top").to_path_buf();
    let root = dir.join("toolkit");
    std::fs::create_dir_all(root.join("lib64")).expect("mkdir lib64");
    for sub in ["bin", "include", "nvvm"] {
        std::os::unix::fs::symlink(top.join(sub), root.join(sub)).expect("symlink");
    }
    for (link, file) in [
        ("libcudart.so", "libcudart.so.13"),
        ("libcudart.so.13", "libcudart.so.13"),
        ("libnvrtc.so", "libnvrtc.so.13"),
        ("libnvrtc.so.13", "libnvrtc.so.13"),
        ("libcudadevrt.a", "libcudadevrt.a"),
        ("libcudart_static.a", "libcudart_static.a"),
    ] {
        std::os::unix::fs::symlink(lib.join(file), root.join("lib64").join(link)).expect("symlink");
    }
    (root, top.join("bin/nvcc"))
}

/// README's CMake recipe on an nvcc-built project: after `cuda_stubs_use_for_cuda_toolkit()`,
/// FindCUDAToolkit's `CUDA::cudart` is the stub and nvcc links no toolkit libcudart, while a
/// kernel launching a kernel (separable compilation) still device-links libcudadevrt.a. The
/// executable runs on the real 12.9 and 13.5 runtimes and on none (typed error), no GPU needed.
#[test]
fn cmake_cuda_project_switches_with_two_lines() {
    if valgrind_pass() {
        return;
    }
    let dir = temp_dir("cmake-cuda-app");
    let (toolkit, nvcc) = toolkit_from_wheels(&dir);
    let build = dir.join("build");
    let mut configure = Command::new("cmake");
    configure
        .arg("-S")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("cmake/cuda_app"))
        .arg("-B")
        .arg(&build)
        .arg(format!("-DCMAKE_CUDA_COMPILER={}", nvcc.display()))
        .arg(format!("-DCUDAToolkit_ROOT={}", toolkit.display()))
        .arg("-DCMAKE_CUDA_ARCHITECTURES=80")
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix().display()));
    let configured = check(configure);
    // nvcc 13.5's headers: CUDA 13's cudart ABI.
    assert!(
        configured.contains("cuda-stubs cudart ABI: 13\n"),
        "{configured}"
    );
    let mut compile = Command::new("cmake");
    compile.arg("--build").arg(&build);
    check(compile);
    let device_libs =
        std::fs::read_to_string(build.join("CMakeFiles/cuda_app.dir/deviceLinkLibs.rsp"))
            .expect("device link libraries");
    assert!(device_libs.contains("libcudadevrt.a"), "{device_libs}");
    let exe = build.join("cuda_app");
    let needed = needed(&exe);
    assert!(
        needed.iter().any(|n| n == "libstubs_cudart.so"),
        "{needed:?}"
    );
    assert!(
        !needed.iter().any(|n| n.starts_with("libcudart")),
        "{needed:?}"
    );
    for major in [12, 13] {
        let layout = cuda_layout(major);
        let mut cmd = Command::new(&exe);
        cmd.env("LD_LIBRARY_PATH", layout.ld_library_path());
        let out = check(cmd);
        assert!(
            out.contains(&format!(
                "cudaRuntimeGetVersion rc=0 version={}\n",
                layout.version_code()
            )),
            "{out}"
        );
    }
    let out = check(Command::new(&exe));
    assert!(
        out.contains("cudaRuntimeGetVersion rc=34 version=0\n"),
        "{out}"
    );
    assert!(out.contains("no device: cudaErrorStubLibrary\n"), "{out}");
}

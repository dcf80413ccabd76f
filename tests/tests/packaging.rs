//! The stubs as packaged (issue 11): `cuda_stubs.h` from C and C++, the prefix install
//! (`scripts/install.sh --prefix DIR`), the CMake package consumed by a C++ project — directly
//! (`cuda-stubs::nvrtc`) and through `cuda_stubs_use_for_cuda_toolkit()` (`CUDA::nvrtc`) — and
//! the pkg-config files, each consumer run against NVIDIA's real NVRTC; and how each picks the
//! cudart ABI (issue 15): a library compiled against 12.9 or 13.5 headers records the version
//! node of its headers' ABI, and the CMake package refuses a choice its toolkit contradicts.
//! And the switch of CMake CUDA projects (issue 20): one small project per way of linking a CUDA
//! runtime (`tests/cmake/styles/*`: CMake's implicit runtime, `CUDA_RUNTIME_LIBRARY`, a C++
//! executable of CUDA objects, separable compilation, OpenMP for CUDA, `CUDA::cudart_static`,
//! `check_language`), built with nvcc 13.5 from NVIDIA's wheels, each switched by README's two
//! lines, then all of them unedited by `cuda-stubs-switch.cmake`; and a C++ project on a CUDA
//! 12.9 toolkit, either way. Every executable must need the stub, no `libcudart`, record its
//! headers' cudart ABI, and run on the real 12.9 and 13.5 runtimes and on none; none may have
//! the link folder in its `RUNPATH` (issue 38: the `runpath` style checks installed files too).
//! The Python wheel is tested by `scripts/test-packaging.sh`.
//!
//! Consumer programs run natively: NVRTC compiling a kernel under memcheck would cost minutes
//! and test nothing of the packaging. So the valgrind pass of `scripts/test.sh`
//! (`STUBS_TESTS_VALGRIND=1`) skips these tests, which its native pass has run.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use stub_model::libraries::ALL;
use stubs_tests::symbol_versions;
use stubs_tests::{
    Scenario, cuda_layout, memcheck_pass, mock, run, stubs_dir, temp_dir, workspace_root,
};

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

/// The `RUNPATH` and `RPATH` entries of an ELF file, from `readelf -d`.
fn run_paths(file: &Path) -> Vec<String> {
    let mut cmd = Command::new("readelf");
    cmd.arg("-d").arg(file);
    check(cmd)
        .lines()
        .filter(|l| l.contains("(RUNPATH)") || l.contains("(RPATH)"))
        .filter_map(|l| Some(l.split('[').nth(1)?.trim_end_matches(']').to_string()))
        // CMake pads a build tree's RUNPATH with empty entries, room for the installed one.
        .flat_map(|paths| {
            paths
                .split(':')
                .filter(|p| !p.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A switched target's `RUNPATH` and `RPATH` never name the link folder
/// (`lib/cuda-stubs-link/abi<N>`: linker scripts under NVIDIA's link names, nothing to load;
/// issue 38).
fn assert_no_link_folder(file: &Path) {
    let paths = run_paths(file);
    assert!(
        !paths.iter().any(|p| p.contains("cuda-stubs-link")),
        "{}: the link folder in RUNPATH: {paths:?}",
        file.display()
    );
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

/// The installed tree: the stubs, the header, the CMake package (with the switch's files), the
/// pkg-config files, the license texts and NOTICE.
#[test]
fn install_script_fills_the_prefix() {
    if memcheck_pass() {
        return;
    }
    let p = prefix();
    // What the specs say the prefix holds: each library's stub (a two-ABI library's link-time
    // stub too) and pkg-config module (and one per ABI), then the files of the package itself.
    let mut files = Vec::new();
    for library in ALL {
        files.push(format!("lib/{}", library.stub_file()));
        files.extend(library.link_stub_file().map(|f| format!("lib/{f}")));
        let module = library.pkg_config_module();
        files.push(format!("lib/pkgconfig/{module}.pc"));
        for abi in library.abis() {
            files.push(format!("lib/pkgconfig/{module}-{abi}.pc"));
        }
    }
    files.extend(
        [
            "include/cuda_stubs.h",
            // The mock device (docs/src/testing-without-a-gpu.md).
            "lib/libcuda_stubs_mock.so",
            "include/cuda_stubs_mock.h",
            "lib/cmake/cuda-stubs/cuda-stubsConfig.cmake",
            "lib/cmake/cuda-stubs/cuda-stubs-functions.cmake",
            "lib/cmake/cuda-stubs/cuda-stubs-cuda-rules.cmake",
            "lib/cmake/cuda-stubs/cuda-stubs-switch.cmake",
            "lib/cmake/cuda-stubs/cuda-stubsConfigVersion.cmake",
            // The opt-in compatibility folder (docs/src/compat.md), under NVIDIA's sonames.
            "lib/cuda-stubs-compat/libcudart.so.12",
            "lib/cuda-stubs-compat/libcudart.so.13",
            "lib/cuda-stubs-compat/libnvrtc.so.12",
            "lib/cuda-stubs-compat/libnvrtc.so.13",
            "lib/cuda-stubs-compat/libnvidia-ml.so.1",
            // The license texts and what is derived from NVIDIA's headers (NOTICE).
            "share/doc/cuda-stubs/LICENSE-MIT",
            "share/doc/cuda-stubs/LICENSE-APACHE",
            "share/doc/cuda-stubs/NOTICE",
        ]
        .map(String::from),
    );
    for file in files {
        assert!(
            p.join(&file).is_file(),
            "{file} missing under {}",
            p.display()
        );
    }
    let header = std::fs::read_to_string(p.join("include/cuda_stubs.h")).expect("header");
    let ours = std::fs::read_to_string(workspace_root().join("include/cuda_stubs.h"))
        .expect("checked-in header");
    assert_eq!(header, ours);
    for doc in ["LICENSE-MIT", "LICENSE-APACHE", "NOTICE"] {
        let installed = std::fs::read(p.join("share/doc/cuda-stubs").join(doc)).expect("installed");
        let ours = std::fs::read(workspace_root().join(doc)).expect("checked in");
        assert!(
            installed == ours,
            "share/doc/cuda-stubs/{doc} differs from ours"
        );
    }
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
    if memcheck_pass() {
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
    if memcheck_pass() {
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

/// `cuda_stubs.h` compiled as C and as C++ (`extern "C"`): both link the status and driver status
/// functions from the stubs and get the same answers (no library, NULL refused).
#[test]
fn header_works_from_c_and_cxx() {
    if memcheck_pass() {
        return;
    }
    let dir = temp_dir("header");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("c/status_api.c");
    // The program's list of libraries, from the specs: one `CUDA_STUBS_LIBRARY(name)` each.
    let list: String = ALL
        .iter()
        .map(|l| format!(" CUDA_STUBS_LIBRARY({})", l.name()))
        .collect();
    std::fs::write(
        dir.join("status_libraries.h"),
        format!("#define CUDA_STUBS_LIBRARIES{list}\n"),
    )
    .expect("write status_libraries.h");
    let links: Vec<String> = ALL
        .iter()
        .map(|l| format!("-lstubs_{}", l.name()))
        .collect();
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
            .arg("-I")
            .arg(&dir)
            .arg(&source)
            .args(["-x", "none", "-o"])
            .arg(&exe)
            .arg("-L")
            .arg(stubs_dir())
            .args(&links)
            .arg(&rpath);
        check(cmd);
        outputs.push(check(Command::new(&exe)));
    }
    for out in &outputs {
        for lib in ALL.iter().map(|l| l.name()) {
            assert!(
                out.contains(&format!(
                    "{lib} rc=0 bound=0 version=0 found_by=(null) driver rc=0 fit=not-bound\n"
                )),
                "{out}"
            );
        }
        assert_eq!(out.lines().count(), ALL.len() + 1, "{out}");
        assert!(out.contains("null rc=-1 driver rc=-1\n"), "{out}");
    }
    assert_eq!(outputs[0], outputs[1]);
}

/// A C++ CMake project finds the installed package, links `cuda-stubs::nvrtc` directly and
/// `CUDA::nvrtc` after `cuda_stubs_use_for_cuda_toolkit()`; both executables need the stub,
/// not NVIDIA's library, and compile a kernel with real NVRTC 12.9 and 13.5.
#[test]
fn cmake_package_consumer_runs_on_real_nvrtc() {
    if memcheck_pass() {
        return;
    }
    let dir = temp_dir("cmake-consumer");
    let build = dir.join("build");
    // The specs' CMake targets and FindCUDAToolkit targets: the package and the switch must
    // define every one.
    let targets: Vec<&str> = ALL.iter().map(|l| l.packaging.cmake_target).collect();
    let toolkit: Vec<&str> = ALL
        .iter()
        .flat_map(|l| l.packaging.toolkit_targets.iter().copied())
        .collect();
    let include = &cuda_layout(13).include[0];
    let mut configure = Command::new("cmake");
    configure
        .arg("-S")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("cmake/consumer"))
        .arg("-B")
        .arg(&build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix().display()))
        .arg(format!("-DNVRTC_INCLUDE={}", include.display()))
        .arg(format!("-DEXPECTED_TARGETS={}", targets.join(";")))
        .arg(format!("-DEXPECTED_TOOLKIT_TARGETS={}", toolkit.join(";")));
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
    if memcheck_pass() {
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
    // Every library's module links its stub (cudart's default module: the newest ABI's).
    for lib in ALL.iter().map(|l| l.name()) {
        let libs = pkg_config(&["--libs", &format!("cuda-stubs-{lib}")]);
        assert!(
            libs.ends_with(&format!(" -lstubs_{lib}")),
            "cuda-stubs-{lib}: {libs}"
        );
    }
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
/// development links (`libcudart.so`, which the wheels lack) and `lib64/stubs/libcuda.so`.
fn toolkit_from_wheels(dir: &Path) -> PathBuf {
    let layout = cuda_layout(13);
    let lib = layout.cudart.parent().expect("lib folder").to_path_buf();
    let top = lib.parent().expect("wheel top").to_path_buf();
    let root = dir.join("toolkit");
    std::fs::create_dir_all(root.join("lib64")).expect("mkdir lib64");
    for sub in ["bin", "include", "nvvm"] {
        std::os::unix::fs::symlink(top.join(sub), root.join(sub)).expect("symlink");
    }
    for (link, file) in [
        ("libcudadevrt.a", "libcudadevrt.a"),
        ("libcudart_static.a", "libcudart_static.a"),
    ] {
        std::os::unix::fs::symlink(lib.join(file), root.join("lib64").join(link)).expect("symlink");
    }
    // NVIDIA's real files of every library the specs stub that the 13.5 wheels hold, under the
    // names a project links (bare names, find_library()) and their sonames: the switch must
    // make the stubs win over them.
    for library in ALL.iter().filter(|l| l.exports.from_wheels()) {
        let Some(file) = layout.libraries.get(library.name()) else {
            continue;
        };
        let name = file.file_name().expect("file name").to_string_lossy();
        let bare = format!("{}.so", name.split(".so").next().expect("a soname"));
        // Once where the soname is the bare name (Perfworks' `libnvperf_host.so`).
        let links = if bare == name {
            vec![bare.as_str()]
        } else {
            vec![bare.as_str(), &name]
        };
        for link in links {
            std::os::unix::fs::symlink(file, root.join("lib64").join(link)).expect("symlink");
        }
    }
    // A toolkit's link-time libcuda (the driver comes with the GPU's driver, not the toolkit):
    // FindCUDAToolkit's CUDA_cuda_driver_LIBRARY. The mock driver stands in (soname libcuda.so.1).
    std::fs::create_dir_all(root.join("lib64/stubs")).expect("mkdir lib64/stubs");
    std::os::unix::fs::symlink(
        mock("mock-driver").join("libcuda.so.1"),
        root.join("lib64/stubs/libcuda.so"),
    )
    .expect("symlink libcuda.so");
    root
}

/// NVIDIA's CUDA 12.9 wheels as a toolkit root FindCUDAToolkit accepts without nvcc (nvcc 13.5
/// cannot compile against 12.x headers): `include` with every header folder of the wheels in
/// one, `lib64/libcudart.so`, and `version.txt`, where FindCUDAToolkit reads the version when it
/// finds no nvcc.
fn toolkit12_from_wheels(dir: &Path) -> PathBuf {
    let layout = cuda_layout(12);
    let root = dir.join("toolkit12");
    std::fs::create_dir_all(root.join("include")).expect("mkdir include");
    std::fs::create_dir_all(root.join("lib64")).expect("mkdir lib64");
    for folder in &layout.include {
        for entry in std::fs::read_dir(folder).expect("header folder") {
            let entry = entry.expect("header entry");
            // The wheels' include folders are Python packages too (`__init__.py`,
            // `__pycache__`, in several of them): no header.
            if entry.file_name().to_string_lossy().starts_with("__") {
                continue;
            }
            // A name two folders have (cuFFTMp's wheel carries its own `cufft.h`): the first
            // folder's, as the compiler's `-I` order would take it.
            let link = root.join("include").join(entry.file_name());
            if link.symlink_metadata().is_ok() {
                continue;
            }
            std::os::unix::fs::symlink(entry.path(), link).expect("symlink header");
        }
    }
    std::os::unix::fs::symlink(&layout.cudart, root.join("lib64/libcudart.so"))
        .expect("symlink libcudart.so");
    std::fs::write(
        root.join("version.txt"),
        format!("CUDA Version {}\n", layout.version),
    )
    .expect("version.txt");
    root
}

/// How a test project is switched to the stubs.
#[derive(Clone, Copy, Debug)]
enum Switch {
    /// README's two lines in the project (`find_package(cuda-stubs)`, found through
    /// `CMAKE_PREFIX_PATH`, and `cuda_stubs_use_for_cuda_toolkit()`).
    TwoLines,
    /// None in the project (`-DZERO_LINES=ON`): `-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=` the
    /// installed `cuda-stubs-switch.cmake`, with no `CMAKE_PREFIX_PATH`.
    ZeroLines,
}

/// Configures the CMake project `source` (under `tests/cmake`) switched by `switch`, with
/// NVIDIA's nvcc 13.5 as the CUDA compiler (`CUDACXX`, as a user's environment would name it),
/// `toolkit` as `CUDAToolkit_ROOT` and `defines`; returns whether it configured and all it printed
/// (whitespace runs made one space: CMake wraps messages).
fn configure(
    source: &str,
    build: &Path,
    toolkit: &Path,
    switch: Switch,
    defines: &[&str],
) -> (bool, String) {
    let mut cmd = Command::new("cmake");
    cmd.arg("-S")
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("cmake")
                .join(source),
        )
        .arg("-B")
        .arg(build)
        .arg(format!("-DCUDAToolkit_ROOT={}", toolkit.display()))
        // FindCUDA's (the findcuda style); unused elsewhere.
        .arg(format!("-DCUDA_TOOLKIT_ROOT_DIR={}", toolkit.display()))
        .arg("-DCMAKE_CUDA_ARCHITECTURES=80")
        .args(defines.iter().map(|d| format!("-D{d}")))
        .env(
            "CUDACXX",
            cuda_layout(13)
                .nvcc
                .expect("nvcc 13.5 from NVIDIA's wheels"),
        );
    match switch {
        Switch::TwoLines => cmd.arg(format!("-DCMAKE_PREFIX_PATH={}", prefix().display())),
        Switch::ZeroLines => cmd.arg("-DZERO_LINES=ON").arg(format!(
            "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES={}",
            prefix()
                .join("lib/cmake/cuda-stubs/cuda-stubs-switch.cmake")
                .display()
        )),
    };
    let out = run(cmd);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.success(),
        text.split_whitespace().collect::<Vec<_>>().join(" "),
    )
}

/// Configures and builds a project that must configure; returns what configuration printed.
fn configure_and_build(
    source: &str,
    build: &Path,
    toolkit: &Path,
    switch: Switch,
    defines: &[&str],
) -> String {
    let (ok, text) = configure(source, build, toolkit, switch, defines);
    assert!(ok, "{source} ({switch:?}) failed to configure: {text}");
    let mut compile = Command::new("cmake");
    compile.arg("--build").arg(build);
    check(compile);
    text
}

/// What every executable built from CUDA code of a switched project must show: it needs
/// `libstubs_cudart.so` and no `libcudart`; its `cudaMemAdvise` records the cudart ABI of the
/// headers it was compiled against (`abi`); it runs on NVIDIA's real 12.9 and 13.5 runtimes
/// (bound through `CUDA_STUBS_CUDART_PATH`, no GPU: the runtime's own answers) and on none
/// (`cudaErrorStubLibrary`, 34).
fn assert_runs_through_the_stub(exe: &Path, abi: u32) {
    assert_no_link_folder(exe);
    let needed = needed(exe);
    assert!(
        needed.iter().any(|n| n == "libstubs_cudart.so"),
        "{}: {needed:?}",
        exe.display()
    );
    assert!(
        !needed.iter().any(|n| n.starts_with("libcudart")),
        "{}: {needed:?}",
        exe.display()
    );
    let node = format!("CUDA_STUBS_CUDART_{abi}");
    assert_eq!(
        symbol_versions::read(exe).needs("cudaMemAdvise"),
        Some(node.as_str()),
        "{}",
        exe.display()
    );
    for major in [12, 13] {
        let layout = cuda_layout(major);
        let code = layout.version_code();
        Scenario::new(exe)
            .env("CUDA_STUBS_CUDART_PATH", &layout.cudart)
            .debug()
            .run()
            .assert_success()
            .assert_line(&format!("cudaRuntimeGetVersion rc=0 version={code}"))
            .assert_bound("cudart", &layout.cudart, code, "environment override");
    }
    Scenario::new(exe)
        .run()
        .assert_success()
        .assert_line("cudaRuntimeGetVersion rc=34 version=0")
        .assert_line("no device: cudaErrorStubLibrary");
}

/// The executable without CUDA code of `cxx_static_lib`: the switch added nothing to it.
fn assert_untouched(exe: &Path) {
    let needed = needed(exe);
    assert!(
        !needed.iter().any(|n| n.contains("cudart")),
        "{}: {needed:?}",
        exe.display()
    );
    Scenario::new(exe)
        .run()
        .assert_success()
        .assert_line("no cuda");
}

/// The CUDA executables of each style of `tests/cmake/styles` (folder, executables in it).
const STYLES: &[(&str, &[&str])] = &[
    ("implicit", &["implicit"]),
    ("runtime_property", &["shared_property", "static_variable"]),
    ("cxx_static_lib", &["cxx_main"]),
    ("separable", &["separable", "separable_cudart"]),
    ("openmp", &["openmp_probe"]),
    ("cudart_static", &["cudart_static"]),
    ("check_language", &["late_cuda"]),
    // No CUDA code: a C program linking FindCUDAToolkit's cache entries (see below).
    ("toolkit_variables", &[]),
    // NVIDIA's link names (issue 28): by bare name and -l, find_library() and full paths,
    // FindCUDA's variables; the probes of C code are checked below.
    ("bare_names", &[]),
    ("find_library", &[]),
    ("findcuda", &[]),
    // RUNPATH (issue 38), built and installed: checked below.
    ("runpath", &[]),
];

/// Whether a `DT_NEEDED` entry is one of NVIDIA's CUDA libraries (not a stub).
fn is_nvidia(soname: &str) -> bool {
    ["libcu", "libnv"].iter().any(|p| soname.starts_with(p))
}

/// A C program of `tests/cmake/styles/common/libraries.c` linked by NVIDIA's names: it needs
/// the runtime and cuBLAS stubs (and nvJitLink's, `nvjitlink`) and no NVIDIA library, and runs
/// on none (each stub's own error) and on NVIDIA's real 11.8, 12.9 and 13.5 wheels, found by the
/// dynamic loader's search (each major's cuBLAS, nvJitLink from 12.x on).
fn assert_links_names_to_stubs(exe: &Path, nvjitlink: bool) {
    assert_no_link_folder(exe);
    let needed = needed(exe);
    let mut stubs = vec!["libstubs_cudart.so", "libstubs_cublas.so"];
    if nvjitlink {
        stubs.push("libstubs_nvjitlink.so");
    }
    for stub in stubs {
        assert!(
            needed.iter().any(|n| n == stub),
            "{}: no {stub}: {needed:?}",
            exe.display()
        );
    }
    assert!(
        !needed.iter().any(|n| is_nvidia(n)),
        "{}: {needed:?}",
        exe.display()
    );
    let none = Scenario::new(exe).run();
    none.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=34 version=0")
        .assert_line("cublasGetProperty rc=1 major=0");
    for major in [11, 12, 13] {
        let layout = cuda_layout(major);
        let mut dirs = layout.lib_dirs();
        for lib in ["cublas", "cublaslt", "nvjitlink"] {
            if let Some(dir) = layout.libraries.get(lib).and_then(|l| l.parent()) {
                dirs.push(dir.to_path_buf());
            }
        }
        let out = Scenario::new(exe)
            .env(
                "LD_LIBRARY_PATH",
                std::env::join_paths(dirs).expect("join paths"),
            )
            .run();
        // 11.8's runtime without a driver answers cudaErrorInsufficientDriver (35).
        let runtime = if major == 11 {
            "cudaRuntimeGetVersion rc=35 version=0".to_owned()
        } else {
            format!(
                "cudaRuntimeGetVersion rc=0 version={}",
                layout.version_code()
            )
        };
        out.assert_success()
            .assert_line(&runtime)
            .assert_line(&format!("cublasGetProperty rc=0 major={major}"));
        if nvjitlink && major >= 12 {
            out.assert_line(&format!("nvJitLinkVersion rc=0 major={major}"));
        }
    }
}

/// The checks particular to a style, on its build folder (`dir`) and configure output;
/// `alone`: the style is a build of its own (not a subproject of `tests/cmake/styles`, where
/// another style's project() has found the CUDA compiler before).
fn assert_style_specifics(style: &str, dir: &Path, configured: &str, alone: bool) {
    match style {
        "separable" => {
            // The device link keeps the device runtime (the implicit runtime's cudadevrt).
            for exe in ["separable", "separable_cudart"] {
                let libs = std::fs::read_to_string(
                    dir.join(format!("CMakeFiles/{exe}.dir/deviceLinkLibs.rsp")),
                )
                .expect("device link libraries");
                assert!(libs.contains("cudadevrt"), "{exe}: {libs}");
            }
        }
        "cxx_static_lib" => assert_untouched(&dir.join("no_cuda")),
        "bare_names" => {
            for exe in ["bare_c", "bare_cuda", "bare_option"] {
                assert_links_names_to_stubs(&dir.join(exe), false);
            }
        }
        "find_library" => assert_links_names_to_stubs(&dir.join("found_library"), true),
        "runpath" => assert_runpath_style(dir),
        "findcuda" => assert_links_names_to_stubs(&dir.join("findcuda"), false),
        "toolkit_variables" => {
            // `${CUDA_cudart_LIBRARY} ${CUDA_cuda_driver_LIBRARY}` in a subproject that found
            // the toolkit again: the stubs, never NVIDIA's files.
            let exe = dir.join("sub/toolkit_variables");
            let needed = needed(&exe);
            assert!(
                needed.iter().any(|n| n == "libstubs_cudart.so")
                    && needed.iter().any(|n| n == "libstubs_cuda.so")
                    && !needed
                        .iter()
                        .any(|n| n.starts_with("libcudart") || n.starts_with("libcuda.so")),
                "{}: {needed:?}",
                exe.display()
            );
            let layout = cuda_layout(13);
            let code = layout.version_code();
            Scenario::new(&exe)
                .env("CUDA_STUBS_CUDART_PATH", &layout.cudart)
                .run()
                .assert_success()
                .assert_line(&format!("cudaRuntimeGetVersion rc=0 version={code}"))
                .assert_line("cuDriverGetVersion rc=34 version=0");
        }
        "openmp" => {
            Scenario::new(dir.join("openmp_probe"))
                .env("OMP_NUM_THREADS", "3")
                .run()
                .assert_success()
                .assert_line("openmp threads 3");
        }
        "check_language" => {
            let line = "-- Performing Test CUDA_RUNTIME_LINKS - Success";
            assert!(configured.contains(line), "{line}: {configured}");
            let line = "-- Looking for a CUDA compiler - ";
            assert!(!alone || configured.contains(line), "{line}: {configured}");
        }
        _ => {}
    }
}

/// The `runpath` style (issue 38), in its build folder `dir` and installed from there
/// (`cmake --install`, `CMAKE_INSTALL_RPATH_USE_LINK_PATH`): no file's `RUNPATH` names the link
/// folder, each file that needs a stub has the stubs' folder there (the installed programs find
/// their stubs by it alone), and each program runs through the stubs: on none, then on NVIDIA's
/// libraries.
fn assert_runpath_style(dir: &Path) {
    let prefix = dir.join("installed");
    let mut install = Command::new("cmake");
    install
        .arg("--install")
        .arg(dir)
        .arg("--prefix")
        .arg(&prefix);
    check(install);
    let stubs = prefix_lib();
    for root in [dir.to_path_buf(), prefix.clone()] {
        let (bin, lib) = if root == prefix {
            (prefix.join("bin"), prefix.join("lib"))
        } else {
            (root.clone(), root.clone())
        };
        let files = [
            lib.join("libprobe_cuda.so"),
            bin.join("runpath_app"),
            bin.join("runpath_c"),
            bin.join("runpath_cuda"),
        ];
        for file in &files {
            assert_no_link_folder(file);
            if !needed(file).iter().any(|n| n.starts_with("libstubs_")) {
                continue; // the executable of the shared library: its RUNPATH finds that
            }
            let paths = run_paths(file);
            assert!(
                paths.iter().any(|p| Path::new(p) == stubs),
                "{}: no {} in RUNPATH: {paths:?}",
                file.display(),
                stubs.display()
            );
        }
        assert_links_names_to_stubs(&bin.join("runpath_c"), true);
        assert_links_names_to_stubs(&bin.join("runpath_cuda"), false);
        let app = bin.join("runpath_app");
        assert!(
            needed(&lib.join("libprobe_cuda.so"))
                .iter()
                .any(|n| n == "libstubs_cudart.so"),
            "{}",
            lib.display()
        );
        Scenario::new(&app)
            .run()
            .assert_success()
            .assert_line("cudaRuntimeGetVersion rc=34 version=0")
            .assert_line("no device: cudaErrorStubLibrary");
        let layout = cuda_layout(13);
        Scenario::new(&app)
            .env("CUDA_STUBS_CUDART_PATH", &layout.cudart)
            .run()
            .assert_success()
            .assert_line(&format!(
                "cudaRuntimeGetVersion rc=0 version={}",
                layout.version_code()
            ));
    }
}

/// The installed stubs' folder, `<prefix>/lib`.
fn prefix_lib() -> PathBuf {
    prefix().join("lib")
}

/// One style of `tests/cmake/styles` built on its own with README's two lines after
/// `find_package(CUDAToolkit)`: every CUDA executable links and runs through the stub.
fn two_lines_switch(style: &str) {
    if memcheck_pass() {
        return;
    }
    let dir = temp_dir(&format!("cmake-style-{style}"));
    let toolkit = toolkit_from_wheels(&dir);
    let build = dir.join("build");
    let configured = configure_and_build(
        &format!("styles/{style}"),
        &build,
        &toolkit,
        Switch::TwoLines,
        &[],
    );
    let (_, exes) = STYLES.iter().find(|(s, _)| *s == style).expect("a style");
    for exe in *exes {
        assert_runs_through_the_stub(&build.join(exe), 13);
    }
    assert_style_specifics(style, &build, &configured, true);
}

/// nvcc-built executables relying on CMake's implicit runtime (no `CUDA::cudart`): they linked
/// no runtime at all when the switch set `CMAKE_CUDA_RUNTIME_LIBRARY` to None (issue 20).
#[test]
fn cmake_two_lines_switch_the_implicit_runtime() {
    two_lines_switch("implicit");
}

/// `CUDA_RUNTIME_LIBRARY Shared` (the toolkit's libcudart.so before) and
/// `CMAKE_CUDA_RUNTIME_LIBRARY Static` both link the stub.
#[test]
fn cmake_two_lines_switch_shared_and_static_runtime() {
    two_lines_switch("runtime_property");
}

/// A C++ executable linking a static library of `.cu` objects links the stub; one without CUDA
/// code is left alone.
#[test]
fn cmake_two_lines_switch_a_cxx_executable_of_cuda_objects() {
    two_lines_switch("cxx_static_lib");
}

/// FindCUDAToolkit's `CUDA_cudart_LIBRARY` and `CUDA_cuda_driver_LIBRARY` linked by name in a
/// subproject with its own `find_package(CUDAToolkit)` (NVIDIA's libNVVM samples) are the stubs.
#[test]
fn cmake_two_lines_switch_the_toolkit_variables() {
    two_lines_switch("toolkit_variables");
}

/// Separable compilation with dynamic parallelism: the device link keeps `cudadevrt`.
#[test]
fn cmake_two_lines_switch_separable_compilation() {
    two_lines_switch("separable");
}

/// OpenMP for CUDA is still found (CMake's try_compile links the stub) and used.
#[test]
fn cmake_two_lines_keep_openmp_cuda() {
    two_lines_switch("openmp");
}

/// NVIDIA's libraries by bare name on C and CUDA targets and as `-l` options, over a toolkit
/// whose lib64 has NVIDIA's real files: the stubs.
#[test]
fn cmake_two_lines_switch_bare_names() {
    two_lines_switch("bare_names");
}

/// `find_library()` of a stubbed library and a full path to the toolkit's file: the stubs.
#[test]
fn cmake_two_lines_switch_find_library() {
    two_lines_switch("find_library");
}

/// No switched target, built or installed, has the link folder in its `RUNPATH` (issue 38).
#[test]
fn cmake_two_lines_keep_the_link_folder_out_of_runpath() {
    two_lines_switch("runpath");
}

/// The deprecated FindCUDA's `cuda_add_executable` and `CUDA_CUBLAS_LIBRARIES`: the stubs.
#[test]
fn cmake_two_lines_switch_findcuda() {
    two_lines_switch("findcuda");
}

/// `CUDA::cudart_static` is the stub.
#[test]
fn cmake_two_lines_switch_cudart_static() {
    two_lines_switch("cudart_static");
}

/// `check_language(CUDA)` and `enable_language(CUDA)` after the switch: CMake's CUDA compiler
/// check and `check_source_compiles(CUDA)` link the stub.
#[test]
fn cmake_two_lines_then_check_language() {
    two_lines_switch("check_language");
}

/// Every style in one unedited project (`tests/cmake/styles/CMakeLists.txt`, `ZERO_LINES`),
/// switched by `-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=<cmakedir>/cuda-stubs-switch.cmake` alone.
#[test]
fn cmake_zero_lines_switch_every_style() {
    if memcheck_pass() {
        return;
    }
    let dir = temp_dir("cmake-zero-lines");
    let toolkit = toolkit_from_wheels(&dir);
    let build = dir.join("build");
    let configured = configure_and_build("styles", &build, &toolkit, Switch::ZeroLines, &[]);
    for (style, exes) in STYLES {
        let style_dir = build.join(style);
        for exe in *exes {
            assert_runs_through_the_stub(&style_dir.join(exe), 13);
        }
        assert_style_specifics(style, &style_dir, &configured, false);
    }
}

/// A C++ project compiled against the CUDA 12.9 toolkit's headers links `CUDA::cudart` for CUDA
/// 12's cudart ABI, with two lines or none.
#[test]
fn cmake_switch_a_cuda_12_toolkit_for_its_abi() {
    if memcheck_pass() {
        return;
    }
    let dir = temp_dir("cmake-toolkit12");
    let toolkit = toolkit12_from_wheels(&dir);
    for switch in [Switch::TwoLines, Switch::ZeroLines] {
        let build = dir.join(format!("build-{switch:?}"));
        let configured = configure_and_build("toolkit12", &build, &toolkit, switch, &[]);
        assert!(
            configured.contains("-- cuda-stubs cudart ABI: 12 --"),
            "{switch:?}: {configured}"
        );
        assert_runs_through_the_stub(&build.join("toolkit12"), 12);
    }
}

/// Without edits too, an ABI the CUDA compiler's headers contradict fails configuration, when
/// project() enables CUDA (the CUDA rules override), saying why.
#[test]
fn cmake_zero_lines_refuse_an_abi_the_cuda_compiler_contradicts() {
    if memcheck_pass() {
        return;
    }
    let dir = temp_dir("cmake-zero-lines-mismatch");
    let toolkit = toolkit_from_wheels(&dir);
    let (ok, text) = configure(
        "styles/implicit",
        &dir.join("build"),
        &toolkit,
        Switch::ZeroLines,
        &["CUDA_STUBS_CUDART_ABI=12"],
    );
    assert!(!ok, "{text}");
    assert!(
        text.contains(
            "CUDA_STUBS_CUDART_ABI=12, but this project compiles against CUDA 13.x headers"
        ),
        "{text}"
    );
}

/// The mock device from the prefix (issue 37): an unedited C++ CMake project
/// (`tests/cmake/mock_device`: CUDA::cudart, CUDA::cuda_driver, CUDA::nvrtc) switched by
/// `cuda-stubs-switch.cmake`, its ctest tests run under `CUDA_STUBS_MOCK=h200` (the project's own
/// `ENVIRONMENT`): the profile's device, round trips, out of memory, NVIDIA's NVRTC 13.5 compiling
/// the kernel that the mock loads (its PTX made a CUBIN by nvJitLink: ISA 9.5 on the profile's
/// CUDA 13.0 driver) and launches, and an injected fault. The executable needs the stubs only.
#[test]
fn cmake_project_tests_on_the_mock_device() {
    if memcheck_pass() {
        return;
    }
    let dir = temp_dir("cmake-mock-device");
    let toolkit = toolkit_from_wheels(&dir);
    let build = dir.join("build");
    configure_and_build("mock_device", &build, &toolkit, Switch::ZeroLines, &[]);
    let exe = build.join("mock_device");
    let needed = needed(&exe);
    for lib in [
        "libstubs_cudart.so",
        "libstubs_cuda.so",
        "libstubs_nvrtc.so",
    ] {
        assert!(needed.iter().any(|n| n == lib), "no {lib}: {needed:?}");
    }
    assert!(
        !needed.iter().any(|n| is_nvidia(n)),
        "an NVIDIA library: {needed:?}"
    );
    let cuda = cuda_layout(13);
    let mut ctest = Command::new("ctest");
    ctest
        .arg("--test-dir")
        .arg(&build)
        .arg("--output-on-failure")
        .arg("-V")
        .env_remove("LD_LIBRARY_PATH")
        .env("CUDA_STUBS_NVRTC_PATH", &cuda.nvrtc)
        .env(
            "CUDA_STUBS_NVJITLINK_PATH",
            cuda.nvjitlink.as_ref().expect("13.5's nvJitLink"),
        );
    let out = check(ctest);
    for line in [
        "device 0: NVIDIA H200, sm_90",
        "ok: the name is NVIDIA H200",
        "ok: cuLaunchKernel: 0",
        "ok: past the device's memory: rc=2",
        "ok: injected: cudaMalloc rc=2",
        "100% tests passed, 0 tests failed out of 2",
    ] {
        assert!(out.contains(line), "no `{line}`:\n{out}");
    }
}

/// cudarc from the registry on the mock device (issue 37): `tests/cudarc`, a crate as a cudarc
/// project writes it (its `dynamic-linking` feature, CUDA 13.0's bindings), linked to the stubs by
/// the prefix's link folder (`-L <prefix>/lib/cuda-stubs-link/abi13`: cudarc's `-lcuda`,
/// `-lnvrtc`), its `cargo test` run under `CUDA_STUBS_MOCK=h200` with NVIDIA's NVRTC and
/// nvJitLink 13.5 real: the profile's device, round trips, a kernel compiled, loaded and launched,
/// out of memory; then its fault test under `CUDA_STUBS_FAULT`. Needs crates.io (CI has it).
#[test]
fn cudarc_from_the_registry_tests_on_the_mock_device() {
    if memcheck_pass() {
        return;
    }
    let target = temp_dir("cudarc").join("target");
    let lib = prefix().join("lib");
    let linkdir = lib.join("cuda-stubs-link/abi13");
    let cuda = cuda_layout(13);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let cargo_test = |test: &str, fault: Option<&str>| {
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(workspace_root().join("tests/cudarc"))
            .args(["test", "--locked", "--test", test, "--target-dir"])
            .arg(&target)
            // The outer `cargo test`'s flags are not this crate's.
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("CARGO_TARGET_DIR")
            .env(
                "RUSTFLAGS",
                format!(
                    "-L native={} -C link-arg=-Wl,-rpath,{}",
                    linkdir.display(),
                    lib.display()
                ),
            )
            .env_remove("LD_LIBRARY_PATH")
            .env("CUDA_STUBS_MOCK", "h200")
            .env("CUDA_STUBS_NVRTC_PATH", &cuda.nvrtc)
            .env(
                "CUDA_STUBS_NVJITLINK_PATH",
                cuda.nvjitlink.as_ref().expect("13.5's nvJitLink"),
            );
        if let Some(rule) = fault {
            cmd.env("CUDA_STUBS_FAULT", rule);
        }
        let out = run(cmd);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success(),
            "cudarc's `cargo test --test {test}`:\n{text}"
        );
        text
    };
    let device = cargo_test("device", None);
    assert!(device.contains("test result: ok. 4 passed"), "{device}");
    let fault = cargo_test("fault", Some("cuMemAllocAsync=2@1"));
    assert!(fault.contains("test result: ok. 1 passed"), "{fault}");
}

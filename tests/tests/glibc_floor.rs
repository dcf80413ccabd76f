//! The stubs load wherever NVIDIA's own wheels load: glibc 2.17 (manylinux2014), x86-64 and
//! aarch64 (issue 21). Built on this machine's glibc 2.36, every stub must still reference no
//! symbol version above `GLIBC_2.17` (`stub-loader/src/os/linux/glibc.rs` pins the ones glibc 2.34
//! moved into libc.so.6) and need only libraries every glibc ships; and a program built against an
//! older glibc (Debian 11's 2.31, from `scripts/fetch-old-glibc.py`) must load the stubs and
//! reach NVIDIA's real libraries through them. Run natively and, for aarch64, under qemu-user
//! (`scripts/test-aarch64.sh`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use stubs_tests::{
    MOCK_PACKAGE, build_stubs, compile_c, cuda_layout, dynamic, emulator, stubs_dir,
    symbol_versions, target_arch, workspace_root,
};

/// manylinux2014's glibc.
const FLOOR: (u32, u32) = (2, 17);

/// Every stub file of this target: each spec'd library's, the link-time stub, and the mock
/// device (shipped beside them, so held to the same floor).
fn stub_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = stub_model::libraries::ALL
        .iter()
        .flat_map(|lib| [Some(lib.crate_name.to_string()), lib.link_stub_crate()])
        .flatten()
        .map(|name| stubs_dir().join(format!("lib{}.so", name.replace('-', "_"))))
        .collect();
    files.push(mock_file());
    files
}

/// The mock device's file, built beside the stubs.
fn mock_file() -> PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| build_stubs(&[MOCK_PACKAGE]).join("libcuda_stubs_mock.so"))
        .clone()
}

/// The link-time stubs' files (`libstubs_cudart_abi12.so`): what programs link to record an
/// older ABI, never loaded to run.
fn link_time_stubs() -> Vec<PathBuf> {
    stub_model::libraries::ALL
        .iter()
        .filter_map(|lib| lib.link_stub_crate())
        .map(|name| stubs_dir().join(format!("lib{}.so", name.replace('-', "_"))))
        .collect()
}

/// `GLIBC_2.2.5` → (2, 2); `None` for another version node.
fn glibc_version(node: &str) -> Option<(u32, u32)> {
    let mut parts = node.strip_prefix("GLIBC_")?.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// The base symbol version of this architecture's glibc: what `dlopen` is bound to.
fn base_version() -> &'static str {
    match target_arch() {
        "aarch64" => "GLIBC_2.17",
        _ => "GLIBC_2.2.5",
    }
}

#[test]
fn glibc_version_parses() {
    assert_eq!(glibc_version("GLIBC_2.2.5"), Some((2, 2)));
    assert_eq!(glibc_version("GLIBC_2.34"), Some((2, 34)));
    assert!(glibc_version("GLIBC_2.34") > Some(FLOOR));
    assert_eq!(glibc_version("CUDA_STUBS_CUDART_12"), None);
}

/// No version reference above 2.17, `dlopen` at the base version (the pin itself: glibc 2.34+
/// would record `dlopen@GLIBC_2.34`), and `DT_NEEDED` only on libc, libdl and libpthread.
#[test]
fn every_stub_needs_at_most_glibc_2_17() {
    let allowed = ["libc.so.6", "libdl.so.2", "libpthread.so.0"];
    for file in stub_files() {
        let versions = symbol_versions::read(&file);
        let name = file.display();
        let glibc: Vec<_> = versions
            .needed
            .iter()
            .filter_map(|(symbol, node, _)| Some((symbol, node, glibc_version(node)?)))
            .collect();
        let over: Vec<_> = glibc
            .iter()
            .filter(|(_, _, v)| *v > FLOOR)
            .map(|(symbol, node, _)| format!("{symbol}@{node}"))
            .collect();
        assert!(over.is_empty(), "{name} needs glibc above 2.17: {over:?}");
        let needed = dynamic::needed(&file);
        assert!(
            needed.iter().all(|n| allowed.contains(&n.as_str())),
            "{name} DT_NEEDED: {needed:?}"
        );
        // The link-time stubs call nothing (on aarch64 compiler-builtins' outline atomics still
        // reference `getauxval@GLIBC_2.17`), and the mock loads nothing: only the runtime stubs
        // load libraries.
        if !link_time_stubs().contains(&file) && file != mock_file() {
            assert_eq!(versions.needs("dlopen"), Some(base_version()), "{name}");
            assert_eq!(needed, allowed, "{name}");
        }
    }
}

/// Debian 11's glibc 2.31 for this architecture, unpacked by `scripts/fetch-old-glibc.py`
/// (fetched once per test process; a failed fetch fails the test).
fn old_glibc() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let out = Command::new("python3")
            .arg(workspace_root().join("scripts/fetch-old-glibc.py"))
            .args(["--arch", target_arch()])
            .output()
            .expect("run python3 scripts/fetch-old-glibc.py");
        assert!(
            out.status.success(),
            "fetch-old-glibc.py failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
    })
}

/// The multiarch folder name and the dynamic loader of the old root.
fn old_glibc_layout() -> (String, &'static str) {
    let multiarch = format!("{}-linux-gnu", target_arch());
    let interp = match target_arch() {
        "aarch64" => "lib/ld-linux-aarch64.so.1",
        _ => "lib64/ld-linux-x86-64.so.2",
    };
    (multiarch, interp)
}

fn arg(parts: &[&dyn AsRef<std::ffi::OsStr>]) -> OsString {
    let mut s = OsString::new();
    for p in parts {
        s.push(p.as_ref());
    }
    s
}

/// `tests/c/probe.c` compiled and linked against the old glibc (`--sysroot`, its start files
/// and libraries, its dynamic loader as the program's interpreter) and linked to the stubs as
/// everywhere else. `--allow-shlib-undefined`: the old libdl and libpthread need libc's
/// `GLIBC_PRIVATE` symbols, which the linker would look up in this machine's libc.
fn old_glibc_probe() -> PathBuf {
    let root = old_glibc();
    let (multiarch, interp) = old_glibc_layout();
    let usr_lib = root.join("usr/lib").join(&multiarch);
    let stubs = stubs_dir();
    let args = [
        arg(&[&"--sysroot=", &root]),
        arg(&[&"-B", &usr_lib]),
        arg(&[&"-L", &usr_lib]),
        arg(&[&"-L", &root.join("lib").join(&multiarch)]),
        arg(&[&"-Wl,--dynamic-linker=", &root.join(interp)]),
        "-Wl,--allow-shlib-undefined".into(),
        arg(&[&"-L", &stubs]),
        "-lstubs_cudart".into(),
        "-lstubs_nvrtc".into(),
        "-lstubs_cuda".into(),
        arg(&[&"-Wl,-rpath,", &stubs]),
        "-ldl".into(),
        "-pthread".into(),
    ];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
    let exe = compile_c("probe-glibc-2.31", &[Path::new("c/probe.c")], &args);
    // Built against 2.31: nothing above it, so the run below is the stubs' test, not the
    // program's.
    let over: Vec<_> = symbol_versions::read(&exe)
        .needed
        .into_iter()
        .filter(|(_, node, _)| glibc_version(node) > Some((2, 31)))
        .collect();
    assert!(over.is_empty(), "the probe needs a newer glibc: {over:?}");
    exe
}

/// Under glibc 2.31 (below 2.34, where the functions the stubs pin moved into libc.so.6): the
/// three stubs load, bind NVIDIA's real runtime and NVRTC of 11.8, 12.9 and 13.5, NVRTC
/// compiles a kernel to PTX, and a refusal (a function the loaded runtime lacks) reaches the
/// per-thread last error (`pthread_key_create`, `pthread_setspecific`). Not under valgrind:
/// memcheck would need its suppressions for that glibc, and the scenario tests loading.
#[test]
fn stubs_run_under_glibc_2_31() {
    let exe = old_glibc_probe();
    let root = old_glibc();
    let (multiarch, _) = old_glibc_layout();
    for major in [11, 12, 13] {
        let layout = cuda_layout(major);
        // Absent from that major: added in 12.0 / removed in 12.0.
        let absent = if major == 11 {
            "cudaGraphInstantiateWithParams"
        } else {
            "cudaBindTexture"
        };
        let ptx = stubs_tests::temp_dir(&format!("glibc-2.31-{major}")).join("k.ptx");
        let mut dirs = vec![
            root.join("lib").join(&multiarch),
            root.join("usr/lib").join(&multiarch),
        ];
        dirs.extend(layout.lib_dirs());
        let mut cmd = match emulator() {
            Some(mut c) => {
                c.arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        cmd.args([
            "cudaRuntimeGetVersion".into(),
            "nvrtcVersion".into(),
            format!("nvrtc-compile:compute_80:ptx:{}", ptx.display()),
            format!("call:libstubs_cudart.so:{absent}"),
            "lasterror".into(),
            "status:cudart".into(),
        ])
        .env(
            "LD_LIBRARY_PATH",
            std::env::join_paths(&dirs).expect("join"),
        );
        let out = stubs_tests::run(cmd);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let report = format!("CUDA {major} under glibc 2.31:\n{stdout}{stderr}");
        assert!(out.status.success(), "{report}");
        let code = layout.version_code();
        let (maj, min) = (code / 1000, (code % 1000) / 10);
        // 11.8's cudaRuntimeGetVersion asks the driver (none here: 35); 12.x and 13.x answer.
        let runtime = if major == 11 {
            "cudaRuntimeGetVersion rc=35 out=-7777".to_string()
        } else {
            format!("cudaRuntimeGetVersion rc=0 out={code}")
        };
        for line in [
            runtime,
            format!("nvrtcVersion rc=0 out={maj}.{min}"),
            "nvrtcCompileProgram rc=0".into(),
            format!("{absent} rc=801"),
            format!("status cudart path={}", layout.cudart.display()),
        ] {
            assert!(stdout.lines().any(|l| l == line), "no `{line}`: {report}");
        }
        // The runtime's own sticky 35 (no driver) wins over the stub's 801: never success.
        assert!(
            stdout
                .lines()
                .any(|l| l == "lasterror peek=35 get=35 get=35"),
            "{report}"
        );
        let text = std::fs::read_to_string(&ptx).expect("PTX written");
        assert!(text.contains(".entry vector_add("), "{text}");
    }
}

/// Under glibc 2.31 the mock device answers through the stubs (`CUDA_STUBS_MOCK=h200`, beside
/// them): its locks and per-thread words are the loader's pinned calls, which glibc < 2.34
/// defines in libpthread.so.0, so a failing call's last error is the test of them.
#[test]
fn the_mock_runs_under_glibc_2_31() {
    let exe = old_glibc_probe();
    let root = old_glibc();
    let (multiarch, _) = old_glibc_layout();
    assert_eq!(mock_file().parent(), Some(stubs_dir()));
    let dirs = [
        root.join("lib").join(&multiarch),
        root.join("usr/lib").join(&multiarch),
    ];
    let mut cmd = match emulator() {
        Some(mut c) => {
            c.arg(&exe);
            c
        }
        None => Command::new(&exe),
    };
    // cudaMemGetInfo(NULL, NULL): cudaErrorInvalidValue (1), the thread's last error.
    cmd.args([
        "cudaGetDeviceCount",
        "cudaDriverGetVersion",
        "call:libstubs_cudart.so:cudaMemGetInfo",
        "lasterror",
        "status:cudart",
    ])
    .env("CUDA_STUBS_MOCK", "h200")
    .env(
        "LD_LIBRARY_PATH",
        std::env::join_paths(&dirs).expect("join"),
    );
    let out = stubs_tests::run(cmd);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = format!(
        "the mock under glibc 2.31:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{report}");
    let mock = mock_file();
    for line in [
        "cudaGetDeviceCount rc=0 out=1".to_string(),
        "cudaDriverGetVersion rc=0 out=13000".into(),
        "cudaMemGetInfo rc=1".into(),
        "lasterror peek=1 get=1 get=0".into(),
        format!("status cudart path={}", mock.display()),
    ] {
        assert!(stdout.lines().any(|l| l == line), "no `{line}`: {report}");
    }
}

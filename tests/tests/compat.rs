//! The compatibility libraries (`lib/cuda-stubs-compat/`, issue 31): `libcudart.so.12`,
//! `libcudart.so.13`, `libnvrtc.so.12` and `libnvrtc.so.13` under NVIDIA's sonames and version
//! nodes, forwarding into the one stub of the process.
//!
//! - each file: NVIDIA's SONAME, one version node of that name, exactly the functions NVIDIA's
//!   library of that major exports (12.9's, 13.5's), each `name@@soname`, `DT_NEEDED` the stub
//!   with `RUNPATH $ORIGIN/..`;
//! - binaries nobody rebuilds: `tests/c/abi_versions_calls.c` compiled against the 12.9 headers
//!   and linked against NVIDIA's own `libcudart.so.12`, and against the 13.5 headers and
//!   NVIDIA's `libcudart.so.13` (plus `tests/c/compat_nvrtc_calls.c` against each NVRTC), in one
//!   process with only one runtime (the mock 11.x / 12.x / 13.x runtimes with each major's real
//!   prototypes, then NVIDIA's 11.8 / 12.9 / 13.5 wheels), the compatibility folder on
//!   `LD_LIBRARY_PATH` before or after the runtime's own folder: every value lands where the
//!   binary's own header put it (the same expectations as `abi_versions.rs`, whose libraries
//!   link the stubs), and exactly one real runtime and one real NVRTC are mapped — never the
//!   compatibility file of the runtime's own major when the runtime is found first.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::symbol_versions::{self, Export};
use stubs_tests::versioned_calls::{assert_calls, expected_on_mock};
use stubs_tests::{
    Layout, Outcome, Scenario, compile_c, cross_target, cuda_include_args, cuda_layout, mock,
    stubs_dir, workspace_root,
};

/// The compatibility files codegen lists (`packaging/cmake/cuda-stubs-compat.cmake`): cargo
/// package, cdylib file, NVIDIA soname.
fn compat_files() -> Vec<(String, String, String)> {
    let path = workspace_root().join("packaging/cmake/cuda-stubs-compat.cmake");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let list = |var: &str| -> Vec<String> {
        let start = format!("set({var} ");
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix(start.as_str()))
            .unwrap_or_else(|| panic!("{}: no {var}", path.display()));
        line.trim_end_matches(')')
            .split_whitespace()
            .map(|w| w.trim_matches('"').to_owned())
            .collect()
    };
    let crates = list("cuda-stubs_COMPAT_CRATES");
    let files = list("cuda-stubs_COMPAT_FILES");
    assert_eq!(crates.len(), files.len());
    crates
        .into_iter()
        .zip(files)
        .map(|(krate, pair)| {
            let (file, soname) = pair.split_once('|').expect("file|soname");
            (krate, file.to_owned(), soname.to_owned())
        })
        .collect()
}

/// `<stubs_dir>/cuda-stubs-compat/`: the compatibility crates built with the stubs' profile and
/// target, each copied under its soname, as the wheel and the prefix install them (the folder
/// in the stubs' `lib/`, their RUNPATH `$ORIGIN/..`). Once per test process.
fn compat_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let stubs = stubs_dir();
        let target_dir = if cross_target().is_some() {
            stubs.parent().and_then(Path::parent)
        } else {
            stubs.parent()
        }
        .expect("the stubs' target dir");
        let files = compat_files();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
        let mut cmd = std::process::Command::new(cargo);
        cmd.current_dir(workspace_root()).args(["build", "--quiet"]);
        for (krate, _, _) in &files {
            cmd.args(["-p", krate]);
        }
        cmd.arg("--target-dir").arg(target_dir);
        if let Some(target) = cross_target() {
            cmd.args(["--target", target]);
        }
        if stubs.file_name() == Some(OsStr::new("release")) {
            cmd.arg("--release");
        }
        let status = cmd
            .status()
            .expect("run cargo build for the compatibility libraries");
        assert!(status.success(), "building them failed: {cmd:?}");
        let dir = stubs.join("cuda-stubs-compat");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).expect("clear the compatibility folder");
        }
        for (_, file, soname) in &files {
            stubs_tests::copy(&stubs.join(file), &dir.join(soname));
        }
        dir
    })
}

/// `SONAME`, `RUNPATH` and `NEEDED` entries of an ELF file's dynamic section, as text.
fn dynamic_entries(path: &Path) -> Vec<String> {
    use object::read::elf::{Dyn, ElfFile64, FileHeader};
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = ElfFile64::<object::Endianness>::parse(&*data).expect("ELF64");
    let endian = file.endian();
    let sections = file
        .elf_header()
        .sections(endian, &*data)
        .expect("sections");
    let (dynamic, strtab) = sections
        .dynamic(endian, &*data)
        .expect("read .dynamic")
        .expect(".dynamic");
    let strings = sections.strings(endian, &*data, strtab).expect("strings");
    dynamic
        .iter()
        .filter_map(|d| {
            let tag = match d.tag32(endian)? {
                object::elf::DT_SONAME => "SONAME",
                object::elf::DT_RUNPATH => "RUNPATH",
                object::elf::DT_NEEDED => "NEEDED",
                _ => return None,
            };
            let value = d.string(endian, strings).ok()?;
            Some(format!("{tag} {}", String::from_utf8_lossy(value)))
        })
        .collect()
}

/// NVIDIA's library `soname` of CUDA `major` (the cached wheels).
fn nvidia_library(soname: &str, major: u32) -> PathBuf {
    let layout = cuda_layout(major);
    if soname.starts_with("libcudart") {
        layout.cudart
    } else {
        layout.nvrtc
    }
}

/// NVML's (`libnvidia-ml.so.1`, in no wheel: it ships with the driver): exactly the checked-in
/// export list of the driver's library (`tests/data/libnvidia-ml-580.159.04-exports.txt`, the
/// spec's `ExportSource::List`), each `name@@libnvidia-ml.so.1`, `DT_NEEDED libstubs_nvml.so`.
#[test]
fn the_nvml_compatibility_library_exports_the_drivers_list() {
    let soname = "libnvidia-ml.so.1";
    assert!(compat_files().iter().any(|(_, _, s)| s == soname));
    let list = std::fs::read_to_string(
        workspace_root().join("tests/data/libnvidia-ml-580.159.04-exports.txt"),
    )
    .expect("the driver's export list");
    let mut want: Vec<&str> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    want.sort_unstable();
    let compat = compat_dir().join(soname);
    let ours = symbol_versions::read(&compat);
    let mut got: Vec<&str> = ours.exports.keys().map(String::as_str).collect();
    got.sort_unstable();
    assert_eq!(got, want, "{soname}: the exports");
    let node = Export {
        node: Some(soname.to_owned()),
        default: true,
    };
    for (name, exports) in &ours.exports {
        assert_eq!(exports, std::slice::from_ref(&node), "{soname}: {name}");
    }
    let dynamic = dynamic_entries(&compat);
    for entry in [
        format!("SONAME {soname}"),
        "NEEDED libstubs_nvml.so".to_owned(),
        "RUNPATH $ORIGIN/..".to_owned(),
    ] {
        assert!(dynamic.contains(&entry), "{soname}: {dynamic:?}");
    }
}

#[test]
fn each_compatibility_library_carries_nvidias_soname_node_and_exports() {
    let dir = compat_dir();
    // The runtime's and NVRTC's, each of a major a wheel has (NVML's: the test above).
    let files: Vec<_> = compat_files()
        .into_iter()
        .filter(|(_, _, soname)| soname != "libnvidia-ml.so.1")
        .collect();
    assert_eq!(files.len(), 4, "{files:?}");
    for (_, _, soname) in &files {
        let major: u32 = soname
            .rsplit('.')
            .next()
            .and_then(|m| m.parse().ok())
            .expect("a major");
        let compat = dir.join(soname);
        let nvidia = symbol_versions::read(&nvidia_library(soname, major));
        let ours = symbol_versions::read(&compat);
        assert_eq!(
            ours.defined.values().collect::<Vec<_>>(),
            [soname],
            "{soname}: one version node, NVIDIA's"
        );
        assert_eq!(
            nvidia.defined.values().collect::<Vec<_>>(),
            [soname],
            "NVIDIA's {soname}"
        );
        let want = Export {
            node: Some(soname.clone()),
            default: true,
        };
        for (name, exports) in &nvidia.exports {
            assert_eq!(
                exports,
                std::slice::from_ref(&want),
                "NVIDIA's {soname}: {name}"
            );
            assert_eq!(
                ours.exports.get(name).map(Vec::as_slice),
                Some(&[want.clone()][..]),
                "{soname}: {name}"
            );
        }
        // Nothing else but the two markers (data, so not in `exports`, which lists functions).
        let extra: Vec<&String> = ours
            .exports
            .keys()
            .filter(|n| !nvidia.exports.contains_key(*n))
            .collect();
        assert!(extra.is_empty(), "{soname}: {extra:?}");
        let stub = if soname.starts_with("libcudart") {
            "libstubs_cudart.so"
        } else {
            "libstubs_nvrtc.so"
        };
        let dynamic = dynamic_entries(&compat);
        for entry in [
            format!("SONAME {soname}"),
            format!("NEEDED {stub}"),
            "RUNPATH $ORIGIN/..".to_owned(),
        ] {
            assert!(dynamic.contains(&entry), "{soname}: {dynamic:?}");
        }
        assert!(
            !dynamic
                .iter()
                .any(|d| d.starts_with("NEEDED libcudart") || d.starts_with("NEEDED libnvrtc")),
            "{soname}: {dynamic:?}"
        );
    }
}

/// `GLIBC_2.2.5` → (2, 2); `None` for another version node.
fn glibc_version(node: &str) -> Option<(u32, u32)> {
    let mut parts = node.strip_prefix("GLIBC_")?.split('.');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// The compatibility files keep the stubs' glibc floor (2.17, `docs/src/glibc-floor.md`): they
/// reach the stub through the loader's own libdl calls (`stub_loader::ForwardTarget`), bound to
/// glibc's base version, and need no symbol version above 2.17.
#[test]
fn each_compatibility_library_needs_at_most_glibc_2_17() {
    let base = match stubs_tests::target_arch() {
        "aarch64" => "GLIBC_2.17",
        _ => "GLIBC_2.2.5",
    };
    for (_, _, soname) in compat_files() {
        let versions = symbol_versions::read(&compat_dir().join(&soname));
        for name in ["dlopen", "dlsym", "dlvsym"] {
            assert_eq!(versions.needs(name), Some(base), "{soname}: {name}");
        }
        let over: Vec<String> = versions
            .needed
            .iter()
            .filter(|(_, node, _)| glibc_version(node).is_some_and(|v| v > (2, 17)))
            .map(|(symbol, node, _)| format!("{symbol}@{node}"))
            .collect();
        assert!(over.is_empty(), "{soname} needs glibc above 2.17: {over:?}");
    }
}

/// The four libraries nobody rebuilds and the program loading them, once per test process.
fn program() -> &'static PathBuf {
    &built().0
}

/// The program and its four libraries (`libcalls12.so`, `libnvrtccalls12.so`, `libcalls13.so`,
/// `libnvrtccalls13.so`), once per test process.
fn built() -> &'static (PathBuf, Vec<PathBuf>) {
    static BUILT: OnceLock<(PathBuf, Vec<PathBuf>)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let mut libs = Vec::new();
        for major in [12, 13] {
            let layout = cuda_layout(major);
            let link = |name: &str, source: &str, nvidia: &Path, defines: &[String]| {
                let mut args = cuda_include_args(major);
                args.extend(defines.iter().map(OsString::from));
                args.extend(["-shared".into(), "-fPIC".into(), "-ldl".into()]);
                // NVIDIA's own library, as a build against the toolkit links it.
                args.push(nvidia.as_os_str().to_owned());
                let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
                compile_c(name, &[Path::new(source)], &refs)
            };
            libs.push(link(
                &format!("libcalls{major}.so"),
                "c/abi_versions_calls.c",
                &layout.cudart,
                &[],
            ));
            libs.push(link(
                &format!("libnvrtccalls{major}.so"),
                "c/compat_nvrtc_calls.c",
                &layout.nvrtc,
                &[
                    format!("-DCALLS=nvrtc_calls{major}"),
                    format!("-DTAG=\"{major}\""),
                ],
            ));
        }
        let mut args: Vec<OsString> = Vec::new();
        for lib in &libs {
            let dir = lib.parent().expect("library folder");
            args.push(format!("-L{}", dir.display()).into());
            args.push(format!("-Wl,-rpath,{}", dir.display()).into());
        }
        // The link checks the libraries' own needs: NVIDIA's files, found here by path.
        for major in [12, 13] {
            for dir in cuda_layout(major).lib_dirs() {
                args.push(format!("-Wl,-rpath-link,{}", dir.display()).into());
            }
        }
        // --no-as-needed: main's references are weak (compat_main.c).
        args.extend([
            "-Wl,--no-as-needed".into(),
            "-lcalls12".into(),
            "-lcalls13".into(),
            "-lnvrtccalls12".into(),
            "-lnvrtccalls13".into(),
            "-ldl".into(),
        ]);
        let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        let exe = compile_c("compat", &[Path::new("c/compat_main.c")], &refs);
        (exe, libs)
    })
}

#[test]
fn the_libraries_record_nvidias_sonames_and_versions() {
    let (_, libs) = built();
    for (major, path) in [(12, &libs[0]), (13, &libs[2])] {
        let versions = symbol_versions::read(path);
        let soname = format!("libcudart.so.{major}");
        assert_eq!(versions.needs("cudaMemAdvise"), Some(soname.as_str()));
        assert!(
            stubs_tests::dynamic::needed(path).contains(&soname),
            "{}",
            path.display()
        );
    }
}

/// The `mapped <kind> <path>` lines of a run: `(kind, path)`.
fn mapped(run: &Outcome) -> Vec<(&str, &str)> {
    run.stdout
        .lines()
        .filter_map(|l| l.strip_prefix("mapped "))
        .filter_map(|l| l.split_once(' '))
        .collect()
}

/// Exactly one real runtime and one real NVRTC, both from `real_dirs`; every compatibility
/// file from the compatibility folder, and one stub of each.
fn assert_one_real_each(run: &Outcome, real_dirs: &[PathBuf]) {
    let objects = mapped(run);
    let real: Vec<&str> = objects
        .iter()
        .filter(|(k, _)| *k == "real")
        .map(|(_, p)| *p)
        .collect();
    for lib in ["libcudart.so", "libnvrtc.so"] {
        let of_lib: Vec<&&str> = real.iter().filter(|p| p.contains(lib)).collect();
        assert_eq!(of_lib.len(), 1, "one real {lib}: {run}");
        let dir = Path::new(of_lib[0]).parent().expect("folder");
        assert!(
            real_dirs.iter().any(|d| d == dir),
            "{}: {run}",
            dir.display()
        );
    }
    // Besides them, only NVRTC's builtins (preloaded from the bound NVRTC's folder).
    let others: Vec<&&str> = real
        .iter()
        .filter(|p| !p.contains("libcudart.so") && !p.contains("libnvrtc.so"))
        .collect();
    assert!(
        others.iter().all(|p| p.contains("libnvrtc-builtins.so")),
        "{run}"
    );
    for (kind, path) in &objects {
        match *kind {
            "compat" => assert_eq!(Path::new(path).parent(), Some(compat_dir()), "{run}"),
            "stub" => assert!(path.contains("libstubs_"), "{run}"),
            "real" => {}
            other => panic!("{other}: {run}"),
        }
    }
    for stub in ["libstubs_cudart.so", "libstubs_nvrtc.so"] {
        let n = objects
            .iter()
            .filter(|(k, p)| *k == "stub" && p.ends_with(stub))
            .count();
        assert_eq!(n, 1, "{stub}: {run}");
    }
}

/// Where the compatibility folder goes on the library path (before or after the runtime's
/// folders) and which header's calls the program makes first.
const ORDERS: [(bool, &str); 4] = [
    (true, "12-first"),
    (true, "13-first"),
    (false, "12-first"),
    (false, "13-first"),
];

/// The runs of one runtime, one per order of `orders` ([`ORDERS`] or some of them).
fn runs(real_dirs: &[PathBuf], orders: &[(bool, &str)]) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for &(compat_first, order) in orders {
        let mut path: Vec<PathBuf> = real_dirs.to_vec();
        if compat_first {
            path.insert(0, compat_dir().to_path_buf());
        } else {
            path.push(compat_dir().to_path_buf());
        }
        let run = Scenario::new(program())
            .arg_path(order)
            .library_path(&path)
            .debug()
            .run();
        run.assert_success();
        out.push((format!("compat first: {compat_first}, {order}"), run));
    }
    out
}

/// The mock runtime and NVRTC of `major` (`tests/mocks/`, as `build.rs` builds `mock-<major>/`)
/// with NVIDIA's version node (`libcudart.so.12 { global: *; };`), once per test process.
///
/// Why not the shared mocks: those define no version, and glibc lets an object without
/// versions satisfy any versioned reference. With the mock 12.x runtime first on the path, the
/// library linked against NVIDIA's `libcudart.so.13` would bind `cudaMemAdvise@libcudart.so.13`
/// to the mock's 12.x `cudaMemAdvise` (global scope, first match) instead of its own
/// `DT_NEEDED`, the compatibility file; NVIDIA's runtimes define their node, as these do.
fn versioned_mock(major: u32) -> PathBuf {
    static DIRS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    let dirs = DIRS.get_or_init(|| {
        [11, 12, 13]
            .into_iter()
            .map(|major| {
                let dir = stubs_tests::temp_dir(&format!("versioned-mock-{major}"));
                let shared = mock(&format!("mock-{major}"));
                for (soname, sources) in [
                    (
                        "libcudart.so.",
                        &[
                            "mocks/cudart.c",
                            "mocks/cudart_abi.c",
                            "mocks/cudart_launch.c",
                        ][..],
                    ),
                    ("libnvrtc.so.", &["mocks/nvrtc.c"][..]),
                ] {
                    // The shared mock's file name: the soname of that major.
                    let soname = std::fs::read_dir(&shared)
                        .expect("list the mock")
                        .filter_map(Result::ok)
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .find(|n| n.starts_with(soname))
                        .expect("the mock's file");
                    let script = dir.join(format!("{soname}.map"));
                    std::fs::write(&script, format!("{soname} {{ global: *; }};\n"))
                        .expect("write the version script");
                    let sources: Vec<&Path> = sources.iter().map(Path::new).collect();
                    let built = compile_c(
                        &soname,
                        &sources,
                        &[
                            "-shared".as_ref(),
                            "-fPIC".as_ref(),
                            "-std=gnu11".as_ref(),
                            format!("-DMOCK_MAJOR={major}").as_ref(),
                            format!("-Wl,-soname,{soname}").as_ref(),
                            format!("-Wl,--version-script={}", script.display()).as_ref(),
                        ],
                    );
                    stubs_tests::copy(&built, &dir.join(&soname));
                }
                dir
            })
            .collect()
    });
    dirs[usize::try_from(major - 11).expect("11, 12 or 13")].clone()
}

#[test]
fn both_headers_reach_each_mock_runtime_through_the_compatibility_libraries() {
    for major in [11, 12, 13] {
        let dir = versioned_mock(major);
        let minor = match major {
            11 => 8,
            12 => 9,
            _ => 0,
        };
        for (what, run) in runs(std::slice::from_ref(&dir), &ORDERS) {
            assert_calls(&run, &expected_on_mock(major));
            for tag in [12, 13] {
                run.assert_line(&format!("nvrtc{tag}.version=0 {major}.{minor}"));
                run.assert_line(&format!("nvrtc{tag}.compile=0 ptx=// mock ptx {major}"));
            }
            assert_one_real_each(&run, std::slice::from_ref(&dir));
            let bound = run.bound("cudart");
            assert!(
                bound.starts_with(&format!("bound {}/libcudart.so.{major}", dir.display())),
                "{what}: {run}"
            );
            // A compatibility file the search met is named for what it is.
            if what.starts_with("compat first: true") && major != 11 {
                assert!(
                    run.debug("cudart").iter().any(|l| l.contains(
                        "is cuda-stubs' compatibility library of CUDA 13 (it forwards to the stub)"
                    )),
                    "{what}: {run}"
                );
            }
            assert!(
                run.debug("cudart-compat")
                    .iter()
                    .any(|l| l.contains("is cuda-stubs' compatibility library")),
                "{what}: {run}"
            );
        }
    }
}

/// The real libraries' folders of one wheel layout.
fn real_dirs(layout: &Layout) -> Vec<PathBuf> {
    layout.lib_dirs()
}

/// On NVIDIA's runtimes (no GPU, no driver) each runtime call returns the runtime's own answer
/// (never the stub's 34 or refusal 801), NVRTC compiles with the bound NVRTC, and one real copy
/// of each is mapped.
#[test]
fn both_headers_reach_nvidias_runtimes_through_the_compatibility_libraries() {
    let keys = ["advise", "deps", "capture", "props", "signal"];
    // Under memcheck one order per runtime (`variants`): the mock runtimes' test above runs
    // every order under memcheck, at about a second a run; each run here takes ~25 s there.
    for (turn, major) in [11, 12, 13].into_iter().enumerate() {
        let layout = cuda_layout(major);
        let dirs = real_dirs(&layout);
        for (what, run) in runs(&dirs, &stubs_tests::variants(&ORDERS, turn)) {
            assert_one_real_each(&run, &dirs);
            assert!(
                run.bound("cudart")
                    .starts_with(&format!("bound {}", layout.cudart.display())),
                "{what}: {run}"
            );
            for tag in ["12", "13"] {
                for key in keys {
                    let line = run.line(&format!("{tag}.{key}"));
                    let rc: i32 = line[tag.len() + key.len() + 2..]
                        .split_whitespace()
                        .next()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or_else(|| panic!("{line}: {run}"));
                    assert!(
                        rc != 0 && rc != 34 && rc != 801,
                        "{what}: {tag}.{key} on CUDA {major}: {rc} is not the runtime's own \
                         error: {run}"
                    );
                }
                run.assert_line(&format!("nvrtc{tag}.version=0 {}", layout.major_minor()));
                let compile = run.line(&format!("nvrtc{tag}.compile"));
                assert!(
                    compile.starts_with(&format!("nvrtc{tag}.compile=0 ptx=//")),
                    "{run}"
                );
            }
        }
    }
}

/// `cuda_stubs.compat.enable()` (python/cuda_stubs/compat.py), in a Python process whose one
/// runtime is `major`'s (NVIDIA's wheel on `LD_LIBRARY_PATH`): the stub binds it, only the other
/// major's compatibility file is loaded, and a library linked against NVIDIA's runtime of that
/// other major, loaded afterwards (as `import` loads an extension), runs its calls through it.
/// Without `enable()` that library does not load at all. The package is this tree's
/// `python/cuda_stubs` with `lib` the stubs' folder (the wheel's layout). Native only: the
/// host's Python cannot load the target's libraries.
#[test]
fn python_enable_loads_the_other_majors_compatibility_file() {
    if cross_target().is_some() {
        eprintln!("skipped: a cross build's libraries do not load into the host's Python");
        return;
    }
    let (_, libs) = built();
    let package = stubs_tests::temp_dir("compat-python").join("cuda_stubs");
    std::fs::create_dir_all(&package).expect("package folder");
    for entry in std::fs::read_dir(workspace_root().join("python/cuda_stubs")).expect("list") {
        let path = entry.expect("entry").path();
        if path.extension() == Some(OsStr::new("py")) {
            stubs_tests::copy(&path, &package.join(path.file_name().expect("name")));
        }
    }
    compat_dir();
    std::os::unix::fs::symlink(stubs_dir(), package.join("lib")).expect("lib -> the stubs");
    let script = "
import ctypes, sys
import cuda_stubs
lib = sys.argv[1]
if sys.argv[2] == 'plain':
    try:
        ctypes.CDLL(lib)
    except OSError as e:
        print('load failed:', e)
    sys.exit(0)
done = cuda_stubs.compat.enable()
print('enabled', sorted((k, [p.rsplit('/', 1)[1] for p in v]) for k, v in done.items()))
print('again', cuda_stubs.compat.enable())
getattr(ctypes.CDLL(lib), sys.argv[3])()
print('compat loaded', sorted(p.rsplit('/', 1)[1] for p in cuda_stubs.compat.loaded()))
";
    for (major, other, lib, calls) in [
        (13, 12, &libs[0], "calls_cuda12"),
        (12, 13, &libs[2], "calls_cuda13"),
    ] {
        let layout = cuda_layout(major);
        let python = |mode: &str| {
            Scenario::new("python3")
                .args(["-c", script])
                .arg_path(lib)
                .args([mode, calls])
                .env("PYTHONPATH", package.parent().expect("folder"))
                .library_path(layout.lib_dirs())
                .run()
        };
        let run = python("plain");
        run.assert_success();
        assert!(
            run.stdout
                .contains(&format!("load failed: libcudart.so.{other}: cannot open")),
            "{run}"
        );
        let run = python("enable");
        run.assert_success();
        run.assert_line(&format!(
            "enabled [('cudart', ['libcudart.so.{other}']), ('nvrtc', ['libnvrtc.so.{other}'])]"
        ));
        run.assert_line("again {'cudart': [], 'nvrtc': []}");
        run.assert_line(&format!(
            "compat loaded ['libcudart.so.{other}', 'libnvrtc.so.{other}']"
        ));
        for key in ["advise", "deps", "props"] {
            let line = run.line(&format!("{other}.{key}"));
            assert!(!line.contains("=34") && !line.contains("=801"), "{run}");
        }
    }
}

/// A name the stub does not export (a stub older than the compatibility files beside it):
/// the call returns the stub's "absent" status, `cudaErrorNotSupported` (801), and the debug
/// log names it — never a jump through NULL. The stub here is a stand-in exporting only the
/// marker and `cudaGetLastError`, in a copy of the install layout (`lib/`,
/// `lib/cuda-stubs-compat/`).
#[test]
fn a_name_the_stub_lacks_is_refused_with_its_absent_status() {
    let (_, libs) = built();
    let root = stubs_tests::temp_dir("compat-old-stub");
    let source = root.join("old_stub.c");
    std::fs::write(
        &source,
        "unsigned char cuda_stubs_marker = 1;\nint cudaGetLastError(void) { return 0; }\n",
    )
    .expect("write the stand-in");
    let old = compile_c(
        "libstubs_cudart.so",
        &[&source],
        &[
            "-shared".as_ref(),
            "-fPIC".as_ref(),
            "-Wl,-soname,libstubs_cudart.so".as_ref(),
        ],
    );
    let lib = root.join("lib");
    stubs_tests::copy(&old, &lib.join("libstubs_cudart.so"));
    let compat = lib.join("cuda-stubs-compat");
    stubs_tests::copy(
        &compat_dir().join("libcudart.so.12"),
        &compat.join("libcudart.so.12"),
    );
    let exe = compile_c(
        "compat_old_stub",
        &[Path::new("c/compat_main.c")],
        &[
            format!("-L{}", libs[0].parent().expect("folder").display()).as_ref(),
            format!("-Wl,-rpath,{}", libs[0].parent().expect("folder").display()).as_ref(),
            format!(
                "-Wl,-rpath-link,{}",
                cuda_layout(12).cudart.parent().expect("folder").display()
            )
            .as_ref(),
            "-Wl,--no-as-needed".as_ref(),
            "-lcalls12".as_ref(),
            "-ldl".as_ref(),
        ],
    );
    let run = Scenario::new(&exe).library_path([&compat]).debug().run();
    run.assert_success();
    for key in ["advise", "deps", "signal"] {
        run.assert_line(&format!("12.{key}=801"));
    }
    let debug = run.debug("cudart-compat");
    assert!(
        debug.iter().any(|l| l
            == &"cudaMemAdvise: not exported by libstubs_cudart.so: refused with the stub's \"absent\" status"),
        "{run}"
    );
}

/// Names the stub does not export whose functions return no status (issue 38): each refusal
/// answers in its own return type, never the "absent" status through an `int` read as a
/// pointer. `__cudaRegisterFatBinary` returns NULL and leaves `cudaErrorNotSupported` (801)
/// as the runtime's last error (peeked, then taken and cleared), `cudaCreateChannelDesc` a
/// zeroed struct, and the error-text functions of the runtime and NVRTC a text of cuda-stubs'
/// own, never NULL, which counts as no refused call. The stubs are stand-ins (the runtime's
/// exporting the marker and its two last-error readers, NVRTC's the marker alone) in a copy of
/// the install layout.
#[test]
fn a_name_the_stub_lacks_is_refused_in_its_return_type() {
    let root = stubs_tests::temp_dir("compat-refusals");
    let lib = root.join("lib");
    let compat = lib.join("cuda-stubs-compat");
    for (stub, source) in [
        (
            "libstubs_cudart.so",
            "unsigned char cuda_stubs_marker = 1;\n\
             int cudaGetLastError(void) { return 0; }\n\
             int cudaPeekAtLastError(void) { return 0; }\n",
        ),
        (
            "libstubs_nvrtc.so",
            "unsigned char cuda_stubs_marker = 1;\n",
        ),
    ] {
        let file = root.join(format!("{stub}.c"));
        std::fs::write(&file, source).expect("write the stand-in");
        let built = compile_c(
            stub,
            &[&file],
            &[
                "-shared".as_ref(),
                "-fPIC".as_ref(),
                format!("-Wl,-soname,{stub}").as_ref(),
            ],
        );
        stubs_tests::copy(&built, &lib.join(stub));
    }
    for soname in ["libcudart.so.12", "libnvrtc.so.12"] {
        stubs_tests::copy(&compat_dir().join(soname), &compat.join(soname));
    }
    let exe = compile_c(
        "compat_refusals",
        &[Path::new("c/compat_refusals.c")],
        &["-ldl".as_ref()],
    );
    let run = Scenario::new(&exe)
        .args([
            compat.join("libcudart.so.12"),
            compat.join("libnvrtc.so.12"),
        ])
        .debug()
        .run();
    run.assert_success();
    let text = "unknown error (cuda-stubs: the stub this compatibility library forwards to lacks \
                the error-text function)";
    for line in [
        "last_error.before=0".to_owned(),
        "__cudaRegisterFatBinary=NULL".to_owned(),
        "last_error.peek=801".to_owned(),
        "last_error.take=801".to_owned(),
        "last_error.after=0".to_owned(),
        "cudaCreateChannelDesc=0,0,0,0,0".to_owned(),
        "last_error.desc=801".to_owned(),
        format!("cudaGetErrorString={text}"),
        format!("cudaGetErrorName={text}"),
        format!("nvrtcGetErrorString={text}"),
        "last_error.texts=0".to_owned(),
    ] {
        run.assert_line(&line);
    }
    run.assert_debug(
        "cudart-compat",
        "__cudaRegisterFatBinary: not exported by libstubs_cudart.so: refused with NULL",
    );
    run.assert_debug(
        "nvrtc-compat",
        "nvrtcGetErrorString: not exported by libstubs_nvrtc.so: answered with cuda-stubs' own \
         text",
    );
}

/// A compatibility `libcudart.so.12` in the process says no CUDA release: it forwards to the
/// runtime stub, whose binding decides. A cuRAND stub called before the runtime stub has bound
/// finds no release in the process and binds 13.x's cuRAND; taking the compatibility file's
/// soname for the process's runtime would refuse it as another release than 12.
#[test]
fn a_compatibility_runtime_in_the_process_says_no_release() {
    let layout = cuda_layout(13);
    let curand = layout
        .libraries
        .get("curand")
        .expect("13.x's cuRAND in the layout");
    let run = Scenario::probe([
        format!("dlopen:{}", compat_dir().join("libcudart.so.12").display()),
        format!("dlopen:{}", stubs_tests::stub("curand").display()),
        // A call that writes through no pointer (its zeroed arguments): the generator NULL.
        "call:libstubs_curand.so:curandDestroyGenerator".to_string(),
    ])
    .env("CUDA_STUBS_CURAND_PATH", curand)
    .debug()
    .run();
    run.assert_success();
    assert!(
        run.bound("curand")
            .starts_with(&format!("bound {} ", curand.display())),
        "{run}"
    );
}

//! One runtime stub for callers built against CUDA 12.x and 13.x headers, in one process: the
//! names whose prototype differs between the two headers are exported once per ABI under ELF
//! symbol versions (`name@CUDA_STUBS_CUDART_12`, `name@@CUDA_STUBS_CUDART_13`), and what a
//! caller links against — `libstubs_cudart.so`, or the link-time stub `libstubs_cudart_abi12.so`
//! — decides the version its references record.
//!
//! - the export tables, read with `object`: both nodes on every such name, every other name
//!   unversioned, the link-time stub with the same names and the 12 versions as defaults;
//! - two shared libraries in one process, `tests/c/abi_versions_calls.c` compiled against the
//!   12.9 headers and linked with `cuda-stubs-cudart-12.pc`'s flags, and against the 13.5
//!   headers with `cuda-stubs-cudart.pc`'s, calling `cudaMemAdvise`, `cudaGraphAddDependencies`,
//!   `cudaStreamGetCaptureInfo`, `cudaGetDeviceProperties` and `cudaSignalExternalSemaphoresAsync`
//!   with their own header's prototypes: on the mock 11.x / 12.x / 13.x runtimes (`tests/mocks/cudart_abi.c`, each
//!   major's real prototypes) every call must arrive at the runtime's own entry point with the
//!   right values, and on NVIDIA's real 11.8 / 12.9 / 13.5 runtimes every call must reach the
//!   runtime (its own answer, never the stub's 801);
//! - a program linked before the stub had versions (its references carry none) still gets CUDA
//!   13's prototypes, as it did then.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::symbol_versions::{self, Export};
use stubs_tests::versioned_calls::{assert_calls, expected_on_mock};
use stubs_tests::{
    Scenario, compile_c, cuda_include_args, cuda_layout, mock, stub, stubs_dir, workspace_root,
};

const NODE_12: &str = "CUDA_STUBS_CUDART_12";
const NODE_13: &str = "CUDA_STUBS_CUDART_13";

/// The names the manifest exports once per ABI (`versions`), sorted.
fn versioned_names() -> Vec<String> {
    let path = workspace_root().join("manifest/cudart.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let manifest: serde_json::Value = serde_json::from_str(&text).expect("manifest is JSON");
    assert_eq!(
        manifest["version_nodes"],
        serde_json::json!([NODE_13, NODE_12])
    );
    manifest["symbols"]
        .as_array()
        .expect("symbols")
        .iter()
        .filter(|s| s["versions"].is_object())
        .map(|s| s["name"].as_str().expect("name").to_owned())
        .collect()
}

fn export(node: &str, default: bool) -> Export {
    Export {
        node: Some(node.to_owned()),
        default,
    }
}

#[test]
fn the_runtime_stub_exports_each_differing_name_under_both_nodes() {
    let versions = symbol_versions::read(&stub("cudart"));
    // 13 is index 2: what the loader binds a reference without version to.
    assert_eq!(
        versions.defined.into_iter().collect::<Vec<_>>(),
        [(2, NODE_13.to_owned()), (3, NODE_12.to_owned())]
    );
    let names = versioned_names();
    assert_eq!(names.len(), 35, "{names:?}");
    for name in [
        "cudaMemAdvise",
        "cudaGraphAddDependencies",
        "cudaStreamGetCaptureInfo",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} not versioned");
    }
    let versioned = versions.exports.iter().filter(|(name, exports)| {
        let want: Vec<Export> = if names.contains(name) {
            vec![export(NODE_12, false), export(NODE_13, true)]
        } else {
            vec![Export {
                node: None,
                default: true,
            }]
        };
        assert_eq!(**exports, want, "{name}");
        names.contains(name)
    });
    assert_eq!(versioned.count(), names.len());
    // The labels the versioned symbols were made from leave the symbol table.
    let labels: Vec<&String> = versions
        .exports
        .keys()
        .filter(|n| n.contains("__cuda_stubs"))
        .collect();
    assert!(labels.is_empty(), "{labels:?}");
}

#[test]
fn the_link_time_stub_has_the_same_names_with_the_12_versions_as_defaults() {
    let runtime = symbol_versions::read(&stub("cudart"));
    let link = stub("cudart_abi12");
    let versions = symbol_versions::read(&link);
    assert_eq!(
        versions.exports.keys().collect::<Vec<_>>(),
        runtime.exports.keys().collect::<Vec<_>>()
    );
    for (name, exports) in &versions.exports {
        let flipped: Vec<Export> = runtime.exports[name]
            .iter()
            .map(|e| Export {
                node: e.node.clone(),
                default: e.node.is_none() || e.node.as_deref() == Some(NODE_12),
            })
            .collect();
        assert_eq!(*exports, flipped, "{name}");
    }
    // A program linked against it needs libstubs_cudart.so, and the loader never maps it:
    // its file name is no SONAME, and dlopen refuses it (DF_1_NOOPEN).
    let data = std::fs::read(&link).expect("read the link-time stub");
    let file = object::File::parse(&*data).expect("ELF");
    let dynamic = dynamic_entries(&file);
    assert!(
        dynamic.contains(&"SONAME libstubs_cudart.so".to_owned()),
        "{dynamic:?}"
    );
    assert!(
        dynamic
            .iter()
            .any(|d| d.starts_with("FLAGS_1") && d.contains("NOOPEN")),
        "{dynamic:?}"
    );
    // SAFETY: dlopen of a path (`RTLD_LAZY | RTLD_LOCAL`); a library, if any, is closed when
    // dropped.
    let opened = unsafe { libloading::Library::new(&link) };
    assert!(opened.is_err(), "dlopen of the link-time stub succeeded");
}

/// `SONAME <name>` and `FLAGS_1 <flags>` of the dynamic section.
fn dynamic_entries(file: &object::File<'_>) -> Vec<String> {
    use object::read::elf::{Dyn, FileHeader};
    let object::File::Elf64(elf) = file else {
        panic!("not a 64-bit ELF")
    };
    let endian = elf.endian();
    let data = elf.data();
    let sections = elf.elf_header().sections(endian, data).expect("sections");
    let (entries, link) = sections
        .iter()
        .find_map(|s| {
            use object::read::elf::SectionHeader;
            s.dynamic(endian, data).ok().flatten()
        })
        .expect("a dynamic section");
    let strings = sections
        .strings(endian, data, link)
        .expect("dynamic strings");
    entries
        .iter()
        .filter_map(|d| match d.tag32(endian) {
            Some(object::elf::DT_SONAME) => Some(format!(
                "SONAME {}",
                String::from_utf8_lossy(d.string(endian, strings).expect("SONAME"))
            )),
            Some(object::elf::DT_FLAGS_1) => {
                let v = d.d_val(endian);
                let noopen = v & u64::from(object::elf::DF_1_NOOPEN) != 0;
                Some(format!(
                    "FLAGS_1 {v:#x}{}",
                    if noopen { " NOOPEN" } else { "" }
                ))
            }
            _ => None,
        })
        .collect()
}

/// The `Libs:` flags of a pkg-config template in `packaging/pkgconfig/`, with `${libdir}` the
/// built stubs' folder: how the packaging links a consumer.
fn pkg_config_libs(module: &str) -> Vec<OsString> {
    let path = workspace_root().join(format!("packaging/pkgconfig/{module}.pc.in"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let libs = text
        .lines()
        .find_map(|l| l.strip_prefix("Libs:"))
        .unwrap_or_else(|| panic!("{}: no Libs line", path.display()));
    let libdir = stubs_dir().display().to_string();
    libs.split_whitespace()
        .map(|f| OsString::from(f.replace("${libdir}", &libdir)))
        .collect()
}

/// `libcalls<major>.so`: `abi_versions_calls.c` against `major`'s headers, linked as `module`'s
/// `.pc` file links.
fn calls_library(major: u32, module: &str) -> PathBuf {
    let mut args = cuda_include_args(major);
    args.extend(["-shared".into(), "-fPIC".into(), "-ldl".into()]);
    args.extend(pkg_config_libs(module));
    args.push(OsString::from(format!(
        "-Wl,-rpath,{}",
        stubs_dir().display()
    )));
    let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
    compile_c(
        &format!("libcalls{major}.so"),
        &[Path::new("c/abi_versions_calls.c")],
        &refs,
    )
}

/// The program linking both libraries, and the two libraries, once per test process.
fn program() -> &'static (PathBuf, PathBuf, PathBuf) {
    static BUILT: OnceLock<(PathBuf, PathBuf, PathBuf)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let lib12 = calls_library(12, "cuda-stubs-cudart-12");
        let lib13 = calls_library(13, "cuda-stubs-cudart");
        let mut args: Vec<OsString> = Vec::new();
        for lib in [&lib12, &lib13] {
            let dir = lib.parent().expect("library folder");
            args.push(OsString::from(format!("-L{}", dir.display())));
            args.push(OsString::from(format!("-Wl,-rpath,{}", dir.display())));
        }
        // --no-as-needed: main's references are weak (abi_versions_main.c).
        args.extend([
            "-Wl,--no-as-needed".into(),
            "-lcalls12".into(),
            "-lcalls13".into(),
        ]);
        let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        let exe = compile_c("abi_versions", &[Path::new("c/abi_versions_main.c")], &refs);
        (exe, lib12, lib13)
    })
}

#[test]
fn each_library_records_the_version_of_its_headers() {
    let (_, lib12, lib13) = program();
    let (v12, v13) = (symbol_versions::read(lib12), symbol_versions::read(lib13));
    for name in ["cudaMemAdvise", "cudaGraphAddDependencies"] {
        assert_eq!(v12.needs(name), Some(NODE_12), "12.9 headers: {name}");
        assert_eq!(v13.needs(name), Some(NODE_13), "13.5 headers: {name}");
    }
    // 12.x headers call these under other names, exported once (no version).
    for name in ["cudaStreamGetCaptureInfo_v2", "cudaGetDeviceProperties_v2"] {
        assert_eq!(v12.needs(name), None, "{name}");
        assert!(!v13.needed.iter().any(|(n, _, _)| n == name), "{name}");
    }
    assert_eq!(v13.needs("cudaStreamGetCaptureInfo"), Some(NODE_13));
    assert_eq!(v13.needs("cudaGetDeviceProperties"), Some(NODE_13));
    // Both need the runtime stub, by its SONAME.
    for (v, lib) in [(&v12, lib12), (&v13, lib13)] {
        let files: Vec<&str> = v
            .needed
            .iter()
            .filter(|(_, node, _)| node.starts_with("CUDA_STUBS_"))
            .map(|(_, _, file)| file.as_str())
            .collect();
        assert!(
            !files.is_empty() && files.iter().all(|f| *f == "libstubs_cudart.so"),
            "{}: {files:?}",
            lib.display()
        );
    }
}

#[test]
fn both_abis_in_one_process_reach_each_mock_runtime_with_their_own_prototypes() {
    let (exe, _, _) = program();
    for major in [11, 12, 13] {
        for order in ["12-first", "13-first"] {
            let run = Scenario::new(exe)
                .arg_path(order)
                .library_path([mock(&format!("mock-{major}"))])
                .run();
            run.assert_success();
            assert_calls(&run, &expected_on_mock(major));
            // One stub in the process, never the link-time stub.
            assert_eq!(run.mapped(), ["libstubs_cudart.so"], "{run}");
        }
    }
}

/// On NVIDIA's runtimes (no GPU, no driver) each call reaches the runtime and returns its own
/// answer, never the stub's refusal (801); without a runtime, the stub's 34.
#[test]
fn both_abis_in_one_process_reach_nvidias_runtimes() {
    let (exe, _, _) = program();
    let keys = ["advise", "deps", "capture", "props", "signal"];
    for major in [11, 12, 13] {
        let layout = cuda_layout(major);
        let run = Scenario::new(exe)
            .library_path(layout.lib_dirs())
            .debug()
            .run();
        run.assert_success();
        assert!(
            run.bound("cudart")
                .starts_with(&format!("bound {}", layout.cudart.display())),
            "{run}"
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
                    "{tag}.{key} on CUDA {major}: {rc} is not the runtime's own error: {run}"
                );
            }
        }
        // Nothing refused as absent, unless bound to its replacement (13.0's renames).
        let debug = run.debug("cudart");
        for line in debug.iter().filter(|l| l.contains(": absent in CUDA")) {
            let name = line.split(':').next().unwrap_or_default();
            let replaced = format!("{name}: absent, bound to its replacement ");
            assert!(
                debug.iter().any(|l| l.starts_with(&replaced)),
                "{line}: {run}"
            );
        }
    }
    let run = Scenario::new(exe).run();
    run.assert_success();
    for tag in ["12", "13"] {
        for key in keys {
            let line = run.line(&format!("{tag}.{key}"));
            assert!(line.starts_with(&format!("{tag}.{key}=34")), "{run}");
        }
    }
}

/// A program linked against a stub without symbol versions (every stub before them) records
/// no version; the loader binds such a reference to the library's version index 2, which the
/// version script gives CUDA 13's node: the program keeps the 13.x prototypes it was linked
/// for. `dlsym` gets the default (13) too, `dlvsym` either.
#[test]
fn a_program_linked_before_versions_keeps_the_13_abi() {
    let dir = stubs_tests::temp_dir("unversioned-stub");
    // What the program linked against then: the same names, unversioned, same SONAME.
    let old = dir.join("old.c");
    std::fs::write(
        &old,
        "int cudaMemAdvise(void) { return 0; }\n\
         int cudaGraphAddDependencies(void) { return 0; }\n\
         int cudaStreamGetCaptureInfo(void) { return 0; }\n\
         int cudaGetDeviceProperties(void) { return 0; }\n",
    )
    .expect("write old.c");
    let old_stub = compile_c(
        "libstubs_cudart.so",
        &[&old],
        &[
            "-shared".as_ref(),
            "-fPIC".as_ref(),
            "-Wl,-soname,libstubs_cudart.so".as_ref(),
        ],
    );
    let mut args = cuda_include_args(13);
    args.extend(["-shared".into(), "-fPIC".into(), "-ldl".into()]);
    args.push(OsString::from(format!(
        "-L{}",
        old_stub.parent().expect("folder").display()
    )));
    args.push("-lstubs_cudart".into());
    // At run time, the real stub.
    args.push(OsString::from(format!(
        "-Wl,-rpath,{}",
        stubs_dir().display()
    )));
    let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
    let lib = compile_c(
        "libcalls13old.so",
        &[Path::new("c/abi_versions_calls.c")],
        &refs,
    );
    assert!(
        symbol_versions::read(&lib).needs("cudaMemAdvise").is_none(),
        "linked against an unversioned stub, the reference must carry no version"
    );
    let libdir = lib.parent().expect("folder");
    let exe = compile_c(
        "abi_versions_old",
        &[Path::new("c/abi_versions_main.c")],
        &[
            format!("-L{}", libdir.display()).as_ref(),
            format!("-Wl,-rpath,{}", libdir.display()).as_ref(),
            "-Wl,--no-as-needed".as_ref(),
            "-lcalls13old".as_ref(),
        ],
    );
    for major in [12, 13] {
        let run = Scenario::new(&exe)
            .library_path([mock(&format!("mock-{major}"))])
            .run();
        run.assert_success();
        let expected: String = expected_on_mock(major)
            .lines()
            .filter(|l| l.trim_start().starts_with("13."))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_calls(&run, &expected);
        assert!(!run.stdout.contains("12."), "{run}");
    }
}

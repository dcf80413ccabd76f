//! `scripts/libraries.json`: each library's test wheels ([`stub_model::TestWheel`]), for
//! `scripts/fetch-cuda.py`, which unpacks them and writes each major's `layout.json`. The script
//! keeps only its own tooling (nvcc, the crt headers, nvvm); everything about a library comes
//! from its spec through this file. And every stub the workspace builds (`"stubs"`, [`stubs`]),
//! for the scripts and tests that check the product against the specs' list; the shell scripts
//! read the same list as `scripts/libraries.sh` (the `libraries_sh` module beside this one).
//!
//! Format: `{"generated_by": …, "libraries": [{"name": "<name>", "wheels": [{"major": <major>,
//! "wheel": "<pip requirement>", "library": "<path of the library in the unpacked tree>",
//! "include": "<its include folder>", "unpack": "whole" | "library_and_headers",
//! "lazy_dependency": "<path of the library the real one cannot be called without>" (only
//! where the spec names one), "beside": [{"wheel": "<pip requirement>", "file": "<path>"}, …]
//! (only for `Unpack::LibraryAndHeadersBeside`: files of another wheel unpacked into the same
//! tree)}, …]}, …]}`: lists, so libraries and majors keep spec order
//! (libraries as codegen writes them, majors oldest first). The `layout.json` key of a library's
//! path is its name. Libraries without test wheels (the driver) are left out. A library that
//! ships with the driver (`ExportSource::List`: NVML) has header-only wheels: its "library" is
//! its header, the file whose presence tells the script the wheel is unpacked. A library whose
//! DLL NVIDIA's `win_amd64` wheels ship (the same requirements) and the wine tests load
//! (`WindowsDlls::fetched`) also has `"windows": {"dlls":
//! {"<major>": "<DLL name>"}, "companion": "<prefix>" | null, "lazy_dependency": "<DLL name>"
//! (only where the spec names one), "release_named": "<prefix>" (only for a DLL named after the
//! library's release, `<prefix><year>.<minor>.<patch>.dll`: CUPTI's)}`, for
//! `fetch-cuda.py --arch win_amd64`.

use crate::read::libraries::{ALL, real_stem};
use serde_json::{Value, json};
use stub_model::{ExportSource, Unpack};

/// The text of `scripts/libraries.json`.
pub fn libraries_json() -> Result<String, String> {
    let mut libraries = Vec::new();
    for library in ALL {
        let mut wheels = Vec::new();
        for wheel in library.test_wheels {
            let soname = library
                .soname(wheel.major)
                .ok_or_else(|| format!("{}: no soname of {}", library.name(), wheel.major))?;
            let package = wheel.package_dir().ok_or_else(|| {
                format!("{}: {:?} is no folder name", library.name(), wheel.lib_dir)
            })?;
            let lib_dir = wheel.lib_dir.to_string_lossy();
            let file = match library.exports {
                ExportSource::List { .. } => format!("{package}/include/{}", library.header),
                _ => wheel.library_file(soname),
            };
            let mut entry = json!({
                "major": wheel.major,
                "wheel": wheel.requirement,
                "library": file,
                "include": format!("{package}/include"),
                "unpack": match wheel.unpack {
                    Unpack::Whole => "whole",
                    Unpack::LibraryAndHeaders
                    | Unpack::LibraryNamed(_)
                    | Unpack::LibraryAndHeadersBeside(_) => "library_and_headers",
                },
            });
            // The library the real one cannot be called without, beside it: unpacked with it
            // (cuDNN's `libcudnn_graph.so.9`: its tests call the real front library).
            if let Some(dependency) = library.real.lazy_dependency {
                entry["lazy_dependency"] =
                    json!(format!("{lib_dir}/{}", dependency.to_string_lossy()));
            }
            // Files of another wheel it cannot be loaded without (cuFFTMp's NVSHMEM host
            // library): read off that wheel into the same tree.
            if let Unpack::LibraryAndHeadersBeside(files) = wheel.unpack {
                entry["beside"] = files
                    .iter()
                    .map(|f| json!({"wheel": f.requirement, "file": f.path.to_string_lossy()}))
                    .collect();
            }
            wheels.push(entry);
        }
        if wheels.is_empty() {
            continue;
        }
        let mut entry = json!({"name": library.name(), "wheels": wheels});
        // The Windows DLL stub's libraries: which DLL of each major the win_amd64 wheels hold
        // (`fetch-cuda.py --arch win_amd64` unpacks them), and the companion's name prefix. A
        // DLL no wheel ships (NVML's `nvml.dll`, the driver's: no `wheel_dirs`) is not fetched,
        // nor one the spec leaves to be run without a DLL (`WindowsDlls::fetched`). Keyed by
        // each test wheel's major: a DLL name of several majors (`curand64_10.dll`) is listed
        // under each.
        if let Some(windows) = library
            .real
            .windows
            .filter(|w| w.fetched && !w.wheel_dirs.is_empty())
        {
            let dlls: serde_json::Map<String, Value> = library
                .test_wheels
                .iter()
                .filter_map(|w| Some((w.major, library.windows_dll(w.major)?)))
                .map(|(major, dll)| (major.to_string(), json!(dll.to_string_lossy())))
                .collect();
            entry["windows"] = json!({"dlls": dlls, "companion": windows.companion});
            // A DLL named after the library's own release (CUPTI's `cupti64_2025.2.1.dll`):
            // the wheel's one DLL of that form, where no listed name is in it.
            if let Some(named) = windows.release_named {
                entry["windows"]["release_named"] = json!(named.prefix);
            }
            // The DLL the real one cannot run without, beside it (cuDNN's graph library):
            // fetched with it, as on Linux.
            if let Some(dependency) = windows.lazy_dependency {
                entry["windows"]["lazy_dependency"] = json!(dependency.to_string_lossy());
            }
        }
        libraries.push(entry);
    }
    let doc = json!({
        "generated_by": "cargo run -p codegen, from stub-spec/src/libraries/: do not edit",
        "libraries": Value::Array(libraries),
        "stubs": Value::Array(stubs()),
    });
    serde_json::to_string_pretty(&doc)
        .map(|text| text + "\n")
        .map_err(|e| format!("libraries.json: {e}"))
}

/// Every library's stub, in spec order: `{"name", "crate", "file", "link_stub": {"crate",
/// "file"} | null, "pkg_config": [modules], "cmake_target", "toolkit_targets", "windows_stub":
/// "stubs_<name>" | null, "real": "<NVIDIA's file stem>"}`. The driver is here too (it has no
/// test wheels).
pub fn stubs() -> Vec<Value> {
    ALL.iter()
        .map(|library| {
            let link_stub = match (library.link_stub_crate(), library.link_stub_file()) {
                (Some(krate), Some(file)) => json!({"crate": krate, "file": file}),
                _ => Value::Null,
            };
            let module = library.pkg_config_module();
            let pkg_config: Vec<String> = std::iter::once(module.clone())
                .chain(
                    library
                        .abis()
                        .into_iter()
                        .map(|abi| format!("{module}-{abi}")),
                )
                .collect();
            json!({
                "name": library.name(),
                "crate": library.crate_name,
                "file": library.stub_file(),
                "link_stub": link_stub,
                "pkg_config": pkg_config,
                "cmake_target": library.packaging.cmake_target,
                "toolkit_targets": library.packaging.toolkit_targets,
                "windows_stub": library.windows_stub(),
                "real": real_stem(library),
            })
        })
        .collect()
}

//! The compatibility libraries (issue 31; `stub-compat`): for each library and major of
//! [`compat`] (the specs' `packaging.compat_majors`), the crate `stubs/compat/<lib><major>/`'s name list
//! (`src/generated/compat_exports.rs`): every function NVIDIA's library of that major exports
//! (the wheel's export table, as the manifest's `exported_by` records it), each with its refusal
//! (what it answers when the stub lacks it, by its return type in that major: `status`,
//! `pointer`, `text` for the spec's error texts, `void`, `zero`, `memory(N)`; [`refusal`]) and
//! marked when the stub exports it once per ABI (then the compatibility library binds the stub's
//! version of that major's prototype); the index of the spec's last-error readers, where it has
//! them. Also the lists outside Rust: `packaging/cmake/cuda-stubs-compat.cmake`
//! (the crates and the files the compatibility folder holds) and
//! `python/cuda_stubs/_compat_libraries.py`.
//!
//! Fails when NVIDIA's library exports a name the stub does not declare: the compatibility
//! library would have nothing to forward it to (it would refuse it at run time, but codegen
//! says so first).

use crate::model::abi_versions::AbiVersions;
use crate::model::library_data::LibraryData;
use crate::model::type_table::ByValue;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use stub_model::{ExportSource, RetKind};

/// The libraries and majors that get a compatibility library, `(library, majors)` in spec order:
/// each spec's `packaging.compat_majors` (which says why a library has them or not).
pub fn compat() -> impl Iterator<Item = (&'static stub_model::Library, &'static [u32])> {
    crate::read::libraries::ALL
        .iter()
        .filter(|l| !l.packaging.compat_majors.is_empty())
        .map(|l| (*l, l.packaging.compat_majors))
}

/// The crate folder of one compatibility library: `stubs/compat/cudart12`.
pub fn crate_dir(library: &str, major: u32) -> String {
    format!("stubs/compat/{library}{major}")
}

/// The cargo package of one compatibility library: `stubs-compat-cudart12`; its cdylib is
/// `libstubs_compat_cudart12.so`, installed as NVIDIA's soname.
pub fn package(library: &str, major: u32) -> String {
    format!("stubs-compat-{library}{major}")
}

/// The `compat_exports.rs` of every compatibility library of `data`'s library, `(path, text)`
/// before rustfmt.
pub fn exports_files(
    root: &Path,
    data: &LibraryData,
    versions: &AbiVersions,
) -> Result<Vec<(PathBuf, String)>, String> {
    let name = data.library.name();
    let majors = data.library.packaging.compat_majors;
    let mut files = Vec::new();
    for &major in majors {
        let path = root
            .join(crate_dir(name, major))
            .join("src/generated/compat_exports.rs");
        files.push((path, exports_rs(data, versions, major)?));
    }
    Ok(files)
}

/// The text of one `compat_exports.rs`.
fn exports_rs(data: &LibraryData, versions: &AbiVersions, major: u32) -> Result<String, String> {
    let library = data.library;
    let name = library.name();
    // The wheel's export table of that major; for a library in no wheel (NVML, which ships with
    // the driver) the checked-in list of the driver's library, `ExportSource::List`.
    let (exported, version) = match (data.exports.get(&major), library.exports) {
        (Some(table), _) => (table, data.layout(major).version.clone()),
        (None, ExportSource::List { label, .. }) => (&data.driver_list, label.to_owned()),
        (None, ExportSource::Wheels | ExportSource::WheelsWithPrefix(_)) => {
            return Err(format!("{name}: no export table of CUDA {major}"));
        }
    };
    let soname = library
        .soname(major)
        .ok_or_else(|| format!("{name}: no soname of CUDA {major}"))?
        .to_string_lossy()
        .into_owned();
    let declared: Vec<&str> = data.symbols.iter().map(|s| s.name.as_str()).collect();
    let missing: Vec<&String> = exported
        .iter()
        .filter(|n| !declared.contains(&n.as_str()))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{soname} of CUDA {major} exports names the stub does not declare, which its \
             compatibility library could not forward: {missing:?}"
        ));
    }
    let node = if versions.is_empty() {
        String::new()
    } else {
        versions.node(major)
    };
    let mut list = String::new();
    let mut versioned = 0;
    for (index, export) in exported.iter().enumerate() {
        let mark = if versions.older(export).is_some() {
            versioned += 1;
            " \"versioned\""
        } else {
            ""
        };
        let refusal = refusal(data, export, major)?;
        let _ = write!(list, "\n        {index} {export} {refusal}{mark},");
    }
    let absent = library.errors.absent;
    let last_error = match library.last_error {
        None => "none".to_owned(),
        Some(readers) => {
            let index = |name: &core::ffi::CStr| {
                let name = name.to_str().unwrap_or_default();
                exported
                    .iter()
                    .position(|e| e == name)
                    .ok_or_else(|| format!("{soname} of CUDA {major} does not export {name}"))
            };
            format!(
                "{{ take: {}, peek: {} }}",
                index(readers.take)?,
                index(readers.peek)?
            )
        }
    };
    let last_error_doc = match library.last_error {
        None => "none: the library has no last error".to_owned(),
        Some(r) => format!(
            "{} and {}, whose answers a refusal reaches too",
            r.take.to_string_lossy(),
            r.peek.to_string_lossy()
        ),
    };
    Ok(format!(
        "// @generated by `cargo run -p codegen` from the exports of {soname} {version}. Do not edit.\n\
         //! `{soname}` of the compatibility folder: the {count} functions NVIDIA's {soname} \
         ({version}) exports, each `name@@{soname}`, forwarded to `{stub}`{node_doc}.\n\n\
         stub_compat::compat_library! {{\n    \
         library: \"{name}\",\n    \
         major: {major},\n    \
         soname: \"{soname}\",\n    \
         stub: \"{stub}\",\n    \
         node: \"{node}\",\n    \
         // {absent_name}: the stub's \"absent\" status.\n    \
         absent: {absent_value},\n    \
         // The last-error readers: {last_error_doc}.\n    \
         last_error: {last_error},\n    \
         count: {count},\n    \
         exports: [{list}\n    ],\n\
         }}\n",
        count = exported.len(),
        stub = library.stub_file(),
        node_doc = if node.is_empty() {
            String::new()
        } else {
            format!(
                " (the {versioned} names marked \"versioned\" to its `{node}` version, this \
                 major's prototype)"
            )
        },
        absent_name = absent.name,
        absent_value = absent.value,
    ))
}

/// The refusal of `export` in the compatibility library of `major` (`stub_compat::Refusal`):
/// what it answers when the stub lacks the name, by the return type of that major's prototype.
fn refusal(data: &LibraryData, export: &str, major: u32) -> Result<String, String> {
    let library = data.library;
    let symbol = data
        .symbols
        .iter()
        .find(|s| s.name == export)
        .ok_or_else(|| format!("{export}: not declared"))?;
    let Some(prototype) = symbol.prototypes.get(&major).or_else(|| symbol.declared()) else {
        // No prototype known (`opaque`): the stub's fallback is its status too.
        return Ok("status".to_owned());
    };
    let text = library
        .error_texts
        .iter()
        .any(|t| t.function == export && matches!(t.abi, stub_model::TextAbi::Returned));
    Ok(
        match stub_model::ret_kind(&prototype.item.sig.output, library.kind) {
            RetKind::Status | RetKind::Opaque => "status".to_owned(),
            RetKind::Pointer if text => "text".to_owned(),
            RetKind::Pointer => "pointer".to_owned(),
            RetKind::Void => "void".to_owned(),
            RetKind::Custom => {
                let syn::ReturnType::Type(_, ty) = &prototype.item.sig.output else {
                    return Err(format!("{export}: a custom return without a type"));
                };
                match data.types(major).returned_by_value(ty) {
                    Some(ByValue::Integer) => "zero".to_owned(),
                    Some(ByValue::Memory(size)) => format!("memory({size})"),
                    None => {
                        return Err(format!(
                            "{export} of CUDA {major} returns {} by value, which no refusal of \
                             stub-compat answers (an integer or a struct returned in memory)",
                            quote::ToTokens::to_token_stream(ty)
                        ));
                    }
                }
            }
            RetKind::NegatedStatus => {
                return Err(format!(
                    "{export} of CUDA {major}: no refusal of stub-compat answers a negated status"
                ));
            }
        },
    )
}

/// `packaging/cmake/cuda-stubs-compat.cmake` and `python/cuda_stubs/_compat_libraries.py`.
pub fn packaging_files(root: &Path) -> Vec<(PathBuf, String)> {
    let banner = "Generated by `cargo run -p codegen` (codegen/src/emit/compat.rs): do not edit.";
    let mut crates = String::new();
    let mut files = String::new();
    let mut python = String::new();
    for (spec, majors) in compat() {
        let library = spec.name();
        let mut entries = Vec::new();
        for &major in majors {
            let soname = spec
                .soname(major)
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let package = package(library, major);
            let _ = write!(crates, " {package}");
            let _ = write!(files, " \"lib{}.so|{soname}\"", package.replace('-', "_"));
            entries.push(format!("{major}: \"{soname}\""));
        }
        let _ = writeln!(python, "    \"{library}\": {{{}}},", entries.join(", "));
    }
    let cmake = format!(
        "# {banner}\n\
         # The compatibility libraries (lib/cuda-stubs-compat/): the cargo packages, and each\n\
         # cdylib|the NVIDIA soname it is installed as.\n\
         set(cuda-stubs_COMPAT_CRATES{crates})\n\
         set(cuda-stubs_COMPAT_FILES{files})\n"
    );
    let py = format!(
        "# {banner}\n\
         \"\"\"The compatibility libraries of ``lib/cuda-stubs-compat/``: library -> CUDA major ->\n\
         the NVIDIA soname the file carries.\"\"\"\n\n\
         COMPAT_LIBRARIES: dict[str, dict[int, str]] = {{\n{python}}}\n"
    );
    vec![
        (root.join("packaging/cmake/cuda-stubs-compat.cmake"), cmake),
        (root.join("python/cuda_stubs/_compat_libraries.py"), py),
    ]
}

//! Export coverage: every function the real libraries export (libcudart and libnvrtc of CUDA
//! 11.8, 12.9 and 13.5, libnvJitLink of 12.9 and 13.5, and the libcuda 580 export list) is
//! exported by the matching stub and recorded in codegen's manifest, and so is every data object
//! (cuTENSOR's `CUTENSOR_COMPUTE_DESC_*`), with the real object's size. Which libraries, and where
//! each one's export table comes from, is the spec's (`stub_spec::libraries`).

use object::{Object, ObjectSymbol, SymbolKind, SymbolSection};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use stub_model::libraries;
use stub_model::{ExportSource, Library};
use stubs_tests::{cuda_layout, stub, workspace_root};

/// Defined, global `FUNC` dynamic symbols of a shared library.
fn exports(path: &Path) -> BTreeSet<String> {
    exports_where(path, |_| true)
}

/// [`exports`] whose symbol passes `keep`.
fn exports_where(path: &Path, keep: impl Fn(&object::Symbol) -> bool) -> BTreeSet<String> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let file = object::File::parse(&*data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    file.dynamic_symbols()
        .filter(|s| s.is_definition() && s.is_global() && s.kind() == SymbolKind::Text)
        .filter(|s| keep(s))
        .filter_map(|s| s.name().ok().map(str::to_owned))
        .collect()
}

/// Defined, global `OBJECT` dynamic symbols of a section (not the absolute symbols naming
/// version nodes), with their sizes: the data a library exports; C names only, as codegen
/// reads them (a `_Z` object is vague linkage of the library's C++ headers, no API).
fn data_objects(path: &Path) -> BTreeMap<String, u64> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let file = object::File::parse(&*data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    file.dynamic_symbols()
        .filter(|s| s.is_definition() && s.is_global() && s.kind() == SymbolKind::Data)
        .filter(|s| matches!(s.section(), SymbolSection::Section(_)))
        .filter_map(|s| s.name().ok().map(|n| (n.to_owned(), s.size())))
        .filter(|(name, _)| stub_model::is_c_entry_point(name))
        .collect()
}

/// An export that is no C entry point (`stub_spec::is_c_entry_point`): a C++ symbol (a mangled
/// `_Z` name: a weak definition of vague linkage, a template instantiation of the headers the
/// library was built with, as cuSPARSELt 0.8.1's `std::vector<unsigned char>::push_back`, or a
/// strong one, libcufile's own classes, its `std::` instances and `operator delete`), or the ELF
/// `_init` / `_fini`; codegen leaves these out (`codegen/src/read/exports.rs`), since a stub
/// exporting one would interpose every other object's copy.
fn is_not_c_api(s: &object::Symbol) -> bool {
    s.name().is_ok_and(|n| !stub_model::is_c_entry_point(n))
}

/// A C entry point of another API than the one `library`'s stub stands for, which its real
/// file also defines (`ExportSource::WheelsWithPrefix`: nvImageCodec 0.6.1's own copies of the
/// driver's `cuInit` …): a stub exporting it would interpose it on the whole process.
fn is_foreign(library: &Library, s: &object::Symbol) -> bool {
    s.name().is_ok_and(|n| !library.exports.keeps(n))
}

/// `$STUBS_DIR/libstubs_<lib>.so` when set, else the harness's build.
fn stub_path(lib: &str) -> PathBuf {
    match std::env::var_os("STUBS_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir).join(format!("libstubs_{lib}.so")),
        None => stub(lib),
    }
}

/// A checked-in export list (`ExportSource::List`): one name per line, `#` comments.
fn export_list(path: &str) -> BTreeSet<String> {
    let path = workspace_root().join(path);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// The manifest's data objects (`data`, absent for most libraries).
fn manifest_data(lib: &str) -> BTreeSet<String> {
    let path = workspace_root().join(format!("manifest/{lib}.json"));
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).expect("manifest is JSON");
    v["data"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| s["name"].as_str().expect("data name").to_owned())
        .collect()
}

fn manifest_names(lib: &str) -> BTreeSet<String> {
    let path = workspace_root().join(format!("manifest/{lib}.json"));
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).expect("manifest is JSON");
    v["symbols"]
        .as_array()
        .expect("manifest has symbols")
        .iter()
        .map(|s| s["name"].as_str().expect("symbol name").to_owned())
        .collect()
}

/// What each real library version exports, labelled for messages: where the spec says the
/// stub's export list comes from.
fn real_exports(library: &Library) -> Vec<(String, BTreeSet<String>)> {
    let real: Vec<(String, BTreeSet<String>)> = match library.exports {
        ExportSource::List { path, label } => vec![(label.to_owned(), export_list(path))],
        ExportSource::Wheels | ExportSource::WheelsWithPrefix(_) => library
            .test_wheels
            .iter()
            .filter_map(|wheel| {
                let layout = cuda_layout(wheel.major);
                let Some(path) = layout.libraries.get(library.name()) else {
                    // A wheel NVIDIA publishes for x86-64 only (aarch64 has no
                    // `nvidia-nccl-cu11`): `fetch-cuda.py` lists it as unavailable there.
                    assert!(
                        unavailable(&layout.root).contains(&library.name().to_owned()),
                        "layout.json of {} lacks {}",
                        layout.version,
                        library.name()
                    );
                    return None;
                };
                // Its C entry points: what a stub stands for (no C++ symbol, `_init`, `_fini`),
                // of the API the spec says (`ExportSource::WheelsWithPrefix`).
                Some((
                    format!("{} ({})", path.display(), wheel.requirement),
                    exports_where(path, |s| !is_not_c_api(s) && !is_foreign(library, s)),
                ))
            })
            .collect(),
    };
    assert!(!real.is_empty(), "no real lib{} to compare", library.name());
    real
}

/// The libraries `fetch-cuda.py` found no wheel of for this machine in the layout at `root`
/// (its `layout.json`'s `unavailable`).
fn unavailable(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join("layout.json")).expect("layout.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("layout.json is JSON");
    v["unavailable"]
        .as_array()
        .map(|names| {
            names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn missing_report(
    what: &str,
    have: &BTreeSet<String>,
    real: &[(String, BTreeSet<String>)],
) -> String {
    let mut out = String::new();
    for (label, names) in real {
        let missing: Vec<&str> = names.difference(have).map(String::as_str).collect();
        if !missing.is_empty() {
            out.push_str(&format!(
                "{what} lacks {} export(s) of {label}:\n  {}\n",
                missing.len(),
                missing.join("\n  ")
            ));
        }
    }
    out
}

fn check(library: &Library) -> String {
    let lib = library.name();
    let mut real = real_exports(library);
    let manifest = manifest_names(lib);
    if stubs_tests::target_arch() != "x86_64" {
        // The manifest is x86-64's (codegen reads x86-64's wheels). A name another arch's
        // library exports beyond it is that build's own (cuFile 1.14's aarch64 file exports the
        // Concurrency Kit it links statically, `ck_*`): no header declares it and no x86-64
        // library has it, so no program links to it. Said, and left out.
        for (label, names) in &mut real {
            let own: Vec<String> = names.difference(&manifest).cloned().collect();
            if !own.is_empty() {
                eprintln!(
                    "{label}: {} export(s) of its own build, in no manifest: {}",
                    own.len(),
                    own.join(" ")
                );
                names.retain(|n| manifest.contains(n));
            }
        }
    }
    let mut failures = missing_report(&format!("manifest/{lib}.json"), &manifest, &real);
    let path = stub_path(lib);
    let stub = exports(&path);
    failures.push_str(&missing_report(&path.display().to_string(), &stub, &real));
    // Nor does the stub export the real library's C++ symbols, `_init` or `_fini`, or the
    // entry points of other APIs it defines (`ExportSource::WheelsWithPrefix`).
    if library.exports.from_wheels() {
        for wheel in library.test_wheels {
            let Some(real) = cuda_layout(wheel.major).libraries.get(lib).cloned() else {
                continue;
            };
            let not_c_api = exports_where(&real, |s| is_not_c_api(s) || is_foreign(library, s));
            let interposed: Vec<&String> = not_c_api.intersection(&stub).collect();
            if !interposed.is_empty() {
                failures.push_str(&format!(
                    "{} exports C++ symbols (or `_init` / `_fini`, or another API's) of {}: \
                     {interposed:?}\n",
                    path.display(),
                    real.display()
                ));
            }
        }
    }
    failures
}

/// Every library of the spec (`stub_spec::libraries::ALL`), so a library added there is covered
/// without a new test.
#[test]
fn every_stub_exports_every_function_of_its_real_library() {
    let failures: String = libraries::ALL.iter().copied().map(check).collect();
    assert!(failures.is_empty(), "{failures}");
}

/// The data objects of `library`'s real libraries (each test wheel's) that its stub or manifest
/// lacks, or exports with another size: the stub's stand-in of each must be an object of the
/// same size, or an executable linked against the stub copy-relocates the wrong number of
/// bytes (`stub_loader::StandIns`).
fn check_data(library: &Library) -> String {
    if !library.exports.from_wheels() {
        return String::new();
    }
    let lib = library.name();
    let stub = data_objects(&stub_path(lib));
    let manifest = manifest_data(lib);
    let mut failures = String::new();
    for wheel in library.test_wheels {
        let Some(path) = cuda_layout(wheel.major).libraries.get(lib).cloned() else {
            continue;
        };
        for (name, size) in data_objects(&path) {
            if !library.exports.keeps(&name) {
                continue;
            }
            match stub.get(&name) {
                None => failures.push_str(&format!(
                    "libstubs_{lib}.so lacks the data object {name} of {}\n",
                    path.display()
                )),
                Some(&s) if s != size => failures.push_str(&format!(
                    "libstubs_{lib}.so exports {name} with {s} bytes, {} with {size}\n",
                    path.display()
                )),
                Some(_) => {}
            }
            if !manifest.contains(&name) {
                failures.push_str(&format!(
                    "manifest/{lib}.json lacks the data object {name}\n"
                ));
            }
        }
    }
    failures
}

/// Every data object a real library exports (`CUTENSOR_COMPUTE_DESC_32F` …) is exported by its
/// stub as an object of the same size, for every library of the spec.
#[test]
fn every_stub_exports_every_data_object_of_its_real_library() {
    let failures: String = libraries::ALL.iter().copied().map(check_data).collect();
    assert!(failures.is_empty(), "{failures}");
}

/// The book's table of every library in NVIDIA's wheels (`docs/src/wheel-libraries.md`) against
/// the specs: each spec's sonames are on a row naming its stub, each stub a row names is a
/// spec's, and each soname stem `--check` calls "no stub" is on a row with none, saying why.
#[test]
fn the_book_lists_every_library() {
    let path = workspace_root().join("docs/src/wheel-libraries.md");
    let page = std::fs::read_to_string(&path).expect("docs/src/wheel-libraries.md");
    // (library cell, stub cell) of each table row below a header.
    let rows: Vec<(String, String)> = page
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| library"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            assert!(
                cells.len() >= 4,
                "{}: a row of four cells: {l}",
                path.display()
            );
            (cells[0].to_owned(), cells[2].to_owned())
        })
        .collect();
    let stub_files: BTreeSet<String> = libraries::ALL.iter().map(|l| l.stub_file()).collect();
    for library in libraries::ALL {
        let stub = format!("`{}`", library.stub_file());
        for soname in library.real.sonames {
            let soname = soname.name.to_str().expect("a soname is UTF-8");
            let stem = soname.find(".so").map_or(soname, |i| &soname[..i]);
            assert!(
                rows.iter().any(|(libs, stubs)| {
                    (libs.contains(&format!("`{stem}.")) || libs.contains(&format!("`{soname}")))
                        && stubs.contains(&stub)
                }),
                "{}: no row lists {soname} with {stub}",
                path.display()
            );
        }
    }
    for (libs, stubs) in &rows {
        for name in stubs.split('`').filter(|n| n.starts_with("libstubs_")) {
            assert!(
                stub_files.contains(name),
                "{}: {name} ({libs}) is no spec's stub",
                path.display()
            );
        }
    }
    for stem in stub_model::UNSTUBBED_SONAME_STEMS {
        assert!(
            rows.iter()
                .any(|(libs, stubs)| stubs.trim() == "—" && libs.contains(stem)),
            "{}: no row without a stub lists {stem} (`UNSTUBBED_SONAME_STEMS`)",
            path.display()
        );
    }
}

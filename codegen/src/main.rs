//! `cargo run -p codegen --release`: regenerates every checked-in file derived from the specs
//! and NVIDIA's headers and libraries (unpacked by `scripts/fetch-cuda.py`): each stub crate's
//! `src/generated/`, the symbol versions (`stubs-cudart/versions.map`, the link-time stub's
//! `exports.rs`), the ABI manifests (`manifest/`), `scripts/libraries.json`,
//! `scripts/libraries.sh` and the lists of stubs outside Rust. With `--check` nothing is written; it exits 1 when a checked-in file
//! differs from what would be generated.
//!
//! Three stages, one folder each, and this file runs them in order for every library: [`read`]
//! (specs, layouts, export tables, headers through bindgen), [`model`] (ABI keys and their
//! rules, prototypes, what differs between majors), [`emit`] (one module per kind of file).

mod emit;
mod model;
mod read;

use emit::{
    abi_fns, abi_types, compat, decls, formatting, libraries_json, manifest, mod_files, packaging,
    report, status_texts, types, versions, windows,
};
use model::{abi_diff, abi_versions, library_data, proc_address, status_codes, versioned_names};
use read::cache::{self, Layout};
use read::libraries::{self, Library};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Generated files: each one's path and full text.
type Files = Vec<(PathBuf, String)>;

/// Every file generated for one library, and its section of the ABI report.
fn library_files(
    library: Library,
    layouts: &[Layout],
    root: &Path,
) -> Result<(Files, String), String> {
    let mut files = Vec::new();
    let data = library_data::collect(library, layouts, root)?;
    let versions = abi_versions::AbiVersions::of(&data);
    let api = decls::api_rs(&data, &versions);
    let api_file = syn::parse_file(&api).map_err(|e| format!("generated api.rs: {e}"))?;
    let dir = mod_files::generated_dir(root, &library.crate_dir());
    if !versions.is_empty() {
        files.push((
            root.join(library.crate_dir()).join("versions.map"),
            versions::version_script(&data, &versions),
        ));
        let link = library.link_stub_crate().ok_or_else(|| {
            format!(
                "{}: versioned names without a link-time stub",
                library.name()
            )
        })?;
        files.push((
            mod_files::generated_dir(root, &stub_model::crate_dir_of(&link)).join("exports.rs"),
            formatting::rustfmt(&versions::link_stub_exports(&data, &versions))?,
        ));
    }
    for (path, text) in compat::exports_files(root, &data, &versions)? {
        files.push((path, formatting::rustfmt(&text)?));
    }
    for (name, text) in windows::def_files(&data, &versions) {
        files.push((root.join("packaging/windows").join(name), text));
    }
    let types = types::types_rs(&data, &api_file);
    // The newest major's header, for a typed error that is a macro bindgen leaves out.
    let header = layouts
        .iter()
        .rev()
        .find_map(|l| l.find_header(library.header).ok())
        .and_then(|path| std::fs::read_to_string(path).ok())
        .unwrap_or_default();
    status_codes::check(&library, &types, &header)?;
    if let Some(source) = library.proc_address {
        let (entries, unpaired) = proc_address::table(&data, source)?;
        eprintln!(
            "codegen: {} pairs for {} {} entry points ({unpaired} base names left to dlsym)",
            source.getter.to_string_lossy(),
            entries.len(),
            library.name(),
        );
        let text = emit::proc_address::rust_source(&decls::banner(&data), &entries)?;
        files.push((dir.join("proc_address.rs"), formatting::rustfmt(&text)?));
    }
    if let Some(text) = status_texts::rust_source(&decls::banner(&data), &data)? {
        files.push((dir.join("status_texts.rs"), formatting::rustfmt(&text)?));
    }
    if let Some(text) = emit::data::rust_source(&decls::banner(&data), &data) {
        files.push((dir.join("data.rs"), formatting::rustfmt(&text)?));
    }
    if let Some(rule) = library.versioned_names {
        let pairs = versioned_names::replacements(rule, &data.symbols);
        let text = emit::versioned_names::rust_source(&decls::banner(&data), &pairs);
        files.push((dir.join("versioned_names.rs"), formatting::rustfmt(&text)?));
    }
    let structs = abi_diff::struct_diffs(&data);
    let section = report::section(&data, &structs, &versions);
    let manifest = manifest::build(&data, &versions, structs);
    files.push((dir.join("api.rs"), formatting::rustfmt(&api)?));
    files.push((dir.join("types.rs"), formatting::rustfmt(&types)?));
    if let Some(abi_types) = abi_types::abi_types_rs(&data)? {
        files.push((dir.join("abi_types.rs"), formatting::rustfmt(&abi_types)?));
    }
    if let Some(abi_fns) = abi_fns::abi_fns_rs(&data)? {
        files.push((dir.join("abi_fns.rs"), formatting::rustfmt(&abi_fns)?));
    }
    files.push((
        root.join("manifest")
            .join(format!("{}.json", library.name())),
        manifest::to_json(&manifest),
    ));
    Ok((files, section))
}

fn generate(root: &Path) -> Result<Files, String> {
    let layouts = cache::load_layouts(&cache::cache_dir())?;
    // Libraries are independent (bindgen over each one's headers is most of the time): one
    // worker per core takes the next library, and the results keep the specs' order, so the
    // output does not depend on the thread count.
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut done: Vec<Option<Result<(Files, String), String>>> =
        (0..libraries::ALL.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers.min(libraries::ALL.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(library) = libraries::ALL.get(i) else {
                            return mine;
                        };
                        mine.push((i, library_files(**library, &layouts, root)));
                    }
                })
            })
            .collect();
        for handle in handles {
            let results = handle
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            for (i, result) in results {
                done[i] = Some(result);
            }
        }
    });
    let mut files = Vec::new();
    let mut sections = Vec::new();
    for result in done {
        let (library_files, section) = result.expect("every library was taken by a worker")?;
        files.extend(library_files);
        sections.push(section);
    }
    files.extend(mod_files::mod_files(&files)?);
    files.push((
        root.join("scripts/libraries.json"),
        libraries_json::libraries_json()?,
    ));
    files.push((
        root.join("scripts/libraries.sh"),
        emit::libraries_sh::libraries_sh(),
    ));
    files.extend(packaging::files(root)?);
    files.extend(compat::packaging_files(root));
    files.push((
        root.join("include/cuda_stubs.h"),
        formatting::c_header(root, &packaging::status_declarations())?,
    ));
    files.push((
        root.join("manifest/ABI-REPORT.md"),
        report::render(&sections),
    ));
    Ok(files)
}

fn main() -> ExitCode {
    let check = std::env::args().skip(1).any(|a| a == "--check");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("codegen lives in the workspace")
        .to_path_buf();
    // The fetch script's list depends on the specs alone: written first, so that a library
    // just added to a spec can be fetched (`scripts/fetch-cuda.py`) before the rest, which
    // reads its headers and libraries, can be generated.
    if !check {
        let path = root.join("scripts/libraries.json");
        let written = libraries_json::libraries_json()
            .and_then(|text| std::fs::write(&path, text).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("codegen: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    let files = match generate(&root) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("codegen: {e}");
            return ExitCode::from(2);
        }
    };
    let mut stale = 0;
    for (path, text) in &files {
        let current = std::fs::read_to_string(path).ok();
        if current.as_deref() == Some(text.as_str()) {
            continue;
        }
        let shown = path.strip_prefix(&root).unwrap_or(path).display();
        if check {
            eprintln!("codegen --check: {shown} is out of date");
            stale += 1;
            continue;
        }
        if let Some(dir) = path.parent() {
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("codegen: {}: {e}", dir.display());
                return ExitCode::from(2);
            }
        }
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("codegen: {shown}: {e}");
            return ExitCode::from(2);
        }
        eprintln!("codegen: wrote {shown}");
    }
    if stale > 0 {
        eprintln!("codegen --check: run `cargo run -p codegen --release` and commit the result");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

//! Export coverage: every function the real libraries export (libcudart and libnvrtc of CUDA
//! 11.8, 12.9 and 13.5, libnvJitLink of 12.9 and 13.5, and the libcuda 580 export list) is
//! exported by the matching stub and recorded in codegen's manifest.

use object::{Object, ObjectSymbol, SymbolKind};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use stubs_tests::{cuda_layout, stub, workspace_root};

const MAJORS: [u32; 3] = [11, 12, 13];

/// Defined, global `FUNC` dynamic symbols of a shared library.
fn exports(path: &Path) -> BTreeSet<String> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let file = object::File::parse(&*data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    file.dynamic_symbols()
        .filter(|s| s.is_definition() && s.is_global() && s.kind() == SymbolKind::Text)
        .filter_map(|s| s.name().ok().map(str::to_owned))
        .collect()
}

/// `$STUBS_DIR/libstubs_<lib>.so` when set, else the harness's build.
fn stub_path(lib: &str) -> PathBuf {
    match std::env::var_os("STUBS_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir).join(format!("libstubs_{lib}.so")),
        None => stub(lib),
    }
}

fn driver_list() -> BTreeSet<String> {
    let path = workspace_root().join("tests/data/libcuda-580.159.04-exports.txt");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
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

/// What each real library version exports, labelled for messages.
fn real_exports(lib: &str) -> Vec<(String, BTreeSet<String>)> {
    if lib == "cuda" {
        return vec![("libcuda 580.159.04".to_owned(), driver_list())];
    }
    let real: Vec<(String, BTreeSet<String>)> = MAJORS
        .iter()
        .filter_map(|&m| {
            let layout = cuda_layout(m);
            let path = match lib {
                "nvrtc" => layout.nvrtc.clone(),
                // nvJitLink exists from 12.0: the majors whose wheels have it.
                "nvjitlink" => layout.nvjitlink.clone()?,
                _ => layout.cudart.clone(),
            };
            Some((
                format!("{} ({})", path.display(), layout.version),
                exports(&path),
            ))
        })
        .collect();
    assert!(!real.is_empty(), "no real lib{lib} in the cache");
    real
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

fn check(lib: &str) {
    let real = real_exports(lib);
    let mut failures = missing_report(&format!("manifest/{lib}.json"), &manifest_names(lib), &real);
    let path = stub_path(lib);
    failures.push_str(&missing_report(
        &path.display().to_string(),
        &exports(&path),
        &real,
    ));
    assert!(failures.is_empty(), "{failures}");
}

#[test]
fn cudart_stub_exports_every_runtime_function() {
    check("cudart");
}

#[test]
fn nvrtc_stub_exports_every_nvrtc_function() {
    check("nvrtc");
}

#[test]
fn cuda_stub_exports_every_driver_function() {
    check("cuda");
}

#[test]
fn nvjitlink_stub_exports_every_nvjitlink_function() {
    check("nvjitlink");
}

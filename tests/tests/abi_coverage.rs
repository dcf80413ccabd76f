//! No call crosses a mismatched ABI: every cudart function whose prototype or struct layout
//! differs in some CUDA major (`abi_identical: false` in `manifest/cudart.json`) must either be
//! hand-written (an adapter in `stubs-cudart/src/adapters/` translates it) or be declared with
//! an `abi = [..]` that leaves that major out (the macro refuses it with 801). A new CUDA
//! release that changes an ABI fails here until one of the two is done. A hand-written
//! function must also really be exported by the stub (the macro emits no export for it).

use std::collections::BTreeMap;
use std::process::Command;
use stubs_tests::{decls, stub, workspace_root};

fn manifest() -> serde_json::Value {
    let path = workspace_root().join("manifest/cudart.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("manifest is JSON")
}

#[test]
fn every_abi_difference_is_adapted_or_refused() {
    let declared: BTreeMap<String, decls::StubFn> = decls::declared("cudart")
        .into_iter()
        .map(|f| (f.name(), f))
        .collect();
    let manifest = manifest();
    let mut problems = Vec::new();
    let mut differing = 0;
    for symbol in manifest["symbols"].as_array().expect("symbols") {
        let name = symbol["name"].as_str().expect("name");
        let Some(identical) = symbol["abi_identical"].as_object() else {
            continue;
        };
        for (major, same) in identical {
            if same.as_bool() != Some(false) {
                continue;
            }
            differing += 1;
            let major: u32 = major.parse().expect("major");
            let Some(decl) = declared.get(name) else {
                problems.push(format!(
                    "{name}: ABI differs in CUDA {major} but is not declared"
                ));
                continue;
            };
            if decl.hand_written || !decl.abi.contains(&major) {
                continue;
            }
            problems.push(format!(
                "{name}: ABI differs in CUDA {major}, yet it is declared with abi {:?} and not hand_written: the call would cross a mismatched ABI",
                decl.abi
            ));
        }
    }
    assert!(
        differing > 50,
        "only {differing} ABI differences in the manifest"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_hand_written_function_is_exported() {
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(stub("cudart"))
        .output()
        .expect("run nm");
    assert!(out.status.success(), "nm failed");
    let text = String::from_utf8_lossy(&out.stdout);
    let exported: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .collect();
    let missing: Vec<String> = decls::declared("cudart")
        .into_iter()
        .filter(|f| f.hand_written && !exported.contains(&f.name().as_str()))
        .map(|f| f.name())
        .collect();
    assert!(
        missing.is_empty(),
        "hand_written but not exported: {missing:?}"
    );
}

/// The `.rs` files under `dir`, recursively.
fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Every entry point an adapter looks up (`RawFn::new(c"...")`) has a generated prototype in
/// `abi_fns.rs` (codegen derives that list from the hand-written exports, not from the
/// adapters, so a call to some other name would otherwise be typed by hand again).
#[test]
fn every_adapter_lookup_has_a_generated_prototype() {
    let src = workspace_root().join("stubs-cudart/src");
    let fns = std::fs::read_to_string(src.join("abi_fns.rs")).expect("abi_fns.rs");
    let mut looked_up = 0;
    let mut missing = Vec::new();
    for file in rust_files(&src.join("adapters")) {
        let text = std::fs::read_to_string(&file).expect("adapter source");
        for (at, pattern) in text.match_indices("RawFn::new(c\"") {
            let rest = &text[at + pattern.len()..];
            let name = &rest[..rest.find('"').expect("closing quote")];
            looked_up += 1;
            if !fns.contains(&format!("pub type {name} =")) {
                missing.push(format!("{}: {name}", file.display()));
            }
        }
    }
    assert!(
        looked_up > 50,
        "only {looked_up} lookups found: is the pattern stale?"
    );
    assert!(missing.is_empty(), "no abi_fns prototype for: {missing:#?}");
}

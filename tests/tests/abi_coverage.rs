//! No call crosses a mismatched ABI: every cudart function whose prototype or struct layout
//! differs in some CUDA major (`abi_identical: false` in `manifest/cudart.json`) must either be
//! hand-written (an adapter in `stubs-cudart/src/adapters/` translates it) or be declared with
//! an `abi = [..]` that leaves that major out (the macro refuses it with 801). A new CUDA
//! release that changes an ABI fails here until one of the two is done. A name exported once
//! per ABI (its `versions` in the manifest) is checked version by version, against that
//! version's declaration. A hand-written function must also really be exported by the stub,
//! at its version (the macro emits no export for an unversioned one).

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
    let declared: BTreeMap<(String, Option<u32>), decls::StubFn> = decls::declared("cudart")
        .into_iter()
        .map(|f| ((f.name(), f.attr.version), f))
        .collect();
    let manifest = manifest();
    let mut problems = Vec::new();
    let mut differing = 0;
    let mut versions_seen = 0;
    for symbol in manifest["symbols"].as_array().expect("symbols") {
        let name = symbol["name"].as_str().expect("name");
        // (version, that version's abi_identical): one per ABI for a versioned name.
        let checks: Vec<(Option<u32>, &serde_json::Value)> = match symbol["versions"].as_object() {
            Some(versions) => versions
                .iter()
                .map(|(v, entry)| (Some(v.parse().expect("major")), &entry["abi_identical"]))
                .collect(),
            None => vec![(None, &symbol["abi_identical"])],
        };
        for (version, identical) in checks {
            versions_seen += usize::from(version.is_some());
            let Some(identical) = identical.as_object() else {
                continue;
            };
            let Some(decl) = declared.get(&(name.to_owned(), version)) else {
                problems.push(format!("{name} (version {version:?}): not declared"));
                continue;
            };
            let same: Vec<u32> = identical
                .iter()
                .filter(|(_, same)| same.as_bool() == Some(true))
                .map(|(m, _)| m.parse().expect("major"))
                .collect();
            if decl.attr.abi != same {
                problems.push(format!(
                    "{name} (version {version:?}): declared abi {:?}, the manifest says {same:?}",
                    decl.attr.abi
                ));
            }
            for (major, same) in identical {
                if same.as_bool() != Some(false) {
                    continue;
                }
                differing += 1;
                let major: u32 = major.parse().expect("major");
                if decl.attr.hand_written || !decl.attr.abi.contains(&major) {
                    continue;
                }
                problems.push(format!(
                    "{name} (version {version:?}): ABI differs in CUDA {major}, yet it is declared with abi {:?} and not hand_written: the call would cross a mismatched ABI",
                    decl.attr.abi
                ));
            }
        }
    }
    assert!(
        differing > 50,
        "only {differing} ABI differences in the manifest"
    );
    assert_eq!(
        versions_seen, 70,
        "35 names, each with a 12 and a 13 version"
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
    let declared = decls::declared("cudart");
    // A versioned declaration is exported as `name@NODE`, the newest version as `name@@NODE`.
    let symbol = |f: &decls::StubFn| match f.attr.version {
        None => f.name(),
        Some(v) => {
            let newest = declared
                .iter()
                .filter(|g| g.name() == f.name())
                .all(|g| g.attr.version <= f.attr.version);
            let at = if newest { "@@" } else { "@" };
            format!("{}{at}CUDA_STUBS_CUDART_{v}", f.name())
        }
    };
    let missing: Vec<String> = declared
        .iter()
        .filter(|f| f.attr.hand_written && !exported.contains(&symbol(f).as_str()))
        .map(symbol)
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
    let fns = std::fs::read_to_string(src.join("generated/abi_fns.rs")).expect("abi_fns.rs");
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

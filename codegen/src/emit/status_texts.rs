//! `src/generated/status_texts.rs` of a library with error-text exports (the spec's
//! `error_texts`): every enumerator of its status type, with the header's documentation of it,
//! the table `stub_loader::ErrorTexts` answers from when the real library cannot
//! (`cublasGetStatusName(1)` = `CUBLAS_STATUS_NOT_INITIALIZED` with no cuBLAS at all).
//!
//! Names come from the bindings of every major, newest first (a value only an older major
//! defines keeps its old name; a value two enumerators share keeps the first declared). A
//! description is the Doxygen comment the header writes for the enumerator: a block before it
//! (`/** … */`, the runtime and the driver) or a trailing one on its line (`//!< …`, NVML;
//! `/**< … */`), one line, Doxygen's markup removed; none for a header without (cuBLAS).

use crate::model::library_data::LibraryData;
use crate::read::headers::View;
use quote::ToTokens;
use std::collections::BTreeMap;
use std::path::Path;

/// The Rust source of `status_texts.rs` for `data`'s library, or `None` when its spec lists no
/// error-text export.
pub fn rust_source(banner: &str, data: &LibraryData) -> Result<Option<String>, String> {
    let library = &data.library;
    if library.error_texts.is_empty() {
        return Ok(None);
    }
    let mut names: BTreeMap<i64, String> = BTreeMap::new();
    let mut majors = data.majors();
    majors.reverse();
    for &major in &majors {
        let Some(view) = data.views.get(&(major, View::Default)) else {
            continue;
        };
        for (code, name) in enumerators(&view.type_items, library.status_type) {
            names.entry(code).or_insert(name);
        }
    }
    if names.is_empty() {
        return Err(format!(
            "{}: no enumerator of {} in the bindings",
            library.name(),
            library.status_type
        ));
    }
    // The newest header that documents an enumerator describes it.
    let mut headers = Vec::new();
    for layout in data.layouts.iter().rev() {
        for dir in &layout.include {
            headers.extend(header_texts(dir)?);
        }
    }
    let mut rows = String::new();
    for (code, name) in &names {
        let description = headers.iter().find_map(|text| description(text, name));
        let description = match description {
            Some(d) => format!("Some({})", c_literal(&d)),
            None => "None".to_string(),
        };
        rows.push_str(&format!(
            "StatusText {{ code: {code}, name: {}, description: {description} }},\n",
            c_literal(name)
        ));
    }
    Ok(Some(format!(
        "{banner}//! Every `{status}` the headers define, with the header's description where it has one\n\
         //! (codegen/src/emit/status_texts.rs): what the error-text exports answer when the real library\n\
         //! cannot (`stub_loader::ErrorTexts`).\n\n\
         use stub_loader::StatusText;\n\n\
         /// Sorted by code; {} enumerators.\n\
         pub static STATUS_TEXTS: &[StatusText] = &[\n{rows}];\n",
        names.len(),
        status = library.status_type,
    )))
}

/// `(value, name)` of every constant of `status` (or of the enum it aliases) in `items`, in
/// declaration order.
fn enumerators(items: &[syn::Item], status: &str) -> Vec<(i64, String)> {
    let mut types = vec![status.to_string()];
    for item in items {
        match item {
            // bindgen: `pub use self::cudaError as cudaError_t;`
            syn::Item::Use(u) => {
                if let syn::UseTree::Path(p) = &u.tree
                    && let syn::UseTree::Rename(r) = &*p.tree
                    && r.rename == status
                {
                    types.push(r.ident.to_string());
                }
            }
            syn::Item::Type(t) if t.ident == status => {
                types.push(t.ty.to_token_stream().to_string().replace(' ', ""));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for item in items {
        let syn::Item::Const(c) = item else { continue };
        let ty = c.ty.to_token_stream().to_string();
        if !types.contains(&ty) {
            continue;
        }
        let value = c.expr.to_token_stream().to_string().replace(' ', "");
        if let Ok(code) = value.parse::<i64>() {
            out.push((code, c.ident.to_string()));
        }
    }
    out
}

/// The text of every `.h` file directly in `dir`, sorted by name.
fn header_texts(dir: &Path) -> Result<Vec<String>, String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "h"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            std::fs::read(p)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .map_err(|e| format!("{}: {e}", p.display()))
        })
        .collect()
}

/// The Doxygen comment `text` writes for the enumerator `name` (its line `name = value`), one
/// line; `None` where it has none.
fn description(text: &str, name: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|line| {
        line.trim_start()
            .strip_prefix(name)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    })?;
    // Trailing: `NAME = 1, //!< text` or `/**< text */`.
    let line = lines[at];
    for marker in ["//!<", "///<", "/**<", "/*!<"] {
        if let Some(i) = line.find(marker) {
            let rest = &line[i + marker.len()..];
            let rest = rest.split("*/").next().unwrap_or(rest);
            return clean(rest);
        }
    }
    // Before: a `/** … */` block ending on the line above (blank lines between allowed).
    let mut end = at;
    while end > 0 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    if end == 0 || !lines[end - 1].trim_end().ends_with("*/") {
        return None;
    }
    let mut start = end - 1;
    loop {
        let t = lines[start].trim_start();
        if t.starts_with("/**") || t.starts_with("/*!") {
            break;
        }
        if t.starts_with("/*") || start == 0 || at - start > 40 {
            return None;
        }
        start -= 1;
    }
    let block = lines[start..end].join("\n");
    let block = block
        .trim()
        .trim_start_matches("/**")
        .trim_start_matches("/*!")
        .trim_end_matches("*/");
    let body: Vec<&str> = block
        .lines()
        .map(|l| l.trim().trim_start_matches('*').trim())
        .collect();
    clean(&body.join(" "))
}

/// One line of a comment's words, Doxygen's markup removed: `\deprecated` becomes
/// "Deprecated:", `\ref`/`\p`/`\c` and the `::` of cross-references go.
fn clean(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split_whitespace()
        .filter(|w| !matches!(*w, "\\ref" | "\\p" | "\\c" | "\\link" | "\\endlink"))
        .map(|w| match w {
            "\\deprecated" => "Deprecated:".to_string(),
            _ => w.trim_start_matches("::").to_string(),
        })
        .collect();
    let line = words.join(" ");
    (!line.is_empty()).then_some(line)
}

/// `s` as a Rust C-string literal.
fn c_literal(s: &str) -> String {
    format!("c{:?}", s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_and_trailing_comments() {
        let header = "enum e {\n    /**\n     * The API call failed because it was unable to\n     * allocate, see ::cudaMalloc().\n     */\n    cudaErrorMemoryAllocation = 2,\n    NVML_ERROR_UNINITIALIZED = 1, //!< NVML was not first initialized\n    CUBLAS_STATUS_SUCCESS = 0,\n};\n";
        assert_eq!(
            description(header, "cudaErrorMemoryAllocation").as_deref(),
            Some("The API call failed because it was unable to allocate, see cudaMalloc().")
        );
        assert_eq!(
            description(header, "NVML_ERROR_UNINITIALIZED").as_deref(),
            Some("NVML was not first initialized")
        );
        assert_eq!(description(header, "CUBLAS_STATUS_SUCCESS"), None);
    }
}

//! Export tables: the defined dynamic `FUNC` symbols of the real shared libraries.

use object::{Object, ObjectSymbol, SymbolKind};
use std::collections::BTreeSet;
use std::path::Path;

/// The functions `path` exports (defined, global, `STT_FUNC` dynamic symbols), less its weak
/// C++ definitions ([`is_vague_linkage`]).
pub fn function_exports(path: &Path) -> Result<BTreeSet<String>, String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = object::File::parse(&*data).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut names = BTreeSet::new();
    for sym in file.dynamic_symbols() {
        if sym.is_definition() && sym.is_global() && sym.kind() == SymbolKind::Text {
            if let Ok(name) = sym.name() {
                if !is_vague_linkage(name, sym.is_weak()) {
                    names.insert(name.to_owned());
                }
            }
        }
    }
    Ok(names)
}

/// Whether an export is a weak C++ definition (a mangled `_Z` name, `STB_WEAK`): vague linkage,
/// a template instantiation or inline function of the headers the library was built with
/// (cuSPARSELt 0.8.1 exports `std::vector<unsigned char>::push_back`), never its API. Every C++
/// object using it has its own copy; a stub exporting it would interpose them all and send
/// them to the real library. A weak C name stays (NCCL's `ncclAllReduce`, weak beside its
/// strong profiling alias `pncclAllReduce`).
fn is_vague_linkage(name: &str, weak: bool) -> bool {
    weak && name.starts_with("_Z")
}

/// A checked-in export list: one name a line, `#` comments and blank lines ignored.
pub fn list_file(path: &Path) -> Result<BTreeSet<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::is_vague_linkage;

    #[test]
    fn weak_cxx_definitions_are_not_the_api() {
        assert!(is_vague_linkage("_ZNSt6vectorIhSaIhEE9push_backERKh", true));
        assert!(!is_vague_linkage("ncclAllReduce", true));
        assert!(!is_vague_linkage("_ZN4cufft4planEv", false));
    }
}

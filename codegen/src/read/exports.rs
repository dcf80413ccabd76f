//! Export tables: the defined dynamic `FUNC` symbols of the real shared libraries, and their
//! data objects.

use object::{Object, ObjectSymbol, SymbolKind, SymbolSection};
use std::collections::BTreeSet;
use std::path::Path;

/// The functions `path` exports (defined, global, `STT_FUNC` dynamic symbols) that are C entry
/// points (`stub_model::is_c_entry_point`: no C++ symbol, no `_init` / `_fini`).
pub fn function_exports(path: &Path) -> Result<BTreeSet<String>, String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = object::File::parse(&*data).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut names = BTreeSet::new();
    for sym in file.dynamic_symbols() {
        if sym.is_definition()
            && sym.is_global()
            && sym.kind() == SymbolKind::Text
            && let Ok(name) = sym.name()
            && stub_model::is_c_entry_point(name)
        {
            names.insert(name.to_owned());
        }
    }
    Ok(names)
}

/// The data objects `path` exports (defined, global, `STT_OBJECT` dynamic symbols of a
/// section; not the absolute symbols naming the library's version nodes, `libcutensor.2.0.0`,
/// and no C++ object: a mangled `_Z` name is no C API, and those a library exports are vague
/// linkage of the C++ headers it was built with, `STB_GNU_UNIQUE` or weak, like
/// cuSPARSELt 0.8.1's `std::piecewise_construct`).
pub fn data_exports(path: &Path) -> Result<BTreeSet<String>, String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = object::File::parse(&*data).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(file
        .dynamic_symbols()
        .filter(|s| s.is_definition() && s.is_global() && s.kind() == SymbolKind::Data)
        .filter(|s| matches!(s.section(), SymbolSection::Section(_)))
        .filter_map(|s| s.name().ok().map(str::to_owned))
        .filter(|name| stub_model::is_c_entry_point(name))
        .collect())
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

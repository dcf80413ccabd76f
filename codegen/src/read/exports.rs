//! Export tables: the defined dynamic `FUNC` symbols of the real shared libraries, and their
//! data objects.

use object::{Object, ObjectSymbol, SymbolKind, SymbolSection};
use std::collections::BTreeSet;
use std::path::Path;

/// The functions `path` exports (defined, global, `STT_FUNC` dynamic symbols).
pub fn function_exports(path: &Path) -> Result<BTreeSet<String>, String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = object::File::parse(&*data).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut names = BTreeSet::new();
    for sym in file.dynamic_symbols() {
        if sym.is_definition() && sym.is_global() && sym.kind() == SymbolKind::Text {
            if let Ok(name) = sym.name() {
                names.insert(name.to_owned());
            }
        }
    }
    Ok(names)
}

/// The data objects `path` exports (defined, global, `STT_OBJECT` dynamic symbols of a
/// section; not the absolute symbols naming the library's version nodes, `libcutensor.2.0.0`).
pub fn data_exports(path: &Path) -> Result<BTreeSet<String>, String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = object::File::parse(&*data).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(file
        .dynamic_symbols()
        .filter(|s| s.is_definition() && s.is_global() && s.kind() == SymbolKind::Data)
        .filter(|s| matches!(s.section(), SymbolSection::Section(_)))
        .filter_map(|s| s.name().ok().map(str::to_owned))
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

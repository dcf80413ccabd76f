//! Export tables: the defined dynamic `FUNC` symbols of the real shared libraries.

use object::{Object, ObjectSymbol, SymbolKind};
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

//! ELF symbol versions of a shared object or executable, read with `object`: the version nodes
//! a library defines (`.gnu.version_d`), the version each dynamic symbol has (`.gnu.version`)
//! and the versions an object needs (`.gnu.version_r`), as `readelf --dyn-syms -V` shows them.

use object::elf::{FileHeader64, SHT_DYNSYM};
use object::read::elf::{FileHeader, Sym};
use object::{LittleEndian, SymbolIndex};
use std::collections::BTreeMap;
use std::path::Path;

/// How one dynamic symbol is exported.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Export {
    /// `None`: unversioned (the base, `VER_NDX_GLOBAL`); else the version node's name.
    pub node: Option<String>,
    /// `true` for `name@@NODE` (what a link against this file records), `false` for `name@NODE`.
    pub default: bool,
}

/// What `readelf` shows of one file's symbol versions.
#[derive(Debug, Default)]
pub struct Versions {
    /// Defined version nodes by index (2, 3 …; the base, index 1, is the SONAME and left out).
    pub defined: BTreeMap<u16, String>,
    /// Each defined dynamic `FUNC` symbol: its exports (several for a versioned name).
    pub exports: BTreeMap<String, Vec<Export>>,
    /// Each undefined dynamic symbol with a needed version: `(name, node, file)`.
    pub needed: Vec<(String, String, String)>,
}

impl Versions {
    /// The names exported under more than one version, with their exports.
    pub fn versioned(&self) -> BTreeMap<&str, &[Export]> {
        self.exports
            .iter()
            .filter(|(_, e)| e.iter().any(|x| x.node.is_some()))
            .map(|(n, e)| (n.as_str(), e.as_slice()))
            .collect()
    }

    /// The version node `name`'s reference records, if it needs one.
    pub fn needs(&self, name: &str) -> Option<&str> {
        self.needed
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, node, _)| node.as_str())
    }
}

/// Reads `path` (a 64-bit little-endian ELF: x86-64 or aarch64).
pub fn read(path: &Path) -> Versions {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let data = &data[..];
    let fail = |e: object::Error| -> ! { panic!("{}: {e}", path.display()) };
    let header = FileHeader64::<LittleEndian>::parse(data).unwrap_or_else(|e| fail(e));
    let endian = header.endian().unwrap_or_else(|e| fail(e));
    let sections = header.sections(endian, data).unwrap_or_else(|e| fail(e));
    let symbols = sections
        .symbols(endian, data, SHT_DYNSYM)
        .unwrap_or_else(|e| fail(e));
    let Some(table) = sections.versions(endian, data).unwrap_or_else(|e| fail(e)) else {
        return Versions::default();
    };
    let mut out = Versions::default();
    if let Some((mut verdefs, _)) = sections
        .gnu_verdef(endian, data)
        .unwrap_or_else(|e| fail(e))
    {
        while let Some((verdef, mut aux)) = verdefs.next().unwrap_or_else(|e| fail(e)) {
            if verdef.vd_flags.get(endian) & object::elf::VER_FLG_BASE != 0 {
                continue;
            }
            if let Some(aux) = aux.next().unwrap_or_else(|e| fail(e)) {
                let name = aux
                    .name(endian, symbols.strings())
                    .unwrap_or_else(|e| fail(e));
                out.defined.insert(
                    verdef.vd_ndx.get(endian),
                    String::from_utf8_lossy(name).into_owned(),
                );
            }
        }
    }
    for (i, sym) in symbols.iter().enumerate() {
        let name = sym
            .name(endian, symbols.strings())
            .unwrap_or_else(|e| fail(e));
        let name = String::from_utf8_lossy(name).into_owned();
        let index = table.version_index(endian, SymbolIndex(i));
        let version = table.version(index).unwrap_or_else(|e| fail(e));
        if sym.is_undefined(endian) {
            if let Some(v) = version {
                out.needed.push((
                    name,
                    String::from_utf8_lossy(v.name()).into_owned(),
                    String::from_utf8_lossy(v.file().unwrap_or_default()).into_owned(),
                ));
            }
            continue;
        }
        if sym.st_type() != object::elf::STT_FUNC {
            continue;
        }
        out.exports.entry(name).or_default().push(Export {
            node: version.map(|v| String::from_utf8_lossy(v.name()).into_owned()),
            default: !index.is_hidden(),
        });
    }
    for exports in out.exports.values_mut() {
        exports.sort();
    }
    out
}

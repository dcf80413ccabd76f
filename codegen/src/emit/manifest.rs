//! The merged per-library manifest, `manifest/<library>.json`.

use crate::model::abi_diff::{self, StructDiff};
use crate::model::abi_versions::AbiVersions;
use crate::model::library_data::LibraryData;
use crate::model::spelling;
use crate::model::symbol::{Origin, Prototype, Symbol};
use crate::model::type_table::Widening;
use crate::read::cache::NEWEST;
use serde::Serialize;
use std::collections::BTreeMap;

/// One library's manifest.
#[derive(Serialize)]
pub struct Manifest {
    /// `cudart`, `nvrtc` or `cuda`.
    pub library: String,
    /// The header parsed (plus interop headers).
    pub header: String,
    /// Full version per major.
    pub versions: BTreeMap<u32, String>,
    /// The major whose ABI the stub exports; for a name in `version_nodes`, the default (`@@`)
    /// version's.
    pub exported_abi: u32,
    /// ELF version nodes, newest first, of the names exported once per ABI (each symbol's
    /// `versions`); none when every name has one definition.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub version_nodes: Vec<String>,
    /// Every symbol, sorted by name.
    pub symbols: Vec<SymbolEntry>,
    /// The data objects the real libraries export, sorted by name: the stub exports a stand-in
    /// of each (`stub_loader::StandIns`); none for most libraries.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub data: Vec<DataEntry>,
    /// Structs whose layout differs between majors.
    pub struct_layouts: Vec<StructDiff>,
    /// Declared by a header, exported by no library (not stubbed).
    pub declared_not_exported: BTreeMap<String, Vec<u32>>,
    /// Fields an older header declares plainly and a newer one as a same-size union or struct
    /// holding them at offset 0 (ABI kept).
    pub widened_fields: Vec<Widening>,
}

/// One symbol.
#[derive(Serialize)]
pub struct SymbolEntry {
    /// C name.
    pub name: String,
    /// Majors the stub forwards to.
    pub majors: Vec<u32>,
    /// Majors whose library exports it (empty for the driver).
    pub exported_by: Vec<u32>,
    /// Majors whose header declares it.
    pub declared_by: Vec<u32>,
    /// The major whose prototype is declared; absent when opaque.
    pub declared_major: Option<u32>,
    /// No prototype known: forwarded by a register-preserving tail jump.
    pub opaque: bool,
    /// Implemented by hand in the stub crate.
    pub hand_written: bool,
    /// Prototype per major.
    pub prototypes: BTreeMap<u32, PrototypeEntry>,
    /// Per major: whether its ABI equals the declared prototype's.
    pub abi_identical: BTreeMap<u32, bool>,
    /// For a name exported once per ABI: per ABI major, that version's export.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub versions: BTreeMap<u32, VersionEntry>,
}

/// One exported data object.
#[derive(Serialize)]
pub struct DataEntry {
    /// C name.
    pub name: String,
    /// Majors whose library exports it (the stand-in of another is refused).
    pub exported_by: Vec<u32>,
    /// The newest major whose header declares it.
    pub declared_major: u32,
    /// Its type, spelled back in C (always a pointer: a stand-in is an address).
    pub c_type: String,
}

/// One version of a name exported once per ABI.
#[derive(Serialize)]
pub struct VersionEntry {
    /// The versioned symbol, `name@NODE`, or `name@@NODE` for the default.
    pub symbol: String,
    /// The major whose prototype this version has.
    pub declared_major: u32,
    /// Per runtime major: whether its ABI equals this version's (else an adapter translates,
    /// or the call is refused).
    pub abi_identical: BTreeMap<u32, bool>,
    /// Implemented by hand (an adapter) in the stub crate.
    pub hand_written: bool,
}

fn version_entry(versions: &AbiVersions, major: u32, default: bool, s: &Symbol) -> VersionEntry {
    let at = if default { "@@" } else { "@" };
    VersionEntry {
        symbol: format!("{}{at}{}", s.name, versions.node(major)),
        declared_major: s.reference.unwrap_or(major),
        abi_identical: s.majors.iter().map(|m| (*m, s.abi.contains(m))).collect(),
        hand_written: s.hand_written,
    }
}

/// One major's prototype.
#[derive(Serialize)]
pub struct PrototypeEntry {
    /// `header:<view>` or `internal-table`.
    pub source: String,
    /// C-like prototype.
    pub c: String,
    /// Return type as bindgen spells it.
    pub ret: String,
    /// Parameters.
    pub params: Vec<Param>,
}

/// One parameter.
#[derive(Serialize)]
pub struct Param {
    /// C name (Rust keywords suffixed `_`).
    pub name: String,
    /// Type as bindgen spells it.
    #[serde(rename = "type")]
    pub ty: String,
    /// Type spelled back in C.
    pub c_type: String,
    /// Size passed by value, in bytes.
    pub size: Option<u64>,
}

fn prototype_entry(data: &LibraryData, name: &str, major: u32, p: &Prototype) -> PrototypeEntry {
    let types = abi_diff::table_of(data, major, p);
    let mut source = match p.origin {
        Origin::Header(v) => format!("header:{}", v.name()),
        Origin::InternalTable => "internal-table".to_owned(),
    };
    // A per-version ABI name's prototype, declared by the header under another of its names.
    if p.item.sig.ident != name {
        source.push_str(&format!(" as {}", p.item.sig.ident));
    }
    let params = p
        .item
        .sig
        .inputs
        .iter()
        .filter_map(|i| match i {
            syn::FnArg::Typed(pt) => Some(Param {
                name: quote::ToTokens::to_token_stream(&pt.pat).to_string(),
                ty: spelling::rust(&pt.ty),
                c_type: spelling::c(&pt.ty),
                size: types.size_of(&pt.ty),
            }),
            _ => None,
        })
        .collect();
    PrototypeEntry {
        source,
        c: abi_diff::c_prototype(name, &p.item),
        ret: match &p.item.sig.output {
            syn::ReturnType::Default => "void".to_owned(),
            syn::ReturnType::Type(_, t) => spelling::rust(t),
        },
        params,
    }
}

/// Builds the manifest.
pub fn build(
    data: &LibraryData,
    versions: &AbiVersions,
    struct_layouts: Vec<StructDiff>,
) -> Manifest {
    Manifest {
        library: data.library.name().to_owned(),
        header: data.library.header.to_owned(),
        versions: data
            .layouts
            .iter()
            .map(|l| (l.major, l.version.clone()))
            .collect(),
        // The newest major that has the library (NVTX 2's last is 12.8).
        exported_abi: data.majors().last().copied().unwrap_or(NEWEST),
        version_nodes: if versions.is_empty() {
            Vec::new()
        } else {
            versions.majors().map(|m| versions.node(m)).to_vec()
        },
        symbols: data
            .symbols
            .iter()
            .map(|s| SymbolEntry {
                name: s.name.clone(),
                majors: s.majors.clone(),
                exported_by: s.exported_by.clone(),
                declared_by: s.declared_by.clone(),
                declared_major: s.reference,
                opaque: s.opaque(),
                hand_written: s.hand_written,
                prototypes: s
                    .prototypes
                    .iter()
                    .map(|(m, p)| (*m, prototype_entry(data, &s.name, *m, p)))
                    .collect(),
                abi_identical: s.majors.iter().map(|m| (*m, s.abi.contains(m))).collect(),
                versions: match versions.older(&s.name) {
                    Some(older) => {
                        let [newest, old] = versions.majors();
                        BTreeMap::from([
                            (newest, version_entry(versions, newest, true, s)),
                            (old, version_entry(versions, old, false, older)),
                        ])
                    }
                    None => BTreeMap::new(),
                },
            })
            .collect(),
        data: data
            .data
            .iter()
            .map(|d| DataEntry {
                name: d.name.clone(),
                exported_by: d.exported_by.clone(),
                declared_major: d.declared_major,
                c_type: spelling::c(&d.ty),
            })
            .collect(),
        struct_layouts,
        declared_not_exported: data.declared_not_exported.clone(),
        widened_fields: data.widenings.clone(),
    }
}

/// JSON with a trailing newline, indented two levels deep and compact below ([`OneLinePerItem`]):
/// one line per symbol, struct layout and undeclared export.
pub fn to_json(m: &Manifest) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, OneLinePerItem::default());
    m.serialize(&mut ser).expect("manifest serializes");
    String::from_utf8(out).expect("JSON is UTF-8") + "\n"
}

/// serde_json's pretty layout (two-space indents) for the manifest's top level and its lists,
/// and compact JSON for each item of them: NPP's eleven manifests were 47 MB pretty-printed
/// throughout (13,726 symbols, each with up to three majors' prototypes), and the checked-in
/// tree must stay small enough to copy (the GPU machines take 64 MiB); a diff still shows one
/// changed symbol as one changed line.
#[derive(Default)]
struct OneLinePerItem {
    /// Containers open around the next token (1 inside the top-level object).
    depth: usize,
    /// Whether the innermost container has an item yet.
    has_value: bool,
}

impl OneLinePerItem {
    /// The deepest container whose items get a line each.
    const PRETTY_DEPTH: usize = 2;

    fn begin<W: ?Sized + std::io::Write>(&mut self, w: &mut W, open: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(open)
    }

    fn end<W: ?Sized + std::io::Write>(&mut self, w: &mut W, close: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        if self.depth < Self::PRETTY_DEPTH && self.has_value {
            w.write_all(b"\n")?;
            w.write_all(&b"  ".repeat(self.depth))?;
        }
        w.write_all(close)
    }

    fn item<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if self.depth > Self::PRETTY_DEPTH {
            return w.write_all(if first { b"" } else { b"," });
        }
        w.write_all(if first { b"\n" } else { b",\n" })?;
        w.write_all(&b"  ".repeat(self.depth))
    }
}

impl serde_json::ser::Formatter for OneLinePerItem {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.begin(w, b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.end(w, b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.begin(w, b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.end(w, b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(if self.depth > Self::PRETTY_DEPTH {
            b":"
        } else {
            b": "
        })
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

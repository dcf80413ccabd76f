//! `manifest/ABI-REPORT.md`: every cross-major difference, for people.

use crate::model::abi_diff::{self, Change, StructDiff};
use crate::model::abi_versions::AbiVersions;
use crate::model::library_data::LibraryData;
use crate::model::symbol::Symbol;
use crate::read::cache::{MAJORS, NEWEST};
use std::fmt::Write;
use stub_model::ExportSource;

fn v(data: &LibraryData, major: u32) -> String {
    data.layout(major).short_version()
}

fn size(s: Option<u64>) -> String {
    s.map_or("?".to_owned(), |s| s.to_string())
}

/// What one version of a name does on runtime `major`.
fn on_runtime(s: &Symbol, major: u32) -> &'static str {
    if !s.majors.contains(&major) {
        "absent (801)"
    } else if s.abi.contains(&major) {
        "forwarded"
    } else if s.hand_written {
        "adapter"
    } else {
        "refused (801)"
    }
}

/// The names exported once per ABI: both versions, and what each does on each runtime major.
fn versions_table(data: &LibraryData, versions: &AbiVersions) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### Exported once per ABI (ELF symbol versions)\n\n\
         Names whose prototype, or a struct it reaches, differs between the {} and {} headers: \
         the stub exports each twice, `name@@{}` (the default a link against \
         `libstubs_{}.so` records) and `name@{}` (what a link against the link-time stub \
         `libstubs_{}_abi{}.so` records), each with its own implementation. Per runtime \
         major: *forwarded* (same ABI), *adapter* (translated by hand, see the adapter \
         tables in docs/src/across-majors.md), *refused* or *absent* (`cudaErrorNotSupported`, 801).\n",
        v(data, crate::model::abi_versions::OLDER),
        v(data, NEWEST),
        versions.node(NEWEST),
        data.library.name(),
        versions.node(crate::model::abi_versions::OLDER),
        data.library.name(),
        crate::model::abi_versions::OLDER,
    );
    let heads: Vec<String> = MAJORS
        .iter()
        .map(|m| format!("on {}", v(data, *m)))
        .collect();
    let _ = writeln!(
        out,
        "| name | version | prototype | {} |",
        heads.join(" | ")
    );
    let _ = writeln!(out, "|---|---|---|{}", "---|".repeat(MAJORS.len()));
    let newest = data.symbols.iter().map(|s| (s.name.as_str(), s));
    for (name, s) in newest {
        let Some(older) = versions.older(name) else {
            continue;
        };
        // Spelled alike, the two prototypes differ in the layouts of the structs they reach.
        let layouts: Vec<String> = abi_diff::function_changes(data, s)
            .into_iter()
            .filter(|(m, _)| *m == crate::model::abi_versions::OLDER)
            .filter_map(|(_, change)| match change {
                Change::Layout { structs } => Some(structs),
                _ => None,
            })
            .flatten()
            .filter(|(_, a, b)| a.is_some() && b.is_some())
            .map(|(n, a, b)| format!("`{n}` {} / {} B", size(b), size(a)))
            .collect();
        for (i, (sym, at, major)) in [
            (s, "@@", NEWEST),
            (older, "@", crate::model::abi_versions::OLDER),
        ]
        .into_iter()
        .enumerate()
        {
            let mut proto = sym.declared().map_or_else(String::new, |p| {
                format!("`{}`", abi_diff::c_prototype(&sym.name, &p.item))
            });
            if i == 0 && !layouts.is_empty() {
                let _ = write!(proto, " (layouts 13.5 / 12.9: {})", layouts.join(", "));
            }
            let cells: Vec<&str> = MAJORS.iter().map(|m| on_runtime(sym, *m)).collect();
            let _ = writeln!(
                out,
                "| {} | `{at}{}` | {proto} | {} |",
                if i == 0 {
                    format!("`{name}`")
                } else {
                    String::new()
                },
                versions.node(major),
                cells.join(" | ")
            );
        }
    }
    let _ = writeln!(out);
    out
}

/// One library's section.
pub fn section(data: &LibraryData, structs: &[StructDiff], versions: &AbiVersions) -> String {
    let mut out = String::new();
    let lib = data.library;
    let _ = writeln!(out, "## {} ({})\n", lib.name(), lib.header);
    let opaque: Vec<&str> = data
        .symbols
        .iter()
        .filter(|s| s.opaque())
        .map(|s| s.name.as_str())
        .collect();
    let different: Vec<_> = data.symbols.iter().filter(|s| s.abi != s.majors).collect();
    // The newest major that has the library (NVTX 2's last is 12.8).
    let newest_here = data.majors().last().copied().unwrap_or(NEWEST);
    let _ = writeln!(out, "| | count |\n|---|---|");
    for m in data.majors() {
        let (what, n) = match lib.exports {
            ExportSource::List { .. } => (
                "declared or stubbed for",
                data.symbols
                    .iter()
                    .filter(|s| s.majors.contains(&m))
                    .count(),
            ),
            ExportSource::Wheels | ExportSource::WheelsWithPrefix(_) => {
                ("exported by", data.exports.get(&m).map_or(0, |e| e.len()))
            }
        };
        let _ = writeln!(out, "| {what} {} | {n} |", v(data, m));
    }
    if let ExportSource::List { label, .. } = lib.exports {
        let _ = writeln!(out, "| {label} export list | {} |", data.driver_list.len());
    }
    let declared = data
        .symbols
        .iter()
        .filter(|s| !s.declared_by.is_empty())
        .count();
    let _ = writeln!(out, "| stubbed (union) | {} |", data.symbols.len());
    let _ = writeln!(out, "| declared by a header | {declared} |");
    let _ = writeln!(out, "| opaque | {} |", opaque.len());
    let _ = writeln!(out, "| ABI differs in some major | {} |\n", different.len());

    let mut proto = String::new();
    let mut layout = String::new();
    for s in &different {
        let reference = s.reference.unwrap_or(newest_here);
        let decl = abi_diff::c_prototype(&s.name, &s.prototypes[&reference].item);
        for (m, change) in abi_diff::function_changes(data, s) {
            match change {
                Change::Unknown => {
                    let _ = writeln!(
                        proto,
                        "- `{}` {}: exported, prototype unknown",
                        s.name,
                        v(data, m)
                    );
                }
                Change::Prototype { old } => {
                    let _ = writeln!(
                        proto,
                        "- `{}` {} → {}:\n  - {}: `{old}`\n  - {}: `{decl}`",
                        s.name,
                        v(data, m),
                        v(data, reference),
                        v(data, m),
                        v(data, reference)
                    );
                }
                Change::Layout { structs } => {
                    let list: Vec<String> = structs
                        .iter()
                        .map(|(n, a, b)| format!("`{n}` {} → {} bytes", size(*a), size(*b)))
                        .collect();
                    let list = if list.is_empty() {
                        "function-pointer or nested type".to_owned()
                    } else {
                        list.join(", ")
                    };
                    let _ = writeln!(
                        layout,
                        "- `{}` {} vs {}: {list}",
                        s.name,
                        v(data, m),
                        v(data, reference)
                    );
                }
            }
        }
    }
    if !versions.is_empty() {
        out.push_str(&versions_table(data, versions));
    }
    let _ = writeln!(
        out,
        "### Prototype changed\n\n{}",
        if proto.is_empty() { "none\n" } else { &proto }
    );
    let _ = writeln!(
        out,
        "### Same prototype, struct layout changed\n\n{}",
        if layout.is_empty() { "none\n" } else { &layout }
    );
    let _ = writeln!(out, "### Structs laid out differently across majors\n");
    if structs.is_empty() {
        let _ = writeln!(out, "none\n");
    } else {
        let majors = data.majors();
        let heads: Vec<String> = majors.iter().map(|m| v(data, *m)).collect();
        let _ = writeln!(out, "| struct | {} |", heads.join(" | "));
        let _ = writeln!(out, "|---|{}", "---|".repeat(majors.len()));
        for d in structs {
            let cells: Vec<String> = majors
                .iter()
                .map(|m| {
                    d.layouts
                        .get(m)
                        .map_or("–".to_owned(), |l| format!("{} B", l.size))
                })
                .collect();
            let _ = writeln!(out, "| `{}` | {} |", d.name, cells.join(" | "));
        }
        let _ = writeln!(out);
        let newest = data.majors().last().copied().unwrap_or(NEWEST);
        let grown: Vec<String> = structs
            .iter()
            .filter(|d| data.types(newest).grows_at_end(&d.name))
            .map(|d| format!("`{}`", d.name))
            .collect();
        if !grown.is_empty() {
            let _ = writeln!(
                out,
                "Self-sized, grown at their end (the library reads the size field first; passed \
                 by pointer, ABI kept): {}.\n",
                grown.join(", ")
            );
        }
    }
    let _ = writeln!(out, "### Enumerators with another value in another major\n");
    let renumbered = crate::model::enum_diff::renumbered(data);
    if renumbered.is_empty() {
        let _ = writeln!(out, "none\n");
    } else {
        for (name, values) in &renumbered {
            let values: Vec<String> = values
                .iter()
                .map(|(m, value)| format!("{} in {}", value, v(data, *m)))
                .collect();
            let _ = writeln!(out, "- `{name}`: {}", values.join(", "));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "### Fields widened into a same-size union or struct (ABI kept)\n"
    );
    if data.widenings.is_empty() {
        let _ = writeln!(out, "none\n");
    } else {
        let _ = writeln!(
            out,
            "A plain field of the older headers became a union or struct of the same size whose \
             member of the same name and type sits at the aggregate's offset 0: the bytes are the \
             same, so functions reaching these structs keep their ABI.\n"
        );
        let _ = writeln!(
            out,
            "| struct | offset | plain field (majors) | type, size | widened field: aggregate (majors) | member at offset 0 |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|");
        for w in &data.widenings {
            let majors = |l: &[u32]| l.iter().map(|m| v(data, *m)).collect::<Vec<_>>().join(", ");
            let _ = writeln!(
                out,
                "| `{}` | {} | `{}` ({}) | `{}`, {} B | `{}`: {} `{}` ({}) | `{}` |",
                w.strukt,
                w.offset,
                w.field,
                majors(&w.plain_in),
                w.ty,
                w.size,
                w.widened_field,
                w.kind,
                w.aggregate,
                majors(&w.widened_in),
                w.member
            );
        }
        let _ = writeln!(out);
    }
    let older: Vec<String> = data
        .symbols
        .iter()
        .filter_map(|s| {
            let r = s.reference.filter(|r| *r != newest_here)?;
            Some(format!("`{}` ({})", s.name, v(data, r)))
        })
        .collect();
    let _ = writeln!(
        out,
        "### Declared from an older header (absent from {})\n\n{}\n",
        v(data, newest_here),
        if older.is_empty() {
            "none".to_owned()
        } else {
            older.join(", ")
        }
    );
    let _ = writeln!(
        out,
        "### Opaque (no prototype known; forwarded by tail jump)\n\n{}\n",
        if opaque.is_empty() {
            "none".to_owned()
        } else {
            opaque
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    out
}

/// The whole report.
pub fn render(sections: &[String]) -> String {
    let mut out = String::from(
        "<!-- @generated by `cargo run -p codegen`. Do not edit. -->\n# ABI report\n\n\
         Differences between CUDA majors, found by parsing each header with clang and comparing \
         parameter types after typedef resolution and the size and field offsets of every \
         struct reachable from a parameter. The stubs export the newest major's ABI, and cudart \
         also CUDA 12's under symbol versions for the names whose 12.x and 13.x ABIs differ; a \
         major listed below is refused (typed error) for that function unless an adapter \
         exists.\n\n",
    );
    for s in sections {
        out.push_str(s);
    }
    out.trim_end().to_owned() + "\n"
}

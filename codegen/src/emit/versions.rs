//! Writes what ELF symbol versions need besides the declarations ([`crate::model::abi_versions`]):
//!
//! - `stubs-<lib>/versions.map`, the version script of the runtime stub and of its link-time
//!   stub: it defines the version nodes, newest first, and lists each node's names in a comment
//!   (the names are bound to their nodes by the stubs' `.symver` directives, not by the script:
//!   a script naming them would also claim their unversioned spelling, which neither stub
//!   defines);
//! - `stubs-<lib>-abi12/src/generated/exports.rs`, the body of the link-time stub whose defaults are CUDA
//!   12's: every export of the runtime stub, the versioned ones with `@@CUDA_STUBS_<LIB>_12`.

use crate::model::abi_versions::{AbiVersions, OLDER};
use crate::model::library_data::LibraryData;
use std::fmt::Write;

/// The text of `versions.map`.
pub fn version_script(data: &LibraryData, versions: &AbiVersions) -> String {
    let lib = data.library.name();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/* {}",
        crate::emit::decls::banner(data)
            .trim_start_matches("// ")
            .trim_end()
    );
    let [newest, older] = versions.majors();
    let _ = write!(
        out,
        " *
 * The ELF version nodes of libstubs_{lib}.so and of its link-time stub
 * libstubs_{lib}_abi{older}.so (passed to the linker by each crate's build.rs). Each name below is
 * exported once per node, `name@@{n}` and `name@{o}`, each bound to the
 * implementation of that CUDA major's prototype by the stub's `.symver` directives
 * (stub_loader::versioned_export!), not by this script. Every other export is unversioned.
 *
 * {n} is defined first: it gets version index 2, which the dynamic loader binds
 * a reference without version to (a program linked before the stub had versions, when it
 * exported CUDA {newest}'s prototypes).
 */
",
        n = versions.node(newest),
        o = versions.node(older),
    );
    for major in versions.majors() {
        let _ = writeln!(out, "{} {{", versions.node(major));
        let _ = writeln!(
            out,
            "  /* CUDA {major}.x prototypes, {} names:",
            versions.names().count()
        );
        for name in versions.names() {
            let _ = writeln!(out, "     {name}");
        }
        let _ = writeln!(out, "   */\n}};");
    }
    out
}

/// The text of the link-time stub's `exports.rs` (before rustfmt).
pub fn link_stub_exports(data: &LibraryData, versions: &AbiVersions) -> String {
    let plain: Vec<&str> = data
        .symbols
        .iter()
        .map(|s| s.name.as_str())
        .filter(|n| versions.older(n).is_none())
        .collect();
    let versioned: Vec<&str> = versions.names().collect();
    let [newest, older] = versions.majors();
    // rustfmt leaves a braced macro call alone: one name per line, as it would lay out a list.
    let list = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("\n        {n},"))
            .collect::<String>()
    };
    format!(
        "{banner}//! Every export of `libstubs_{lib}.so` ({all} names), as the link-time stub of CUDA \
         {older}'s ABI declares them: the {n} names exported once per ABI with \
         `@@{default}` as the default, `@{other}` beside it; the rest unversioned.\n\n\
         stub_loader::link_stub! {{\n    \
         status: crate::LINK_ONLY_STATUS,\n    \
         default: \"{default}\",\n    \
         others: [\"{other}\"],\n    \
         versioned: [{versioned}\n    ],\n    \
         plain: [{plain}\n    ],\n\
         }}\n",
        banner = crate::emit::decls::banner(data),
        lib = data.library.name(),
        all = data.symbols.len(),
        n = versioned.len(),
        default = versions.node(OLDER),
        other = versions.node(newest),
        older = older,
        versioned = list(&versioned),
        plain = list(&plain),
    )
}

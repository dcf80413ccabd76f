//! Writes `stubs/<lib>/src/generated/data.rs` for a library whose real libraries export data
//! objects ([`crate::model::data_objects`]): the stub's stand-ins (`stub_loader::StandIns`) and
//! one export per object, a pointer-sized `STT_OBJECT` of the header's name whose value is its
//! stand-in's address. The stub crate's hand-written exports translate a stand-in with
//! `STAND_INS.to_real(..)` before forwarding.

use crate::model::data_objects::DataObject;
use crate::model::library_data::LibraryData;
use std::collections::BTreeSet;

/// The Rust source of `data.rs`, or `None` when the library exports no data.
pub fn rust_source(banner: &str, data: &LibraryData) -> Option<String> {
    if data.data.is_empty() {
        return None;
    }
    let versions = |majors: &[u32]| {
        majors
            .iter()
            .map(|m| data.layout(*m).short_version())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let header = data.library.header;
    let mut entries = String::new();
    let mut exports = String::new();
    for (i, object) in data.data.iter().enumerate() {
        let DataObject { name, .. } = object;
        let ty = object.type_name();
        entries.push_str(&format!("stub_loader::StandIn::new(c\"{name}\"),\n"));
        exports.push_str(&format!(
            "\n/// `const {ty} {name}` ({header}; exported by {}): the address of its stand-in, \
             `STAND_INS.entry({i})`.\n\
             #[unsafe(no_mangle)]\n\
             pub static {name}: stub_loader::DataExport = \
             stub_loader::DataExport::of(STAND_INS.entry({i}));\n",
            versions(&object.exported_by),
        ));
    }
    let types: BTreeSet<String> = data.data.iter().map(DataObject::type_name).collect();
    let mut checks = String::new();
    for ty in &types {
        checks.push_str(&format!(
            "const _: () = assert!(\
             ::core::mem::size_of::<{ty}>() == ::core::mem::size_of::<stub_loader::DataExport>());\n"
        ));
    }
    Some(format!(
        "{banner}//! The data objects the real libraries export, each a pointer the header declares \
         `const`: the stub exports an object of the same name, type and size whose value is the \
         address of its own stand-in (`stub_loader::StandIns`), translated by the hand-written \
         exports of the functions taking that type (codegen/src/model/data_objects.rs).\n\n\
         #[allow(unused_imports)]\n\
         use crate::types::*;\n\n\
         /// The stand-ins, in name order; {n} objects.\n\
         pub(crate) static STAND_INS: stub_loader::StandIns<{n}> = stub_loader::StandIns::new(\
         &crate::LIBRARY, [\n{entries}]);\n\
         {exports}\n\
         // Each export has the size of the header's type (a pointer): the same object to the \
         dynamic linker as NVIDIA's (copy relocations).\n\
         {checks}",
        n = data.data.len(),
    ))
}

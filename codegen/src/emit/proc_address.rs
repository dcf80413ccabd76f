//! Writes `stubs-cuda/src/generated/proc_address.rs` from the pairs
//! [`crate::model::proc_address::table`] found.

use crate::model::proc_address::Entry;

/// The Rust source of `stubs-cuda/src/generated/proc_address.rs`: the ABI names as one NUL-separated
/// blob and `stub_loader::ProcEntry` rows of offsets and small integers, so that the table
/// needs no relocations in the stub.
///
/// # Errors
/// An entry whose base name is not a prefix of its ABI name, or whose numbers do not fit.
pub fn rust_source(banner: &str, entries: &[Entry]) -> Result<String, String> {
    let mut names = String::new();
    let mut rows = String::new();
    let mut offset = 0usize;
    for e in entries {
        if !e.name.starts_with(&e.base) {
            return Err(format!("{}: {} is not a prefix", e.name, e.base));
        }
        let base_len = u8::try_from(e.base.len()).map_err(|_| format!("{}: long name", e.name))?;
        let version = u16::try_from(e.version).map_err(|_| format!("{}: version", e.name))?;
        let flags = u8::try_from(e.flags).map_err(|_| format!("{}: flags", e.name))?;
        names.push_str(&format!("    \"{}\\0\",\n", e.name));
        rows.push_str(&format!(
            "    ProcEntry {{ name: {offset}, base_len: {base_len}, flags: {flags}, version: {version} }},\n"
        ));
        offset += e.name.len() + 1;
    }
    let mut s = String::from(banner);
    s.push_str(
        "//! For each driver ABI name codegen could pair exactly with a `cuGetProcAddress` request \
         (see\n//! codegen/src/model/proc_address.rs): the name to ask for (a prefix of the ABI name), \
         the CUDA\n//! version of that ABI and the flags; sorted by ABI name.\n\n\
         use stub_loader::ProcEntry;\n\n\
         /// The ABI names of [`ENTRIES`], each NUL-terminated, in entry order.\n\
         pub static NAMES: &[u8] = concat!(\n",
    );
    s.push_str(&names);
    s.push_str(")\n.as_bytes();\n\n/// One per ABI name, sorted by name.\npub static ENTRIES: &[ProcEntry] = &[\n");
    s.push_str(&rows);
    s.push_str("];\n");
    Ok(s)
}

//! The dynamic section of an ELF64 file, read with `object`.

use object::elf;
use object::read::elf::{Dyn, ElfFile64, FileHeader};
use std::path::Path;

/// The `DT_NEEDED` entries of an ELF64 shared object or executable, in order.
pub fn needed(path: &Path) -> Vec<String> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = ElfFile64::<object::Endianness>::parse(&*data)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let endian = file.endian();
    let sections = file
        .elf_header()
        .sections(endian, &*data)
        .expect("section table");
    // The index returned is that of the dynamic string table (`.dynamic`'s sh_link).
    let (dynamic, strtab) = sections
        .dynamic(endian, &*data)
        .expect("read .dynamic")
        .expect("a shared object has .dynamic");
    let strings = sections
        .strings(endian, &*data, strtab)
        .expect("dynamic string table");
    dynamic
        .iter()
        .filter(|d| d.tag32(endian) == Some(elf::DT_NEEDED))
        .map(|d| {
            let name = d.string(endian, strings).expect("DT_NEEDED name");
            String::from_utf8_lossy(name).into_owned()
        })
        .collect()
}

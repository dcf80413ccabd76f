//! Which functions of a real library's export table a stub stands for.

/// Whether `name`, a function a real library's dynamic symbol table defines, is a C entry point
/// of its API, which a stub exports and forwards. Not a C++ symbol (Itanium-mangled, `_Z…`),
/// weak or strong: the weak definitions of vague linkage, template instances of the C++ headers
/// the library was built with (cuSPARSELt 0.8.1's `std::vector<unsigned char>::push_back`), and
/// the library's own classes and strong instances (libcufile.so.0 exports hundreds, `std::`
/// containers' members, even `operator delete`), which a stub exporting them would interpose on
/// the whole process, every C++ library included;
/// not `_init` / `_fini`, the ELF initialisation functions every object has its own of (cuFile
/// 1.14's are global). Codegen reads the export tables through it, and the coverage test holds
/// the stubs to the same list.
pub fn is_c_entry_point(name: &str) -> bool {
    !name.starts_with("_Z") && name != "_init" && name != "_fini"
}

#[cfg(test)]
mod tests {
    use super::is_c_entry_point;

    #[test]
    fn the_c_api_and_nothing_else() {
        for name in [
            "cuFileRead",
            "cudaMalloc",
            "__cudaRegisterFatBinary",
            "pncclAllReduce",
        ] {
            assert!(is_c_entry_point(name), "{name}");
        }
        for name in ["_ZdlPvm", "_ZN9CUFileDrv10GetVersionEv", "_init", "_fini"] {
            assert!(!is_c_entry_point(name), "{name}");
        }
    }
}

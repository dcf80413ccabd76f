//! Writes `stubs/<lib>/src/generated/versioned_names.rs`: the pairs of
//! [`crate::model::versioned_names::replacements`] as the loader's `Replacement` rows.

/// The Rust source of `stubs/<lib>/src/generated/versioned_names.rs`.
pub fn rust_source(banner: &str, pairs: &[(String, String, Vec<u32>)]) -> String {
    let mut rows = String::new();
    for (name, plain, on) in pairs {
        let on: Vec<String> = on.iter().map(u32::to_string).collect();
        rows.push_str(&format!(
            "Replacement {{ removed: c\"{name}\", with: c\"{plain}\", on: &[{}] }},\n",
            on.join(", ")
        ));
    }
    format!(
        "{banner}//! Each per-version ABI name whose function's plain name has the same prototype in every\n\
         //! major exporting it (codegen/src/model/versioned_names.rs): where the loaded library lacks\n\
         //! the versioned name, the loader binds the plain one (`LibrarySpec::replacements`,\n\
         //! on the majors exporting the plain name).\n\n\
         use stub_loader::Replacement;\n\n\
         /// Sorted by ABI name; {} pairs.\n\
         pub static REPLACEMENTS: &[Replacement] = &[\n{rows}];\n",
        pairs.len()
    )
}

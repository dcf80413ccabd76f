//! The driver's attribute names and numbers (`CUdevice_attribute`), read from the declarations
//! codegen writes for the driver stub (`stubs-cuda/src/generated/types.rs`, from `cuda.h`): a
//! profile names attributes as the header does, and the mock answers them by number. Nothing
//! here is kept by hand: a new header's attribute is a profile's to set once codegen writes it.

use std::fmt::Write;
use std::path::PathBuf;

fn main() {
    let types = "../stubs-cuda/src/generated/types.rs";
    println!("cargo::rerun-if-changed={types}");
    let text = std::fs::read_to_string(types).expect("the driver stub's generated types");
    let mut table = String::from("/// Every `CUdevice_attribute` of `cuda.h`: name, number.\n");
    table.push_str("pub static ATTRIBUTES: &[(&str, i32)] = &[\n");
    let mut count = 0;
    // By statement, whitespace folded: rustfmt wraps a long one after its `=`.
    for statement in text.split(';') {
        let statement = statement.split_whitespace().collect::<Vec<_>>().join(" ");
        let Some(rest) = statement.strip_prefix("pub const CU_DEVICE_ATTRIBUTE_") else {
            continue;
        };
        let Some((name, value)) = rest.split_once(": CUdevice_attribute_enum = ") else {
            continue;
        };
        if name == "MAX" {
            continue;
        }
        writeln!(table, "    (\"CU_DEVICE_ATTRIBUTE_{name}\", {value}),").unwrap();
        count += 1;
    }
    assert!(count > 100, "{types}: only {count} attributes");
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("attributes.rs");
    std::fs::write(out, table).unwrap();
}

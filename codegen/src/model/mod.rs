//! Stage 2, what codegen derives from the inputs without writing anything: one record per library
//! ([`library_data`]: its headers' views, export tables and symbols), ABI keys and the rules that
//! keep an ABI across majors ([`type_table`]), each symbol's prototypes ([`symbol`], [`internal_prototypes`] for those no header declares, [`versioned_names`] for
//! per-version names), the names exported once per ABI ([`abi_versions`]), what changed between
//! majors ([`abi_diff`], [`enum_diff`]), what the hand-written adapters reach ([`adapter_abi`]),
//! the driver's `cuGetProcAddress` pairs ([`proc_address`]), the data objects a library exports ([`data_objects`]) and the spec's typed errors checked
//! against the header ([`status_codes`]). Human-readable type spellings: [`spelling`].

pub mod abi_diff;
pub mod abi_versions;
pub mod adapter_abi;
pub mod data_objects;
pub mod enum_diff;
pub mod internal_prototypes;
pub mod library_data;
pub mod proc_address;
pub mod spelling;
pub mod status_codes;
pub mod symbol;
pub mod type_table;
pub mod versioned_names;

//! Rule: fields carved out of a trailing `reserved*` run keep the ABI.

use super::TypeTable;
use std::collections::BTreeMap;

impl TypeTable {
    /// For each struct, the smallest offset, over all `tables` (one per major and view), at which
    /// a trailing run of fields named `reserved*` begins. NVIDIA grows structs by carving new
    /// fields out of that run (13.5's `cudaFuncAttributes.sharedMemoryMode` from 12.9's
    /// `reserved[16]`); an older runtime leaves those bytes zero, which the headers define as
    /// the default, so such a change keeps the ABI. Sizes and every field before the run are
    /// still compared.
    pub fn reserved_tails<'a>(
        tables: impl Iterator<Item = &'a TypeTable>,
    ) -> BTreeMap<String, u64> {
        let mut out: BTreeMap<String, u64> = BTreeMap::new();
        for table in tables {
            for (name, def) in &table.structs {
                let mut start = None;
                for f in def.fields.iter().rev() {
                    match (f.name.starts_with("reserved"), f.offset) {
                        (true, Some(o)) => start = Some(o),
                        _ => break,
                    }
                }
                if let Some(o) = start {
                    let e = out.entry(name.clone()).or_insert(o);
                    *e = (*e).min(o);
                }
            }
        }
        out
    }

    /// Installs the result of [`TypeTable::reserved_tails`] before keys are computed.
    pub fn set_reserved_tails(&mut self, tails: &BTreeMap<String, u64>) {
        self.reserved_from = tails.clone();
    }
}

//! Rule: members added to a tagged union of unchanged size keep the ABI.

use super::TypeTable;
use std::collections::{BTreeMap, BTreeSet};

impl TypeTable {
    /// For each union, the member names present in every table (major, view) defining it.
    /// NVIDIA grows tagged unions by adding members of no greater size
    /// (`cudaLaunchAttributeValue` gained `sharedMemoryMode` … in 13.x, still 64 bytes): the
    /// tag (`cudaLaunchAttribute.id`) picks the member, and an older runtime rejects a tag it
    /// does not know with an error instead of misreading memory. Sizes and the common members'
    /// types are still compared.
    pub fn common_union_members<'a>(
        tables: impl Iterator<Item = &'a TypeTable>,
    ) -> BTreeMap<String, BTreeSet<String>> {
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for table in tables {
            for (name, def) in table
                .structs
                .iter()
                .filter(|(_, d)| d.is_union && d.size.is_some())
            {
                let members: BTreeSet<String> = def.fields.iter().map(|f| f.name.clone()).collect();
                out.entry(name.clone())
                    .and_modify(|common| common.retain(|m| members.contains(m)))
                    .or_insert(members);
            }
        }
        out
    }

    /// Installs the result of [`TypeTable::common_union_members`] before keys are computed.
    pub fn set_union_common(&mut self, common: &BTreeMap<String, BTreeSet<String>>) {
        self.union_common = common.clone();
    }
}

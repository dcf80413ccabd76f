//! Per-version ABI names: one C function exported under one name per header version that
//! declared it. nvJitLink's header binds `nvJitLinkCreate`, through a static inline wrapper, to
//! `__nvJitLinkCreate_13_5` (13.5's own name); libnvJitLink.so.13 of 13.5 exports
//! `__nvJitLinkCreate_13_0` … `_13_5` and the plain `nvJitLinkCreate`, libnvJitLink.so.12 of
//! 12.9 `_12_0` … `_12_9` and the plain name. In both libraries every one of these names is a
//! jump to the same code: a name only says which header the caller was built with, so that an
//! older library fails to load the program (the minor-version floor NVIDIA wants).
//!
//! So each such name takes its function's prototype from whichever of its names the major's
//! header declares ([`shared_prototypes`]), and [`replacements`] pairs it with the plain name
//! where the two have the same ABI key in every major exporting the plain name: the loader
//! binds the plain name when the loaded library lacks the versioned one (another major, an older
//! minor), and a name with no such pair gets the stub's typed "absent" error there.

use crate::model::symbol::{Prototype, Symbol};
use std::collections::{BTreeMap, BTreeSet};

pub use stub_model::VersionedNames;

/// For every name of `names` (the exports) belonging to a function whose names a major's header
/// declares under another name, that declaration (its ident left as declared, which says where
/// it came from), per major: what `__nvJitLinkCreate_12_3` and the plain `nvJitLinkCreate` have
/// as prototype in 12.x is the 12.9 header's `__nvJitLinkCreate_12_9`. Fails when one header
/// declares two names of a function with different ABI keys (then they are not one function).
pub fn shared_prototypes(
    rule: VersionedNames,
    names: &BTreeSet<String>,
    declared: &BTreeMap<String, BTreeMap<u32, Prototype>>,
) -> Result<BTreeMap<String, BTreeMap<u32, Prototype>>, String> {
    let mut by_function: BTreeMap<(&str, u32), &Prototype> = BTreeMap::new();
    for (name, protos) in declared {
        for (major, p) in protos {
            let slot = by_function
                .entry((rule.function(name), *major))
                .or_insert(p);
            if slot.key != p.key {
                return Err(format!(
                    "{name} and {} ({major}.x header) have different ABIs: not one function",
                    slot.item.sig.ident
                ));
            }
        }
    }
    let mut out: BTreeMap<String, BTreeMap<u32, Prototype>> = BTreeMap::new();
    for name in names {
        let function = rule.function(name);
        for ((f, major), p) in by_function.range((function, 0)..=(function, u32::MAX)) {
            debug_assert_eq!(*f, function);
            out.entry(name.clone())
                .or_default()
                .insert(*major, (*p).clone());
        }
    }
    Ok(out)
}

/// `(versioned name, plain name, majors exporting the plain name)` for every versioned name
/// whose plain name is stubbed too and has, in every major that exports it, the versioned
/// name's declared ABI key. Sorted by name.
pub fn replacements(rule: VersionedNames, symbols: &[Symbol]) -> Vec<(String, String, Vec<u32>)> {
    let by_name: BTreeMap<&str, _> = symbols.iter().map(|s| (s.name.as_str(), s)).collect();
    let mut out = Vec::new();
    for s in symbols {
        let Some((function, _, _)) = rule.split(&s.name) else {
            continue;
        };
        let (Some(plain), Some(own)) = (by_name.get(function), s.declared()) else {
            continue;
        };
        let same = !plain.majors.is_empty()
            && plain
                .majors
                .iter()
                .all(|m| plain.prototypes.get(m).is_some_and(|p| p.key == own.key));
        if same {
            out.push((s.name.clone(), function.to_owned(), plain.majors.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_versioned_names_only() {
        let rule = VersionedNames { prefix: "__" };
        assert_eq!(
            rule.split("__nvJitLinkCreate_12_9"),
            Some(("nvJitLinkCreate", 12, 9))
        );
        assert_eq!(
            rule.split("__nvJitLinkGetLinkedLTOIRSize_13_0"),
            Some(("nvJitLinkGetLinkedLTOIRSize", 13, 0))
        );
        assert_eq!(rule.split("nvJitLinkCreate"), None);
        assert_eq!(rule.split("__nvJitLinkAPI"), None);
        assert_eq!(rule.split("__nvJitLinkCreate_12_x"), None);
        assert_eq!(rule.function("__nvJitLinkCreate_13_5"), "nvJitLinkCreate");
        assert_eq!(rule.function("nvJitLinkVersion"), "nvJitLinkVersion");
    }
}

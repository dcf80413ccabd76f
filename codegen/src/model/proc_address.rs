//! `stubs-cuda/src/generated/proc_address.rs`: for each driver ABI name, the base name, CUDA version and
//! flags to ask `cuGetProcAddress` for — NVIDIA's own way to get the entry point of one ABI
//! (`cuMemAlloc_v2` is `cuMemAlloc` at 3020; `cuMemcpyHtoD_v2_ptds` is `cuMemcpyHtoD` at 7000
//! with the per-thread flag).
//!
//! The versions come from `cudaTypedefs.h` (`PFN_cuMemAlloc_v3020`, …). A base name's ABI names
//! (unsuffixed, `_v2`, `_v3` …) are paired in order with its PFN versions only when the counts
//! match and every pair has the same ABI key (parameter types after typedef resolution, struct
//! sizes and offsets); otherwise the base name gets no entry and the stub keeps `dlsym` of the
//! exact ABI name. A wrong pairing would be a call with the wrong ABI, so none is guessed.

use crate::model::library_data::LibraryData;
use crate::model::type_table::TypeTable;
use crate::read::cache::{Layout, NEWEST};
use crate::read::headers;
use std::collections::BTreeMap;
use stub_model::ProcAddressSource;

/// `CU_GET_PROC_ADDRESS_LEGACY_STREAM`.
const LEGACY_STREAM: u64 = 1;
/// `CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM`.
const PER_THREAD: u64 = 2;

/// One generated entry.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// The ABI name the stub exports.
    pub name: String,
    /// The name `cuGetProcAddress` takes.
    pub base: String,
    /// The CUDA version of that ABI.
    pub version: u32,
    /// `cuGetProcAddress` flags.
    pub flags: u64,
}

/// Splits `cuMemcpyHtoD_v2_ptds` into ("cuMemcpyHtoD", 2, true); an unsuffixed name is ABI 1.
fn split_abi_name(name: &str) -> (&str, u32, bool) {
    let (rest, per_thread) = match name
        .strip_suffix("_ptds")
        .or_else(|| name.strip_suffix("_ptsz"))
    {
        Some(r) => (r, true),
        None => (name, false),
    };
    if let Some((base, n)) = rest.rsplit_once("_v") {
        if let Ok(n) = n.parse::<u32>() {
            if n >= 2 {
                return (base, n, per_thread);
            }
        }
    }
    (rest, 1, per_thread)
}

/// Splits `PFN_cuMemcpyHtoD_v7000_ptds` into ("cuMemcpyHtoD", 7000, true).
fn split_pfn(name: &str) -> Option<(&str, u32, bool)> {
    let name = name.strip_prefix("PFN_")?;
    let (rest, per_thread) = match name
        .strip_suffix("_ptds")
        .or_else(|| name.strip_suffix("_ptsz"))
    {
        Some(r) => (r, true),
        None => (name, false),
    };
    let (base, version) = rest.rsplit_once("_v")?;
    Some((base, version.parse().ok()?, per_thread))
}

fn fn_key(f: &syn::TypeBareFn, types: &TypeTable) -> String {
    let mut key = match &f.output {
        syn::ReturnType::Default => "void".to_owned(),
        syn::ReturnType::Type(_, t) => types.abi_key(t),
    };
    key.push('(');
    for input in &f.inputs {
        key.push_str(&types.abi_key(&input.ty));
        key.push(',');
    }
    key.push(')');
    key
}

/// `Option<unsafe extern "C" fn(..) -> CUresult>`'s function type.
fn option_fn(ty: &syn::Type) -> Option<&syn::TypeBareFn> {
    let syn::Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(syn::Type::BareFn(f)) => Some(f),
        _ => None,
    }
}

/// PFN versions and their ABI keys, per (base name, per-thread), ascending.
type PfnVersions = BTreeMap<(String, bool), Vec<(u32, String)>>;

/// The PFN typedefs of the newest typedefs header (`cudaTypedefs.h`; internal view, so the
/// legacy versions are there too), with their ABI keys.
fn pfn_keys(layout: &Layout, data: &LibraryData, typedefs: &str) -> Result<PfnVersions, String> {
    let file = headers::parse_typedefs(layout, typedefs)?;
    let mut types = TypeTable::from_items(file.items.iter());
    let tails = TypeTable::reserved_tails(
        data.views
            .values()
            .map(|v| &v.types)
            .chain(std::iter::once(&types)),
    );
    types.set_reserved_tails(&tails);
    let unions = TypeTable::common_union_members(
        data.views
            .values()
            .map(|v| &v.types)
            .chain(std::iter::once(&types)),
    );
    types.set_union_common(&unions);
    types.set_widened(&data.widenings);
    let mut out = PfnVersions::new();
    for item in &file.items {
        let syn::Item::Type(t) = item else { continue };
        let name = t.ident.to_string();
        let (Some((base, version, per_thread)), Some(f)) = (split_pfn(&name), option_fn(&t.ty))
        else {
            continue;
        };
        out.entry((base.to_owned(), per_thread))
            .or_default()
            .push((version, fn_key(f, &types)));
    }
    for versions in out.values_mut() {
        versions.sort();
        versions.dedup_by_key(|(v, _)| *v);
    }
    Ok(out)
}

/// The entries of a library resolved through `source` (the driver), and how many base names
/// were left to `dlsym`.
pub fn table(data: &LibraryData, source: ProcAddressSource) -> Result<(Vec<Entry>, usize), String> {
    let pfns = pfn_keys(data.layout(NEWEST), data, source.typedefs_header)?;
    // (base name, per-thread) → (ABI number, ABI name, ABI key) of each declared name.
    type AbiNames = BTreeMap<(String, bool), Vec<(u32, String, String)>>;
    let mut groups = AbiNames::new();
    for s in &data.symbols {
        let Some(p) = s.declared() else { continue };
        let (base, n, per_thread) = split_abi_name(&s.name);
        groups
            .entry((base.to_owned(), per_thread))
            .or_default()
            .push((n, s.name.clone(), p.key.clone()));
    }
    let mut entries = Vec::new();
    let mut unpaired = 0;
    for (group, mut names) in groups {
        names.sort();
        let Some(versions) = pfns.get(&group) else {
            unpaired += 1;
            continue;
        };
        let paired = names.len() == versions.len()
            && names
                .iter()
                .zip(versions)
                .all(|((_, _, key), (_, pfn_key))| key == pfn_key);
        if !paired {
            unpaired += 1;
            continue;
        }
        for ((_, name, _), (version, _)) in names.iter().zip(versions) {
            entries.push(Entry {
                name: name.clone(),
                base: group.0.clone(),
                version: *version,
                flags: if group.1 { PER_THREAD } else { LEGACY_STREAM },
            });
        }
    }
    entries.sort();
    Ok((entries, unpaired))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_base_abi_and_stream() {
        assert_eq!(split_abi_name("cuMemAlloc"), ("cuMemAlloc", 1, false));
        assert_eq!(split_abi_name("cuMemAlloc_v2"), ("cuMemAlloc", 2, false));
        assert_eq!(
            split_abi_name("cuMemcpyHtoD_v2_ptds"),
            ("cuMemcpyHtoD", 2, true)
        );
        assert_eq!(split_abi_name("cuMemcpy3D_v2"), ("cuMemcpy3D", 2, false));
        assert_eq!(
            split_abi_name("cuLaunchKernel_ptsz"),
            ("cuLaunchKernel", 1, true)
        );
        assert_eq!(
            split_pfn("PFN_cuMemcpyHtoD_v7000_ptds"),
            Some(("cuMemcpyHtoD", 7000, true))
        );
        assert_eq!(
            split_pfn("PFN_cuCtxCreate_v12050"),
            Some(("cuCtxCreate", 12050, false))
        );
        assert_eq!(split_pfn("PFN_cuCtxCreate"), None);
    }
}

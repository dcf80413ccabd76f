//! The model of one library: parses every view of its header in every major, reads the export tables
//! (or the checked-in list) and joins them with the hand-written prototypes into one record per
//! exported symbol ([`Symbol`]), with its ABI in every major compared to the declared one.

use crate::model::data_objects::{self, DataObject};
use crate::model::internal_prototypes;
use crate::model::symbol::{Origin, Prototype, Symbol, prototype_key};
use crate::model::type_table::{TypeTable, Widening};
use crate::model::versioned_names;
use crate::read::cache::{Layout, MAJORS};
use crate::read::exports;
use crate::read::headers::{self, Bindings, View};
use crate::read::libraries::Library;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use stub_model::ExportSource;

/// What one header says in one view, with its types read into a [`TypeTable`].
pub struct HeaderView {
    /// Declared functions by ABI name.
    pub functions: BTreeMap<String, syn::ForeignItemFn>,
    /// Declared data objects (only those the real libraries export) by name.
    pub statics: BTreeMap<String, syn::ForeignItemStatic>,
    /// Every type item bindgen emitted (functions and layout checks removed).
    pub type_items: Vec<syn::Item>,
    /// Typedefs and struct layouts, for ABI comparison.
    pub types: TypeTable,
}

impl From<Bindings> for HeaderView {
    fn from(b: Bindings) -> Self {
        HeaderView {
            types: TypeTable::from_items(b.type_items.iter().chain(&b.layout_checks)),
            functions: b.functions,
            statics: b.statics,
            type_items: b.type_items,
        }
    }
}

/// Everything codegen knows about one library.
pub struct LibraryData {
    /// Which library.
    pub library: Library,
    /// Every major's layout.
    pub layouts: Vec<Layout>,
    /// Each major's header, per view.
    pub views: BTreeMap<(u32, View), HeaderView>,
    /// Each major's export table ([`ExportSource::Wheels`], [`ExportSource::WheelsWithPrefix`]'s
    /// names).
    pub exports: BTreeMap<u32, BTreeSet<String>>,
    /// The checked-in export list ([`ExportSource::List`]: the driver's).
    pub driver_list: BTreeSet<String>,
    /// All symbols, sorted by name.
    pub symbols: Vec<Symbol>,
    /// The data objects the real libraries export, sorted by name: the stub's stand-ins.
    pub data: Vec<DataObject>,
    /// Names declared by a header but exported by no library, with the declaring majors.
    pub declared_not_exported: BTreeMap<String, Vec<u32>>,
    /// Fields widened into a same-size aggregate that still holds them (ABI kept).
    pub widenings: Vec<Widening>,
    /// Each major's types as Windows x64 lays them out ([`View::Windows`], plus the structs only
    /// [`View::WindowsInternal`] declares), for a library with a Windows stub
    /// (`RealLibrary::windows`) and adapters (`Library::adapter_structs`); empty otherwise.
    pub windows_types: BTreeMap<u32, TypeTable>,
}

impl LibraryData {
    /// The type table of `major`'s default view.
    pub fn types(&self, major: u32) -> &TypeTable {
        &self.views[&(major, View::Default)].types
    }

    /// The majors this library exists in, oldest first (its layouts'; nvJitLink: 12, 13).
    pub fn majors(&self) -> Vec<u32> {
        self.layouts.iter().map(|l| l.major).collect()
    }

    /// The layout of `major`.
    pub fn layout(&self, major: u32) -> &Layout {
        self.layouts
            .iter()
            .find(|l| l.major == major)
            .expect("every major has a layout")
    }
}

/// Parses every view of every major, reads the export tables and builds the symbols.
pub fn collect(library: Library, layouts: &[Layout], root: &Path) -> Result<LibraryData, String> {
    // Only the majors that have the library (nvJitLink exists from 12.0).
    let layouts: Vec<Layout> = layouts
        .iter()
        .filter(|l| !library.exports.from_wheels() || l.library_file(library.name()).is_some())
        .cloned()
        .collect();
    if layouts.is_empty() {
        return Err(format!(
            "no CUDA layout.json names {:?} (run `python3 scripts/fetch-cuda.py`)",
            library.name()
        ));
    }
    let layouts = layouts.as_slice();
    // The data objects first: the headers are asked for their declarations.
    let mut data_exports = BTreeMap::new();
    if library.exports.from_wheels() {
        for layout in layouts {
            if let Some(path) = layout.library_file(library.name()) {
                let mut names = exports::data_exports(&path)?;
                names.retain(|n| library.exports.keeps(n));
                data_exports.insert(layout.major, names);
            }
        }
    }
    let data_names: BTreeSet<String> = data_exports.values().flatten().cloned().collect();
    let mut views: BTreeMap<(u32, View), HeaderView> = BTreeMap::new();
    for layout in layouts {
        for view in View::ALL
            .into_iter()
            .filter(|v| v.applies(&library, layout))
        {
            views.insert(
                (layout.major, view),
                headers::parse(&library, layout, view, &data_names)?.into(),
            );
        }
    }
    let mut windows_types = BTreeMap::new();
    // Read only to check the structs the adapters convert at their Windows size: a library
    // whose calls all pass through unchanged (the math libraries, NVML) has nothing whose
    // layout the stub sees, and its headers need a C library's (`math.h`, `stdio.h`) that
    // the Windows view lacks.
    if library.real.windows.is_some() && library.adapter_structs.is_some() {
        for layout in layouts {
            // The default view's structs, then those only the internal view declares.
            let mut types = HeaderView::from(headers::parse(
                &library,
                layout,
                View::Windows,
                &data_names,
            )?)
            .types;
            if View::WindowsInternal.applies(&library, layout) {
                let internal = HeaderView::from(headers::parse(
                    &library,
                    layout,
                    View::WindowsInternal,
                    &data_names,
                )?)
                .types;
                for (name, def) in internal.structs {
                    types.structs.entry(name).or_insert(def);
                }
            }
            windows_types.insert(layout.major, types);
        }
    }
    let reserved = TypeTable::reserved_tails(views.values().map(|hv| &hv.types));
    let unions = TypeTable::common_union_members(views.values().map(|hv| &hv.types));
    for hv in views.values_mut() {
        hv.types.set_reserved_tails(&reserved);
        hv.types.set_union_common(&unions);
    }
    let widenings = TypeTable::widened_fields(views.iter().map(|((m, _), hv)| (*m, &hv.types)));
    for hv in views.values_mut() {
        hv.types.set_widened(&widenings);
    }
    let changed = TypeTable::not_only_grown(views.values().map(|hv| &hv.types));
    for hv in views.values_mut() {
        hv.types.set_not_only_grown(&changed);
    }
    let mut exports = BTreeMap::new();
    let mut list = BTreeSet::new();
    match library.exports {
        ExportSource::List { path, .. } => list = exports::list_file(&root.join(path))?,
        ExportSource::Wheels | ExportSource::WheelsWithPrefix(_) => {
            for layout in layouts {
                let key = library.name();
                let path = layout
                    .library_file(key)
                    .ok_or_else(|| format!("CUDA {} layout.json has no {key:?}", layout.major))?;
                let mut names = exports::function_exports(&path)?;
                // Only the API the stub stands for (`ExportSource::WheelsWithPrefix`).
                names.retain(|n| library.exports.keeps(n));
                exports.insert(layout.major, names);
            }
        }
    }

    let mut declared: BTreeMap<String, BTreeMap<u32, Prototype>> = BTreeMap::new();
    for ((major, view), hv) in &views {
        for (name, item) in &hv.functions {
            let protos = declared.entry(name.clone()).or_default();
            // Views are visited in preference order, so the first one to declare a name wins.
            protos.entry(*major).or_insert_with(|| Prototype {
                origin: Origin::Header(*view),
                item: item.clone(),
                key: prototype_key(item, &hv.types),
            });
        }
    }

    let mut names: BTreeSet<String> = exports.values().flatten().cloned().collect();
    let listed = matches!(library.exports, ExportSource::List { .. });
    if listed {
        // The list has no majors: every declared name is exported too.
        names.extend(declared.keys().cloned());
        names.extend(list.iter().cloned());
    }
    let shared = match library.versioned_names {
        Some(rule) => versioned_names::shared_prototypes(rule, &names, &declared)?,
        None => BTreeMap::new(),
    };
    let mut symbols = Vec::new();
    for name in &names {
        let exported_by: Vec<u32> = MAJORS
            .into_iter()
            .filter(|m| exports.get(m).is_some_and(|e| e.contains(name)))
            .collect();
        let mut prototypes = declared.get(name).cloned().unwrap_or_default();
        let declared_by: Vec<u32> = prototypes.keys().copied().collect();
        let majors = if listed {
            if declared_by.is_empty() {
                // Exported by the listed library and declared by no header: any major's
                // library may have it, `dlsym` decides.
                MAJORS.to_vec()
            } else {
                declared_by.clone()
            }
        } else {
            exported_by.clone()
        };
        // A profiling alias no header declares (`pncclTeamWorld`) has its function's
        // prototype, from the headers or the table.
        let alias = internal_prototypes::alias_of(library.kind, name)
            .filter(|_| prototypes.is_empty())
            .filter(|f| names.contains(*f));
        if let Some(f) = alias {
            prototypes.extend(declared.get(f).cloned().unwrap_or_default());
        }
        let internal = internal_prototypes::lookup(library.kind, name)
            .or_else(|| alias.and_then(|f| internal_prototypes::lookup(library.kind, f)));
        if let Some(item) = internal {
            for &m in &majors {
                prototypes.entry(m).or_insert_with(|| Prototype {
                    origin: Origin::InternalTable,
                    key: prototype_key(&item, &views[&(m, View::Default)].types),
                    item: item.clone(),
                });
            }
        }
        for (m, p) in shared.get(name).into_iter().flatten() {
            prototypes.entry(*m).or_insert_with(|| p.clone());
        }
        prototypes.retain(|m, _| majors.contains(m));
        let reference = prototypes.keys().next_back().copied();
        let abi = match reference.map(|r| &prototypes[&r].key) {
            Some(key) => majors
                .iter()
                .copied()
                .filter(|m| prototypes.get(m).is_some_and(|p| &p.key == key))
                .collect(),
            None => majors.clone(),
        };
        symbols.push(Symbol {
            name: name.clone(),
            hand_written: library.is_hand_written(name),
            majors,
            exported_by,
            declared_by,
            prototypes,
            reference,
            abi,
        });
    }
    let mut declared_not_exported = BTreeMap::new();
    if !listed {
        for (name, protos) in &declared {
            if !names.contains(name) {
                declared_not_exported.insert(name.clone(), protos.keys().copied().collect());
            }
        }
    }
    let data = data_objects::collect(&data_exports, &views, &symbols)?;
    Ok(LibraryData {
        library,
        layouts: layouts.to_vec(),
        views,
        exports,
        driver_list: list,
        symbols,
        data,
        declared_not_exported,
        widenings,
        windows_types,
    })
}

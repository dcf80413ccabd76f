//! Parses one header in one preprocessor view with bindgen (libclang) and reads back the
//! function declarations under the names clang sees after NVIDIA's rename macros.

use crate::read::cache::Layout;
use crate::read::libraries::Library;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A preprocessor configuration under which the header declares a different set of ABI names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum View {
    /// What a plain `#include` sees: the current `_v2`/`_v3` ABI names.
    Default,
    /// `-DCUDA_API_PER_THREAD_DEFAULT_STREAM`: the `_ptds` / `_ptsz` names.
    PerThread,
    /// `-D__CUDA_API_VERSION_INTERNAL`: the legacy unsuffixed names with their old prototypes
    /// (both cuda.h and cuda_runtime_api.h key on this one macro; nvml.h on
    /// `NVML_NO_UNVERSIONED_FUNC_DEFS`, defined alongside).
    Internal,
    /// The default view for Windows x64 (`--target=x86_64-pc-windows-msvc`): LLP64 (`long` is
    /// 4 bytes) and MSVC's struct layout, as clang computes them for that target. Read only
    /// for the struct sizes the Windows DLL stubs check (`emit_abi_types.rs`); not in
    /// [`View::ALL`], whose views decide the declarations.
    Windows,
    /// [`View::Internal`] for Windows x64: the legacy `_v1` structs, checked as well.
    WindowsInternal,
}

impl View {
    /// All views, in order of preference when several declare one name.
    pub const ALL: [View; 3] = [View::Default, View::PerThread, View::Internal];

    /// The name the manifest records.
    pub fn name(self) -> &'static str {
        match self {
            View::Default => "default",
            View::PerThread => "per-thread",
            View::Internal => "internal",
            View::Windows => "windows",
            View::WindowsInternal => "windows-internal",
        }
    }

    fn defines(self) -> &'static [&'static str] {
        match self {
            View::Default => &[],
            View::PerThread => &["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"],
            View::Internal => &[
                "-D__CUDA_API_VERSION_INTERNAL",
                "-DNVML_NO_UNVERSIONED_FUNC_DEFS",
            ],
            // Freestanding: clang's own <stdint.h> and <stddef.h>, not the MSVC headers this
            // machine does not have.
            View::Windows => &["--target=x86_64-pc-windows-msvc", "-ffreestanding"],
            View::WindowsInternal => &[
                "--target=x86_64-pc-windows-msvc",
                "-ffreestanding",
                "-D__CUDA_API_VERSION_INTERNAL",
                "-DNVML_NO_UNVERSIONED_FUNC_DEFS",
            ],
        }
    }
}

impl View {
    /// `-isystem` of libclang's own resource headers for the Windows view, and of
    /// `shim-windows` (a `<stdlib.h>` for `size_t`): the host's system folders do not apply to
    /// another target, and bindgen finds libclang's headers only
    /// through a `clang` executable, which a machine with `libclang-dev` alone lacks. Found
    /// beside the libclang bindgen loads (`<libdir>/clang/<version>/include`).
    fn system_includes(self) -> Result<Vec<String>, String> {
        if !matches!(self, View::Windows | View::WindowsInternal) {
            return Ok(Vec::new());
        }
        if !clang_sys::is_loaded() {
            clang_sys::load()?;
        }
        let lib = clang_sys::get_library().ok_or("libclang is not loaded")?;
        let path = std::fs::canonicalize(lib.path()).map_err(|e| e.to_string())?;
        let dir = path.parent().ok_or("libclang has no folder")?;
        // LLVM's own layout (`lib/clang`) and Debian's (`/usr/lib/<triple>/libclang…` beside
        // `/usr/lib/clang`).
        let places = [dir.join("clang"), dir.join("../clang")];
        let include = places
            .iter()
            .filter_map(|clang| std::fs::read_dir(clang).ok())
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path().join("include")))
            .find(|d| d.join("limits.h").is_file())
            .ok_or_else(|| format!("no resource headers beside {}", path.display()))?;
        let shim = Path::new(env!("CARGO_MANIFEST_DIR")).join("shim-windows");
        Ok(vec![
            "-isystem".into(),
            include.display().to_string(),
            "-isystem".into(),
            shim.display().to_string(),
        ])
    }
}

impl View {
    /// Whether `library`'s own headers in `layout` (its header and interop headers) key on one
    /// of this view's macros, so that the view may declare names the default view does not. The
    /// internal views apply only where they do (cuda.h, cuda_runtime_api.h, nvml.h): a header
    /// that never names `__CUDA_API_VERSION_INTERNAL` gains nothing from it, and some cannot be
    /// read under it (CUPTI's cupti.h defines the legacy `CUDA_MEMCPY2D_v1` … that cuda.h
    /// defines under that macro). The other views always apply.
    pub fn applies(self, library: &Library, layout: &Layout) -> bool {
        if !matches!(self, View::Internal | View::WindowsInternal) {
            return true;
        }
        let macros: Vec<&str> = self
            .defines()
            .iter()
            .filter_map(|d| d.strip_prefix("-D"))
            .collect();
        std::iter::once(&library.header)
            .chain(library.interop_headers)
            .filter_map(|h| layout.find_header(h).ok())
            .filter_map(|path| std::fs::read_to_string(path).ok())
            .any(|text| macros.iter().any(|m| text.contains(m)))
    }
}

/// What one header says in one view, as bindgen wrote it.
pub struct Bindings {
    /// Declared functions by ABI name.
    pub functions: BTreeMap<String, syn::ForeignItemFn>,
    /// Declared data (`extern const T NAME;`) by name: only the names asked for.
    pub statics: BTreeMap<String, syn::ForeignItemStatic>,
    /// Every type item bindgen emitted (functions and layout checks removed).
    pub type_items: Vec<syn::Item>,
    /// bindgen's layout checks (`const _: () = { ["Size of X"][..]; .. }`): clang's sizes,
    /// alignments and field offsets of the types.
    pub layout_checks: Vec<syn::Item>,
}

/// Runs bindgen over `library.header` of `layout` in `view`; of its data declarations, `data`'s
/// (the data objects the real libraries export: see `data_exports`).
pub fn parse(
    library: &Library,
    layout: &Layout,
    view: View,
    data: &BTreeSet<String>,
) -> Result<Bindings, String> {
    let shim = Path::new(env!("CARGO_MANIFEST_DIR")).join("shim-include");
    // C11's `alignas` is a macro of <stdalign.h>, which a header may use without including it
    // (cuSPARSELt 0.8's `cusparseLt.h`: `alignas(16) uint8_t data[512]`, fine in C++ and C23,
    // an error in C11 without the include; 0.10's includes it). It defines nothing else.
    let mut wrapper = String::from("#include <stdalign.h>\n");
    // A header that is C++ where it names an enum by its tag alone (nvJPEG2000 0.9's
    // `nvjpeg2kProgOrder prog_order;`, nvTIFF 0.8's `nvtiffTagDataType type`) is read after its
    // C prelude, `shim-include/c-prelude/<header>`: the declarations a C program including it
    // must write first.
    let prelude = shim.join("c-prelude").join(library.header);
    if prelude.is_file() {
        wrapper.push_str(&format!("#include \"{}\"\n", prelude.display()));
    }
    for header in std::iter::once(&library.header).chain(library.interop_headers) {
        let path = match layout.find_header(header) {
            Ok(path) => path,
            Err(e) if !shim.join(header).is_file() => return Err(e),
            Err(_) => shim.join(header),
        };
        wrapper.push_str(&format!("#include \"{}\"\n", path.display()));
    }
    let mut builder = bindgen::Builder::default()
        .header_contents("codegen-wrapper.h", &wrapper)
        .clang_args(["-x", "c", "-std=c11"])
        .clang_args(layout.include.iter().map(|d| format!("-I{}", d.display())))
        .clang_arg(format!("-I{}", shim.display()))
        .clang_args(view.defines().iter().copied())
        .clang_args(view.system_includes()?)
        .allowlist_function(library.functions)
        .allowlist_type(library.extra_types)
        .default_enum_style(bindgen::EnumVariation::Consts)
        .prepend_enum_name(false)
        .ctypes_prefix("::core::ffi")
        .use_core()
        // Layout checks carry clang's sizes and field offsets; they are read here and dropped.
        .layout_tests(true)
        .derive_default(true)
        .generate_comments(false)
        .merge_extern_blocks(true)
        .formatter(bindgen::Formatter::None);
    if !data.is_empty() {
        // bindgen anchors each pattern: exactly these names.
        let names: Vec<&str> = data.iter().map(String::as_str).collect();
        builder = builder.allowlist_var(names.join("|"));
    }
    let bindings = builder.generate().map_err(|e| {
        format!(
            "bindgen {} CUDA {} ({} view): {e}",
            library.header,
            layout.major,
            view.name()
        )
    })?;
    let file = syn::parse_file(&bindings.to_string())
        .map_err(|e| format!("bindgen output for {} did not parse: {e}", library.header))?;
    let mut functions = BTreeMap::new();
    let mut statics = BTreeMap::new();
    let mut type_items = Vec::new();
    let mut layout_checks = Vec::new();
    for item in file.items {
        match item {
            syn::Item::ForeignMod(block) => {
                for f in block.items {
                    match f {
                        syn::ForeignItem::Fn(f) => {
                            functions.insert(f.sig.ident.to_string(), f);
                        }
                        syn::ForeignItem::Static(s) => {
                            statics.insert(s.ident.to_string(), s);
                        }
                        _ => {}
                    }
                }
            }
            syn::Item::Const(c) if c.ident == "_" => layout_checks.push(syn::Item::Const(c)),
            other => type_items.push(other),
        }
    }
    Ok(Bindings {
        functions,
        statics,
        type_items,
        layout_checks,
    })
}

/// The function-pointer typedefs (`PFN_cu*`) of `typedefs` (`cudaTypedefs.h`) in `layout`'s
/// headers, internal view (so the legacy versions are there too), with bindgen's layout checks.
pub fn parse_typedefs(layout: &Layout, typedefs: &str) -> Result<syn::File, String> {
    let header = layout.find_header(typedefs)?;
    let bindings = bindgen::Builder::default()
        .header(header.display().to_string())
        .clang_args(["-x", "c", "-std=c11", "-D__CUDA_API_VERSION_INTERNAL"])
        .clang_args(layout.include.iter().map(|d| format!("-I{}", d.display())))
        .allowlist_type("PFN_cu.*")
        .default_enum_style(bindgen::EnumVariation::Consts)
        .prepend_enum_name(false)
        .ctypes_prefix("::core::ffi")
        .use_core()
        .layout_tests(true)
        .generate_comments(false)
        .formatter(bindgen::Formatter::None)
        .generate()
        .map_err(|e| format!("bindgen {typedefs}: {e}"))?;
    syn::parse_file(&bindings.to_string()).map_err(|e| format!("{typedefs} bindings: {e}"))
}

//! What the mock's build derives from the declarations codegen writes for the stubs (nothing
//! here is kept by hand, and no CUDA header is read):
//!
//! - `attributes.rs`: the driver's attribute names and numbers (`CUdevice_attribute`, from
//!   `stubs-cuda/src/generated/types.rs`): a profile names attributes as `cuda.h` does, the
//!   mock answers them by number;
//! - `unmodelled_<lib>.rs`: for the runtime, the driver and NVML, every status-returning
//!   function of the library's CUDA 13 ABI (the stub crate's `src/generated/api.rs`, read with
//!   the macro's own parser, `stub-model`) that the mock's files of its face (`src/runtime/`,
//!   `src/driver/`, `src/nvml/`) do not define, with its exact prototype, answering the
//!   library's "not supported" code (`unmodelled.rs`); and the counts of both, `COUNTS`;
//! - `entry_points_cuda.rs`: every driver function the mock defines by its ABI name, for the
//!   mock's `cuGetProcAddress` (`src/driver/entry_points.rs`): the modelled ones by their path
//!   in the driver's face, the unmodelled ones through their C declarations (the face imports
//!   no other module for them);
//! - `per_thread_<lib>.rs`: the per-thread default stream variants (`_ptds`, `_ptsz`) of the
//!   functions the mock defines, each a call of its function (`src/runtime/per_thread.rs`,
//!   `src/driver/per_thread.rs`; NVML has none).

use quote::quote;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use stub_model::RetKind;

/// Library, the mock's files that model it, the "not supported" code's name in its types (the
/// stub crate's folder is its spec's: `stub_spec::crate_dir_of`).
const LIBRARIES: [(&str, &[&str], &str); 3] = [
    (
        "cudart",
        &[
            "src/runtime/mod.rs",
            "src/runtime/copies.rs",
            "src/runtime/graph.rs",
            "src/runtime/device.rs",
            "src/runtime/memory.rs",
            "src/runtime/symbols.rs",
            "src/runtime/launch.rs",
            "src/runtime/functions.rs",
            "src/runtime/entry_points.rs",
            "src/runtime/graph_nodes.rs",
            "src/runtime/arrays.rs",
            "src/runtime/hints.rs",
            "src/runtime/mem_pools.rs",
            "src/runtime/graph_copies.rs",
            "src/runtime/graph_conditional.rs",
            "src/runtime/graph_child.rs",
        ],
        "cudaErrorNotSupported",
    ),
    (
        "cuda",
        &[
            "src/driver/mod.rs",
            "src/driver/copies.rs",
            "src/driver/graph.rs",
            "src/driver/memory.rs",
            "src/driver/functions.rs",
            "src/driver/entry_points.rs",
            "src/driver/graph_nodes.rs",
            "src/driver/graph_conditional.rs",
            "src/driver/graph_child.rs",
            "src/driver/arrays.rs",
            "src/driver/hints.rs",
            "src/driver/mem_pools.rs",
            "src/driver/graph_copies.rs",
        ],
        "CUDA_ERROR_NOT_SUPPORTED",
    ),
    ("nvml", &["src/nvml/mod.rs"], "NVML_ERROR_NOT_SUPPORTED"),
];

// The stubs' link arguments (`stub-loader/link_args.rs`): `cdylib_link_args`.
include!("../stub-loader/link_args.rs");

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    // Its SONAME, its file name: a program's `dlopen("libcuda_stubs_mock.so", RTLD_NOLOAD)`
    // finds the copy the stubs loaded (`include/cuda_stubs_mock.h`); and the stubs' glibc-floor
    // libraries, for the loader's pinned calls it makes (`stub_loader::sync`).
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        cdylib_link_args("libcuda_stubs_mock.so");
        // Its own names bind to its own definitions: the stubs export the same names (the
        // program loads them first), and without `-Bsymbolic` a call or address of its own
        // function inside the mock would reach the stub's (`cuGetProcAddress`, whose addresses
        // the driver stub binds, would hand the stub its own functions back).
        println!("cargo::rustc-cdylib-link-arg=-Wl,-Bsymbolic");
    }
    attributes(&out);
    error_texts(&out);
    let mut counts = String::from(
        "/// Per library (`cudart`, `cuda`, `nvml`): functions the mock models, functions it answers\n\
         /// \"not supported\".\npub static COUNTS: &[(&str, usize, usize)] = &[\n",
    );
    for (lib, modelled_in, code) in LIBRARIES {
        let crate_dir = format!("../{}", stub_spec::crate_dir_of(&format!("stubs-{lib}")));
        let (modelled, refused) = unmodelled(&out, lib, &crate_dir, modelled_in, code);
        writeln!(counts, "    (\"{lib}\", {modelled}, {refused}),").unwrap();
    }
    counts.push_str("];\n");
    std::fs::write(out.join("counts.rs"), counts).unwrap();
}

fn attributes(out: &Path) {
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
    std::fs::write(out.join("attributes.rs"), table).unwrap();
}

/// `error_texts.rs`: the board's error texts (`data/error-texts.tsv`, written on a GPU machine by
/// `tests/gpu/error_texts.sh`) as sorted tables for `src/error_texts.rs`: the codes each library
/// knows, and its answer for one it does not (the runtime's name and text for code 1099, which
/// no CUDA release defines; NVML's text for it).
fn error_texts(out: &Path) {
    let file = "data/error-texts.tsv";
    println!("cargo::rerun-if-changed={file}");
    let text = std::fs::read_to_string(file).expect("the board's error texts");
    let c = |s: &str| format!("c{s:?}");
    let (mut runtime, mut driver, mut nvml) = (Vec::new(), Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        let code = |i: usize| -> i32 {
            f.get(i)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{file}:{}: no code in field {i}", n + 1))
        };
        match (f[0], f.len()) {
            ("runtime", 4) => runtime.push((code(1), f[2], f[3])),
            ("driver", 6) => driver.push((code(1), code(2), f[3], code(4), f[5])),
            ("nvml", 3) => nvml.push((code(1), f[2])),
            _ => panic!("{file}:{}: not a runtime, driver or nvml line", n + 1),
        }
    }
    let unknown_runtime = *runtime
        .iter()
        .find(|e| e.0 == 1099)
        .expect("runtime code 1099");
    let unknown_nvml = nvml.iter().find(|e| e.0 == 1099).expect("nvml code 1099").1;
    let mut t = String::from("/// The runtime's codes: (code, name, text).\n");
    t.push_str("static RUNTIME: &[(i32, &CStr, &CStr)] = &[\n");
    for (code, name, text) in runtime.iter().filter(|e| e.1 != unknown_runtime.1) {
        writeln!(t, "    ({code}, {}, {}),", c(name), c(text)).unwrap();
    }
    writeln!(
        t,
        "];\n/// The runtime's answer for a code it does not know."
    )
    .unwrap();
    writeln!(
        t,
        "static RUNTIME_UNKNOWN: (&CStr, &CStr) = ({}, {});",
        c(unknown_runtime.1),
        c(unknown_runtime.2)
    )
    .unwrap();
    t.push_str("/// The driver's codes: (code, name, text); it answers others `CUDA_ERROR_INVALID_VALUE`.\n");
    t.push_str("static DRIVER: &[(i32, &CStr, &CStr)] = &[\n");
    for (code, rn, name, rs, text) in &driver {
        if (*rn, *rs) == (0, 0) {
            writeln!(t, "    ({code}, {}, {}),", c(name), c(text)).unwrap();
        } else {
            assert!(
                *name == "(null)" && *text == "(null)",
                "{file}: driver {code}"
            );
        }
    }
    t.push_str("];\n/// NVML's codes: (code, text).\nstatic NVML: &[(i32, &CStr)] = &[\n");
    for (code, text) in nvml.iter().filter(|e| e.1 != unknown_nvml) {
        writeln!(t, "    ({code}, {}),", c(text)).unwrap();
    }
    writeln!(t, "];\n/// NVML's text for a code it does not know.").unwrap();
    writeln!(t, "static NVML_UNKNOWN: &CStr = {};", c(unknown_nvml)).unwrap();
    assert!(
        runtime.len() > 100 && driver.len() > 100,
        "{file}: too few lines"
    );
    std::fs::write(out.join("error_texts.rs"), t).unwrap();
}

/// Writes `unmodelled_<lib>.rs` and `per_thread_<lib>.rs`; returns how many functions are
/// modelled (the per-thread variants among them) and how many not.
fn unmodelled(
    out: &Path,
    lib: &str,
    crate_dir: &str,
    modelled_in: &[&str],
    code: &str,
) -> (usize, usize) {
    let api = format!("{crate_dir}/src/generated/api.rs");
    println!("cargo::rerun-if-changed={api}");
    for file in modelled_in {
        println!("cargo::rerun-if-changed={file}");
    }
    // Each modelled function with the module that defines it, as a path from the crate's root
    // (`src/runtime/copies.rs`: `runtime::copies`; `src/runtime/mod.rs`: `runtime`).
    let mut modelled: Vec<(String, String)> = Vec::new();
    for file in modelled_in {
        let module = file
            .strip_prefix("src/")
            .and_then(|f| f.strip_suffix(".rs"))
            .map(|f| f.strip_suffix("/mod").unwrap_or(f).replace('/', "::"))
            .expect("a file under src/");
        let text = std::fs::read_to_string(file).expect("the mock's own file");
        modelled.extend(
            text.lines()
                .filter_map(|l| l.trim().strip_prefix("pub unsafe extern \"C\" fn "))
                .filter_map(|l| l.split('(').next())
                .map(|name| (name.to_string(), module.clone())),
        );
    }
    let module_of = |name: &str| {
        modelled
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, m)| m.clone())
    };
    let mut forwards = 0;
    let mut per_thread = proc_macro2::TokenStream::new();
    // The entry-point table's arms and the unmodelled functions' C declarations (the driver's).
    let mut arms = Vec::new();
    let mut declared = proc_macro2::TokenStream::new();
    for (name, module) in &modelled {
        arms.push((name.clone(), format!("crate::{module}::{name}")));
    }
    let text = std::fs::read_to_string(&api).expect("the stub's generated declarations");
    let fns = stub_model::parse_declarations(&text).expect("the declarations parse");
    let mut body = proc_macro2::TokenStream::new();
    let mut refused = 0;
    let mut seen = std::collections::BTreeSet::new();
    for f in &fns {
        let name = f.name();
        // The CUDA 13 ABI's declaration of each name the 13.x library has.
        let of_13 = f.attr.majors.contains(&13) && f.attr.version.is_none_or(|v| v == 13);
        if !of_13
            || f.ret != RetKind::Status
            || f.attr.opaque
            || module_of(&name).is_some()
            || !seen.insert(name.clone())
        {
            continue;
        }
        // A per-thread default stream variant (`--default-stream per-thread`: `_ptds` for the
        // synchronous calls, `_ptsz` for those with a stream) of a modelled function: that
        // function, with a NULL stream meaning the calling thread's (`cudaStreamPerThread`,
        // `CU_STREAM_PER_THREAD`).
        let base = name
            .strip_suffix("_ptds")
            .or_else(|| name.strip_suffix("_ptsz"));
        if let Some((base, module)) = base.and_then(|b| Some((b, module_of(b)?))) {
            per_thread.extend(forward(f, base, &module));
            let own = module.split("::").next().unwrap_or_default();
            arms.push((name.clone(), format!("crate::{own}::per_thread::{name}")));
            forwards += 1;
            continue;
        }
        let mut sig = f.item.sig.clone();
        // Unnamed or unused parameters: each a `_` pattern of its own type.
        for input in sig.inputs.iter_mut() {
            if let syn::FnArg::Typed(t) = input {
                *t.pat = syn::parse_quote!(_);
            }
        }
        let code: syn::Ident = syn::parse_str(code).unwrap();
        let cname = syn::LitCStr::new(
            &std::ffi::CString::new(name.clone()).unwrap(),
            proc_macro2::Span::call_site(),
        );
        body.extend(quote! {
            #[unsafe(no_mangle)]
            pub unsafe extern "C" #sig {
                refuse(#cname, #code as u32) as _
            }
        });
        let mut declaration = sig.clone();
        declaration.abi = None;
        declaration.unsafety = None;
        declared.extend(quote! { #declaration; });
        arms.push((name.clone(), name.clone()));
        refused += 1;
    }
    if lib == "cuda" {
        entry_points(out, &mut arms, &declared);
    }
    std::fs::write(out.join(format!("unmodelled_{lib}.rs")), body.to_string()).unwrap();
    // NVML's face includes none: its functions take no stream.
    assert!(
        lib != "nvml" || forwards == 0,
        "NVML per-thread variants: src/nvml/ must include per_thread_nvml.rs"
    );
    std::fs::write(
        out.join(format!("per_thread_{lib}.rs")),
        per_thread.to_string(),
    )
    .unwrap();
    (modelled.len() + forwards, refused)
}

/// Writes `entry_points_cuda.rs`: `by_name`, the address of each driver function the mock
/// defines (`arms`: ABI name, the path of its definition, or of its C declaration in
/// `declared`).
fn entry_points(out: &Path, arms: &mut [(String, String)], declared: &proc_macro2::TokenStream) {
    arms.sort();
    let arms = arms.iter().map(|(name, path)| {
        let name = syn::LitByteStr::new(name.as_bytes(), proc_macro2::Span::call_site());
        let path: syn::Path = syn::parse_str(path).unwrap();
        quote! { #name => #path as *mut core::ffi::c_void, }
    });
    let text = quote! {
        unsafe extern "C" { #declared }
        /// The address of the driver function the mock defines under the ABI name `name`.
        pub fn by_name(name: &[u8]) -> Option<*mut core::ffi::c_void> {
            Some(match name {
                #(#arms)*
                _ => return None,
            })
        }
    };
    std::fs::write(out.join("entry_points_cuda.rs"), text.to_string()).unwrap();
}

/// `f` defined as a call of `base` in the mock's `module` (a path from the crate's root), each
/// stream argument that is NULL passed as the per-thread default stream (2).
fn forward(f: &stub_model::StubFn, base: &str, module: &str) -> proc_macro2::TokenStream {
    let mut sig = f.item.sig.clone();
    let mut args = Vec::new();
    for (i, input) in sig.inputs.iter_mut().enumerate() {
        if let syn::FnArg::Typed(t) = input {
            let arg = quote::format_ident!("a{i}");
            *t.pat = syn::parse_quote!(#arg);
            let ty = &t.ty;
            let is_stream = matches!(
                quote!(#ty).to_string().as_str(),
                "cudaStream_t" | "CUstream"
            );
            args.push(if is_stream {
                quote! { if #arg.is_null() { 2usize as #ty } else { #arg } }
            } else {
                quote! { #arg }
            });
        }
    }
    let module: syn::Path = syn::parse_str(&format!("crate::{module}")).unwrap();
    let base = quote::format_ident!("{base}");
    quote! {
        #[unsafe(no_mangle)]
        pub unsafe extern "C" #sig {
            unsafe { #module::#base(#(#args),*) }
        }
    }
}

//! Compiles the C bench drivers (`c/`) with the `cc` crate's compiler: one object per driver
//! and benchmarked function, and the Implib.so-style trampoline library, fully linked. Nothing
//! here needs CUDA or the stubs; the runner links the objects against the real libraries and
//! the stubs at run time (they are not known, or not built, when this runs).
//!
//! The runner finds the outputs through `env!("BENCH_C_OUT")` and the compiler through
//! `env!("BENCH_CC")` / `env!("BENCH_CC_ARGS")` (arguments separated by `\x1f`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The functions `c/bench_fn.h` knows; one `call_loop` and `first_call` object each.
const FUNCTIONS: &[&str] = &[
    "nvrtcVersion",
    "cudaRuntimeGetVersion",
    "cudaGetLastError",
    "cuDriverGetVersion",
];

fn run(mut cmd: Command) {
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("running {cmd:?}: {e}"));
    assert!(status.success(), "{cmd:?} failed: {status}");
}

fn compile(compiler: &cc::Tool, src: &Path, obj: &Path, defines: &[String]) {
    let mut cmd = compiler.to_command();
    cmd.args(["-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror", "-c"])
        .args(defines)
        .arg(src)
        .arg("-o")
        .arg(obj);
    run(cmd);
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("c");
    std::fs::create_dir_all(&out).expect("create OUT_DIR/c");
    let c = manifest.join("c");
    println!("cargo:rerun-if-changed=c");

    let compiler = cc::Build::new()
        .cargo_metadata(false)
        .pic(true)
        .opt_level(2)
        .debug(false)
        .get_compiler();

    for f in FUNCTIONS {
        let define = vec![format!("-DBENCH_FN_{f}")];
        for driver in ["call_loop", "first_call"] {
            compile(
                &compiler,
                &c.join(format!("{driver}.c")),
                &out.join(format!("{driver}-{f}.o")),
                &define,
            );
        }
    }
    for driver in ["dlopen_call", "empty_main", "dlopen_timer"] {
        compile(
            &compiler,
            &c.join(format!("{driver}.c")),
            &out.join(format!("{driver}.o")),
            &[],
        );
    }

    // The trampoline library: objects, then one shared object with its soname.
    for src in ["trampoline.S", "trampoline_resolve.c"] {
        compile(
            &compiler,
            &c.join(src),
            &out.join(format!("{src}.o")),
            &["-fvisibility=hidden".into()],
        );
    }
    let mut link = compiler.to_command();
    link.args(["-shared", "-Wl,-soname,libbench_tramp.so", "-o"])
        .arg(out.join("libbench_tramp.so"))
        .arg(out.join("trampoline.S.o"))
        .arg(out.join("trampoline_resolve.c.o"))
        .arg("-ldl");
    run(link);

    let args: Vec<String> = compiler
        .args()
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    println!("cargo:rustc-env=BENCH_C_OUT={}", out.display());
    println!("cargo:rustc-env=BENCH_CC={}", compiler.path().display());
    println!("cargo:rustc-env=BENCH_CC_ARGS={}", args.join("\x1f"));
}

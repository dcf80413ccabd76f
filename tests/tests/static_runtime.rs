//! A program with NVIDIA's runtime linked statically (`libcudart_static.a` of 13.5, as CuPy
//! links it) and the cuBLAS and cuFFT stubs, on NVIDIA's 13.5 libraries: the math stubs never
//! load a dynamic runtime beside the static one (one runtime per process), even with the
//! runtime stub in the process and able to find one. With no `libcudart.so.*` mapped, each
//! math stub's own search and version decide, and what the first binds is the release the
//! others (and a runtime stub binding after them) must have.
//!
//! `tests/c/static_runtime.c` is built against 13.5's headers (with codegen's `<nv/target>`
//! shim, as `cublas.rs`), linked to `libstubs_cublas.so`, `libstubs_cufft.so` and the static
//! runtime; it `dlopen`s the runtime stub when asked.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stub_model::libraries::{CUBLAS, CUFFT};
use stubs_tests::workspace_root;
use stubs_tests::{Outcome, Scenario, compile_c, cuda_include_args, cuda_layout, stubs_dir};

const OVERRIDE: &str = "environment override";

/// The program, built once per test process.
fn program() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let layout = cuda_layout(13);
        let lib = layout.cudart.parent().expect("a library has a folder");
        let dir = stubs_dir();
        let mut args = cuda_include_args(13);
        args.push(
            format!(
                "-I{}",
                workspace_root().join("codegen/shim-include").display()
            )
            .into(),
        );
        args.push(format!("-L{}", dir.display()).into());
        args.push("-Wl,--no-as-needed".into());
        args.push("-lstubs_cublas".into());
        args.push("-lstubs_cufft".into());
        args.push(format!("-Wl,-rpath,{}", dir.display()).into());
        args.push(lib.join("libcudart_static.a").into());
        for system in ["-lrt", "-lpthread", "-ldl"] {
            args.push(system.into());
        }
        let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        compile_c("static-runtime", &[Path::new("c/static_runtime.c")], &refs)
    })
}

/// NVIDIA's 13.5 file of `library`.
fn real(library: &str, major: u32) -> PathBuf {
    cuda_layout(major).libraries[library].clone()
}

/// The program with `args`, the debug log on, cuBLAS 13.5 and cuFFT of `cufft_major` as the
/// stubs' overrides, and the runtime stub's override the runtime of `cudart_major`.
fn run(args: &[&str], cufft_major: u32, cudart_major: u32) -> Outcome {
    let var = |spec: &stub_model::Library| spec.real.env_path.to_str().expect("ASCII").to_owned();
    Scenario::new(program())
        .args(args)
        .debug()
        .env(var(&CUBLAS), real("cublas", 13))
        .env(var(&CUFFT), real("cufft", cufft_major))
        .env("CUDA_STUBS_CUDART_PATH", cuda_layout(cudart_major).cudart)
        .run()
}

/// The static runtime, cuBLAS and cuFFT answer; both stubs bound 13.5 by their own search; no
/// `libcudart.so.*` is mapped, though the runtime stub is in the process with an override to
/// 13.5's: it is never made to search.
#[test]
fn the_math_stubs_map_no_runtime_beside_a_static_one() {
    let run = run(&["load-runtime-stub"], 13, 13);
    run.assert_success()
        .assert_line("runtime stub loaded=1")
        .assert_line(&format!(
            "cudaRuntimeGetVersion (static) rc=0 version={}",
            cuda_layout(13).version_code()
        ))
        .assert_line("cublasGetProperty(MAJOR_VERSION) rc=0 value=13")
        .assert_line("cufftGetVersion rc=0 version=12500")
        .assert_bound("cufft", &real("cufft", 13), 13000, OVERRIDE)
        .assert_line(&format!(
            "cufft status bound=1 version=13000 found_by={OVERRIDE}"
        ));
    let cublas = real("cublas", 13);
    assert!(
        run.bound("cublas")
            .starts_with(&format!("bound {} (version 13", cublas.display())),
        "{run}"
    );
    assert!(
        run.line("cublas status bound")
            .starts_with("cublas status bound=1 version=13"),
        "{run}"
    );
    // Without a GPU, cuBLAS's own "not initialized", never the stub's missing library.
    assert_eq!(CUBLAS.errors.no_library.value, 1);
    assert_ne!(run.line("cublasCreate"), "cublasCreate rc=0", "{run}");
    assert_eq!(run.mapped(), Vec::<&str>::new(), "{run}");
    assert_eq!(run.debug("cudart"), Vec::<&str>::new(), "{run}");
    // The first math library bound says the release to the next.
    run.assert_debug(
        "cufft",
        "the process has CUDA 13 (libcublas.so.13): only that release is bound",
    );
}

/// One release per process without a runtime mapped: cuFFT 12.9 (`libcufft.so.11`) beside the
/// cuBLAS 13.5 bound first is refused by its soname, before `dlopen`.
#[test]
fn a_12_cufft_beside_a_13_cublas_is_refused_by_its_name() {
    let run = run(&[], 12, 13);
    run.assert_success();
    let reason =
        "CUDA 12, but the process has CUDA 13 (libcublas.so.13): one CUDA release per process";
    run.assert_debug(
        "cufft",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            real("cufft", 12).display()
        ),
    )
    .assert_line(&format!(
        "cufftGetVersion rc={} version=0",
        CUFFT.errors.no_library.value
    ));
    assert_eq!(run.mapped(), Vec::<&str>::new(), "{run}");
}

/// A runtime stub asked after the math stubs bound takes their release (read from the first
/// math library mapped, in the specs' order: cuFFT's): its 12.9 override is refused by its
/// soname (no `libcudart.so.12` is mapped), and it finds no other.
#[test]
fn a_runtime_stub_asked_later_takes_the_math_libraries_release() {
    let run = run(&["load-runtime-stub", "ask-runtime-stub"], 13, 12);
    run.assert_success();
    let reason =
        "CUDA 12, but the process has CUDA 13 (libcufft.so.12): one CUDA release per process";
    run.assert_debug(
        "cudart",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            cuda_layout(12).cudart.display()
        ),
    );
    assert!(
        run.line("cudart status bound")
            .starts_with("cudart status bound=0"),
        "{run}"
    );
    assert_eq!(run.mapped(), Vec::<&str>::new(), "{run}");
}

//! The search order of the loader, with mock libraries (real sonames, recognisable values):
//! already loaded (by `DT_SONAME`) → `CUDA_STUBS_*_PATH` → NVIDIA's wheel layouts beside the
//! stub and in the Python environment, `$CONDA_PREFIX/lib` → sonames through the dynamic
//! loader, newest major first → `$CUDA_HOME/lib64`. Also: a stub under a real soname is never bound,
//! and bad files are skipped with the reason in the debug log. Each scenario is one process.

use std::path::{Path, PathBuf};
use stubs_tests::{Scenario, copy, mock, mock_dir, stub, temp_dir};

const NOLOAD: &str = "already loaded (RTLD_NOLOAD)";
const ENV: &str = "environment override";
const LOADER: &str = "dynamic loader search";
const BESIDE: &str = "wheel layout beside the stub";
const PYENV: &str = "wheel layout in the Python environment";

fn cudart(variant: &str, soname: &str) -> PathBuf {
    mock(variant).join(soname)
}

/// A library the process already has (dlopen'ed before the first call) is reused, even though
/// a newer major is on LD_LIBRARY_PATH, and the newer one is never loaded.
#[test]
fn noload_reuses_the_runtime_already_loaded() {
    let twelve = cudart("mock-12", "libcudart.so.12");
    let run = Scenario::probe([
        format!("dlopen:{}", twelve.display()),
        "cudaRuntimeGetVersion".into(),
        "cudaGetDeviceCount".into(),
        "maps".into(),
    ])
    .library_path([mock("mock-13")])
    .debug()
    .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_line("cudaGetDeviceCount rc=0 out=112")
        .assert_bound("cudart", &twelve, 12090, NOLOAD);
    // Step 1 found 12 among the loaded objects: 13, first on LD_LIBRARY_PATH, never tried.
    assert!(!run.stderr.contains("libcudart.so.13"), "{run}");
    let mapped = run.mapped();
    assert!(mapped.contains(&twelve.to_str().unwrap()), "{run}");
    assert!(
        !mapped.iter().any(|p| p.ends_with("libcudart.so.13")),
        "13 was loaded beside the 12 already there: {run}"
    );
}

/// The same for NVRTC: an 11.2 soname already loaded wins over 13 on LD_LIBRARY_PATH.
#[test]
fn noload_reuses_the_nvrtc_already_loaded() {
    let eleven = mock("mock-11").join("libnvrtc.so.11.2");
    let run = Scenario::probe([
        format!("dlopen:{}", eleven.display()),
        "nvrtcVersion".into(),
        "maps".into(),
    ])
    .library_path([mock("mock-13")])
    .debug()
    .run();
    run.assert_success()
        .assert_line("nvrtcVersion rc=0 out=11.8")
        .assert_bound("nvrtc", &eleven, 11080, NOLOAD);
    assert!(
        !run.mapped().iter().any(|p| p.ends_with("libnvrtc.so.13")),
        "{run}"
    );
}

/// A runtime the process loaded under another file name — `libcudart.so` (the toolkit's
/// development link, what `dlopen("libcudart.so")` in Python code loads) or the real file
/// `libcudart.so.12.9.79` — is recognised by its `DT_SONAME` and reused, not loaded twice.
fn reuses_a_runtime_loaded_as(file: &str) {
    let dir = temp_dir(&format!("loaded-as-{file}"));
    let path = dir.join(file);
    copy(&cudart("mock-12", "libcudart.so.12"), &path);
    let run = Scenario::probe([
        format!("dlopen:{}", path.display()),
        "cudaRuntimeGetVersion".into(),
        "maps".into(),
    ])
    .library_path([mock("mock-13")])
    .debug()
    .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_bound("cudart", &path, 12090, NOLOAD);
    let cudarts: Vec<&str> = run
        .mapped()
        .into_iter()
        .filter(|p| p.contains("libcudart.so"))
        .collect();
    assert_eq!(cudarts, [path.to_str().unwrap()], "{run}");
}

#[test]
fn noload_reuses_a_runtime_loaded_as_libcudart_so() {
    reuses_a_runtime_loaded_as("libcudart.so");
}

#[test]
fn noload_reuses_a_runtime_loaded_as_its_full_version() {
    reuses_a_runtime_loaded_as("libcudart.so.12.9.79");
}

/// A file named like a runtime whose `DT_SONAME` is not one (a stub copied as
/// `libnvrtc.so.13` and loaded) is not taken for one: step 1 skips it, the search goes on.
#[test]
fn loaded_file_name_alone_is_not_enough() {
    let dir = temp_dir("loaded-fake-name");
    let fake = dir.join("libnvrtc.so.13");
    copy(&stub("nvrtc"), &fake);
    let run = Scenario::probe([format!("dlopen:{}", fake.display()), "nvrtcVersion".into()])
        .library_path([mock("mock-12")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("nvrtcVersion rc=0 out=12.9")
        .assert_debug("nvrtc", "no copy already loaded")
        .assert_bound(
            "nvrtc",
            &mock("mock-12").join("libnvrtc.so.12"),
            12090,
            LOADER,
        );
}

/// A library whose initialisation calls the stub's own export (its constructor reaching
/// `cudaGetDeviceCount` through the global scope, on the thread running the search) gets the
/// stub's "no library" answer (34) at once, where it used to wait on the search forever; the
/// search then binds it, and the program's calls reach it (nothing of the inner call is kept).
#[test]
fn a_call_from_inside_the_search_returns_at_once() {
    let twelve = cudart("mock-12-reenter", "libcudart.so.12");
    let run = Scenario::probe(["cudaGetDeviceCount"])
        .env("CUDA_STUBS_CUDART_PATH", &twelve)
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaGetDeviceCount rc=0 out=112")
        .assert_bound("cudart", &twelve, 12090, ENV);
    assert!(
        run.stderr
            .contains("mock constructor: cudaGetDeviceCount rc=34 n=-1"),
        "{run}"
    );
}

/// A soname several majors share mapped twice (`libcurand.so.10` of 13.x, then of 12.x: what a
/// cuRAND stub leaves when it loads a copy of another release than the process's and binds the
/// next) says no release: `RTLD_NOLOAD` would answer the first copy, which may be the one
/// refused. The runtime stub's own search decides, and binds the 12.x runtime it finds.
#[test]
fn a_shared_soname_mapped_twice_says_no_release() {
    let (twelve, thirteen) = (mock("mock-curand-12"), mock("mock-curand-13"));
    let run = Scenario::probe([
        format!("dlopen:{}", thirteen.join("libcurand.so.10").display()),
        format!("dlopen:{}", twelve.join("libcurand.so.10").display()),
        "cudaRuntimeGetVersion".into(),
    ])
    .library_path([mock("mock-12")])
    .debug()
    .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090");
    assert!(
        run.debug("curand")
            .contains(&"libcurand.so.10 is mapped more than once: it says no release"),
        "{run}"
    );

    // One copy (13.x's) says its release: the 12.x runtime is refused.
    let run = Scenario::probe([
        format!("dlopen:{}", thirteen.join("libcurand.so.10").display()),
        "cudaRuntimeGetVersion".into(),
    ])
    .library_path([mock("mock-12")])
    .debug()
    .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=34 out=-7777");
}

/// `CUDA_STUBS_CUDART_PATH` naming a file beats a newer major on LD_LIBRARY_PATH.
#[test]
fn env_override_file_beats_loader_search() {
    let twelve = cudart("mock-12", "libcudart.so.12");
    let run = Scenario::probe(["cudaRuntimeGetVersion", "cudaGetDeviceCount"])
        .env("CUDA_STUBS_CUDART_PATH", &twelve)
        .library_path([mock("mock-13")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_line("cudaGetDeviceCount rc=0 out=112")
        .assert_bound("cudart", &twelve, 12090, ENV);
}

/// `CUDA_STUBS_NVRTC_PATH` naming a directory: its sonames are tried newest first.
#[test]
fn env_override_directory_is_searched_by_soname() {
    let dir = mock("mock-11");
    let run = Scenario::probe(["nvrtcVersion"])
        .env("CUDA_STUBS_NVRTC_PATH", &dir)
        .library_path([mock("mock-13")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("nvrtcVersion rc=0 out=11.8")
        .assert_debug(
            "nvrtc",
            &format!(
                "try {}/libnvrtc.so.13 [{ENV}]: rejected: not found",
                dir.display()
            ),
        )
        .assert_debug(
            "nvrtc",
            &format!(
                "try {}/libnvrtc.so.12 [{ENV}]: rejected: not found",
                dir.display()
            ),
        )
        .assert_bound("nvrtc", &dir.join("libnvrtc.so.11.2"), 11080, ENV);
}

/// An override naming nothing: rejected as not found, the search goes on.
#[test]
fn missing_env_override_falls_through() {
    let dir = temp_dir("missing-override").join("absent");
    let run = Scenario::probe(["cudaRuntimeGetVersion"])
        .env("CUDA_STUBS_CUDART_PATH", &dir)
        .library_path([mock("mock-12")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_debug(
            "cudart",
            &format!("try {} [{ENV}]: rejected: not found", dir.display()),
        )
        .assert_bound(
            "cudart",
            &cudart("mock-12", "libcudart.so.12"),
            12090,
            LOADER,
        );
}

/// A relative override is ignored (and said so), even where it would name a real file from the
/// working directory: the loader search then finds 13.
#[test]
fn relative_env_override_is_ignored() {
    let run = Scenario::probe(["cudaRuntimeGetVersion"])
        .env("CUDA_STUBS_CUDART_PATH", "mock-12/libcudart.so.12")
        .current_dir(mock_dir())
        .library_path([mock("mock-13")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=13000")
        .assert_debug(
            "cudart",
            "CUDA_STUBS_CUDART_PATH=mock-12/libcudart.so.12: not an absolute path (ignored)",
        )
        .assert_bound(
            "cudart",
            &cudart("mock-13", "libcudart.so.13"),
            13000,
            LOADER,
        );
}

/// With 12 listed before 13 on LD_LIBRARY_PATH, the newest major still wins: sonames are tried
/// newest first, each through the whole path.
#[test]
fn loader_search_prefers_the_newest_major() {
    let run = Scenario::probe(["cudaRuntimeGetVersion", "nvrtcVersion"])
        .library_path([mock("mock-11"), mock("mock-12"), mock("mock-13")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=13000")
        .assert_line("nvrtcVersion rc=0 out=13.0")
        .assert_bound(
            "cudart",
            &cudart("mock-13", "libcudart.so.13"),
            13000,
            LOADER,
        )
        .assert_bound(
            "nvrtc",
            &mock("mock-13").join("libnvrtc.so.13"),
            13000,
            LOADER,
        );
}

/// Without 13, 12 beats 11.
#[test]
fn loader_search_takes_12_over_11() {
    let run = Scenario::probe(["cudaRuntimeGetVersion"])
        .library_path([mock("mock-11"), mock("mock-12")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_debug(
            "cudart",
            &format!("try libcudart.so.13 [{LOADER}]: rejected: not found"),
        )
        .assert_bound(
            "cudart",
            &cudart("mock-12", "libcudart.so.12"),
            12090,
            LOADER,
        );
}

/// A virtualenv with NVIDIA's wheels: `lib/python3.11/site-packages/nvidia/cuda_runtime/lib`
/// (12.x layout) and `nvidia/cu13/lib` (13.x layout).
#[test]
fn virtual_env_wheel_layouts() {
    let venv = temp_dir("venv");
    let site = venv.join("lib/python3.11/site-packages");
    let rt = site.join("nvidia/cuda_runtime/lib/libcudart.so.12");
    let nv = site.join("nvidia/cu13/lib/libnvrtc.so.13");
    copy(&cudart("mock-12", "libcudart.so.12"), &rt);
    copy(&mock("mock-13").join("libnvrtc.so.13"), &nv);
    let run = Scenario::probe(["cudaRuntimeGetVersion", "nvrtcVersion"])
        .env("VIRTUAL_ENV", &venv)
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_line("nvrtcVersion rc=0 out=13.0")
        .assert_bound("cudart", &rt, 12090, PYENV)
        .assert_bound("nvrtc", &nv, 13000, PYENV);
}

/// The Python environment (step 3) comes before the loader search (step 4): a 13 in the
/// virtualenv wins over an 11 on LD_LIBRARY_PATH, which is never tried.
#[test]
fn python_environment_comes_before_the_loader_search() {
    let venv = temp_dir("venv-order");
    let rt = venv.join("lib/python3.12/site-packages/nvidia/cu13/lib/libcudart.so.13");
    copy(&cudart("mock-13", "libcudart.so.13"), &rt);
    let run = Scenario::probe(["cudaRuntimeGetVersion"])
        .env("VIRTUAL_ENV", &venv)
        .library_path([mock("mock-11")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=13000")
        .assert_bound("cudart", &rt, 13000, PYENV);
    assert!(!run.stderr.contains(LOADER), "{run}");
}

/// `$CONDA_PREFIX/lib` (conda's cuda-cudart package) and `$CUDA_HOME/lib64` (a toolkit), and
/// the Python environment before both.
#[test]
fn conda_prefix_lib_and_cuda_home() {
    let conda = temp_dir("conda");
    copy(
        &cudart("mock-11", "libcudart.so.11.0"),
        &conda.join("lib/libcudart.so.11.0"),
    );
    let home = temp_dir("cuda-home");
    copy(
        &mock("mock-13").join("libnvrtc.so.13"),
        &home.join("lib64/libnvrtc.so.13"),
    );
    let run = Scenario::probe(["cudaRuntimeGetVersion", "nvrtcVersion"])
        .env("CONDA_PREFIX", &conda)
        .env("CUDA_HOME", &home)
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=11080")
        .assert_line("nvrtcVersion rc=0 out=13.0")
        .assert_bound(
            "cudart",
            &conda.join("lib/libcudart.so.11.0"),
            11080,
            "$CONDA_PREFIX/lib",
        )
        .assert_bound(
            "nvrtc",
            &home.join("lib64/libnvrtc.so.13"),
            13000,
            "$CUDA_HOME/$CUDA_PATH lib64",
        );
}

/// A wheel bundling the stubs (`site-packages/mypkg/lib/libstubs_*.so`) finds NVIDIA's wheel
/// beside it (`site-packages/nvidia/cuda_runtime/lib`) with no environment at all, before a
/// newer major on LD_LIBRARY_PATH: the stub binds its own environment's copy, the one an
/// `import torch` in the same environment loads.
#[test]
fn wheel_layout_beside_the_stub() {
    let site = temp_dir("beside").join("site-packages");
    let libs = site.join("mypkg/lib");
    for lib in ["cudart", "nvrtc", "cuda"] {
        copy(&stub(lib), &libs.join(format!("libstubs_{lib}.so")));
    }
    let rt = site.join("nvidia/cuda_runtime/lib/libcudart.so.12");
    copy(&cudart("mock-12", "libcudart.so.12"), &rt);
    // LD_LIBRARY_PATH overrides the probe's RUNPATH: the copies are the stubs it loads. The
    // mock 13 after them competes through the loader's search.
    let run = Scenario::probe(["cudaRuntimeGetVersion", "maps"])
        .library_path([&libs, &mock("mock-13")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_bound("cudart", &rt, 12090, BESIDE);
    let own = libs.join("libstubs_cudart.so");
    let mapped = run.mapped();
    assert!(mapped.contains(&own.to_str().unwrap()), "{run}");
    assert!(
        !mapped.iter().any(|p| p.ends_with("libcudart.so.13")),
        "{run}"
    );
}

/// A copy of the NVRTC stub under NVIDIA's newest soname, first on LD_LIBRARY_PATH, is
/// rejected (it would call itself); the mock 12 further on is bound.
#[test]
fn stub_copy_under_a_real_soname_is_rejected() {
    let fake = temp_dir("self-load");
    copy(&stub("nvrtc"), &fake.join("libnvrtc.so.13"));
    let run = Scenario::probe(["nvrtcVersion", "nvrtcGetErrorString:5"])
        .library_path([&fake, &mock("mock-12")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("nvrtcVersion rc=0 out=12.9")
        .assert_line("nvrtcGetErrorString(5) = mock nvrtc 12: result 5")
        .assert_debug(
            "nvrtc",
            &format!(
                "try libnvrtc.so.13 [{LOADER}]: rejected: is a cuda-stubs library, not NVIDIA's \
                 (would call itself)"
            ),
        )
        .assert_bound(
            "nvrtc",
            &mock("mock-12").join("libnvrtc.so.12"),
            12090,
            LOADER,
        );
}

/// The stub copied as `libnvrtc.so.12` first on LD_LIBRARY_PATH, NVIDIA's 12 (the mock) later
/// in the search (`$CUDA_HOME/lib64`): the later one is bound.
#[test]
fn stub_copy_as_same_soname_then_real_one_later() {
    let fake = temp_dir("self-load-12");
    copy(&stub("nvrtc"), &fake.join("libnvrtc.so.12"));
    let home = temp_dir("self-load-12-home");
    let real = home.join("lib64/libnvrtc.so.12");
    copy(&mock("mock-12").join("libnvrtc.so.12"), &real);
    let run = Scenario::probe(["nvrtcVersion"])
        .library_path([&fake])
        .env("CUDA_HOME", &home)
        .debug()
        .run();
    run.assert_success()
        .assert_line("nvrtcVersion rc=0 out=12.9")
        .assert_debug(
            "nvrtc",
            &format!(
                "try libnvrtc.so.12 [{LOADER}]: rejected: is a cuda-stubs library, not NVIDIA's \
                 (would call itself)"
            ),
        )
        .assert_bound("nvrtc", &real, 12090, "$CUDA_HOME/$CUDA_PATH lib64");
}

/// Only stub copies under every NVRTC soname, and the override naming the stub itself: no
/// recursion, no hang, the typed "library not found" error (11) and a message listing them.
#[test]
fn only_stub_copies_give_the_typed_error() {
    let fake = temp_dir("self-load-only");
    for soname in ["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"] {
        copy(&stub("nvrtc"), &fake.join(soname));
    }
    let run = Scenario::probe(["nvrtcVersion", "nvrtcGetErrorString:11"])
        .library_path([&fake])
        .env("CUDA_STUBS_NVRTC_PATH", stub("nvrtc"))
        .run();
    run.assert_success()
        .assert_line("nvrtcVersion rc=11 out=-7777.-7777")
        .assert_silent();
    let text = run.line("nvrtcGetErrorString(11)");
    assert!(
        text.starts_with("nvrtcGetErrorString(11) = cuda-stubs: libnvrtc not found (searched "),
        "{run}"
    );
    for soname in ["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"] {
        assert!(
            text.contains(&format!(
                "{soname} [{LOADER}]: is a cuda-stubs library, not NVIDIA's (would call itself)"
            )),
            "{soname}: {run}"
        );
    }
    assert!(
        text.contains(&format!(
            "{} [{ENV}]: is a cuda-stubs library",
            stub("nvrtc").display()
        )),
        "{run}"
    );
}

/// The cudart override naming the cudart stub itself: rejected, the search goes on.
#[test]
fn override_naming_the_stub_itself_is_rejected() {
    let run = Scenario::probe(["cudaRuntimeGetVersion"])
        .env("CUDA_STUBS_CUDART_PATH", stub("cudart"))
        .library_path([mock("mock-12")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_debug(
            "cudart",
            &format!(
                "try {} [{ENV}]: rejected: is a cuda-stubs library, not NVIDIA's (would call \
                 itself)",
                stub("cudart").display()
            ),
        )
        .assert_bound(
            "cudart",
            &cudart("mock-12", "libcudart.so.12"),
            12090,
            LOADER,
        );
}

/// An override directory whose `libcudart.so.13` is `bad` (made by `make`), beside a good
/// `libcudart.so.12`: the 13 is skipped for `reason`, the 12 bound.
fn bad_candidate(name: &str, make: impl FnOnce(&Path), reason: &str) {
    let dir = temp_dir(&format!("bad-{name}"));
    let bad = dir.join("libcudart.so.13");
    make(&bad);
    copy(
        &cudart("mock-12", "libcudart.so.12"),
        &dir.join("libcudart.so.12"),
    );
    let run = Scenario::probe(["cudaRuntimeGetVersion"])
        .env("CUDA_STUBS_CUDART_PATH", &dir)
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_bound("cudart", &dir.join("libcudart.so.12"), 12090, ENV);
    let line = format!("try {} [{ENV}]: rejected: ", bad.display());
    let found: Vec<&str> = run
        .debug("cudart")
        .into_iter()
        .filter_map(|l| l.strip_prefix(line.as_str()))
        .collect();
    assert_eq!(found.len(), 1, "{run}");
    assert!(
        found[0].starts_with(reason),
        "reason `{}` is not `{reason}`: {run}",
        found[0]
    );
}

fn from_bad(file: &'static str) -> impl FnOnce(&Path) {
    move |dst: &Path| copy(&mock_dir().join("bad").join(file), dst)
}

#[test]
fn bad_candidate_directory() {
    bad_candidate(
        "dir",
        |p| std::fs::create_dir(p).expect("mkdir"),
        "is a directory",
    );
}

#[test]
fn bad_candidate_empty_file() {
    bad_candidate("empty", from_bad("empty"), "empty file");
}

#[test]
fn bad_candidate_not_elf() {
    bad_candidate("text", from_bad("not-elf"), "not an ELF file");
}

#[test]
fn bad_candidate_elf32() {
    bad_candidate(
        "elf32",
        from_bad("elf32"),
        "wrong ELF class 1 (this process is 2)",
    );
}

#[test]
fn bad_candidate_wrong_machine() {
    let (other, ours) = if cfg!(target_arch = "aarch64") {
        (62, 183)
    } else {
        (183, 62)
    };
    bad_candidate(
        "machine",
        from_bad("wrong-machine"),
        &format!("wrong machine (e_machine {other}, this process is {ours})"),
    );
}

/// An ELF the checks pass but `dlopen` refuses (a relocatable object): dlopen's own message.
#[test]
fn bad_candidate_dlopen_error() {
    bad_candidate("reloc", from_bad("relocatable"), "dlopen: ");
}

/// A libcudart.so.13 reporting 10.2 is too old.
#[test]
fn bad_candidate_too_old() {
    bad_candidate(
        "old",
        |p| copy(&cudart("mock-too-old", "libcudart.so.13"), p),
        "version 10020 too old (need 11000 or newer)",
    );
}

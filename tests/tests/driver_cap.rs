//! The driver caps the release (the book's "Driver and toolkit"): NVIDIA's real 13.5, 12.9 and
//! 11.8 libraries reachable at once — 13.5's wheel folder in a virtual environment, 12.9's in a
//! conda environment, 11.8's as `$CUDA_HOME/lib64` — under mock drivers (`libcuda.so.1`
//! reporting CUDA 12.4, 13.0) or none: every stub binds the newest release the driver runs
//! (12.9 under 12.4; 13.5 under 13.0 and with no driver), an override beyond the driver binds
//! and warns, NVRTC alone never loads the driver, and with nothing the driver runs NVRTC binds
//! 13.5 anyway while the runtime stays refused.
//!
//! `tests/c/driver_cap.c` loads the stubs by path and reads only their status API: NVIDIA's
//! libraries are never called (on a mock driver they would call its private entry points).
//! Each scenario is one process.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::{Layout, Outcome, Scenario, compile_c, cuda_layout, mock, stub, temp_dir};

/// The libraries checked: the runtime and a math library, which load the driver, and the two
/// compilers, which never do.
const LIBRARIES: [&str; 4] = ["curand", "cudart", "nvjitlink", "nvrtc"];
const PYENV: &str = "wheel layout in the Python environment";
const OVERRIDE: &str = "environment override";
const NOLOAD: &str = "already loaded (RTLD_NOLOAD)";
/// What a refusal for a 12.4 driver says.
const BEYOND_12_4: &str = "needs a driver \u{2265} 580 (CUDA 13.0); this driver runs CUDA 12.4";

fn program() -> &'static Path {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        compile_c(
            "driver_cap",
            &[Path::new("c/driver_cap.c")],
            &["-ldl".as_ref()],
        )
    })
}

/// A mock driver's file.
fn driver(variant: &str) -> PathBuf {
    mock(variant).join("libcuda.so.1")
}

/// The fake machine: one folder of symbolic links into the wheels' cache.
struct Machine {
    /// `$VIRTUAL_ENV`: 13.5's `nvidia/cu13/lib`.
    venv: PathBuf,
    /// `$CONDA_PREFIX`: 12.9's `nvidia/<package>/lib` folders.
    conda: PathBuf,
    /// `$CUDA_HOME`: 11.8's files in `lib64`.
    cuda_home: PathBuf,
}

/// The file of `lib` in a layout.
fn file_of(layout: &Layout, lib: &str) -> PathBuf {
    match lib {
        "cudart" => layout.cudart.clone(),
        "nvrtc" => layout.nvrtc.clone(),
        other => layout
            .libraries
            .get(other)
            .unwrap_or_else(|| panic!("no {other} in CUDA {}", layout.major))
            .clone(),
    }
}

/// A site-packages of `prefix` holding, for each library, its wheel folder of `layout` (a link
/// to the cache's folder, at the same place under site-packages).
fn wheel_env(prefix: &Path, layout: &Layout, libs: &[&str]) {
    let site = prefix.join("lib/python3.12/site-packages");
    for lib in libs {
        let dir = file_of(layout, lib).parent().expect("folder").to_path_buf();
        let rel = dir
            .strip_prefix(&layout.root)
            .expect("under the layout's root");
        let link = site.join(rel);
        if link.exists() {
            continue;
        }
        std::fs::create_dir_all(link.parent().expect("parent")).expect("create site-packages");
        std::os::unix::fs::symlink(&dir, &link).expect("link a wheel folder");
    }
}

/// The machine with the given majors installed (13: the venv, 12: conda, 11: `$CUDA_HOME`).
fn machine(majors: &[u32]) -> Machine {
    let root = temp_dir("driver-cap-machine");
    let m = Machine {
        venv: root.join("venv"),
        conda: root.join("conda"),
        cuda_home: root.join("cuda-11.8"),
    };
    for dir in [&m.venv, &m.conda, &m.cuda_home] {
        std::fs::create_dir_all(dir).expect("create");
    }
    for &major in majors {
        let layout = cuda_layout(major);
        match major {
            13 => wheel_env(&m.venv, &layout, &LIBRARIES),
            12 => wheel_env(&m.conda, &layout, &LIBRARIES),
            _ => {
                // 11.8 has no nvJitLink; a toolkit's lib64 holds the others side by side.
                let lib64 = m.cuda_home.join("lib64");
                std::fs::create_dir_all(&lib64).expect("create lib64");
                for lib in ["curand", "cudart", "nvrtc"] {
                    let file = file_of(&layout, lib);
                    let name = file.file_name().expect("name");
                    std::os::unix::fs::symlink(&file, lib64.join(name)).expect("link a file");
                }
            }
        }
    }
    m
}

impl Machine {
    /// Where `lib` of CUDA `major` is reachable on this machine.
    fn path(&self, major: u32, lib: &str) -> PathBuf {
        let layout = cuda_layout(major);
        let file = file_of(&layout, lib);
        match major {
            13 | 12 => {
                let prefix = if major == 13 { &self.venv } else { &self.conda };
                prefix
                    .join("lib/python3.12/site-packages")
                    .join(file.strip_prefix(&layout.root).expect("under the root"))
            }
            _ => self
                .cuda_home
                .join("lib64")
                .join(file.file_name().expect("name")),
        }
    }

    /// The program with these commands, on this machine: its environments and `$CUDA_HOME`,
    /// nothing on the loader's path.
    fn scenario<S: AsRef<std::ffi::OsStr>>(
        &self,
        commands: impl IntoIterator<Item = S>,
    ) -> Scenario {
        Scenario::new(program())
            .args(commands)
            .env("VIRTUAL_ENV", &self.venv)
            .env("CONDA_PREFIX", &self.conda)
            .env("CUDA_HOME", &self.cuda_home)
            .env("LD_LIBRARY_PATH", "")
            .debug()
    }
}

/// `status:NAME:STUB`.
fn status(lib: &str) -> String {
    format!("status:{lib}:{}", stub(lib).display())
}

/// The version each library reports for CUDA `major` (cuRAND: its CUDA major, `1000 * major`).
fn version(major: u32, lib: &str) -> i32 {
    match lib {
        "curand" => 1000 * major as i32,
        _ => cuda_layout(major).version_code(),
    }
}

/// Asserts `lib` bound the machine's copy of CUDA `major`, found in its Python environment
/// (or, for 13.x's runtime, the copy 13.5's cuRAND brought in beside it, when cuRAND came
/// first), with the driver's fit `fit`.
fn assert_binds(run: &Outcome, m: &Machine, lib: &str, major: u32, fit: &str) {
    let path = m.path(major, lib);
    let v = version(major, lib);
    let origin = if lib == "cudart" && major == 13 && run.stdout.starts_with("status curand ") {
        NOLOAD
    } else {
        PYENV
    };
    run.assert_bound(lib, &path, v, origin)
        .assert_line(&format!(
            "status {lib} rc=0 bound=1 version={v} found_by={origin}"
        ))
        .assert_line(&format!("status {lib} path={}", path.display()));
    let line = run.line(&format!("driver {lib} rc=0"));
    assert!(line.ends_with(&format!("({fit})")), "{lib}: {line}\n{run}");
}

/// The drivers the process has mapped (the program's `maps`).
fn drivers_mapped(run: &Outcome) -> Vec<&str> {
    run.assert_line("maps done");
    run.stdout
        .lines()
        .filter_map(|l| l.strip_prefix("driver-mapped "))
        .collect()
}

/// The measured case: a driver of CUDA 12.4, 13.5 and 12.9 reachable. Every stub binds 12.9:
/// the runtime and cuRAND opened the driver as they would themselves (here the driver stub's
/// override names the mock), 13.5's cuRAND was refused before `dlopen` by the runtime its
/// `DT_NEEDED` names, and the compilers, binding after, see the driver the process has mapped.
#[test]
fn under_a_12_4_driver_every_stub_binds_12_9() {
    let m = machine(&[13, 12, 11]);
    let mut commands: Vec<String> = LIBRARIES.iter().map(|l| status(l)).collect();
    commands.push("maps".into());
    let run = m
        .scenario(commands)
        .env("CUDA_STUBS_CUDA_PATH", driver("mock-driver-12.4"))
        .run();
    run.assert_success();
    for lib in LIBRARIES {
        assert_binds(&run, &m, lib, 12, "runs");
        let line = run.line(&format!("driver {lib} rc=0"));
        assert!(line.contains(" cuda_version=12040 fit=2"), "{line}\n{run}");
        run.assert_line(&format!(
            "driver {lib} path={}",
            driver("mock-driver-12.4").display()
        ));
    }
    run.assert_line(&format!(
        "driver cudart message=cuda-stubs: libcudart: CUDA 12 is the newest release found that \
         the driver ({}, CUDA 12.4) runs",
        driver("mock-driver-12.4").display()
    ));
    run.assert_debug(
        "curand",
        &format!(
            "try {} [{PYENV}]: rejected: CUDA 13 (needs libcudart.so.13) {BEYOND_12_4}",
            m.path(13, "curand").display()
        ),
    );
    for lib in ["nvrtc", "nvjitlink"] {
        run.assert_debug(
            lib,
            &format!(
                "try {} [{PYENV}]: rejected: CUDA 13 {BEYOND_12_4}",
                m.path(13, lib).display()
            ),
        );
    }
    assert_eq!(
        drivers_mapped(&run),
        [driver("mock-driver-12.4").to_str().expect("utf-8")],
        "{run}"
    );
}

/// The runtime alone, first in the process: it refuses 13.5 for the driver (not for another
/// runtime: none is mapped) and binds 12.9, whether the driver is named by its override or found
/// by its soname, as NVIDIA's runtime finds it.
#[test]
fn the_runtime_alone_binds_12_9_under_a_12_4_driver() {
    let m = machine(&[13, 12]);
    for by_soname in [false, true] {
        let scenario = m.scenario([status("cudart"), "maps".into()]);
        let run = if by_soname {
            scenario.library_path([mock("mock-driver-12.4")])
        } else {
            scenario.env("CUDA_STUBS_CUDA_PATH", driver("mock-driver-12.4"))
        }
        .run();
        run.assert_success();
        assert_binds(&run, &m, "cudart", 12, "runs");
        run.assert_debug(
            "cudart",
            &format!(
                "try {} [{PYENV}]: rejected: CUDA 13 {BEYOND_12_4}",
                m.path(13, "cudart").display()
            ),
        );
        assert_eq!(drivers_mapped(&run).len(), 1, "{run}");
    }
}

/// A driver of CUDA 13.0 (R580) runs 13.5: every stub binds it.
#[test]
fn under_a_13_0_driver_every_stub_binds_13_5() {
    let m = machine(&[13, 12, 11]);
    let run = m
        .scenario(LIBRARIES.iter().map(|l| status(l)))
        .env("CUDA_STUBS_CUDA_PATH", driver("mock-driver"))
        .run();
    run.assert_success();
    for lib in LIBRARIES {
        assert_binds(&run, &m, lib, 13, "runs");
        let line = run.line(&format!("driver {lib} rc=0"));
        assert!(line.contains(" cuda_version=13000 "), "{line}\n{run}");
    }
}

/// No driver (a CPU-only machine): the choice is today's, 13.5 everywhere, and the status says
/// the driver was unknown.
#[test]
fn with_no_driver_every_stub_binds_13_5() {
    let m = machine(&[13, 12, 11]);
    let mut commands: Vec<String> = LIBRARIES.iter().map(|l| status(l)).collect();
    commands.push("maps".into());
    let run = m.scenario(commands).run();
    run.assert_success();
    for lib in LIBRARIES {
        assert_binds(&run, &m, lib, 13, "driver-unknown");
        run.assert_line(&format!("driver {lib} path=(null)"));
    }
    run.assert_line(
        "driver curand message=cuda-stubs: libcurand: no driver found: the release is not capped",
    );
    assert!(drivers_mapped(&run).is_empty(), "{run}");
}

/// `CUDA_STUBS_CUDART_PATH` naming 13.5 under a 12.4 driver: the override wins, with a warning
/// in the debug log and the status.
#[test]
fn an_override_beyond_the_driver_binds_and_warns() {
    let m = machine(&[13, 12]);
    let thirteen = m.path(13, "cudart");
    let run = m
        .scenario([status("cudart")])
        .env("CUDA_STUBS_CUDART_PATH", &thirteen)
        .env("CUDA_STUBS_CUDA_PATH", driver("mock-driver-12.4"))
        .run();
    let v = version(13, "cudart");
    let warning = format!(
        "warning: CUDA 13 {BEYOND_12_4}: bound because the environment override \
         (CUDA_STUBS_CUDART_PATH) names it"
    );
    run.assert_success()
        .assert_bound("cudart", &thirteen, v, OVERRIDE)
        .assert_debug("cudart", &warning)
        .assert_line(&format!(
            "status cudart message=cuda-stubs: libcudart bound to {}, version {v}, found by \
             {OVERRIDE}; {warning}",
            thirteen.display()
        ))
        .assert_line(&format!(
            "driver cudart message=cuda-stubs: libcudart: {warning}"
        ));
    assert!(
        run.line("driver cudart rc=0")
            .ends_with("(override-beyond)"),
        "{run}"
    );
}

/// NVRTC alone never loads the driver, even where one is reachable both ways: it binds what it
/// finds first (13.5), and the status says no driver was known.
#[test]
fn nvrtc_alone_never_loads_the_driver() {
    let m = machine(&[13, 12]);
    let run = m
        .scenario([status("nvrtc"), "maps".into()])
        .env("CUDA_STUBS_CUDA_PATH", driver("mock-driver-12.4"))
        .library_path([mock("mock-driver-12.4")])
        .run();
    run.assert_success();
    assert_binds(&run, &m, "nvrtc", 13, "driver-unknown");
    assert!(drivers_mapped(&run).is_empty(), "{run}");
}

/// Only 13.5 present, and a process that loaded a 12.4 driver itself: NVRTC binds 13.5 anyway
/// (it compiles; it says why), while the runtime, whose calls would only answer "insufficient
/// driver", stays refused, its status saying why.
#[test]
fn with_nothing_the_driver_runs_nvrtc_binds_anyway_and_the_runtime_is_refused() {
    let m = machine(&[13]);
    let run = m
        .scenario([
            format!("dlopen:{}", driver("mock-driver-12.4").display()),
            status("nvrtc"),
            status("cudart"),
            format!("driver-small:cudart:{}", stub("cudart").display()),
        ])
        .run();
    run.assert_success();
    assert_binds(&run, &m, "nvrtc", 13, "compiler-beyond");
    run.assert_debug(
        "nvrtc",
        &format!(
            "nothing the driver runs is present: {} bound beyond it",
            m.path(13, "nvrtc").display()
        ),
    );
    assert!(
        run.line("driver nvrtc message").ends_with(
            "bound because nothing the driver runs is present and libnvrtc needs no driver \
             (its PTX needs a newer driver, which the driver stub reconciles by compiling PTX \
             to CUBIN)"
        ),
        "{run}"
    );
    run.assert_line("status cudart rc=0 bound=0 version=0 found_by=(null)");
    let message = run.line("status cudart message");
    assert!(
        message.contains(&format!(
            "{} [{PYENV}]: CUDA 13 {BEYOND_12_4}",
            m.path(13, "cudart").display()
        )),
        "{run}"
    );
    assert!(
        run.line("driver cudart rc=0").ends_with("(not-bound)"),
        "{run}"
    );
    run.assert_line("driver-small cudart rc=-1 untouched=1");
}

/// A math library's copy the driver cannot run, mapped alone (what a stub leaves when it loads
/// a 13.x cuRAND, NCCL or cuDNN, finds it beyond the driver and binds nothing), says no release:
/// the runtime stub binding after it takes the 12.x runtime the driver runs, where taking the
/// copy's release (13) would have left it nothing (13 beyond the driver, 12 another release).
/// Mocks: 13.x's cuRAND (`curandGetVersion` 10400), the 13 and 12 runtimes on the loader's path.
#[test]
fn a_mapped_copy_beyond_the_driver_says_no_release() {
    let curand = mock("mock-curand-13").join("libcurand.so.10");
    let run = Scenario::new(program())
        .args([
            format!("dlopen:{}", driver("mock-driver-12.4").display()),
            format!("dlopen:{}", curand.display()),
            status("cudart"),
        ])
        .library_path([mock("mock-13"), mock("mock-12")])
        .debug()
        .run();
    run.assert_success()
        .assert_debug(
            "cudart",
            "libcurand.so.10 is of CUDA 13, which the driver cannot run: it says no release",
        )
        .assert_debug(
            "cudart",
            &format!(
                "try libcudart.so.13 [dynamic loader search]: rejected: CUDA 13 {BEYOND_12_4}"
            ),
        )
        .assert_bound(
            "cudart",
            &mock("mock-12").join("libcudart.so.12"),
            12090,
            "dynamic loader search",
        );
}

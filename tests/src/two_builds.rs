//! One C program against one major's NVIDIA headers, built twice: linked only to the stubs, and
//! linked normally to NVIDIA's library of that major, so that a test compares what the two
//! print (the math libraries' tests: `curand.rs`, `cufft.rs`, `cublas.rs`).

use crate::{
    Outcome, Scenario, compile_c, cuda_include_args, cuda_layout, stubs_dir, workspace_root,
};
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use stub_model::Library;

/// Linked into a stub build with the runtime stub: with `STUBS_TESTS_RUNTIME_FIRST` set, the
/// runtime stub binds before `main`, as in a program that calls the runtime first.
pub const RUNTIME_FIRST: &str = "c/runtime_first.c";

/// A C program of `tests/c/` and the library it exercises.
#[derive(Debug, Clone, Copy)]
pub struct TwoBuilds {
    /// The spec of the library (its name is the `layout.json` key of the real file).
    pub library: &'static Library,
    /// The source, relative to `tests/` (`c/curand_host.c`).
    pub source: &'static str,
    /// The stubs the stub build links besides the library's own, kept with `--no-as-needed`
    /// (the runtime's: a CUDA program has it even when this one calls none of it).
    pub also_stubs: &'static [&'static str],
    /// Whether the headers need codegen's `<nv/target>` shim (`cublas_api.h` includes
    /// `cuda_fp16.h`, which includes CCCL's `<nv/target>`; NVIDIA's runtime wheels do not ship
    /// CCCL, and C never reaches what uses it).
    pub nv_target_shim: bool,
}

impl TwoBuilds {
    /// NVIDIA's real library of `major`, from the test wheels.
    pub fn real(&self, major: u32) -> PathBuf {
        let name = self.library.name();
        cuda_layout(major)
            .libraries
            .get(name)
            .cloned()
            .unwrap_or_else(|| panic!("the CUDA {major} layout has no {name}"))
    }

    /// The folder of [`TwoBuilds::real`].
    pub fn real_dir(&self, major: u32) -> PathBuf {
        self.real(major)
            .parent()
            .expect("a library has a folder")
            .to_path_buf()
    }

    fn include_args(&self, major: u32) -> Vec<OsString> {
        let mut args = cuda_include_args(major);
        if self.nv_target_shim {
            let shim = workspace_root().join("codegen/shim-include");
            args.push(format!("-I{}", shim.display()).into());
        }
        args
    }

    /// The program built against `major`'s headers with `-DWITH_STATUS`, linked to the
    /// library's stub and [`TwoBuilds::also_stubs`], with the runtime stub also
    /// `c/runtime_first.c` (see [`TwoBuilds::run_stub`]); built once per test process.
    pub fn stub_program(&self, major: u32) -> PathBuf {
        let name = format!("{}-stub-{major}", self.library.name());
        built(&name, || {
            let dir = stubs_dir();
            let mut args = self.include_args(major);
            args.push("-DWITH_STATUS".into());
            args.push(format!("-L{}", dir.display()).into());
            args.push("-Wl,--no-as-needed".into());
            args.push(format!("-lstubs_{}", self.library.name()).into());
            for lib in self.also_stubs {
                args.push(format!("-lstubs_{lib}").into());
            }
            args.push(format!("-Wl,-rpath,{}", dir.display()).into());
            let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
            let mut sources = vec![Path::new(self.source)];
            if self.also_stubs.contains(&"cudart") {
                sources.push(Path::new(RUNTIME_FIRST));
            }
            compile_c(&name, &sources, &refs)
        })
    }

    /// The same program (without `WITH_STATUS`) linked normally to NVIDIA's library of
    /// `major`; run it with [`TwoBuilds::real_dir`] on `LD_LIBRARY_PATH`.
    pub fn normal_program(&self, major: u32) -> PathBuf {
        let name = format!("{}-normal-{major}", self.library.name());
        built(&name, || {
            let file = self.real(major);
            let dir = self.real_dir(major);
            let soname = file
                .file_name()
                .expect("a file")
                .to_string_lossy()
                .into_owned();
            let mut args = self.include_args(major);
            args.push(format!("-L{}", dir.display()).into());
            args.push(format!("-l:{soname}").into());
            // What the library needs from its own folder (13.5's libcurand: libcudart.so.13).
            args.push(format!("-Wl,-rpath-link,{}", dir.display()).into());
            // And from the major's other wheels, where its RUNPATH misses a library one of its
            // dependencies' RUNPATH finds at run time (12.x's cuDensityMat needs
            // `libcusparse.so.12`, which only its cuSOLVER's RUNPATH leads to): the linker
            // follows no dependency's RUNPATH for another's `DT_NEEDED`.
            for other in cuda_layout(major).libraries.values() {
                if let Some(folder) = other.parent().filter(|f| *f != dir) {
                    args.push(format!("-Wl,-rpath-link,{}", folder.display()).into());
                }
            }
            let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
            compile_c(&name, &[Path::new(self.source)], &refs)
        })
    }

    /// The stub build of `header`'s headers, with `args`, the debug log on, and the runtime
    /// and this library of the given majors as the stubs' overrides (`CUDA_STUBS_CUDART_PATH`,
    /// the spec's variable); `None` leaves the variable unset. With a runtime, the program
    /// uses it first ([`RUNTIME_FIRST`]): a math stub takes the release of a runtime the
    /// process has mapped, and never has the runtime stub search.
    pub fn run_stub(
        &self,
        header: u32,
        cudart: Option<u32>,
        library: Option<u32>,
        args: &[&str],
    ) -> Outcome {
        let mut s = Scenario::new(self.stub_program(header)).args(args).debug();
        if let Some(m) = cudart {
            s = s
                .env("CUDA_STUBS_CUDART_PATH", cuda_layout(m).cudart)
                .env("STUBS_TESTS_RUNTIME_FIRST", "1");
        }
        if let Some(m) = library {
            let var = self.library.real.env_path.to_str().expect("ASCII name");
            s = s.env(var, self.real(m));
        }
        s.run()
    }

    /// The normal build of `major`, run with its library's folder on `LD_LIBRARY_PATH`;
    /// asserted to exit 0.
    pub fn run_normal(&self, major: u32) -> Outcome {
        self.run_normal_with(major, &[])
    }

    /// [`TwoBuilds::run_normal`] with `args`.
    pub fn run_normal_with(&self, major: u32, args: &[&str]) -> Outcome {
        let run = Scenario::new(self.normal_program(major))
            .linked_normally()
            .args(args)
            .library_path([self.real_dir(major)])
            .run();
        run.assert_success();
        run
    }

    /// The first three numbers of the version the spec's test wheel of `major` pins
    /// (`nvidia-cufft-cu12==11.4.1.4` → `[11, 4, 1]`).
    pub fn wheel_version(&self, major: u32) -> [i32; 3] {
        let wheel = self
            .library
            .test_wheels
            .iter()
            .find(|w| w.major == major)
            .expect("a test wheel of the major");
        let version = wheel.requirement.split("==").nth(1).expect("pinned");
        let mut parts = version.split('.').map(|p| p.parse().expect("numeric"));
        [(); 3].map(|()| parts.next().expect("three numbers"))
    }
}

/// The lines of `run` that start with `prefix`: what both builds print (not the stub build's
/// status and mapping lines).
pub fn api_lines<'a>(run: &'a Outcome, prefix: &str) -> Vec<&'a str> {
    run.stdout
        .lines()
        .filter(|l| l.starts_with(prefix))
        .collect()
}

/// The `mapped …` line of `run` (the programs of `VersionProbe::Needed` libraries print which
/// cuBLAS sonames the process has) says the cuBLAS of `major` is mapped and the other major's
/// (12 or 13) is not: the copy's own `DT_NEEDED` brought its release in, and nothing else.
pub fn assert_only_cublas_of(run: &Outcome, major: u32) {
    let other = if major == 12 { 13 } else { 12 };
    let mapped = run.line("mapped");
    assert!(mapped.contains(&format!("libcublas.so.{major}=1")), "{run}");
    assert!(mapped.contains(&format!("libcublas.so.{other}=0")), "{run}");
}

/// `make()`'s program, built once per test process and name.
fn built(name: &str, make: impl FnOnce() -> PathBuf) -> PathBuf {
    static BUILT: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    built.entry(name.to_owned()).or_insert_with(make).clone()
}

//! What a bench run works on: the real libraries (from `scripts/fetch-cuda.py`'s layout), the
//! stubs, the work folder, and the clean environment every child process starts from.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The three libraries a stub stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lib {
    Cudart,
    Nvrtc,
    Cuda,
}

impl Lib {
    /// `CUDA_STUBS_<LIB>_PATH` / `BENCH_TRAMP_<LIB>` suffix.
    pub fn upper(self) -> &'static str {
        match self {
            Lib::Cudart => "CUDART",
            Lib::Nvrtc => "NVRTC",
            Lib::Cuda => "CUDA",
        }
    }

    /// The stub's file name.
    pub fn stub_file(self) -> &'static str {
        match self {
            Lib::Cudart => "libstubs_cudart.so",
            Lib::Nvrtc => "libstubs_nvrtc.so",
            Lib::Cuda => "libstubs_cuda.so",
        }
    }

    /// The library a benchmarked function belongs to.
    pub fn of(function: &str) -> Lib {
        if function.starts_with("nvrtc") {
            Lib::Nvrtc
        } else if function.starts_with("cuda") {
            Lib::Cudart
        } else {
            Lib::Cuda
        }
    }
}

/// How a driver reaches the library: the three contenders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Linked against NVIDIA's library itself.
    Direct,
    /// Linked against the cuda-stubs library.
    Stub,
    /// Linked against the Implib.so-style trampoline library (`c/trampoline.S`).
    Trampoline,
    /// The stub with tracing and fault injection switched on for other functions
    /// (`CUDA_STUBS_TRACE`, `CUDA_STUBS_FAULT`): what the measured function pays for them.
    StubHooksElsewhere,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::Direct,
        Variant::Stub,
        Variant::Trampoline,
        Variant::StubHooksElsewhere,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Direct => "direct",
            Variant::Stub => "stub",
            Variant::Trampoline => "trampoline",
            Variant::StubHooksElsewhere => "stub-hooks-elsewhere",
        }
    }
}

pub struct Setup {
    /// CUDA version of the wheels (`13.5.37`).
    pub cuda_version: String,
    pub cudart: PathBuf,
    pub nvrtc: PathBuf,
    /// `libcuda.so.1` of an installed driver, if any.
    pub libcuda: Option<PathBuf>,
    /// Folder holding the three stubs.
    pub stubs: PathBuf,
    /// Where executables and tool outputs go.
    pub work: PathBuf,
    /// Fewer repeats: a smoke run.
    pub quick: bool,
}

impl Setup {
    /// Reads `<cache>/cuda-<major>/layout.json`.
    pub fn new(
        cache: &Path,
        major: &str,
        stubs: PathBuf,
        work: PathBuf,
        quick: bool,
    ) -> Result<Setup, String> {
        let layout_path = cache.join(format!("cuda-{major}/layout.json"));
        let text = std::fs::read_to_string(&layout_path)
            .map_err(|e| format!("{}: {e}", layout_path.display()))?;
        let layout: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", layout_path.display()))?;
        let field = |k: &str| -> Result<String, String> {
            layout[k]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("{}: no \"{k}\"", layout_path.display()))
        };
        // Absolute: they end up in rpaths and in the report.
        std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
        let absolute = |p: PathBuf| {
            p.canonicalize()
                .map_err(|e| format!("{}: {e}", p.display()))
        };
        let (stubs, work) = (absolute(stubs)?, absolute(work)?);
        Ok(Setup {
            cuda_version: field("version")?,
            cudart: PathBuf::from(field("cudart")?),
            nvrtc: PathBuf::from(field("nvrtc")?),
            libcuda: find_libcuda(),
            stubs,
            work,
            quick,
        })
    }

    /// The real library file, if there is one.
    pub fn real(&self, lib: Lib) -> Option<&Path> {
        match lib {
            Lib::Cudart => Some(&self.cudart),
            Lib::Nvrtc => Some(&self.nvrtc),
            Lib::Cuda => self.libcuda.as_deref(),
        }
    }

    pub fn stub(&self, lib: Lib) -> PathBuf {
        self.stubs.join(lib.stub_file())
    }
}

/// `libcuda.so.1` from the loader cache (a driver install), else none.
fn find_libcuda() -> Option<PathBuf> {
    let out = Command::new("ldconfig").arg("-p").output().ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.trim_start().starts_with("libcuda.so.1 ") && l.contains("x86-64"))
        .find_map(|l| l.split("=> ").nth(1).map(|p| PathBuf::from(p.trim())))
}

/// A command with none of the variables that steer the stubs, the trampolines or the loader.
pub fn clean_command(program: &Path) -> Command {
    let mut cmd = Command::new(program);
    for var in [
        "CUDA_STUBS_CUDART_PATH",
        "CUDA_STUBS_NVRTC_PATH",
        "CUDA_STUBS_CUDA_PATH",
        "CUDA_STUBS_DEBUG",
        "BENCH_TRAMP_CUDART",
        "BENCH_TRAMP_NVRTC",
        "BENCH_TRAMP_CUDA",
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
        "LD_BIND_NOW",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// Defined dynamic symbols of a shared object (`nm -D --defined-only`).
pub fn exports(lib: &Path) -> Vec<String> {
    Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(lib)
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .filter_map(|l| l.split_whitespace().nth(2).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// First line of a command's stdout, or `?`.
pub fn command_line(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .map(|l| l.trim().to_owned())
        })
        .unwrap_or_else(|| "?".into())
}

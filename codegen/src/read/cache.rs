//! The unpacked NVIDIA wheels written by `scripts/fetch-cuda.py`.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The CUDA majors codegen covers, oldest first; the last one is the exported ABI.
pub const MAJORS: [u32; 3] = [11, 12, 13];

/// The newest major: declarations and types are spelled as it has them.
pub const NEWEST: u32 = 13;

/// One `<cache>/cuda-<major>/layout.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct Layout {
    /// The CUDA major.
    pub major: u32,
    /// The runtime wheel's full version, e.g. `12.9.79`.
    pub version: String,
    /// Include directories, searched in order.
    pub include: Vec<PathBuf>,
    /// The other keys: the real libraries' paths by key (`"cudart"`: `libcudart.so.N`,
    /// `"nvrtc"`, `"nvjitlink"` where the major has one), `"root"`, `"nvcc"` …
    #[serde(flatten)]
    pub files: BTreeMap<String, serde_json::Value>,
}

impl Layout {
    /// The first include directory holding `header`.
    pub fn find_header(&self, header: &str) -> Result<PathBuf, String> {
        self.include
            .iter()
            .map(|dir| dir.join(header))
            .find(|p| p.is_file())
            .ok_or_else(|| format!("{header} not found in the CUDA {} include dirs", self.major))
    }

    /// The path of the real library `key` names (`"cudart"`, `"nvrtc"`, `"nvjitlink"`), or
    /// `None` when this major has none (nvJitLink before 12.0).
    pub fn library_file(&self, key: &str) -> Option<PathBuf> {
        self.files.get(key)?.as_str().map(PathBuf::from)
    }

    /// `major.minor`, e.g. `12.9`.
    pub fn short_version(&self) -> String {
        self.version
            .split('.')
            .take(2)
            .collect::<Vec<_>>()
            .join(".")
    }
}

/// `$CUDA_STUBS_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/cuda-stubs`, as the fetch script has it.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CUDA_STUBS_CACHE").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache")
        });
    base.join("cuda-stubs")
}

/// Reads every major's layout, failing with a hint to run the fetch script.
pub fn load_layouts(cache: &Path) -> Result<Vec<Layout>, String> {
    MAJORS
        .iter()
        .map(|major| {
            let path = cache.join(format!("cuda-{major}")).join("layout.json");
            let text = std::fs::read_to_string(&path).map_err(|e| {
                format!(
                    "{}: {e} (run `python3 scripts/fetch-cuda.py` first)",
                    path.display()
                )
            })?;
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
        })
        .collect()
}

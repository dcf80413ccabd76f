//! Size of the runtime, NVRTC and driver stubs (as built, and a `strip --strip-all` copy)
//! beside the real library's; and of every spec'd stub, stripped, with its exported functions
//! and bytes per export beyond the loader's share, for each architecture built.

use crate::setup::{Lib, Setup};
use std::process::Command;

pub struct Row {
    pub stub_file: &'static str,
    pub built: u64,
    pub stripped: u64,
    /// File name and size of the real library, if there is one here.
    pub real: Option<(String, u64)>,
}

fn size(p: &std::path::Path) -> Result<u64, String> {
    std::fs::metadata(p)
        .map(|m| m.len())
        .map_err(|e| format!("{}: {e}", p.display()))
}

pub fn run(setup: &Setup) -> Result<Vec<Row>, String> {
    println!("\n== size");
    let mut rows = Vec::new();
    for lib in [Lib::Cudart, Lib::Nvrtc, Lib::Cuda] {
        let stub = setup.stub(lib);
        let stripped = setup.work.join(format!("stripped-{}", lib.stub_file()));
        let status = Command::new("strip")
            .arg("--strip-all")
            .arg("-o")
            .arg(&stripped)
            .arg(&stub)
            .status()
            .map_err(|e| format!("strip: {e}"))?;
        if !status.success() {
            return Err(format!("strip {}: {status}", stub.display()));
        }
        let real = match setup.real(lib) {
            Some(p) => Some((
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                size(p)?,
            )),
            None => None,
        };
        let row = Row {
            stub_file: lib.stub_file(),
            built: size(&stub)?,
            stripped: size(&stripped)?,
            real,
        };
        println!(
            "{}: {} bytes built, {} stripped; real {:?}",
            row.stub_file, row.built, row.stripped, row.real
        );
        rows.push(row);
    }
    Ok(rows)
}

/// One spec'd stub on one architecture: its stripped size and exported functions.
pub struct StubSize {
    /// The spec's name (`cudart`).
    pub name: String,
    /// Size of a `strip --strip-all` copy, bytes.
    pub stripped: u64,
    /// Exported functions: `nm -D --defined-only` symbols of type `T` (data exports such as
    /// cuTENSOR's stand-ins left out).
    pub exports: usize,
}

/// Every spec'd stub built for one architecture.
pub struct ArchSizes {
    /// `x86-64`, `aarch64`.
    pub arch: &'static str,
    /// One per spec'd stub, in spec order.
    pub stubs: Vec<StubSize>,
}

impl ArchSizes {
    /// The loader's share: the smallest stub (stripped; of two as small, the one with fewer
    /// exported functions), what every stub carries before its first function (the loader, the
    /// spec tables, the dynamic section). The smallest rather than the one with the fewest
    /// exports: a stub a little smaller than that one (fewer hand-written parts, shorter names)
    /// would come out at less than zero per export. `None` with no stub.
    pub fn loader_share(&self) -> Option<&StubSize> {
        self.stubs.iter().min_by_key(|s| (s.stripped, s.exports))
    }

    /// Bytes per exported function beyond the loader's share: (stripped − share) / exports;
    /// `None` for the stub that is the share, or one with no function.
    pub fn per_export(&self, stub: &StubSize) -> Option<u64> {
        let share = self.loader_share()?;
        (stub.name != share.name && stub.exports > 0)
            .then(|| stub.stripped.saturating_sub(share.stripped) / stub.exports as u64)
    }

    /// The stub named `name`.
    pub fn get(&self, name: &str) -> Option<&StubSize> {
        self.stubs.iter().find(|s| s.name == name)
    }
}

/// The spec'd stubs, in spec order, from codegen's `scripts/libraries.json`: `(name, file)`.
/// The link-time stubs (`libstubs_cudart_abi12.so`) are left out: never loaded, they hold
/// names only.
fn spec_stubs() -> Result<Vec<(String, String)>, String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/libraries.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let stubs = json["stubs"]
        .as_array()
        .ok_or_else(|| format!("{}: no \"stubs\" list", path.display()))?;
    stubs
        .iter()
        .map(|s| match (s["name"].as_str(), s["file"].as_str()) {
            (Some(name), Some(file)) => Ok((name.to_owned(), file.to_owned())),
            _ => Err(format!("{}: a stub without name or file", path.display())),
        })
        .collect()
}

/// Exported functions of a shared object: `nm -D --defined-only` lines of type `T` (the
/// host's `nm` reads either architecture's ELF).
fn function_exports(lib: &std::path::Path) -> Result<usize, String> {
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(lib)
        .output()
        .map_err(|e| format!("nm: {e}"))?;
    if !out.status.success() {
        return Err(format!("nm -D {}: {}", lib.display(), out.status));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.split_whitespace().nth(1) == Some("T"))
        .count())
}

/// Every spec'd stub in `dir` (built for `arch`), each copied through `strip` (the
/// architecture's: the host's `strip` reads no other machine's ELF) into `work`.
pub fn every_stub(
    arch: &'static str,
    dir: &std::path::Path,
    strip: &str,
    work: &std::path::Path,
) -> Result<ArchSizes, String> {
    println!("\n== size of every stub ({arch}, {})", dir.display());
    let out_dir = work.join(format!("stripped-{arch}"));
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let mut stubs = Vec::new();
    for (name, file) in spec_stubs()? {
        let stub = dir.join(&file);
        let stripped = out_dir.join(&file);
        let status = Command::new(strip)
            .arg("--strip-all")
            .arg("-o")
            .arg(&stripped)
            .arg(&stub)
            .status()
            .map_err(|e| format!("{strip}: {e}"))?;
        if !status.success() {
            return Err(format!("{strip} {}: {status}", stub.display()));
        }
        let row = StubSize {
            name,
            stripped: size(&stripped)?,
            exports: function_exports(&stub)?,
        };
        println!(
            "{file}: {} bytes stripped, {} exported functions",
            row.stripped, row.exports
        );
        stubs.push(row);
    }
    Ok(ArchSizes { arch, stubs })
}

#[cfg(test)]
mod tests {
    use super::{ArchSizes, StubSize};

    fn stub(name: &str, stripped: u64, exports: usize) -> StubSize {
        StubSize {
            name: name.into(),
            stripped,
            exports,
        }
    }

    #[test]
    fn bytes_per_export_are_beyond_the_smallest_stub() {
        let arch = ArchSizes {
            arch: "x86-64",
            stubs: vec![
                stub("few", 150_000, 14),
                stub("smallest", 149_000, 23),
                stub("many", 249_000, 500),
            ],
        };
        let share = arch.loader_share().unwrap();
        assert_eq!(share.name, "smallest");
        assert_eq!(arch.per_export(share), None);
        assert_eq!(arch.per_export(arch.get("many").unwrap()), Some(200));
        assert_eq!(arch.per_export(arch.get("few").unwrap()), Some(71));
        assert!(arch.get("none").is_none());
    }
}

//! Size of each stub (as built, and a `strip --strip-all` copy) beside the real library's.

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

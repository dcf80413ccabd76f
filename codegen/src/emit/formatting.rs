//! Generated Rust goes through rustfmt, so `cargo fmt --all` leaves the checked-in files alone
//! and the drift check compares like with like.

use std::io::Write;
use std::process::{Command, Stdio};

/// `text` as `rustfmt --edition 2024` prints it (the workspace's rustfmt settings apply).
pub fn rustfmt(text: &str) -> Result<String, String> {
    let mut child = Command::new(std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into()))
        .args(["--edition", "2024", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("running rustfmt: {e}"))?;
    child
        .stdin
        .take()
        .ok_or("rustfmt: no stdin")?
        .write_all(text.as_bytes())
        .map_err(|e| format!("rustfmt stdin: {e}"))?;
    let out = child
        .wait_with_output()
        .map_err(|e| format!("rustfmt: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "rustfmt failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("rustfmt output: {e}"))
}

/// `include/cuda_stubs.h`, the C header of the stubs' own API, written by cbindgen from the
/// `stub-loader` crate (the status struct) with `stub-loader/cbindgen.toml`, and from
/// `status_declarations` (Rust: each stub's status function, from the specs), which it reads
/// from a temporary file.
pub fn c_header(root: &std::path::Path, status_declarations: &str) -> Result<String, String> {
    let crate_dir = root.join("stub-loader");
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .map_err(|e| format!("cbindgen.toml: {e}"))?;
    let src = std::env::temp_dir().join(format!(
        "cuda-stubs-codegen-status-{}.rs",
        std::process::id()
    ));
    std::fs::write(&src, status_declarations).map_err(|e| format!("{}: {e}", src.display()))?;
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_src(&src)
        .with_config(config)
        .generate();
    let _ = std::fs::remove_file(&src);
    let bindings = bindings.map_err(|e| format!("cbindgen: {e}"))?;
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).map_err(|e| format!("cbindgen output: {e}"))
}

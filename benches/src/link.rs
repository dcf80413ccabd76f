//! Links the C driver objects `build.rs` compiled into executables, against the real library,
//! the stub or the trampoline library.

use crate::setup::{Lib, Setup, Variant};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Folder of `build.rs`'s objects and `libbench_tramp.so`.
pub fn c_out() -> PathBuf {
    PathBuf::from(env!("BENCH_C_OUT"))
}

/// The `cc` crate's compiler, with its arguments.
fn compiler() -> Command {
    let mut cmd = Command::new(env!("BENCH_CC"));
    cmd.args(
        env!("BENCH_CC_ARGS")
            .split('\x1f')
            .filter(|a| !a.is_empty()),
    );
    cmd
}

/// Linker arguments that make `lib` reach the program the `variant` way (with an rpath, so
/// the program runs without `LD_LIBRARY_PATH`).
pub fn lib_args(setup: &Setup, lib: Lib, variant: Variant) -> Result<Vec<String>, String> {
    let (dir, name) = match variant {
        Variant::Direct => {
            let real = setup
                .real(lib)
                .ok_or_else(|| format!("no real {}", lib.upper()))?;
            let file = real.file_name().unwrap_or_default().to_string_lossy();
            (parent(real), format!("-l:{file}"))
        }
        Variant::Stub | Variant::StubHooksElsewhere => (
            setup.stubs.clone(),
            format!(
                "-l{}",
                lib.stub_file()
                    .trim_start_matches("lib")
                    .trim_end_matches(".so")
            ),
        ),
        Variant::Trampoline => (c_out(), "-lbench_tramp".into()),
    };
    let dir = dir.display().to_string();
    Ok(vec![format!("-L{dir}"), name, format!("-Wl,-rpath,{dir}")])
}

pub fn parent(p: &Path) -> PathBuf {
    p.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Links `objects` (names in [`c_out`]) into `work/<exe>` with `args`; returns its path.
pub fn link(
    setup: &Setup,
    exe: &str,
    objects: &[&str],
    args: &[String],
) -> Result<PathBuf, String> {
    let out = setup.work.join(exe);
    let mut cmd = compiler();
    cmd.args(objects.iter().map(|o| c_out().join(o)))
        .arg("-o")
        .arg(&out)
        .args(args)
        .arg("-ldl");
    let result = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if !result.status.success() {
        return Err(format!(
            "linking {exe} failed: {}",
            String::from_utf8_lossy(&result.stderr).trim()
        ));
    }
    Ok(out)
}

//! Device code made by NVIDIA's real tools from the cached wheels (no GPU needed), for the
//! tests of what reaches a driver: the stand-in driver's own tests (`stand_in_driver.rs`) and
//! the driver and runtime stubs' reconciliation of PTX newer than the driver
//! (`ptx_newer_than_driver.rs`, issue 36). `tests/c/stand_in_driver.c make` runs one kernel
//! through real NVRTC, nvJitLink and nvFatbin of a major; a missing wheel fails the caller, as
//! [`cuda_layout`] does everywhere.

use crate::{Outcome, compile_c, cuda_layout, temp_dir};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// `tests/c/stand_in_driver.c` (the stand-in driver's driver, and the inputs' maker), once per
/// test process.
pub fn stand_in_program() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        compile_c(
            "stand-in-driver",
            &[Path::new("c/stand_in_driver.c")],
            &["-ldl".as_ref(), "-pthread".as_ref()],
        )
    })
}

/// The wheel's version as a driver reports it (13.5 → 13050), and the PTX ISA its NVRTC writes.
pub fn release(major: u32) -> (i32, &'static str) {
    let code = cuda_layout(major).version_code();
    let isa = match code {
        13050 => "9.5",
        12090 => "8.8",
        other => panic!("the PTX ISA of CUDA {other} is not known here: add it"),
    };
    (code, isa)
}

/// What real NVRTC, nvJitLink and nvFatbin of `major` (12 or 13) make of one kernel (`scale`;
/// `make`, see the C file), once per test process, in the returned directory: `c90.ptx`,
/// `c80.ptx` (PTX for compute_90 / compute_80), `nvrtc90.cubin`, `jitlink90.cubin`,
/// `jitlink80.cubin`, `ptx90.fatbin` (only the compute_90 PTX), `cubin90.fatbin` (only the
/// sm_90 CUBIN); and what `make` printed.
pub fn inputs(major: u32) -> &'static (PathBuf, Outcome) {
    static MADE: [OnceLock<(PathBuf, Outcome)>; 2] = [OnceLock::new(), OnceLock::new()];
    MADE[usize::from(major == 13)].get_or_init(|| {
        let layout = cuda_layout(major);
        let nvjitlink = layout.nvjitlink.clone().expect("nvJitLink in the layout");
        let nvfatbin = layout
            .libraries
            .get("nvfatbin")
            .cloned()
            .unwrap_or_else(|| panic!("no nvFatbin in CUDA {major}'s layout"));
        let dir = temp_dir(&format!("stand-in-inputs-{major}"));
        // Never under memcheck (the valgrind pass): these are the inputs, and NVRTC under
        // memcheck costs ~10 s a compilation; cross-built, under the emulator.
        let mut cmd = match crate::emulator() {
            Some(mut c) => {
                c.arg(stand_in_program());
                c
            }
            None => Command::new(stand_in_program()),
        };
        cmd.arg("make")
            .arg(&layout.nvrtc)
            .arg(&nvjitlink)
            .arg(&nvfatbin)
            .arg(&dir)
            .env("LD_LIBRARY_PATH", layout.ld_library_path());
        let out = crate::run(cmd);
        let run = Outcome {
            status: out.status,
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        run.assert_success();
        for file in [
            "c90.ptx",
            "c80.ptx",
            "nvrtc90.cubin",
            "jitlink90.cubin",
            "jitlink80.cubin",
            "ptx90.fatbin",
            "cubin90.fatbin",
        ] {
            run.assert_line(&format!("wrote {file} rc=0"));
        }
        let ptx = std::fs::read_to_string(dir.join("c90.ptx")).expect("PTX written");
        let isa = release(major).1;
        assert!(
            ptx.contains(&format!("\n.version {isa}\n.target sm_90\n")),
            "{ptx}"
        );
        (dir, run)
    })
}

/// One of [`inputs`]' files.
pub fn input(major: u32, file: &str) -> PathBuf {
    inputs(major).0.join(file)
}

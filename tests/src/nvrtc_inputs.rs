//! Inputs of the device-code tools' tests (nvJitLink, nvFatbin), made the way the product's
//! users make them: real NVRTC of a major, through `libstubs_nvrtc.so` (`c/nvrtc_dlto.c`).

use crate::{Outcome, compile_c, cuda_layout, stubs_dir, temp_dir};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// LTO-IR and PTX of one kernel (`scale`, for `compute_80`) from real NVRTC of `major` (12 or
/// 13), through the NVRTC stub; made once per test process.
pub fn ltoir_and_ptx(major: u32) -> &'static (PathBuf, PathBuf) {
    static MADE: [OnceLock<(PathBuf, PathBuf)>; 2] = [OnceLock::new(), OnceLock::new()];
    MADE[usize::from(major == 13)].get_or_init(|| {
        static PRODUCER: OnceLock<PathBuf> = OnceLock::new();
        let producer = PRODUCER.get_or_init(|| {
            let dir = stubs_dir();
            compile_c(
                "nvrtc-dlto",
                &[Path::new("c/nvrtc_dlto.c")],
                &[
                    format!("-L{}", dir.display()).as_ref(),
                    "-lstubs_nvrtc".as_ref(),
                    format!("-Wl,-rpath,{}", dir.display()).as_ref(),
                ],
            )
        });
        let dir = temp_dir(&format!("nvrtc-inputs-{major}"));
        let (ltoir, ptx) = (dir.join("scale.ltoir"), dir.join("scale.ptx"));
        // Test input, never under memcheck (the valgrind pass): NVRTC through its stub is
        // memchecked by real_matrix.rs, and NVRTC under memcheck costs ~10 s a compilation.
        // Cross-built, under the emulator like every target program.
        let mut cmd = match crate::emulator() {
            Some(mut c) => {
                c.arg(producer);
                c
            }
            None => Command::new(producer),
        };
        cmd.arg(&ltoir)
            .arg(&ptx)
            .env("LD_LIBRARY_PATH", cuda_layout(major).ld_library_path());
        let out = crate::run(cmd);
        let run = Outcome {
            status: out.status,
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        run.assert_success()
            .assert_line("nvrtcCompileProgram(ltoir) rc=0")
            .assert_line("ltoir rc=0")
            .assert_line("ptx rc=0");
        let size = std::fs::metadata(&ltoir).expect("LTO-IR written").len();
        assert!(
            run.stdout
                .contains(&format!("ltoir size rc=0 out={size}\n")),
            "{run}"
        );
        let text = std::fs::read_to_string(&ptx).expect("PTX written");
        assert!(text.contains(".visible .entry scale("), "{text}");
        (ltoir, ptx)
    })
}

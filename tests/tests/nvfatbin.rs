//! nvFatbin through `libstubs_nvfatbin.so`, on NVIDIA's real libnvfatbin 12.9 and 13.4 (the
//! wheels; nvFatbin needs no GPU) and on none.
//!
//! `tests/c/nvfatbin_host.c` is compiled against each major's real `nvFatbin.h` twice: linked
//! only to the stub, and linked normally to that major's `libnvfatbin.so.<major>`. Both builds
//! turn the PTX that major's real NVRTC makes (through the NVRTC stub) into a fatbinary for
//! sm_80; the files must be byte for byte the same, and a fatbinary (its magic, the size
//! `nvFatbinSize` gave), and both builds must print the same lines (the version, the error
//! strings, what a NULL handle pointer and an unknown option get). The stub reports the version
//! the real library gives. A program built against 13.x's header calling
//! `nvFatbinAddTileIR` on 12.9 gets the stub's "absent" code; with no library every call is the
//! "no library" code.

use std::path::{Path, PathBuf};
use stub_model::libraries::NVFATBIN;
use stubs_tests::nvrtc_inputs;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, dynamic, stub, temp_dir};

/// The stub's code for no library: `NVFATBIN_ERROR_INTERNAL`.
const NO_LIBRARY: i32 = 1;
/// The stub's code for a function the loaded nvFatbin lacks:
/// `NVFATBIN_ERROR_UNRECOGNIZED_OPTION`.
const ABSENT: i32 = 8;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NVFATBIN,
    source: "c/nvfatbin_host.c",
    also_stubs: &[],
    nv_target_shim: false,
};
/// A fatbinary's first four bytes: its magic, 0xBA55ED50, little-endian.
const FATBIN_MAGIC: [u8; 4] = [0x50, 0xed, 0x55, 0xba];

/// `nvidia-nvfatbin==13.4.92` → 13040: CUDA's version, as `nvFatbinVersion` gives it.
fn wheel_version(major: u32) -> i32 {
    let [major, minor, _] = PROGRAM.wheel_version(major);
    major * 1000 + minor * 10
}

/// The PTX real NVRTC of `major` makes.
fn ptx(major: u32) -> &'static Path {
    &nvrtc_inputs::ltoir_and_ptx(major).1
}

/// Runs `header`'s stub build on the real nvFatbin of `library` (none: no override, and no
/// library anywhere the stub looks); the fatbinary goes to the returned path.
fn run_stub(header: u32, library: Option<u32>, name: &str) -> (Outcome, PathBuf) {
    let out = temp_dir(&format!("nvfatbin-{name}")).join("out.fatbin");
    let input = ptx(library.unwrap_or(header));
    let args = [input.to_str().expect("UTF-8"), out.to_str().expect("UTF-8")];
    (PROGRAM.run_stub(header, None, library, &args), out)
}

/// `file` is the fatbinary of `size` bytes the `nvFatbinSize` line of `run` gave.
fn assert_fatbin(file: &Path, run: &Outcome) -> Vec<u8> {
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}\n{run}", file.display()));
    run.assert_line(&format!("nvFatbinSize rc=0 size={}", bytes.len()))
        .assert_line("nvFatbin written ok");
    assert_eq!(bytes[..4], FATBIN_MAGIC, "{run}");
    bytes
}

/// On each major the stub build writes the very fatbinary the normally linked program writes,
/// prints what it prints, and binds the real library with the version it reports.
#[test]
fn each_major_builds_the_fatbinary_the_real_library_builds() {
    for major in [12, 13] {
        let out = temp_dir(&format!("nvfatbin-normal-{major}")).join("out.fatbin");
        let input = ptx(major);
        let normal = PROGRAM.run_normal_with(
            major,
            &[input.to_str().expect("UTF-8"), out.to_str().expect("UTF-8")],
        );
        let version = wheel_version(major);
        normal
            .assert_line(&format!(
                "nvFatbinVersion rc=0 version={major}.{}",
                version % 1000 / 10
            ))
            .assert_line("nvFatbinAddPTX rc=0")
            .assert_line("nvFatbinDestroy rc=0 handle=null")
            // What the real library answers: NULL for success, "unknown option" for 8 (the code
            // the stub uses for a function the library lacks).
            .assert_line("nvFatbinGetErrorString(0) = (null)")
            .assert_line("nvFatbinGetErrorString(8) = unknown option")
            .assert_line("nvFatbinCreate(unknown option) rc=8");
        let expected = assert_fatbin(&out, &normal);

        let (stub_run, stub_out) = run_stub(major, Some(major), &format!("stub-{major}"));
        stub_run
            .assert_success()
            .assert_bound("nvfatbin", &PROGRAM.real(major), version, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={version} found_by={OVERRIDE}"
            ))
            // Never NULL through the stub: the enumerator's name where NVIDIA's has no text.
            .assert_line("nvFatbinGetErrorString(0) = NVFATBIN_SUCCESS");
        assert_eq!(
            assert_fatbin(&stub_out, &stub_run),
            expected,
            "the fatbinaries differ: {stub_run}"
        );
        let differs = |l: &&str| !l.starts_with("nvFatbinGetErrorString(0)");
        let stub_lines: Vec<&str> = api_lines(&stub_run, "nvFatbin")
            .into_iter()
            .filter(differs)
            .collect();
        let normal_lines: Vec<&str> = api_lines(&normal, "nvFatbin")
            .into_iter()
            .filter(differs)
            .collect();
        assert_eq!(
            stub_lines, normal_lines,
            "stub:\n{stub_run}\nnormal:\n{normal}"
        );
        // 13.x has nvFatbinAddTileIR: the same answer both ways (its own error for junk).
        if major == 13 {
            assert_eq!(
                stub_run.line("tileir"),
                normal.line("tileir"),
                "{stub_run}\n{normal}"
            );
            assert_ne!(
                stub_run.line("tileir"),
                format!("tileir nvFatbinAddTileIR rc={ABSENT}")
            );
        }
    }
    assert_eq!(
        dynamic::needed(&stub("nvfatbin")),
        ["libc.so.6", "libdl.so.2", "libpthread.so.0"]
    );
}

/// A program built against 13.x's header on 12.9's nvFatbin: `nvFatbinAddTileIR` (13.1+) is the
/// stub's "absent" code, and everything 12.9 has works, building 12.9's own fatbinary.
#[test]
fn a_13_program_on_12_gets_absent_for_what_12_lacks() {
    let (run, out) = run_stub(13, Some(12), "h13-on-12");
    run.assert_success()
        .assert_bound("nvfatbin", &PROGRAM.real(12), wheel_version(12), OVERRIDE)
        .assert_line(&format!("tileir nvFatbinAddTileIR rc={ABSENT}"))
        .assert_line("nvFatbinAddPTX rc=0");
    assert!(
        run.debug("nvfatbin")
            .iter()
            .any(|l| l.starts_with("nvFatbinAddTileIR: absent in CUDA 12")),
        "{run}"
    );
    assert_fatbin(&out, &run);
    assert_eq!(ABSENT, NVFATBIN.errors.absent.value);
}

/// With no nvFatbin anywhere, every call is the typed error, error strings are never NULL (the
/// places searched for the "no library" code, the enumerator's name for another) and nothing
/// is written.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let (run, out) = run_stub(13, None, "none");
    run.assert_success();
    for line in [
        format!("nvFatbinVersion rc={NO_LIBRARY} version=0.0"),
        format!("nvFatbinCreate(NULL) rc={NO_LIBRARY}"),
        format!("nvFatbinCreate(unknown option) rc={NO_LIBRARY}"),
        format!("nvFatbinCreate rc={NO_LIBRARY}"),
        "nvFatbinGetErrorString(0) = NVFATBIN_SUCCESS".to_owned(),
        "nvFatbinGetErrorString(8) = NVFATBIN_ERROR_UNRECOGNIZED_OPTION".to_owned(),
        "status bound=0 version=0 found_by=(null)".to_owned(),
    ] {
        run.assert_line(&line);
    }
    assert_eq!(NO_LIBRARY, NVFATBIN.errors.no_library.value);
    let searched = "cuda-stubs: libnvfatbin not found (searched libnvfatbin.so.13";
    for text in [
        run.line("nvFatbinGetErrorString(1)"),
        run.line("status message"),
    ] {
        assert!(text.contains(searched), "{text:?}: {run}");
    }
    assert!(!out.exists(), "{run}");
    assert!(!run.stdout.contains("= (null)"), "{run}");
}

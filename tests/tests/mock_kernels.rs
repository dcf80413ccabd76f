//! The mock's kernel executor against values recorded on a GPU (issue 47, item 6): one test per
//! instruction family of `tests/cuda/conformance/<family>.cu`. `tests/c/conformance_runner.c`,
//! compiled against NVIDIA's 13.5 headers and linked only to `libstubs_cuda` and
//! `libstubs_nvrtc`, compiles the family with NVIDIA's real NVRTC 13.5 (from the wheels), loads
//! it (PTX 9.5, turned into a CUBIN for the h200 profile's 13.0 driver by nvJitLink 13.5, its
//! PTX kept for the executor) and runs its kernels under `CUDA_STUBS_MOCK=h200`; every word
//! they wrote is compared with `tests/data/conformance/<family>.txt`, recorded on a lent GPU by
//! `tests/gpu/conformance.sh` (the file's first line names the command, the board, the driver
//! and the date). Exact lines must be equal; an `approx <ulps> [<abs>]` line (the approximate
//! functions) must be within that many units in the last place of fp32, or within the
//! absolute error. A placeholder file (first line `# PLACEHOLDER`: the mock's own values,
//! never recorded on a GPU) fails, so nothing unrecorded passes.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::conformance::{self, data, matches, parse, sources, ulps_apart};
use stubs_tests::{Scenario, build_stubs, compile_c, cuda_include_args};

/// The runner, linked to the driver and NVRTC stubs, the mock built beside them.
fn runner() -> &'static Path {
    static RUNNER: OnceLock<PathBuf> = OnceLock::new();
    RUNNER.get_or_init(|| {
        let dir = build_stubs(&["stubs-cuda", "stubs-nvrtc", stubs_tests::MOCK_PACKAGE]);
        let mut args = cuda_include_args(13);
        args.push(format!("-L{}", dir.display()).into());
        args.push("-lstubs_cuda".into());
        args.push("-lstubs_nvrtc".into());
        args.push(format!("-Wl,-rpath,{}", dir.display()).into());
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        compile_c(
            "conformance_runner",
            &[Path::new("c/conformance_runner.c")],
            &refs,
        )
    })
}

/// The runner's stdout for `family` on the mock, and its exit status with the end of its
/// stderr (the mock's refusals and the NVRTC log: what a failure message needs).
fn run_on_mock(family: &str) -> (String, String) {
    let cuda = stubs_tests::cuda_layout(13);
    let include: OsString = cuda.include.first().expect("13.5's include folder").into();
    let run = Scenario::new(runner())
        .arg_path(sources())
        .args([family])
        .env("CUDA_STUBS_MOCK", "h200")
        .env("CUDA_STUBS_NVRTC_PATH", &cuda.nvrtc)
        .env(
            "CUDA_STUBS_NVJITLINK_PATH",
            cuda.nvjitlink.as_ref().expect("13.5's nvJitLink"),
        )
        .env("CONFORMANCE_INCLUDE", include)
        .run();
    let tail: Vec<&str> = run.stderr.lines().rev().take(6).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    (
        run.stdout.clone(),
        format!("runner {}; stderr's end:\n{}", run.status, tail.join("\n")),
    )
}

/// Compares the mock's lines for `family` with the recorded file (`stubs_tests::conformance`).
fn check_family(family: &str) {
    let (got, diagnostics) = run_on_mock(family);
    conformance::check(family, &got, &diagnostics);
}

/// Every family has a recorded file and a test, and every file a family.
#[test]
fn every_family_has_its_recording() {
    let stems = |dir: PathBuf, ext: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| {
                let path = e.ok()?.path();
                (path.extension()? == ext).then(|| path.file_stem()?.to_str().map(String::from))?
            })
            .collect();
        names.sort();
        names
    };
    let mut tested: Vec<String> = FAMILIES.iter().map(|f| f.to_string()).collect();
    tested.sort();
    assert_eq!(stems(sources(), "cu"), stems(data(), "txt"));
    assert_eq!(
        stems(sources(), "cu"),
        tested,
        "a family without its test in families!"
    );
}

/// The ulp distance and the approximate comparison themselves.
#[test]
fn approximate_lines_compare_within_their_bound() {
    assert_eq!(ulps_apart(0x3f80_0000, 0x3f80_0002), Some(2));
    assert_eq!(ulps_apart(0x0000_0000, 0x8000_0000), Some(1));
    assert_eq!(ulps_apart(0x0000_0001, 0x8000_0001), Some(3));
    assert_eq!(ulps_apart(0x7fc0_0000, 0x3f80_0000), None);
    // 2^32: one ulp is 512, far past the absolute bound.
    let e = parse("approx k.0 4f800000 approx 2 1e-6");
    assert!(matches(&e, &parse("approx k.0 4f800002")));
    assert!(!matches(&e, &parse("approx k.0 4f800003")));
    assert!(!matches(&e, &parse("approx k.0 4f7ffffd")));
    let e = parse("approx k.1 00000000 approx 2 1e-6");
    assert!(matches(&e, &parse("approx k.1 358637bd"))); // 1e-6 absolute
    assert!(!matches(&e, &parse("approx k.1 36000000")));
    let exact = parse("int k.2 00000001");
    assert!(!matches(&exact, &parse("int k.2 00000002")));
    let nan = parse("approx k.3 7fffffff approx 2");
    assert!(matches(&nan, &parse("approx k.3 7fc00000")));
    assert!(!matches(&nan, &parse("approx k.3 7f800000")));
}

/// One test per family, and [`FAMILIES`], their names.
macro_rules! families {
    ($($name:ident),* $(,)?) => {
        const FAMILIES: &[&str] = &[$(stringify!($name)),*];
        $(
            #[test]
            fn $name() {
                check_family(stringify!($name));
            }
        )*
    };
}

families!(
    int, bits, fp32, fp32_ftz, fp64, half, cvt, approx, warp, atomics, control, memory, sreg, misc,
    lowp
);

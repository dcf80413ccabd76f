//! NPP through `libstubs_nppc.so`, `libstubs_nppig.so` and `libstubs_npps.so`, on NVIDIA's real
//! libraries of CUDA 11.8, 12.x and 13.x (the wheels: NPP 11.8.0, 12.4.1, 13.2.0) and on none,
//! and the rule of one CUDA release per process, which for NPP is also one `libnppc`.
//!
//! `tests/c/npp_host.c` is compiled against each major's real `npp.h` twice: linked only to the
//! stubs, and linked normally to that major's `libnppc`, `libnppig` and `libnpps`. Both builds
//! must print the same lines (NPP's version, what its geometry and buffer-size functions answer
//! without a GPU, 11.x's and 12.x's legacy stream), but where the stub refuses: 11.x's
//! `npps` functions, whose lengths and buffer sizes NPP 12.0 widened to `size_t` (the stubs
//! declare 13.x's prototypes), answer `NPP_NOT_IMPLEMENTED_ERROR` there. 11.8's and 12.4's
//! `nppGetGpuName` and `nppSetStream` read memory NVIDIA's code never wrote when there is no
//! GPU (an `int` `cudaGetDeviceCount` failed to set), so their answers are compared only where
//! the stub gives its own (no library; refused on 13.x).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use stub_model::Library;
use stub_model::libraries::{NPPC, NPPIG, NPPS};
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, compile_c, cuda_include_args, cuda_layout};

const MAJORS: [u32; 3] = [11, 12, 13];
/// `NPP_CUDA_KERNEL_EXECUTION_ERROR`: the stubs' code for no library (of the process's release).
const NO_LIBRARY: i32 = -1000;
/// `NPP_NOT_IMPLEMENTED_ERROR`: the stubs' code for a function the loaded NPP cannot take.
const ABSENT: i32 = -3;
const OVERRIDE: &str = "environment override";
/// The calls whose answers are deterministic on the real libraries, in order.
const CALLS: [&str; 6] = ["version", "affine", "bound", "integral", "sumbuf", "stream"];
/// The stub build: the program linked to the three NPP stubs and the runtime's (whose stub,
/// with `STUBS_TESTS_RUNTIME_FIRST`, binds before `main`, as in a program that uses the runtime
/// first).
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NPPC,
    source: "c/npp_host.c",
    also_stubs: &["nppig", "npps", "cudart"],
    nv_target_shim: false,
};

/// NVIDIA's real `lib` of `major`, from the test wheels.
fn real(lib: &Library, major: u32) -> PathBuf {
    let name = lib.name();
    cuda_layout(major)
        .libraries
        .get(name)
        .cloned()
        .unwrap_or_else(|| panic!("the CUDA {major} layout has no {name}"))
}

/// NPP's version in the spec's wheel of `major`, as `nppGetLibVersion` gives it
/// (`nvidia-npp-cu12==12.4.1.87` → `12.4.1`).
fn wheel_version(major: u32) -> String {
    let [major, minor, build] = PROGRAM.wheel_version(major);
    format!("{major}.{minor}.{build}")
}

/// The program built against `major`'s headers and linked normally to NVIDIA's libnppc,
/// libnppig and libnpps of that major; built once per test process.
fn normal_program(major: u32) -> PathBuf {
    static BUILT: Mutex<Vec<(u32, PathBuf)>> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, exe)) = built.iter().find(|(m, _)| *m == major) {
        return exe.clone();
    }
    let dir = PROGRAM.real_dir(major);
    let mut args = cuda_include_args(major);
    args.push(format!("-L{}", dir.display()).into());
    for lib in [&NPPC, &NPPIG, &NPPS] {
        let file = real(lib, major);
        let soname = file.file_name().expect("a file").to_string_lossy();
        args.push(format!("-l:{soname}").into());
    }
    let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
    let exe = compile_c(
        &format!("npp-normal-{major}"),
        &[Path::new(PROGRAM.source)],
        &refs,
    );
    built.push((major, exe.clone()));
    exe
}

/// The normal build of `major` making `calls`, with its libraries' folder on `LD_LIBRARY_PATH`.
fn run_normal(major: u32, calls: &[&str]) -> Outcome {
    let run = Scenario::new(normal_program(major))
        .linked_normally()
        .args(calls)
        .library_path([PROGRAM.real_dir(major)])
        .run();
    run.assert_success();
    run
}

/// The stub build of `header`'s headers making `calls` then printing the stubs' status, with
/// the debug log on, the runtime of `cudart` bound first where given, and each of `libraries`
/// found through its spec's variable (`CUDA_STUBS_NPPC_PATH`) naming its real file of a major.
fn run_stub(
    header: u32,
    cudart: Option<u32>,
    libraries: &[(&Library, u32)],
    calls: &[&str],
) -> Outcome {
    let mut s = Scenario::new(PROGRAM.stub_program(header))
        .args(calls)
        .args(["status"])
        .debug();
    if let Some(m) = cudart {
        s = s
            .env("CUDA_STUBS_CUDART_PATH", cuda_layout(m).cudart)
            .env("STUBS_TESTS_RUNTIME_FIRST", "1");
    }
    for (lib, major) in libraries {
        let var = lib.real.env_path.to_str().expect("ASCII name");
        s = s.env(var, real(lib, *major));
    }
    let run = s.run();
    run.assert_success();
    run
}

/// The three libraries of one major.
fn all_of(major: u32) -> [(&'static Library, u32); 3] {
    [(&NPPC, major), (&NPPIG, major), (&NPPS, major)]
}

/// The lines both builds print, in order.
fn npp_lines(run: &Outcome) -> Vec<&str> {
    api_lines(run, "npp")
}

/// On every major the stub build prints what the normal build prints (NPP's own version, the
/// affine transform and bound, the buffer sizes, the legacy queries' answers without a GPU), and
/// binds each real library with the CUDA major of its soname. On 11.x, `npps`' buffer-size
/// functions are refused: NPP 12.0 widened their `int *` to `size_t *`, and the stubs declare
/// 13.x's prototypes.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = run_normal(major, &CALLS);
        normal
            .assert_line(&format!("nppGetLibVersion {}", wheel_version(major)))
            .assert_line("nppsIntegralGetBufferSize_32s rc=0 size=40");
        assert!(
            normal
                .line("nppiGetAffineTransform")
                .contains("coeffs=0.921875,0.041667,10.000000"),
            "{normal}"
        );

        let stub = run_stub(major, Some(major), &all_of(major), &CALLS);
        for lib in [&NPPC, &NPPIG, &NPPS] {
            let name = lib.name();
            stub.assert_bound(name, &real(lib, major), 1000 * major as i32, OVERRIDE)
                .assert_line(&format!(
                    "status {name} bound=1 version={} found_by={OVERRIDE}",
                    1000 * major
                ));
        }
        let mut expected = npp_lines(&normal);
        if major == 11 {
            let refused = [
                format!("nppsIntegralGetBufferSize_32s rc={ABSENT} size=7"),
                // 11.x's build prints no size here (tests/c/npp_host.c says why).
                format!("nppsSumGetBufferSize_32f rc={ABSENT}"),
            ];
            for line in &refused {
                let function = line.split(' ').next().expect("a name");
                let at = expected
                    .iter()
                    .position(|l| l.starts_with(&format!("{function} ")))
                    .expect("the normal build calls it");
                assert!(
                    expected[at].contains(" rc=0 ") || expected[at].ends_with(" rc=0"),
                    "{normal}"
                );
                expected[at] = line;
            }
            assert_eq!(
                npp_lines(&stub),
                expected,
                "stub:\n{stub}\nnormal:\n{normal}"
            );
        } else {
            assert_eq!(
                npp_lines(&stub),
                expected,
                "stub:\n{stub}\nnormal:\n{normal}"
            );
        }
    }
}

/// An image library bound first brings its `libnppc` (its `DT_NEEDED`, which the stub loads
/// from the candidate's folder first: 13.x's has no RUNPATH to find it, 11.x's and 12.x's
/// `$ORIGIN` would find the same file): the core's stub, given no path of its own, binds that
/// copy, already loaded, never a second.
#[test]
fn the_core_stub_binds_the_copy_an_image_library_brought() {
    for major in [12, 13] {
        let run = run_stub(
            major,
            None,
            &[(&NPPIG, major), (&NPPS, major)],
            &["affine", "version", "maps"],
        );
        run.assert_bound("nppig", &real(&NPPIG, major), 1000 * major as i32, OVERRIDE)
            .assert_line(&format!("nppGetLibVersion {}", wheel_version(major)))
            .assert_line(&format!(
                "status nppc bound=1 version={} found_by=already loaded (RTLD_NOLOAD)",
                1000 * major
            ));
        let core = real(&NPPC, major);
        run.assert_debug(
            "nppig",
            &format!("preloaded {} (needed by the candidate)", core.display()),
        );
        assert!(
            run.bound("nppc").contains("[already loaded (RTLD_NOLOAD)]"),
            "{run}"
        );
        let npp_core: Vec<_> = run
            .mapped()
            .into_iter()
            .filter(|l| l.contains("/libnppc.so"))
            .collect();
        assert_eq!(npp_core, [core.to_str().expect("UTF-8")], "{run}");
    }
}

/// A program built against 12.x's headers, on 13.x's NPP: what 13.0 removed (the variants
/// without a stream context, `nppsSumGetBufferSize_32f`) and what 13.x's header no longer
/// declares (the legacy stream queries: no prototype to check them by) is refused with
/// `NPP_NOT_IMPLEMENTED_ERROR`, NULL and `nppGetGpuName`'s `"n/a"`; the rest answers as 13.x's
/// own build does.
#[test]
fn a_program_built_for_12_runs_on_13() {
    let mut calls = CALLS.to_vec();
    calls.push("legacy");
    let run = run_stub(12, Some(13), &all_of(13), &calls);
    run.assert_line(&format!("nppGetLibVersion {}", wheel_version(13)))
        .assert_line(&format!("nppsSumGetBufferSize_32f rc={ABSENT} size=7"))
        .assert_line("nppGetGpuName n/a")
        .assert_line("nppGetStream null")
        .assert_line(&format!("nppSetStream rc={ABSENT}"));
    let normal = run_normal(13, &["affine", "bound", "integral"]);
    for line in npp_lines(&normal) {
        run.assert_line(line);
    }
}

/// With no NPP anywhere, every call is the stubs' typed answer: `NPP_CUDA_KERNEL_EXECUTION_ERROR`
/// (-1000) for a status, version 0.0.0 (never NULL), `"n/a"` for the GPU's name, NULL for the
/// stream; the status says what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_answer() {
    assert_eq!(NPPC.errors.no_library.value, NO_LIBRARY);
    assert_eq!(NPPC.errors.absent.value, ABSENT);
    for header in [12, 13] {
        let mut calls = CALLS.to_vec();
        calls.push("legacy");
        let run = run_stub(header, None, &[], &calls);
        run.assert_line("nppGetLibVersion 0.0.0")
            .assert_line(&format!(
                "nppiGetAffineTransform rc={NO_LIBRARY} coeffs=0.000000,0.000000,0.000000,0.000000,0.000000,0.000000"
            ))
            .assert_line(&format!(
                "nppsIntegralGetBufferSize_32s rc={NO_LIBRARY} size=7"
            ));
        for lib in ["nppc", "nppig", "npps"] {
            run.assert_line(&format!("status {lib} bound=0 version=0 found_by=(null)"));
            assert!(
                run.line(&format!("status {lib} message")).contains(&format!(
                    "lib{lib} not found (searched lib{lib}.so.13, lib{lib}.so.12, lib{lib}.so.11"
                )),
                "{run}"
            );
        }
        if header == 12 {
            run.assert_line("nppGetGpuName n/a")
                .assert_line("nppGetStream null")
                .assert_line(&format!("nppSetStream rc={NO_LIBRARY}"))
                .assert_line(&format!("nppsSumGetBufferSize_32f rc={NO_LIBRARY} size=7"));
        }
    }
}

/// One CUDA release per process: an image library of 13.x is refused before `dlopen` beside a
/// `libnppc.so.12` the process has, by the `libnppc.so.13` its `DT_NEEDED` names (and by its
/// soname, where the dynamic loader's search finds it); and the core of 13.x beside a 12.9
/// runtime, by its soname.
#[test]
fn another_release_than_the_process_has_is_refused_by_its_name() {
    let run = run_stub(
        13,
        None,
        &[(&NPPC, 12), (&NPPIG, 13), (&NPPS, 12)],
        &["version", "affine", "integral", "maps"],
    );
    let reason = "CUDA 13 (needs libnppc.so.13), but the process has CUDA 12 (libnppc.so.12): one CUDA release per process";
    run.assert_line(&format!("nppGetLibVersion {}", wheel_version(12)))
        .assert_debug(
            "nppig",
            &format!(
                "try {} [{OVERRIDE}]: rejected: {reason}",
                real(&NPPIG, 13).display()
            ),
        )
        .assert_line(&format!(
            "nppiGetAffineTransform rc={NO_LIBRARY} coeffs=0.000000,0.000000,0.000000,0.000000,0.000000,0.000000"
        ))
        .assert_bound("npps", &real(&NPPS, 12), 12000, OVERRIDE);
    assert!(run.line("status nppig message").contains(reason), "{run}");
    let mapped = run.mapped();
    assert!(
        mapped.iter().any(|l| l.ends_with("/libnppc.so.12"))
            && mapped.iter().all(|l| !l.ends_with(".so.13")),
        "nothing of 13.x was loaded: {run}"
    );

    let run = run_stub(13, Some(12), &all_of(13), &["version"]);
    let reason =
        "CUDA 13, but the process has CUDA 12 (libcudart.so.12): one CUDA release per process";
    run.assert_line("nppGetLibVersion 0.0.0").assert_debug(
        "nppc",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            real(&NPPC, 13).display()
        ),
    );
}

/// An NPP found under a file name without its major (`libnpps.so`, a link to 12.x's
/// `libnpps.so.12`): its version is unknown, so a function whose prototype differs across
/// majors (`nppsIntegralGetBufferSize_32s`: `int *` before 12.0, `size_t *` since) is refused
/// with the "absent" code and its output left untouched, never called with a guessed ABI; one
/// with the same ABI in every major is forwarded.
#[test]
fn an_unknown_version_refuses_what_differs_across_majors() {
    let dir = stubs_tests::temp_dir("npp-unversioned");
    let npps = dir.join("libnpps.so");
    std::os::unix::fs::symlink(real(&NPPS, 12), &npps).expect("link libnpps.so");
    let run = Scenario::new(PROGRAM.stub_program(12))
        .args(["integral", "status"])
        .env("CUDA_STUBS_NPPC_PATH", real(&NPPC, 12))
        .env("CUDA_STUBS_NPPIG_PATH", real(&NPPIG, 12))
        .env("CUDA_STUBS_NPPS_PATH", &npps)
        .library_path([PROGRAM.real_dir(12)])
        .debug()
        .run();
    run.assert_success()
        .assert_line(&format!("nppsIntegralGetBufferSize_32s rc={ABSENT} size=7"))
        .assert_line("status npps bound=1 version=0 found_by=environment override");
    assert!(
        run.debug("npps").iter().any(|l| l.starts_with(
            "nppsIntegralGetBufferSize_32s: ABI differs across majors and the version is unknown"
        )),
        "{run}"
    );
}

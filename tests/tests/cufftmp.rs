//! cuFFTMp through `libstubs_cufftmp.so`, on NVIDIA's real libcufftMp of CUDA 12.x and 13.x
//! (`nvidia-cufftmp-cu12` 11.4.0, `-cu13` 12.1.3: `libcufftMp.so.11`, `.12`, each with the
//! NVSHMEM host library of its major beside it, where its RPATH finds it) and on none.
//!
//! `tests/c/cufftmp_host.c` is compiled against each major's real `cufftMp.h` twice: linked
//! only to the stubs, and linked normally to that major's libcufftMp. Both builds must print the
//! same lines: version and properties (cuFFT's numbers), and the library's own answers without a
//! GPU (`cufftCreate` 5, `CUFFT_INTERNAL_ERROR`; `cufftMpAttachComm` and the plan on that handle
//! 1, `CUFFT_INVALID_PLAN`; a reshape made, then `cufftMpMakeReshape`, which `cufftMp.h` binds to
//! `__cufftMpMakeReshape_11_4`, 5). A copy of another release than the process's runtime, or
//! than the libcufft it maps, is refused by its soname before `dlopen`; a copy without NVSHMEM
//! beside it fails to load, and the summary names `libnvshmem_host.so.3`.

use stub_model::libraries::CUFFTMP;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, cuda_layout, link_file, temp_dir};

const MAJORS: [u32; 2] = [12, 13];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUFFTMP,
    source: "c/cufftmp_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// `nvidia-cufftmp-cu12==11.4.0.6.post1` → 11400: `CUFFT_VERSION` of the spec's test wheel.
fn wheel_version(major: u32) -> i32 {
    let [major, minor, patch] = PROGRAM.wheel_version(major);
    major * 1000 + minor * 100 + patch
}

/// The stub build of `header` with the runtime and the library of the given majors as
/// overrides.
fn run_stub(header: u32, cudart: Option<u32>, cufftmp: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cufftmp, &[])
}

/// On every major, the stub build prints what the normal build prints, binds the real library
/// with the CUDA major of its soname, and the library brought its NVSHMEM in itself.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = PROGRAM.run_normal(major);
        let own = wheel_version(major);
        normal
            .assert_line(&format!("cufftGetVersion rc=0 version={own}"))
            .assert_line(&format!(
                "cufftGetProperty(MAJOR_VERSION) rc=0 value={}",
                own / 1000
            ))
            // Without a GPU: the library's own errors, the same in both majors.
            .assert_line("cufftCreate rc=5")
            .assert_line("cufftMpAttachComm rc=1")
            .assert_line("cufftMakePlan3d rc=1")
            .assert_line("cufftMpCreateReshape rc=0")
            .assert_line("cufftMpMakeReshape rc=5")
            .assert_line("cufftMpDestroyReshape rc=0");

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound(
                "cufftmp",
                &PROGRAM.real(major),
                1000 * major as i32,
                OVERRIDE,
            )
            .assert_debug("cufftmp", &format!("cufftGetVersion {own}: CUDA {major}"))
            .assert_line("mapped nvshmem=1")
            .assert_line(&format!(
                "status bound=1 version={} found_by={OVERRIDE}",
                1000 * major
            ));
        // The versioned name is the library's own in both majors: no replacement.
        assert!(
            !stub
                .debug("cufftmp")
                .iter()
                .any(|l| l.contains("__cufftMpMakeReshape_11_4") && l.contains("replacement")),
            "{stub}"
        );
        assert_eq!(
            api_lines(&stub, "cufft"),
            api_lines(&normal, "cufft"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no cuFFTMp anywhere, every call is `CUFFT_SETUP_FAILED` (7), and nothing loads NVSHMEM.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(CUFFTMP.errors.no_library.value, 7);
    for call in [
        "cufftGetVersion rc=7 version=0",
        "cufftGetProperty(MAJOR_VERSION) rc=7 value=-1",
        "cufftCreate rc=7",
        "cufftMpAttachComm rc=7",
        "cufftMpCreateReshape rc=7",
        "cufftMpMakeReshape rc=7",
        "cufftMpGetReshapeSize rc=7 size=7",
        "mapped nvshmem=0",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(call);
    }
    assert!(
        run.line("status message")
            .contains("libcufftmp not found (searched libcufftMp.so.12, libcufftMp.so.11"),
        "{run}"
    );
}

/// 13.x's `libcufftMp.so.12` beside a runtime stub bound to 12.9 is refused by its soname,
/// before `dlopen` (its version is never asked, its NVSHMEM never mapped).
#[test]
fn a_13_cufftmp_beside_a_12_runtime_is_refused_by_its_name() {
    let run = run_stub(13, Some(12), Some(13));
    run.assert_success();
    let reason =
        "CUDA 13, but the process has CUDA 12 (libcudart.so.12): one CUDA release per process";
    run.assert_debug(
        "cufftmp",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(13).display()
        ),
    )
    .assert_line("cufftGetVersion rc=7 version=0")
    .assert_line("mapped nvshmem=0");
    assert!(run.line("status message").contains(reason), "{run}");
}

/// 12.x's `libcufftMp.so.11` in a process that maps 13.5's libcufft (`libcufft.so.12`,
/// preloaded) is refused: one release with cuFFT too. The preloaded libcufft answers the
/// `cufft*` calls it defines; the `cufftMp*` calls are the stub's typed error.
#[test]
fn a_12_cufftmp_beside_a_13_cufft_is_refused() {
    let cufft = cuda_layout(13)
        .libraries
        .get("cufft")
        .cloned()
        .expect("the CUDA 13 layout has cuFFT");
    let run = Scenario::new(PROGRAM.stub_program(12))
        .debug()
        .env("LD_PRELOAD", &cufft)
        .env("CUDA_STUBS_CUFFTMP_PATH", PROGRAM.real(12))
        .run();
    run.assert_success()
        .assert_line("cufftMpAttachComm rc=7")
        .assert_line("cufftMpCreateReshape rc=7")
        .assert_line("status bound=0 version=0 found_by=(null)");
    let message = run.line("status message");
    assert!(message.contains("one CUDA release per process"), "{run}");
    assert!(message.contains("libcufft.so.12"), "{run}");
}

/// A cuFFTMp copied without NVSHMEM's host library beside it: `dlopen` fails, every call
/// answers the typed error, and the summary names the missing `libnvshmem_host.so.3`.
#[test]
fn a_cufftmp_without_its_nvshmem_is_refused_naming_it() {
    let dir = temp_dir("cufftmp-alone");
    let alone = dir.join("libcufftMp.so.12");
    link_file(&PROGRAM.real(13), &alone);
    let run = Scenario::new(PROGRAM.stub_program(13))
        .debug()
        .env("CUDA_STUBS_CUDART_PATH", cuda_layout(13).cudart)
        .env("STUBS_TESTS_RUNTIME_FIRST", "1")
        .env("CUDA_STUBS_CUFFTMP_PATH", &alone)
        .run();
    run.assert_success()
        .assert_line("cufftGetVersion rc=7 version=0")
        .assert_line("cufftMpAttachComm rc=7")
        .assert_line("status bound=0 version=0 found_by=(null)");
    let message = run.line("status message");
    assert!(message.contains("libnvshmem_host.so.3"), "{run}");
    assert!(message.contains(&alone.display().to_string()), "{run}");
}

/// libcufftMp is not linked `-Bsymbolic`: its calls of its own exports (`cufftCreate` …) go
/// through its PLT to the first definition in the global scope, which is the stub's (linked by
/// the program); the stub forwards each to the library's own, so the answers stay the normal
/// build's (checked above). `LD_BIND_NOW` makes the loader bind them all at `dlopen`.
#[test]
fn the_librarys_inner_calls_bind_to_the_stub() {
    let real = PROGRAM.real(13);
    // The loader's log goes to its own file (`<prefix>.<pid>`): it is thousands of lines.
    let dir = temp_dir("cufftmp-bindings");
    let run = Scenario::new(PROGRAM.stub_program(13))
        .env("CUDA_STUBS_CUDART_PATH", cuda_layout(13).cudart)
        .env("STUBS_TESTS_RUNTIME_FIRST", "1")
        .env("CUDA_STUBS_CUFFTMP_PATH", &real)
        .env("LD_BIND_NOW", "1")
        .env("LD_DEBUG", "bindings")
        .env("LD_DEBUG_OUTPUT", dir.join("ld"))
        .run();
    run.assert_success()
        .assert_line("cufftCreate rc=5")
        .assert_line("status bound=1 version=13000 found_by=environment override");
    let mut log = String::new();
    for entry in std::fs::read_dir(&dir).expect("the loader's log folder") {
        log += &std::fs::read_to_string(entry.expect("an entry").path()).expect("the log");
    }
    // The PLT's references, bound at `dlopen` (the stub's own `dlsym` lookups of the same names
    // in the library's handle are logged as bindings of the library to itself).
    let from_real = format!("binding file {} [0] to ", real.display());
    for name in [
        "cufftCreate",
        "cufftDestroy",
        "cufftMakePlanMany",
        "cufftXtExec",
    ] {
        let to_stub = log
            .lines()
            .filter(|l| {
                l.contains(&from_real)
                    && l.contains("libstubs_cufftmp.so [0]")
                    && l.ends_with(&format!("normal symbol `{name}'"))
            })
            .count();
        assert_eq!(to_stub, 1, "{name}: {run}\n{log}");
    }
}

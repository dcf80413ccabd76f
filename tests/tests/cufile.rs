//! cuFile (GPUDirect Storage) through `libstubs_cufile.so`, on NVIDIA's real libcufile.so.0 of
//! CUDA 12.9 (1.14.1.1) and 13.x (1.19.1.55) from the wheels (no GPU, no `nvidia-fs`: what cuFile
//! answers on such a machine) and on none, and the rule of one CUDA release per process.
//!
//! `tests/c/cufile_host.c` is compiled against each major's real `cufile.h` twice: linked only to
//! the stubs, and linked normally to that major's `libcufile.so.0`. Both builds must print the
//! same lines: the version (`cuFileGetVersion`), the use count, the configuration parameters,
//! what the driver calls answer without a driver (`cuFileDriverOpen`, `cuFileHandleRegister`,
//! `cuFileBufRegister`: the library's own error, both codes of its status struct), the I/O calls'
//! negative results. The stub reports the CUDA major the version says. cuFile's status is a
//! struct returned by value (`CUfileError_t {err, cu_err}`): the stub's typed errors are that
//! struct, the code in `err`; the `ssize_t` I/O calls answer them negated.

use std::path::Path;
use stub_model::libraries::CUFILE;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, cuda_layout, temp_dir};

const MAJORS: [u32; 2] = [12, 13];
/// The stub's code for no library (of the process's release): `CU_FILE_DRIVER_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 5001;
/// The stub's code for a function the loaded cuFile lacks: `CU_FILE_PLATFORM_NOT_SUPPORTED`.
const ABSENT: i32 = 5007;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUFILE,
    source: "c/cufile_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};
/// Calls every cuFile answers on any machine.
const CALLS: [&str; 7] = [
    "version",
    "usecount",
    "close",
    "parameters",
    "properties",
    "read",
    "write",
];
/// Calls that set up the driver (`cuFileDriverOpen` and those that open it themselves), then
/// use it.
const DRIVER_CALLS: [&str; 6] = ["open", "register", "buffer", "read", "write", "close"];

/// `nvidia-cufile==1.19.1.55` → 1190: what `cuFileGetVersion` answers, `1000 * major + 10 *
/// minor`.
fn wheel_version(major: u32) -> i32 {
    let [major, minor, _] = PROGRAM.wheel_version(major);
    major * 1000 + minor * 10
}

/// The calls to make on cuFile of `major`: [`CALLS`], then [`DRIVER_CALLS`] where the library
/// can set up its driver here. cuFile 1.15+ reads `/proc/modules` then, and loops forever where
/// it cannot open it (a container without that file: NVIDIA's library hangs linked normally
/// too); every Linux machine CI runs on has it.
fn calls(major: u32) -> Vec<&'static str> {
    let mut calls = CALLS.to_vec();
    if major < 13 || Path::new("/proc/modules").exists() {
        calls.extend(DRIVER_CALLS);
    } else {
        eprintln!("no /proc/modules here: cuFile {major}'s driver calls left out (they hang)");
    }
    calls.push("v2");
    calls
}

/// A scenario of `program` in a folder of its own: cuFile writes `cufile.log` where it runs.
fn scenario(program: &Path, name: &str, calls: &[&str]) -> Scenario {
    Scenario::new(program)
        .args(calls)
        .current_dir(temp_dir(&format!("cufile-{name}")))
}

/// The stub build of `header`'s `cufile.h` with the runtime and cuFile of the given majors as
/// overrides (the runtime bound first).
fn run_stub(header: u32, cudart: Option<u32>, cufile: Option<u32>, calls: &[&str]) -> Outcome {
    let name = format!("stub-{header}-{cudart:?}-{cufile:?}");
    let mut s = scenario(&PROGRAM.stub_program(header), &name, calls).debug();
    if let Some(m) = cudart {
        s = s
            .env("CUDA_STUBS_CUDART_PATH", cuda_layout(m).cudart)
            .env("STUBS_TESTS_RUNTIME_FIRST", "1");
    }
    if let Some(m) = cufile {
        s = s.env("CUDA_STUBS_CUFILE_PATH", PROGRAM.real(m));
    }
    s.run()
}

/// On each major, the stub build prints what the normal build prints (the real library's
/// answers, without a GPU and without GPUDirect Storage), and binds the real library with the
/// CUDA major its version says.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let calls = calls(major);
        let normal = scenario(
            &PROGRAM.normal_program(major),
            &format!("normal-{major}"),
            &calls,
        )
        .linked_normally()
        .library_path([PROGRAM.real_dir(major)])
        .run();
        normal.assert_success();
        let own = wheel_version(major);
        normal
            .assert_line(&format!("cuFileGetVersion err=0 cu_err=0 version={own}"))
            .assert_line("cuFileUseCount 0")
            // The driver was never opened: what the stub answers without a library.
            .assert_line(&format!("cuFileDriverClose err={NO_LIBRARY} cu_err=0"))
            .assert_line("cuFileRead(NULL) -1");
        if calls.contains(&"open") {
            // No GPU, no nvidia-fs: the library's own error, never success.
            assert!(
                !normal.stdout.contains("cuFileDriverOpen err=0 cu_err=0\n"),
                "{normal}"
            );
        }

        let stub = run_stub(major, Some(major), Some(major), &calls);
        let cuda = major as i32 * 1000;
        stub.assert_success()
            .assert_bound("cufile", &PROGRAM.real(major), cuda, OVERRIDE)
            .assert_debug("cufile", &format!("cuFileGetVersion {own}: CUDA {major}"))
            .assert_line(&format!(
                "status bound=1 version={cuda} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "cuFile"),
            api_lines(&normal, "cuFile"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
        // cuFile 1.15+'s calls, where the normal build has them: the same answers.
        if major == 13 {
            assert_eq!(api_lines(&stub, "v2"), api_lines(&normal, "v2"));
        }
    }
}

/// A program built against 13.x's header on 1.14 (CUDA 12.9): what 1.14 lacks is the stub's
/// "absent" code, in the status struct (`cuFileGetStatsLevel`) and negated for an I/O call
/// (`cuFileReadv`); the rest is 1.14's own answer.
#[test]
fn a_13_program_on_1_14_gets_absent_for_what_it_lacks() {
    let run = run_stub(13, Some(12), Some(12), &["version", "v2"]);
    run.assert_success()
        .assert_line(&format!(
            "cuFileGetVersion err=0 cu_err=0 version={}",
            wheel_version(12)
        ))
        .assert_line(&format!(
            "v2 cuFileGetStatsLevel err={ABSENT} cu_err=0 level=-1"
        ))
        .assert_line(&format!("v2 cuFileReadv(NULL) -{ABSENT}"));
    assert!(
        run.debug("cufile")
            .iter()
            .any(|l| l.starts_with("cuFileGetStatsLevel: absent in CUDA 12")),
        "{run}"
    );
    assert_eq!(ABSENT, CUFILE.errors.absent.value);
}

/// With no cuFile anywhere, every call returns the typed error: the status struct with the code
/// in `err` and `cu_err` 0, the I/O calls the code negated (never 0, "nothing read"), the use
/// count 0; the status says what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let mut all = CALLS.to_vec();
    all.extend(DRIVER_CALLS);
    all.push("v2");
    let run = run_stub(13, None, None, &all);
    run.assert_success();
    for line in [
        format!("cuFileGetVersion err={NO_LIBRARY} cu_err=0 version=-1"),
        "cuFileUseCount 0".to_owned(),
        format!("cuFileDriverClose err={NO_LIBRARY} cu_err=0"),
        format!("cuFileGetParameterSizeT err={NO_LIBRARY} cu_err=0 value=12345"),
        format!("cuFileDriverGetProperties err={NO_LIBRARY} cu_err=0"),
        format!("cuFileDriverOpen err={NO_LIBRARY} cu_err=0"),
        format!("cuFileHandleRegister err={NO_LIBRARY} cu_err=0"),
        format!("cuFileBufRegister err={NO_LIBRARY} cu_err=0"),
        format!("cuFileRead(NULL) -{NO_LIBRARY}"),
        format!("cuFileWrite(NULL) -{NO_LIBRARY}"),
        format!("v2 cuFileGetStatsLevel err={NO_LIBRARY} cu_err=0 level=-1"),
        format!("v2 cuFileReadv(NULL) -{NO_LIBRARY}"),
        "status bound=0 version=0 found_by=(null)".to_owned(),
    ] {
        run.assert_line(&line);
    }
    assert!(
        run.line("status message")
            .contains("libcufile not found (searched libcufile.so.0"),
        "{run}"
    );
    assert_eq!(NO_LIBRARY, CUFILE.errors.no_library.value);
}

/// cuFile 1.19 (CUDA 13) beside a runtime stub bound to 12.9 is refused once its version says
/// CUDA 13 (its soname, `libcufile.so.0`, is every major's, and it links no CUDA library):
/// every call is then the "no library" code.
#[test]
fn a_13_cufile_beside_a_12_runtime_is_refused_by_its_version() {
    let run = run_stub(13, Some(12), Some(13), &["version", "read"]);
    run.assert_success();
    let reason =
        "CUDA 13, but the process has CUDA 12 (libcudart.so.12): one CUDA release per process";
    run.assert_debug(
        "cufile",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(13).display()
        ),
    )
    .assert_line(&format!(
        "cuFileGetVersion err={NO_LIBRARY} cu_err=0 version=-1"
    ))
    .assert_line(&format!("cuFileRead(NULL) -{NO_LIBRARY}"));
    assert!(run.line("status message").contains(reason), "{run}");
}

/// The status struct through the traced entry: a traced call's status is its `err` (the low half
/// of the return register), and an injected fault comes back as the whole struct, the code in
/// `err` and `cu_err` 0.
#[test]
fn the_status_struct_through_tracing_and_fault_injection() {
    let run = scenario(
        &PROGRAM.stub_program(12),
        "traced",
        &["version", "open", "close"],
    )
    .env("CUDA_STUBS_CUFILE_PATH", PROGRAM.real(12))
    .env("CUDA_STUBS_TRACE", "cuFile*")
    .env("CUDA_STUBS_FAULT", "cuFileDriverOpen=5026")
    .run();
    run.assert_success()
        .assert_line(&format!(
            "cuFileGetVersion err=0 cu_err=0 version={}",
            wheel_version(12)
        ))
        .assert_line("cuFileDriverOpen err=5026 cu_err=0")
        .assert_line(&format!("cuFileDriverClose err={NO_LIBRARY} cu_err=0"));
    let traced = run.debug("cufile");
    for expected in [
        "trace cuFileGetVersion -> 0 ",
        "trace cuFileDriverOpen -> 5026 (injected) ",
        // cufile.h maps cuFileDriverClose to cuFileDriverClose_v2.
        &format!("trace cuFileDriverClose_v2 -> {NO_LIBRARY} "),
    ] {
        assert!(
            traced.iter().any(|l| l.starts_with(expected)),
            "{expected}: {run}"
        );
    }
}

/// A cuFile of a CUDA major the stub's declarations give no ABI (a stand-in answering version
/// 1.4, CUDA 11, whose I/O calls answer 4242): bound, but no call is made; the byte-count calls
/// answer the stub's "absent" code negated, never 0 ("0 bytes", what the forwarder's own
/// fallback would say) and never the stand-in's count.
#[test]
fn io_calls_of_a_cufile_without_the_declared_abi_answer_absent() {
    let soname = std::ffi::OsString::from("-Wl,-soname,libcufile.so.0");
    let mock = stubs_tests::compile_c(
        "libcufile.so.0",
        &[Path::new("c/cufile_mock_1_4.c")],
        &["-shared".as_ref(), "-fPIC".as_ref(), soname.as_os_str()],
    );
    let run = scenario(
        &PROGRAM.stub_program(13),
        "mock-1-4",
        &["version", "read", "v2"],
    )
    .debug()
    .env("CUDA_STUBS_CUFILE_PATH", &mock)
    .run();
    run.assert_success()
        // Bound as CUDA 11, where no declaration has an ABI: even the version is refused.
        .assert_line(&format!(
            "cuFileGetVersion err={ABSENT} cu_err=0 version=-1"
        ))
        .assert_line("status bound=1 version=11000 found_by=environment override")
        .assert_line(&format!("cuFileRead(NULL) -{ABSENT}"))
        .assert_line(&format!("v2 cuFileReadv(NULL) -{ABSENT}"));
    assert!(
        run.debug("cufile")
            .iter()
            .any(|l| l.starts_with("cuFileRead: absent in CUDA 11")),
        "{run}"
    );
}

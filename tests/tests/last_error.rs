//! Never silent: a call the runtime stub does not make (no library, function absent from the
//! loaded major, ABI refused) also becomes the calling thread's last error, as a failed call of
//! the real runtime does — `cudaPeekAtLastError` returns it, `cudaGetLastError` returns and
//! clears it — including for `void` and pointer-returning functions, whose result a program
//! cannot check (nvcc's registration and launch code discards it).

use stubs_tests::{Scenario, mock};

/// No runtime at all: the last error says 34 `cudaErrorStubLibrary` from the first read on,
/// before and after a refused call, and no read clears it — as NVIDIA's runtime without a
/// driver answers every read with its sticky error. A program whose first CUDA call polls
/// `cudaGetLastError()` or `cudaPeekAtLastError()` sees the missing library, never success.
#[test]
fn no_library_last_error_is_sticky_from_the_first_read() {
    for first in ["lasterror", "lasterror-get-first"] {
        let run = Scenario::probe([first, "cudaGetDeviceCount", "lasterror"]).run();
        run.assert_success().assert_silent();
        let lines: Vec<&str> = run
            .stdout
            .lines()
            .filter(|l| l.starts_with("lasterror"))
            .collect();
        assert_eq!(
            lines,
            [
                if first == "lasterror" {
                    "lasterror peek=34 get=34 get=34"
                } else {
                    "lasterror-get-first get=34 get=34 peek=34"
                },
                "lasterror peek=34 get=34 get=34"
            ],
            "{run}"
        );
        run.assert_line("cudaGetDeviceCount rc=34 out=-7777");
    }
}

/// No runtime: a pointer-returning call (nvcc's `__cudaRegisterFatBinary`) gets NULL, and the
/// last error carries the reason.
#[test]
fn no_library_pointer_call_sets_the_last_error() {
    let run = Scenario::probe(["__cudaRegisterFatBinary", "lasterror"]).run();
    run.assert_success()
        .assert_line("__cudaRegisterFatBinary out=null")
        .assert_line("lasterror peek=34 get=34 get=34");
}

/// A function the loaded major lacks (`cudaBindTexture`, removed in 12.0, on a 13.x runtime):
/// 801, and the last error says 801.
#[test]
fn absent_function_sets_the_last_error() {
    let run = Scenario::probe([
        "call:libstubs_cudart.so:cudaBindTexture",
        "lasterror",
        "cudaGetDeviceCount",
        "lasterror",
    ])
    .library_path([mock("mock-13")])
    .run();
    run.assert_success()
        .assert_line("cudaBindTexture rc=801")
        .assert_line("cudaGetDeviceCount rc=0 out=113");
    let lines: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("lasterror"))
        .collect();
    // After the successful cudaGetDeviceCount the error was already read: success.
    assert_eq!(
        lines,
        [
            "lasterror peek=801 get=801 get=0",
            "lasterror peek=0 get=0 get=0"
        ],
        "{run}"
    );
}

/// A symbol missing from the library (the partial 12 lacks cudaGetDeviceCount): 801 visible.
#[test]
fn missing_symbol_sets_the_last_error() {
    let run = Scenario::probe(["cudaGetDeviceCount", "lasterror"])
        .library_path([mock("mock-12-partial")])
        .run();
    run.assert_success()
        .assert_line("cudaGetDeviceCount rc=801 out=-7777")
        .assert_line("lasterror peek=801 get=801 get=0");
}

/// The last error is per thread, as the runtime's is: a refusal in one thread (the partial 12
/// lacks cudaGetDeviceCount) is not another thread's error.
#[test]
fn the_last_error_is_per_thread() {
    let run = Scenario::probe(["lasterror-thread"])
        .library_path([mock("mock-12-partial")])
        .run();
    run.assert_success()
        .assert_line("thread cudaGetDeviceCount rc=801")
        .assert_line("thread lasterror peek=801 get=801 get=0")
        .assert_line("main lasterror peek=0 get=0 get=0");
}

/// NVIDIA's real runtimes (no driver here): after a refused call the program never reads
/// `cudaSuccess`. Without a driver every real runtime keeps a sticky
/// `cudaErrorInsufficientDriver` (35) that its own `cudaGetLastError` never clears; the real
/// runtime's error wins over the stub's 801, so that is what the program sees, every time.
/// (The merge itself — the runtime's error first, then the stub's, each cleared by a read — is
/// asserted on the mocks above, whose runtimes have no sticky error.)
#[test]
fn real_runtimes_never_read_success_after_a_refusal() {
    for major in [11, 12, 13] {
        let layout = stubs_tests::cuda_layout(major);
        // Absent from that major: added in 12.0 / removed in 12.0.
        let absent = if major == 11 {
            "cudaGraphInstantiateWithParams"
        } else {
            "cudaBindTexture"
        };
        let run = Scenario::probe([
            format!("call:libstubs_cudart.so:{absent}"),
            "lasterror".into(),
        ])
        .library_path(layout.lib_dirs())
        .run();
        run.assert_success()
            .assert_line(&format!("{absent} rc=801"))
            .assert_line("lasterror peek=35 get=35 get=35");
    }
}

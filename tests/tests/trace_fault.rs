//! Call tracing (`CUDA_STUBS_TRACE`, `CUDA_STUBS_TRACE_FILE`) and fault injection
//! (`CUDA_STUBS_FAULT`, `CUDA_STUBS_FAULT_SEED`) against the mock runtime, one process each.

use stubs_tests::{Scenario, mock, temp_dir};

fn trace_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.contains(": trace ")).collect()
}

#[test]
fn trace_selected_functions_to_stderr() {
    let run = Scenario::probe([
        "cudaGetDeviceCount",
        "cudaRuntimeGetVersion",
        "nvrtcVersion",
    ])
    .library_path([mock("mock-13")])
    .env("CUDA_STUBS_TRACE", "cudaGetDevice*,nvrtcVersion")
    .run();
    run.assert_success()
        .assert_line("cudaGetDeviceCount rc=0 out=113");
    let lines = trace_lines(&run.stderr);
    assert_eq!(lines.len(), 2, "{run}");
    assert!(
        lines[0].starts_with("cuda-stubs[cudart]: trace cudaGetDeviceCount -> 0 "),
        "{run}"
    );
    assert!(lines[0].ends_with(" ns"), "{run}");
    assert!(
        lines[1].starts_with("cuda-stubs[nvrtc]: trace nvrtcVersion -> 0 "),
        "{run}"
    );
}

#[test]
fn fault_on_the_nth_call_only() {
    let run = Scenario::probe([
        "cudaGetDeviceCount",
        "cudaGetDeviceCount",
        "cudaGetDeviceCount",
    ])
    .library_path([mock("mock-13")])
    .env("CUDA_STUBS_FAULT", "cudaGetDeviceCount=2@2")
    .run();
    run.assert_success();
    let rcs: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        rcs,
        [
            "cudaGetDeviceCount rc=0 out=113",
            "cudaGetDeviceCount rc=2 out=-7777",
            "cudaGetDeviceCount rc=0 out=113"
        ],
        "{run}"
    );
    assert!(run.stderr.is_empty(), "faults alone print nothing: {run}");
}

#[test]
fn fault_every_call_even_without_a_library() {
    let run = Scenario::probe(["nvrtcVersion", "cudaGetDeviceCount"])
        .env("CUDA_STUBS_FAULT", "nvrtcVersion=5")
        .env("CUDA_STUBS_TRACE", "all")
        .run();
    run.assert_success()
        .assert_line("nvrtcVersion rc=5 out=-7777.-7777")
        .assert_line("cudaGetDeviceCount rc=34 out=-7777");
    assert!(
        run.stderr
            .contains("cuda-stubs[nvrtc]: trace nvrtcVersion -> 5 (injected) "),
        "{run}"
    );
    assert!(
        run.stderr
            .contains("cuda-stubs[cudart]: trace cudaGetDeviceCount -> 34 "),
        "{run}"
    );
}

/// `%P` draws are reproducible for a seed and differ between seeds.
#[test]
fn probabilistic_faults_follow_the_seed() {
    let calls = vec!["cudaGetDeviceCount"; 64];
    let pattern = |seed: &str| {
        let run = Scenario::probe(&calls)
            .library_path([mock("mock-13")])
            .env("CUDA_STUBS_FAULT", "cudaGetDeviceCount=2%0.5")
            .env("CUDA_STUBS_FAULT_SEED", seed)
            .run();
        run.assert_success();
        run.stdout
            .lines()
            .map(|l| if l.contains("rc=2 ") { '1' } else { '0' })
            .collect::<String>()
    };
    let a = pattern("7");
    assert_eq!(a, pattern("7"));
    assert_ne!(a, pattern("8"));
    let failed = a.chars().filter(|c| *c == '1').count();
    assert!(
        (16..=48).contains(&failed),
        "{failed} of 64 failed at p=0.5: {a}"
    );
}

#[test]
fn trace_file_appends_and_never_follows_a_link() {
    let dir = temp_dir("trace-file");
    let file = dir.join("trace.log");
    std::fs::write(&file, "kept\n").unwrap();
    let run = |path: &std::path::Path, truncate: bool| {
        let mut s = Scenario::probe(["cudaGetDeviceCount"])
            .library_path([mock("mock-13")])
            .env("CUDA_STUBS_TRACE", "1")
            .env("CUDA_STUBS_TRACE_FILE", path)
            .debug();
        if truncate {
            s = s.env("CUDA_STUBS_TRACE_TRUNCATE", "1");
        }
        s.run()
    };
    run(&file, false).assert_success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("kept\ncuda-stubs[cudart]: trace cudaGetDeviceCount -> 0 "),
        "{text}"
    );

    run(&file, true).assert_success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("cuda-stubs[cudart]: trace cudaGetDeviceCount"),
        "{text}"
    );

    let link = dir.join("link.log");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let before = std::fs::read_to_string(&file).unwrap();
    let refused = run(&link, false);
    refused.assert_success();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        before,
        "wrote through a symlink"
    );
    assert!(refused.stderr.contains("tracing to stderr"), "{refused}");
    assert!(
        refused.stderr.contains(": trace cudaGetDeviceCount -> 0 "),
        "{refused}"
    );
}

#[test]
fn malformed_settings_disable_the_feature_and_say_so() {
    let run = Scenario::probe(["cudaGetDeviceCount"])
        .library_path([mock("mock-13")])
        .env("CUDA_STUBS_FAULT", "cudaGetDeviceCount=2@0")
        .env("CUDA_STUBS_TRACE", "cuda Malloc")
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaGetDeviceCount rc=0 out=113");
    assert!(run.stderr.contains("fault injection off"), "{run}");
    assert!(run.stderr.contains("tracing off"), "{run}");
    assert!(trace_lines(&run.stderr).is_empty(), "{run}");
}

/// The traced entry calls the real function in a frame of its own: arguments passed on the
/// stack (cuLaunchKernel's last five) and a struct returned through a hidden pointer must
/// arrive exactly as without tracing.
#[test]
fn traced_calls_keep_stack_arguments_and_struct_results() {
    for trace in ["0", "cuLaunchKernel,cudaCreateChannelDesc"] {
        let run = Scenario::probe(["cuLaunchKernel", "cudaCreateChannelDesc"])
            .library_path([mock("mock-13"), mock("mock-driver")])
            .env("CUDA_STUBS_TRACE", trace)
            .run();
        run.assert_success()
            .assert_line("cuLaunchKernel rc=0")
            .assert_line("cudaCreateChannelDesc out=8,16,24,32,2");
        let lines = trace_lines(&run.stderr);
        if trace == "0" {
            assert!(lines.is_empty(), "{run}");
        } else {
            assert_eq!(lines.len(), 2, "{run}");
            assert!(
                lines[0].starts_with("cuda-stubs[cuda]: trace cuLaunchKernel -> 0 "),
                "{run}"
            );
            assert!(
                lines[1].starts_with("cuda-stubs[cudart]: trace cudaCreateChannelDesc -> void "),
                "{run}"
            );
        }
    }
}

/// Without a runtime, a function returning a struct gets its own fallback: all zero.
#[test]
fn struct_result_without_a_library_is_zero() {
    let run = Scenario::probe(["cudaCreateChannelDesc"]).run();
    run.assert_success()
        .assert_line("cudaCreateChannelDesc out=0,0,0,0,0");
}

/// Floating-point arguments travel in vector registers (s0/s1 on aarch64, xmm0/xmm1 on
/// x86-64), which the Rust code of the first-call resolver (dlopen, the search) and of the
/// traced entry (the hooks) may use: both save and restore them, so the mock driver, which
/// answers 0 only for the exact values, sees them unchanged on the first call (through the
/// resolver) and on the second (bound, or through the traced entry).
#[test]
fn first_and_traced_calls_keep_float_arguments() {
    for trace in ["0", "cuTexRefSetMipmapLevelClamp"] {
        let run = Scenario::probe(["cuTexRefSetMipmapLevelClamp", "cuTexRefSetMipmapLevelClamp"])
            .library_path([mock("mock-driver")])
            .env("CUDA_STUBS_TRACE", trace)
            .run();
        run.assert_success();
        let answers: Vec<&str> = run
            .stdout
            .lines()
            .filter(|l| l.starts_with("cuTexRefSetMipmapLevelClamp "))
            .collect();
        assert_eq!(
            answers, ["cuTexRefSetMipmapLevelClamp rc=0"; 2],
            "trace={trace}: {run}"
        );
        let lines = trace_lines(&run.stderr);
        let expected = if trace == "0" { 0 } else { 2 };
        assert_eq!(lines.len(), expected, "{run}");
        for line in lines {
            assert!(
                line.starts_with("cuda-stubs[cuda]: trace cuTexRefSetMipmapLevelClamp -> 0 "),
                "{run}"
            );
        }
    }
}

/// A debugger or profiler can unwind through the stubs: a backtrace taken inside the real
/// function reaches the program's `main` when the call went through the first-call resolver
/// (the version probe runs inside it), through the traced entry (tracing on), and directly.
/// Both asm routines carry CFI; without it the unwinder stops at them.
#[test]
fn backtraces_from_the_real_function_reach_main() {
    for trace in [false, true] {
        let mut scenario = Scenario::probe(["cudaRuntimeGetVersion", "cudaGetDeviceCount"])
            .library_path([mock("mock-13")])
            .env("MOCK_BACKTRACE", "1");
        if trace {
            scenario = scenario.env("CUDA_STUBS_TRACE", "cudaGetDeviceCount");
        }
        let run = scenario.run();
        run.assert_success();
        let lines: Vec<&str> = run
            .stdout
            .lines()
            .filter(|l| l.starts_with("mock-backtrace "))
            .collect();
        // The version probe inside the resolver, the forwarded call, then cudaGetDeviceCount
        // (its own first call: the resolver binds it, then it is called directly or traced).
        assert_eq!(
            lines,
            [
                "mock-backtrace cudaRuntimeGetVersion main=yes",
                "mock-backtrace cudaRuntimeGetVersion main=yes",
                "mock-backtrace cudaGetDeviceCount main=yes",
            ],
            "trace {trace}: {run}"
        );
    }
}

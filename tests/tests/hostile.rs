//! Hostile conditions: racing first calls, fork around the first call, every exported function
//! called with no library. Each scenario is its own process.

use std::fmt::Write as _;
use stubs_tests::decls::{RetKind, declared};
use stubs_tests::{Scenario, mock, stub, temp_dir};

/// 64 threads released together make their first calls into two stubs; repeated in 25
/// processes. Every thread gets the forwarded answer, and each library is searched and bound
/// exactly once per process.
#[test]
fn sixty_four_threads_race_to_the_first_call() {
    for round in 0..25 {
        let run = Scenario::probe(["threads:64", "status:cudart", "status:nvrtc"])
            .library_path([mock("mock-13")])
            .debug()
            .run();
        run.assert_success().assert_line("threads 64 ok=64");
        for lib in ["cudart", "nvrtc"] {
            let bound: Vec<_> = run
                .debug(lib)
                .into_iter()
                .filter(|l| l.starts_with("bound "))
                .collect();
            assert_eq!(
                bound.len(),
                1,
                "round {round}: {lib} bound {} times: {run}",
                bound.len()
            );
            let searched = run
                .debug(lib)
                .into_iter()
                .filter(|l| *l == "no copy already loaded")
                .count();
            assert_eq!(
                searched, 1,
                "round {round}: {lib} searched more than once: {run}"
            );
        }
    }
}

/// fork before any call: the child makes the first call and loads the library itself; the
/// parent, after the child, still binds on its own.
#[test]
fn fork_before_the_first_call() {
    let run = Scenario::probe(["fork", "cudaGetDeviceCount", "nvrtcVersion"])
        .library_path([mock("mock-12")])
        .run();
    run.assert_success()
        .assert_line("fork child-exit=0")
        .assert_line("child cudaGetDeviceCount rc=0 out=112")
        .assert_line("cudaGetDeviceCount rc=0 out=112");
    assert!(
        run.stdout.contains("child nvrtcVersion rc=0 out=12."),
        "{run}"
    );
}

/// fork after the first calls: the child inherits the bound slots and calls straight through.
#[test]
fn fork_after_the_first_call() {
    let run = Scenario::probe(["cudaGetDeviceCount", "nvrtcVersion", "fork"])
        .library_path([mock("mock-13")])
        .run();
    run.assert_success()
        .assert_line("fork child-exit=0")
        .assert_line("child cudaGetDeviceCount rc=0 out=113");
    assert!(
        run.stdout.contains("child nvrtcVersion rc=0 out=13."),
        "{run}"
    );
}

/// fork with no library anywhere: parent and child both get the typed errors.
#[test]
fn fork_without_any_library() {
    let run = Scenario::probe(["cudaGetDeviceCount", "fork"]).run();
    run.assert_success()
        .assert_line("cudaGetDeviceCount rc=34 out=-7777")
        .assert_line("child cudaGetDeviceCount rc=34 out=-7777")
        .assert_line("child nvrtcVersion rc=11 out=-7777.-7777")
        .assert_line("fork child-exit=0");
}

/// The runtime's last-error readers.
const LAST_ERROR_READERS: [&str; 2] = ["cudaGetLastError", "cudaPeekAtLastError"];

/// Status-returning exports that answer without any library.
const ANSWERED_WITHOUT_A_LIBRARY: [&str; 2] = ["cuGetErrorName", "cuGetErrorString"];

/// With no library at all, every exported function returning a status (cudaError_t,
/// nvrtcResult, CUresult), generated or hand-written (adapters), called with zeroed arguments,
/// returns the typed "not found" error and nothing crashes; the driver's error-string
/// functions, which answer without a library, reject the NULL out-pointer. The list comes from the
/// declarations, so it grows with the API. The runtime's last-error readers are called first:
/// a process whose first CUDA call polls `cudaGetLastError()` must see the missing library too,
/// and the later reads that the missing library stays sticky.
#[test]
fn every_status_function_without_a_library() {
    let dir = temp_dir("callall");
    let list = dir.join("functions.txt");
    let mut text = String::new();
    let mut expected = Vec::new();
    for (lib, code) in [
        ("cudart", 34),
        ("nvrtc", 11),
        ("cuda", 34),
        ("curand", 203),
        ("cufft", 7),
        ("nvml", 12),
        ("cublas", 1),
        ("cublaslt", 1),
        ("cusparse", 1),
        ("cusolver", 1),
    ] {
        let mut functions: Vec<_> = declared(lib)
            .into_iter()
            .filter(|f| f.ret == RetKind::Status)
            .collect();
        functions.sort_by_key(|f| !LAST_ERROR_READERS.contains(&f.name().as_str()));
        for f in functions {
            writeln!(text, "libstubs_{lib}.so {}", f.name()).unwrap();
            // The driver's error-string functions answer without a library (docs/src/error-model.md): here
            // CUDA_ERROR_INVALID_VALUE for the NULL out-pointer.
            let code = if ANSWERED_WITHOUT_A_LIBRARY.contains(&f.name().as_str()) {
                1
            } else {
                code
            };
            expected.push((f.name(), code));
        }
    }
    let readers = LAST_ERROR_READERS.map(|r| format!("libstubs_cudart.so {r}\n"));
    assert!(text.starts_with(&readers.concat()), "{text}");
    std::fs::write(&list, text).unwrap();
    let arg = format!("callall:{}", list.display());
    // The probe links the first three stubs; the math libraries' are loaded for the sweep.
    let loaded = [
        "curand", "cufft", "nvml", "cublas", "cublaslt", "cusparse", "cusolver",
    ];
    let mut commands = loaded
        .map(|lib| format!("dlopen:{}", stub(lib).display()))
        .to_vec();
    commands.push(arg);
    let run = Scenario::probe(&commands).run();
    run.assert_success();
    for (name, code) in &expected {
        run.assert_line(&format!("callall {name} rc={code}"));
    }
    for lib in loaded {
        run.assert_line(&format!("dlopen {} ok", stub(lib).display()));
    }
    assert_eq!(
        run.stdout.lines().count(),
        expected.len() + loaded.len(),
        "{run}"
    );
    assert!(
        run.stderr.is_empty(),
        "the stubs printed without being asked: {run}"
    );
}

/// The topology that once crashed before `main` (a stub relocated before libc, with no
/// `DT_NEEDED` edge to it): executable → library → stubs, with eager binding, on the mocks.
/// The full matrix (three topologies × real 11.8 / 12.9 / 13.x) is `load_topology.rs`.
#[test]
fn reached_through_another_library_with_eager_binding() {
    use stubs_tests::topology::{Topology, topology_program};
    let program = topology_program(Topology::Library, true);
    let run = Scenario::new(&program.exe)
        .args(&program.args)
        .library_path([mock("mock-13"), mock("mock-driver")])
        .env("LD_BIND_NOW", "1")
        .run();
    run.assert_success()
        .assert_line("main reached")
        .assert_line("cudaRuntimeGetVersion rc=0 (mockCudart13Error0) out=13000")
        .assert_line("cuDriverGetVersion rc=0 out=13000")
        .assert_silent();
}

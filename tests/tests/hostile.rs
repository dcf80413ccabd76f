//! Hostile conditions: racing first calls, fork around the first call, every exported function
//! called with no library (status and pointer results, error texts). Each scenario is its own
//! process.

use std::fmt::Write as _;
use stub_model::libraries::ALL;
use stub_model::{TextAbi, TextKind};
use stubs_tests::decls::{RetKind, declared};
use stubs_tests::{Scenario, mock, stub, temp_dir};

/// 64 threads released together make their first calls into two stubs; repeated in 25
/// processes. Every thread gets the forwarded answer, and each library is searched and bound
/// exactly once per process. In the memcheck pass 3 processes: valgrind runs one thread of a
/// process at a time, so more rounds there add memcheck time (~4 s each), not interleavings;
/// the race is the native pass's.
#[test]
fn sixty_four_threads_race_to_the_first_call() {
    let rounds = if stubs_tests::memcheck_pass() { 3 } else { 25 };
    for round in 0..rounds {
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

/// With no library at all, every exported function returning a status (cudaError_t,
/// nvrtcResult, CUresult), generated or hand-written (adapters), called with zeroed arguments,
/// returns the typed "not found" error and nothing crashes; the driver's error-text
/// functions (the spec's `error_texts`), which answer without a library, reject the NULL
/// out-pointer. The list comes from the
/// declarations, so it grows with the API. The runtime's last-error readers are called first:
/// a process whose first CUDA call polls `cudaGetLastError()` must see the missing library too,
/// and the later reads that the missing library stays sticky.
#[test]
fn every_status_function_without_a_library() {
    let dir = temp_dir("callall");
    let list = dir.join("functions.txt");
    let mut text = String::new();
    let mut expected = Vec::new();
    // Every library of the specs, with its spec's "no library" code: what each stub must answer.
    for library in ALL {
        let (lib, code) = (library.name(), library.errors.no_library.value);
        let mut functions: Vec<_> = declared(lib)
            .into_iter()
            .filter(|f| f.ret == RetKind::Status)
            .collect();
        functions.sort_by_key(|f| !LAST_ERROR_READERS.contains(&f.name().as_str()));
        for f in functions {
            assert_zero_args_cover(lib, &f);
            writeln!(text, "libstubs_{lib}.so {}", f.name()).unwrap();
            // The driver's error-text functions answer without a library (the spec's
            // `error_texts`): their "unknown" status for the NULL out-pointer.
            let answered = library_spec(lib)
                .error_texts
                .iter()
                .find_map(|t| match t.abi {
                    TextAbi::OutParam { unknown } if t.function == f.name() => Some(unknown.value),
                    _ => None,
                });
            let code = answered.unwrap_or(code);
            expected.push((f.name(), code));
        }
    }
    let readers = LAST_ERROR_READERS.map(|r| format!("libstubs_cudart.so {r}\n"));
    assert!(text.starts_with(&readers.concat()), "{text}");
    std::fs::write(&list, text).unwrap();
    let arg = format!("callall:{}", list.display());
    // The probe links `LINKED`; every other library's stub is loaded for the sweep.
    let loaded: Vec<&str> = ALL
        .iter()
        .map(|l| l.name())
        .filter(|lib| !LINKED.contains(lib))
        .collect();
    let mut commands: Vec<String> = loaded
        .iter()
        .map(|lib| format!("dlopen:{}", stub(lib).display()))
        .collect();
    commands.push(arg);
    let run = Scenario::probe(&commands).run();
    let lines: Vec<String> = loaded
        .iter()
        .map(|lib| format!("dlopen {} ok", stub(lib).display()))
        .chain(
            expected
                .iter()
                .map(|(name, code)| format!("callall {name} rc={code}")),
        )
        .collect();
    run.assert_lines(&lines);
    run.assert_success();
    assert!(
        run.stderr.is_empty(),
        "the stubs printed without being asked: {run}"
    );
}

/// How many zero integer arguments the probe passes in a sweep (`tests/c/probe.c`'s `ZERO_ARGS`).
const PROBE_ZERO_ARGS: usize = 40;

/// Fails where `f` takes more arguments than the probe passes: an export reading its last ones
/// (cuTENSOR's compute-descriptor adapters) would read stack garbage (valgrind's "conditional
/// jump depends on uninitialised value").
fn assert_zero_args_cover(lib: &str, f: &stub_model::StubFn) {
    assert!(
        f.item.sig.inputs.len() <= PROBE_ZERO_ARGS,
        "{lib}: {} takes {} arguments; raise ZERO_ARGS in tests/c/probe.c and PROBE_ZERO_ARGS",
        f.name(),
        f.item.sig.inputs.len()
    );
}

/// The spec of the library named `lib`.
fn library_spec(lib: &str) -> &'static stub_model::Library {
    ALL.iter()
        .find(|l| l.name() == lib)
        .unwrap_or_else(|| panic!("no spec named {lib}"))
}

/// The libraries the probe links; the others' stubs are loaded for a sweep.
const LINKED: [&str; 3] = ["cudart", "nvrtc", "cuda"];

/// A code no header of any library defines.
const UNKNOWN_CODE: i32 = 0x7fff_fff0;

/// With no library at all, every pointer-returning export of every stub, called with zeroed
/// arguments, returns, and none returns NULL where NVIDIA's headers promise a string
/// (`const char *`): each such export is one of its spec's `error_texts` (or hand-written, NCCL's
/// `ncclGetLastError`, NPP's `nppGetGpuName`); another pointer is NULL unless hand-written (NPP's
/// `nppGetLibVersion`: never NULL); the error texts (the driver's
/// out-parameter ones too) answer for success, the stub's "not found" code (the enumerator's
/// name, or the places searched) and a code no header defines (a text naming it; the driver's
/// `CUDA_ERROR_INVALID_VALUE`). The list comes from the declarations and the specs, so it grows
/// with the API.
#[test]
fn every_pointer_function_without_a_library() {
    let dir = temp_dir("calltext");
    let list = dir.join("functions.txt");
    let mut text = String::new();
    let mut loaded = Vec::new();
    let mut checks = Vec::new();
    for library in ALL {
        let lib = library.name();
        let before = text.len();
        let texts = library.error_texts;
        for f in declared(lib)
            .into_iter()
            .filter(|f| f.ret == RetKind::Pointer)
        {
            assert_zero_args_cover(lib, &f);
            let name = f.name();
            let output = quote::ToTokens::to_token_stream(&f.item.sig.output).to_string();
            if !output.contains("c_char") {
                // NULL, as the type's fallback; a hand-written one answers storage of its own
                // (NPP's `nppGetLibVersion`: version 0.0.0).
                // `__cudaRegisterFatBinary` is hand-written to reconcile device code, and
                // forwards the runtime's handle: without a runtime, the type's NULL (nvcc's
                // registration code stores it; its later calls are refused alike).
                let forwards = name == "__cudaRegisterFatBinary";
                let answer = if library.hand_written.contains(&name.as_str()) && !forwards {
                    "non-null"
                } else {
                    "null"
                };
                writeln!(text, "libstubs_{lib}.so {name} ptr 0").unwrap();
                let line = format!("calltext {name} ptr={answer}");
                checks.push((line.clone(), line, None));
                continue;
            }
            let spec = texts.iter().find(|t| t.function == name);
            // A hand-written string export that describes no status code (NCCL's
            // `ncclGetLastError(comm)`): never NULL either.
            if spec.is_none() && library.hand_written.contains(&name.as_str()) {
                writeln!(text, "libstubs_{lib}.so {name} ptr 0").unwrap();
                let line = format!("calltext {name} ptr=non-null");
                checks.push((line.clone(), line, None));
                continue;
            }
            assert!(
                spec.is_some_and(|t| matches!(t.abi, TextAbi::Returned)),
                "{lib}: {name} returns a string but is no `error_texts` entry of its spec"
            );
        }
        for t in texts {
            let shape = match t.abi {
                TextAbi::Returned => "ret",
                TextAbi::OutParam { .. } => "out",
            };
            let no_library = library.errors.no_library;
            for code in [0, no_library.value, UNKNOWN_CODE] {
                writeln!(text, "libstubs_{lib}.so {} {shape} {code}", t.function).unwrap();
                let rc = match (t.abi, code) {
                    (TextAbi::Returned, _) => String::new(),
                    (TextAbi::OutParam { unknown }, UNKNOWN_CODE) => {
                        format!(" rc={} out=", unknown.value)
                    }
                    (TextAbi::OutParam { .. }, _) => " rc=0 out=".to_string(),
                };
                let sep = if rc.is_empty() { " = " } else { "" };
                let key = format!("calltext {}({code})", t.function);
                let head = format!("{key}{rc}{sep}");
                let expected = if code == UNKNOWN_CODE {
                    format!(
                        "unrecognized error code {code} (cuda-stubs: not defined by the {lib} headers)"
                    )
                } else if code == no_library.value {
                    match t.text {
                        TextKind::Name => no_library.name.to_string(),
                        TextKind::Description => format!("cuda-stubs: lib{lib} not found ("),
                    }
                } else {
                    String::new()
                };
                checks.push((key, head, Some(expected)));
            }
        }
        if text.len() > before && !LINKED.contains(&lib) {
            loaded.push(lib);
        }
    }
    std::fs::write(&list, &text).unwrap();
    let mut commands: Vec<_> = loaded
        .iter()
        .map(|lib| format!("dlopen:{}", stub(lib).display()))
        .collect();
    commands.push(format!("calltext:{}", list.display()));
    let run = Scenario::probe(&commands).run();
    run.assert_success().assert_silent();
    for (key, head, expected) in &checks {
        let line = run.line(key);
        match expected {
            None => assert_eq!(line, head, "{run}"),
            Some(start) => {
                let answer = line.strip_prefix(head.as_str()).unwrap_or_default();
                assert!(
                    !answer.is_empty() && answer != "(null)" && answer.starts_with(start.as_str()),
                    "{head}: {answer:?}, expected a text starting with {start:?}\n{run}"
                );
            }
        }
    }
    assert_eq!(
        run.stdout.lines().count(),
        checks.len() + loaded.len(),
        "{run}"
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

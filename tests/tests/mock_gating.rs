//! Gating by the loaded major, per-symbol failures, the soname fallback of the version, the
//! typed errors and error strings without any library, untouched out parameters, and silence
//! without `CUDA_STUBS_DEBUG`. Mock libraries only; each scenario is one process.
//!
//! The `-all` mocks export the functions their major lacks, returning 4242: a stub that gates by
//! major returns its "absent" code without ever looking them up.

use std::path::Path;
use stubs_tests::{Scenario, copy, mock, temp_dir};

const LOADER: &str = "dynamic loader search";

/// Fails with a clear message when the probe could not find `function` in the stub: the
/// generated declarations must include it.
fn require_exported(run: &stubs_tests::Outcome, functions: &[&str]) {
    for f in functions {
        assert!(
            !run.stdout.contains(&format!("{f} not-exported")),
            "{f} is not exported by its stub yet (declare it in the stub's api.rs): {run}"
        );
    }
}

/// The debug line the loader writes when gating refuses `function` in CUDA `major`.
fn assert_absent(run: &stubs_tests::Outcome, lib: &str, function: &str, major: u32) {
    let prefix = format!("{function}: absent in CUDA {major} (symbol majors ");
    assert!(
        run.debug(lib).iter().any(|l| l.starts_with(&prefix)),
        "expected `cuda-stubs[{lib}]: {prefix}…`: {run}"
    );
}

/// `cudaThreadSynchronize` is gone from 13: 801 even though this mock 13 exports it (it would
/// return 4242), so it was never looked up.
#[test]
fn removed_runtime_function_is_gated_on_13() {
    let run = Scenario::probe(["cudaRuntimeGetVersion", "cudaThreadSynchronize"])
        .library_path([mock("mock-13-all")])
        .debug()
        .run();
    // mock-13-all still exports cudaThreadSynchronize returning 4242: rc=0 proves the stub
    // never looked it up and bound the same-prototype replacement instead.
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=13000")
        .assert_line("cudaThreadSynchronize rc=0");
    assert_absent(&run, "cudart", "cudaThreadSynchronize", 13);
    run.assert_debug(
        "cudart",
        "cudaThreadSynchronize: absent, bound to its replacement cudaDeviceSynchronize",
    );
}

/// On 12 and 11 the same function is forwarded (the mocks return 0).
#[test]
fn removed_runtime_function_is_forwarded_on_12_and_11() {
    for variant in ["mock-12", "mock-11"] {
        let run = Scenario::probe(["cudaThreadSynchronize", "status:cudart"])
            .library_path([mock(variant)])
            .debug()
            .run();
        run.assert_success()
            .assert_line("cudaThreadSynchronize rc=0");
        assert!(
            !run.stderr.contains("cudaThreadSynchronize"),
            "{variant}: {run}"
        );
        let status = run.line("status cudart rc=0");
        assert!(status.contains(" resolved=1 missing=0"), "{run}");
    }
}

/// `nvrtcGetNVVM` is gone from NVRTC 13, and this mock 13 lacks its replacement
/// `nvrtcGetLTOIR` too: `NVRTC_ERROR_BUILTIN_OPERATION_FAILURE` (7), buffer untouched;
/// forwarded on 12.
#[test]
fn removed_nvrtc_function_is_gated_on_13() {
    let run = Scenario::probe(["nvrtcGetNVVM"])
        .library_path([mock("mock-13-all")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("nvrtcGetNVVM rc=7 out=sentinel");
    assert_absent(&run, "nvrtc", "nvrtcGetNVVM", 13);

    let run = Scenario::probe(["nvrtcGetNVVM"])
        .library_path([mock("mock-12")])
        .run();
    run.assert_success()
        .assert_line("nvrtcGetNVVM rc=0 out=mock nvvm 12")
        .assert_silent();
}

/// `nvrtcGetNVVMSize` (11, 12) and `nvrtcGetLTOIRSize` (12, 13) are one function renamed in
/// CUDA 12.0: where the loaded major lacks one name it is bound to the other (the "all"
/// mocks export both, the wrong-major one answering NEVER_CALLED), never refused.
#[test]
fn nvrtc_renamed_lto_ir_getters_are_bound_to_each_other() {
    let run = Scenario::probe(["nvrtcGetNVVMSize", "nvrtcGetLTOIRSize"])
        .library_path([mock("mock-13-all")])
        .debug()
        .run();
    require_exported(&run, &["nvrtcGetNVVMSize", "nvrtcGetLTOIRSize"]);
    run.assert_success()
        .assert_line("nvrtcGetNVVMSize rc=0 out=1013")
        .assert_line("nvrtcGetLTOIRSize rc=0 out=1013");
    assert!(
        run.stderr
            .contains("nvrtcGetNVVMSize: absent, bound to its replacement nvrtcGetLTOIRSize"),
        "{run}"
    );

    let run = Scenario::probe(["nvrtcGetNVVMSize", "nvrtcGetLTOIRSize"])
        .library_path([mock("mock-11-all")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("nvrtcGetNVVMSize rc=0 out=13")
        .assert_line("nvrtcGetLTOIRSize rc=0 out=13");
    assert!(
        run.stderr
            .contains("nvrtcGetLTOIRSize: absent, bound to its replacement nvrtcGetNVVMSize"),
        "{run}"
    );
}

/// The driver gates by minimum: an 11.8 driver lacks `cuLibraryLoadData` (12.0), so 801 even
/// though this mock exports it; a 13.0 driver forwards it. Needs `cuLibraryLoadData` declared.
#[test]
fn driver_entry_point_newer_than_the_driver() {
    let run = Scenario::probe(["cuDriverGetVersion", "cuLibraryLoadData"])
        .library_path([mock("mock-driver-11")])
        .debug()
        .run();
    require_exported(&run, &["cuLibraryLoadData"]);
    run.assert_success()
        .assert_line("cuDriverGetVersion rc=0 out=11080")
        .assert_line("cuLibraryLoadData rc=801 out=0xdead")
        .assert_bound(
            "cuda",
            &mock("mock-driver-11").join("libcuda.so.1"),
            11080,
            LOADER,
        );
    assert_absent(&run, "cuda", "cuLibraryLoadData", 11);

    let run = Scenario::probe(["cuLibraryLoadData"])
        .library_path([mock("mock-driver")])
        .run();
    run.assert_success()
        .assert_line("cuLibraryLoadData rc=0 out=0x4c1b")
        .assert_silent();
}

/// The mock driver: forwarded calls with the mock's values and codes.
#[test]
fn driver_calls_are_forwarded() {
    let run = Scenario::probe([
        "cuInit:0",
        "cuInit:1",
        "cuDriverGetVersion",
        "cuDeviceGet:3",
        "cuGetErrorString:100",
        "cuGetErrorName:100",
        "cuGetErrorName:999",
    ])
    .library_path([mock("mock-driver")])
    .debug()
    .run();
    run.assert_success()
        .assert_line("cuInit rc=0")
        .assert_line("cuInit rc=1")
        .assert_line("cuDriverGetVersion rc=0 out=13000")
        .assert_line("cuDeviceGet rc=0 out=703")
        .assert_line("cuGetErrorString(100) rc=0 out=mock driver error string")
        .assert_line("cuGetErrorName(100) rc=0 out=MOCK_DRIVER_ERROR_NAME")
        // The driver's failure kept, its NULL replaced by the stub's text.
        .assert_line("cuGetErrorName(999) rc=1 out=CUDA_ERROR_UNKNOWN")
        .assert_bound(
            "cuda",
            &mock("mock-driver").join("libcuda.so.1"),
            13000,
            LOADER,
        );
}

/// A 12 lacking most symbols: the missing ones give 801 (that function only, out parameter
/// untouched), the present ones work, the error strings fall back to the stub's own (the
/// header's description and enumerator name).
#[test]
fn missing_symbol_fails_that_function_only() {
    let run = Scenario::probe([
        "cudaRuntimeGetVersion",
        "cudaGetDeviceCount",
        "cudaMalloc:256",
        "cudaThreadSynchronize",
        "cudaGetErrorString:801",
        "cudaGetErrorName:801",
        "status:cudart",
    ])
    .library_path([mock("mock-12-partial")])
    .debug()
    .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
        .assert_line("cudaGetDeviceCount rc=801 out=-7777")
        .assert_line("cudaMalloc rc=0 out=0xc0100")
        .assert_line("cudaThreadSynchronize rc=801")
        .assert_line(
            "cudaGetErrorString(801) = This error indicates the attempted operation is not \
             supported on the current system or device.",
        )
        .assert_line("cudaGetErrorName(801) = cudaErrorNotSupported")
        .assert_debug(
            "cudart",
            "cudaGetDeviceCount: symbol missing from the library",
        )
        .assert_debug(
            "cudart",
            "cudaThreadSynchronize: symbol missing from the library",
        )
        .assert_bound(
            "cudart",
            &mock("mock-12-partial").join("libcudart.so.12"),
            12090,
            LOADER,
        );
    let status = run.line("status cudart rc=0");
    assert!(
        status.starts_with("status cudart rc=0 bound=1 version=12090 resolved=2 missing="),
        "{run}"
    );
    assert!(
        !run.debug("cudart")
            .iter()
            .any(|l| l.starts_with("cudaMalloc") || l.starts_with("cudaRuntimeGetVersion")),
        "{run}"
    );
}

/// A runtime whose `cudaRuntimeGetVersion` fails (like 11.8 without a driver): bound anyway,
/// version from the soname (12 → 12000), gating by 12 (`cudaThreadSynchronize` forwarded).
#[test]
fn soname_gives_the_version_when_the_version_function_fails() {
    let dir = mock("mock-12-noversion");
    let run = Scenario::probe([
        "cudaRuntimeGetVersion",
        "cudaGetDeviceCount",
        "cudaThreadSynchronize",
        "status:cudart",
    ])
    .library_path([&dir])
    .debug()
    .run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=35 out=-7777")
        .assert_line("cudaGetDeviceCount rc=0 out=112")
        .assert_line("cudaThreadSynchronize rc=0")
        .assert_bound("cudart", &dir.join("libcudart.so.12"), 12000, LOADER);
    assert!(
        run.line("status cudart rc=0")
            .starts_with("status cudart rc=0 bound=1 version=12000 "),
        "{run}"
    );
}

/// The same library by an override path whose name carries the full version
/// (`libcudart.so.12.9.79`): the major still comes from the name.
#[test]
fn versioned_file_name_gives_the_major() {
    let dir = temp_dir("versioned-name");
    let file = dir.join("libcudart.so.12.9.79");
    copy(&mock("mock-12-noversion").join("libcudart.so.12"), &file);
    let run = Scenario::probe(["cudaThreadSynchronize"])
        .env("CUDA_STUBS_CUDART_PATH", &file)
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaThreadSynchronize rc=0")
        .assert_bound("cudart", &file, 12000, "environment override");
}

/// A name that says no major and a failing version function: version 0 (unknown), so no
/// gating and `dlsym` alone decides.
#[test]
fn unknown_version_leaves_it_to_dlsym() {
    let dir = temp_dir("unknown-version");
    let file = dir.join("custom-runtime.so");
    copy(&mock("mock-12-noversion").join("libcudart.so.12"), &file);
    let run = Scenario::probe(["cudaThreadSynchronize", "cudaGetDeviceCount"])
        .env("CUDA_STUBS_CUDART_PATH", &file)
        .debug()
        .run();
    run.assert_success()
        .assert_line("cudaThreadSynchronize rc=0")
        .assert_line("cudaGetDeviceCount rc=0 out=112")
        .assert_bound("cudart", &file, 0, "environment override");
}

/// No library anywhere: the typed "library not found" codes, out parameters untouched, and the
/// error strings answered by the stubs themselves from the headers (enumerator names and
/// descriptions), saying where they searched for the "not found" code, naming a code no header
/// defines. Silent.
#[test]
fn no_library_typed_errors_and_strings() {
    let run = Scenario::probe([
        "cudaRuntimeGetVersion",
        "cudaGetDeviceCount",
        "cudaMalloc:64",
        "cudaThreadSynchronize",
        "cudaGetErrorString:34",
        "cudaGetErrorName:34",
        "cudaGetErrorName:801",
        "cudaGetErrorString:0",
        "cudaGetErrorName:0",
        "cudaGetErrorName:2",
        "cudaGetErrorString:2",
        "cudaGetErrorName:12345",
        "cudaGetErrorString:12345",
        "nvrtcVersion",
        "nvrtc-compile:compute_80:ptx:/nonexistent/out.ptx",
        "nvrtcGetNVVM",
        "nvrtcGetErrorString:11",
        "nvrtcGetErrorString:0",
        "nvrtcGetErrorString:4",
        "cuInit:0",
        "cuDriverGetVersion",
        "cuDeviceGet:0",
        "cuGetErrorString:34",
        "cuGetErrorName:34",
        "cuGetErrorName:801",
        "cuGetErrorName:999",
        "cuGetErrorString:2",
        "cuGetErrorName:12345",
        "status:cudart",
        "status:nvrtc",
        "status:cuda",
    ])
    .run();
    run.assert_success()
        .assert_silent()
        .assert_line("cudaRuntimeGetVersion rc=34 out=-7777")
        .assert_line("cudaGetDeviceCount rc=34 out=-7777")
        .assert_line("cudaMalloc rc=34 out=0xdead")
        .assert_line("cudaThreadSynchronize rc=34")
        .assert_line("cudaGetErrorName(34) = cudaErrorStubLibrary")
        .assert_line("cudaGetErrorName(801) = cudaErrorNotSupported")
        .assert_line(
            "cudaGetErrorString(0) = The API call returned with no errors. In the case of query \
             calls, this also means that the operation being queried is complete (see \
             cudaEventQuery() and cudaStreamQuery()).",
        )
        .assert_line("cudaGetErrorName(0) = cudaSuccess")
        .assert_line("cudaGetErrorName(2) = cudaErrorMemoryAllocation")
        .assert_line(
            "cudaGetErrorString(2) = The API call failed because it was unable to allocate \
             enough memory or other resources to perform the requested operation.",
        )
        .assert_line(
            "cudaGetErrorName(12345) = unrecognized error code 12345 (cuda-stubs: not defined \
             by the cudart headers)",
        )
        .assert_line(
            "cudaGetErrorString(12345) = unrecognized error code 12345 (cuda-stubs: not \
             defined by the cudart headers)",
        )
        .assert_line("nvrtcVersion rc=11 out=-7777.-7777")
        .assert_line("nvrtcCreateProgram rc=11")
        .assert_line("nvrtcCreateProgram out=untouched")
        .assert_line("nvrtcGetNVVM rc=11 out=sentinel")
        .assert_line("nvrtcGetErrorString(0) = NVRTC_SUCCESS")
        .assert_line("nvrtcGetErrorString(4) = NVRTC_ERROR_INVALID_PROGRAM")
        .assert_line("cuInit rc=34")
        .assert_line("cuDriverGetVersion rc=34 out=-7777")
        .assert_line("cuDeviceGet rc=34 out=-7777")
        .assert_line("cuGetErrorName(34) rc=0 out=CUDA_ERROR_STUB_LIBRARY")
        .assert_line("cuGetErrorName(801) rc=0 out=CUDA_ERROR_NOT_SUPPORTED")
        .assert_line("cuGetErrorName(999) rc=0 out=CUDA_ERROR_UNKNOWN")
        .assert_line(
            "cuGetErrorString(2) rc=0 out=The API call failed because it was unable to \
             allocate enough memory or other resources to perform the requested operation.",
        )
        // A code no header defines: the driver's CUDA_ERROR_INVALID_VALUE, and still a text.
        .assert_line(
            "cuGetErrorName(12345) rc=1 out=unrecognized error code 12345 (cuda-stubs: not \
             defined by the cuda headers)",
        );
    assert!(
        run.line("cudaGetErrorString(34)").starts_with(
            "cudaGetErrorString(34) = cuda-stubs: libcudart not found (searched libcudart.so.13, \
             libcudart.so.12, libcudart.so.11.0: already loaded (RTLD_NOLOAD); environment \
             override (CUDA_STUBS_CUDART_PATH); wheel layout beside the stub (nvidia/cu13/lib, \
             nvidia/cuda_runtime/lib); wheel layout in the Python environment ($VIRTUAL_ENV, \
             $CONDA_PREFIX site-packages); $CONDA_PREFIX/lib; dynamic loader search; \
             $CUDA_HOME/$CUDA_PATH lib64; /usr/local/cuda/lib64)"
        ),
        "{run}"
    );
    assert!(
        run.line("nvrtcGetErrorString(11)").starts_with(
            "nvrtcGetErrorString(11) = cuda-stubs: libnvrtc not found (searched libnvrtc.so.13, \
             libnvrtc.so.12, libnvrtc.so.11.2: already loaded (RTLD_NOLOAD); environment \
             override (CUDA_STUBS_NVRTC_PATH); wheel layout beside the stub (nvidia/cu13/lib, \
             nvidia/cuda_nvrtc/lib); "
        ),
        "{run}"
    );
    assert!(
        run.line("cuGetErrorString(34)").starts_with(
            "cuGetErrorString(34) rc=0 out=cuda-stubs: libcuda not found (searched libcuda.so.1: \
             already loaded (RTLD_NOLOAD); environment override (CUDA_STUBS_CUDA_PATH); \
             $CONDA_PREFIX/lib; "
        ),
        "{run}"
    );
    for lib in ["cudart", "nvrtc", "cuda"] {
        let status = run.line(&format!("status {lib} rc=0"));
        assert!(
            status.starts_with(&format!("status {lib} rc=0 bound=0 version=0 resolved=0 ")),
            "{run}"
        );
        run.assert_line(&format!("status {lib} path=(null)"))
            .assert_line(&format!("status {lib} found_by=(null)"));
        assert!(
            run.line(&format!("status {lib} message"))
                .starts_with(&format!(
                    "status {lib} message=cuda-stubs: lib{lib} not found"
                )),
            "{run}"
        );
    }
}

/// The same with `CUDA_STUBS_DEBUG=1`: the search is logged, ending with "no library found".
#[test]
fn no_library_debug_log() {
    let run = Scenario::probe(["cudaRuntimeGetVersion"]).debug().run();
    run.assert_success()
        .assert_line("cudaRuntimeGetVersion rc=34 out=-7777")
        .assert_debug("cudart", "no copy already loaded")
        .assert_debug(
            "cudart",
            &format!("try libcudart.so.11.0 [{LOADER}]: rejected: not found"),
        )
        .assert_debug(
            "cudart",
            "try /usr/local/cuda/lib64/libcudart.so.13 [/usr/local/cuda/lib64]: rejected: not \
             found",
        )
        .assert_debug(
            "cudart",
            "no library found: calls return the stub's \"library not found\" error",
        );
    assert!(run.debug("cudart").iter().all(|l| !l.starts_with("bound ")));
}

/// Forwarded error strings come from the bound library (the mocks' own texts); a NULL answer
/// (the mocks' for 999, as 13.x's runtime without a driver for some codes) is replaced by the
/// stub's text.
#[test]
fn error_strings_are_forwarded_when_bound() {
    let run = Scenario::probe([
        "cudaGetErrorString:35",
        "cudaGetErrorName:2",
        "nvrtcGetErrorString:3",
        "cudaGetErrorString:999",
        "cudaGetErrorName:999",
        "nvrtcGetErrorString:999",
    ])
    .library_path([mock("mock-12")])
    .run();
    run.assert_success()
        .assert_silent()
        .assert_line("cudaGetErrorString(35) = mock cudart 12: error 35")
        .assert_line("cudaGetErrorName(2) = mockCudart12Error2")
        .assert_line("nvrtcGetErrorString(3) = mock nvrtc 12: result 3")
        .assert_line(
            "cudaGetErrorString(999) = This indicates that an unknown internal error has occurred.",
        )
        .assert_line("cudaGetErrorName(999) = cudaErrorUnknown")
        .assert_line(
            "nvrtcGetErrorString(999) = unrecognized error code 999 (cuda-stubs: not defined by \
             the nvrtc headers)",
        );
}

/// NVRTC forwarding through the whole compile sequence, with the mock's "PTX".
#[test]
fn nvrtc_compile_sequence_is_forwarded() {
    let out = temp_dir("mock-ptx").join("out.ptx");
    let run = Scenario::probe([format!("nvrtc-compile:compute_80:ptx:{}", out.display())])
        .library_path([mock("mock-13")])
        .run();
    run.assert_success()
        .assert_silent()
        .assert_line("nvrtcCreateProgram rc=0")
        .assert_line("nvrtcCompileProgram rc=0")
        .assert_line("nvrtcGetPTXSize rc=0 out=15")
        .assert_line("nvrtcGetPTX rc=0")
        .assert_line("nvrtcDestroyProgram rc=0 out=null");
    assert_eq!(
        std::fs::read(&out).expect("PTX written"),
        b"// mock ptx 13\0"
    );
}

/// Calls that bind, miss and are gated, and rejected candidates: nothing on stderr without
/// `CUDA_STUBS_DEBUG`, nor with it empty or `0`.
#[test]
fn silent_without_debug() {
    let dir = temp_dir("silent");
    std::fs::create_dir(dir.join("libcudart.so.13")).expect("mkdir");
    copy(
        &mock("mock-12-partial").join("libcudart.so.12"),
        &dir.join("libcudart.so.12"),
    );
    let commands = [
        "cudaRuntimeGetVersion",
        "cudaGetDeviceCount",
        "nvrtcGetNVVM",
        "nvrtcVersion",
        "cuInit:0",
    ];
    for debug in [None, Some(""), Some("0")] {
        let mut scenario = Scenario::probe(commands)
            .env("CUDA_STUBS_CUDART_PATH", &dir)
            .library_path([mock("mock-13-all")]);
        if let Some(value) = debug {
            scenario = scenario.env("CUDA_STUBS_DEBUG", value);
        }
        let run = scenario.run();
        run.assert_success()
            .assert_silent()
            .assert_line("cudaRuntimeGetVersion rc=0 out=12090")
            .assert_line("cudaGetDeviceCount rc=801 out=-7777")
            .assert_line("nvrtcGetNVVM rc=7 out=sentinel")
            .assert_line("cuInit rc=34");
    }
    // And the same with the debug log on: every stderr line is one of the loader's.
    let run = Scenario::probe(commands)
        .env("CUDA_STUBS_CUDART_PATH", &dir)
        .library_path([mock("mock-13-all")])
        .debug()
        .run();
    run.assert_success();
    assert!(!run.stderr.is_empty());
    for line in run.stderr.lines() {
        assert!(
            [
                "cuda-stubs[cudart]: ",
                "cuda-stubs[nvrtc]: ",
                "cuda-stubs[cuda]: "
            ]
            .iter()
            .any(|p| line.starts_with(p)),
            "stray stderr line `{line}`: {run}"
        );
    }
    run.assert_debug(
        "cudart",
        &format!(
            "try {} [environment override]: rejected: is a directory",
            Path::new(&dir).join("libcudart.so.13").display()
        ),
    );
}

/// 32 threads making their first calls at once: one search per library, every thread
/// forwarded to the mock.
#[test]
fn concurrent_first_calls_bind_once() {
    let run = Scenario::probe(["threads:32", "status:cudart", "status:nvrtc"])
        .library_path([mock("mock-12")])
        .debug()
        .run();
    run.assert_success().assert_line("threads 32 ok=32");
    run.bound("cudart");
    run.bound("nvrtc");
    for lib in ["cudart", "nvrtc"] {
        let searches = run
            .debug(lib)
            .iter()
            .filter(|l| **l == "no copy already loaded")
            .count();
        assert_eq!(searches, 1, "{lib} searched more than once: {run}");
        assert!(
            run.line(&format!("status {lib} rc=0"))
                .ends_with(" missing=0"),
            "{run}"
        );
    }
}

/// Driver entry points come from `cuGetProcAddress` with the CUDA version of their ABI
/// (`cuMemAlloc_v2` is `cuMemAlloc` at 3020); where the driver has no answer the stub falls
/// back to `dlsym` of the exact ABI name.
#[test]
fn driver_entry_points_come_from_cu_get_proc_address() {
    let run = Scenario::probe(["cuMemAlloc", "cuDeviceGet:0"])
        .library_path([mock("mock-driver")])
        .debug()
        .run();
    run.assert_success()
        .assert_line("cuMemAlloc rc=0 out=0x3020")
        .assert_line("cuDeviceGet rc=0 out=700")
        .assert_debug(
            "cuda",
            "cuMemAlloc_v2: cuGetProcAddress(cuMemAlloc, 3020, flags 1) = 0",
        )
        .assert_debug(
            "cuda",
            "cuDeviceGet: cuGetProcAddress(cuDeviceGet, 2000, flags 1) = 500",
        );
}

/// `cuMemPoolCreate` keeps its ABI across majors (13.5's `CUmemLocation` holds the old `int id`
/// in a same-size union): every driver gets the call, and the mock, reading its own major's
/// layout, sees the caller's fields (the pool it writes encodes `location.id` and its major).
#[test]
fn driver_function_with_a_widened_field_is_forwarded_to_every_major() {
    for (dir, pool) in [
        ("mock-driver-11", "0x907b"),
        ("mock-driver-12", "0x907c"),
        ("mock-driver", "0x907d"),
    ] {
        let out = Scenario::probe(["cuMemPoolCreate"])
            .library_path([mock(dir)])
            .run();
        out.assert_success()
            .assert_line(&format!("cuMemPoolCreate rc=0 out={pool}"));
    }
}

/// `CUgraphNodeParams` (cuGraphNodeSetParams, cuGraphExecNodeSetParams, cuGraphAddNode_v2):
/// 13.x grew the host and event-record node structs into union bytes a 12.x driver never
/// reads. On a 12.x driver the adapter forwards a call whose added fields hold their zero
/// default (the mock reads its own 12.x layout and would answer 4242 had a 13-only byte
/// reached it) and refuses one it cannot express (sync mode, preferred context: 801, nothing
/// called, the node output untouched); a 13.x driver gets every call as written (the mock
/// answers 100 + syncMode, or 200 for a context); an 11.x driver has none of them (801).
#[test]
fn graph_node_params_on_older_drivers() {
    let calls = [
        "cuGraphNodeSetParams:host",
        "cuGraphNodeSetParams:host-sync",
        "cuGraphNodeSetParams:host-ctx",
        "cuGraphNodeSetParams:event",
        "cuGraphNodeSetParams:event-ctx",
        "cuGraphExecNodeSetParams:host",
        "cuGraphExecNodeSetParams:event-ctx",
        "cuGraphAddNode_v2:host",
        "cuGraphAddNode_v2:host-sync",
    ];
    let expected: [(&str, [&str; 9]); 3] = [
        (
            "mock-driver-12",
            ["0", "801", "801", "0", "801", "0", "801", "0", "801"],
        ),
        (
            "mock-driver",
            ["0", "101", "200", "0", "200", "0", "200", "0", "101"],
        ),
        ("mock-driver-11", ["801"; 9]),
    ];
    for (dir, codes) in expected {
        let out = Scenario::probe(calls).library_path([mock(dir)]).run();
        out.assert_success();
        for (call, rc) in calls.iter().zip(codes) {
            let node = if call.starts_with("cuGraphAddNode") && rc == "0" {
                "0x6300"
            } else {
                "0xdead"
            };
            out.assert_line(&format!("{call} rc={rc} node={node}"));
        }
    }
}

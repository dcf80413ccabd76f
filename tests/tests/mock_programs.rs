//! CUDA programs run on the mock device's kernel executor (issue 47): `tests/cuda/mock_programs.cu`,
//! modelled on what NVIDIA's cuda-samples exercise (CI has no network, so not the samples
//! themselves: `scripts/mock-samples.sh` runs those), built by NVIDIA's nvcc 13.5 from the
//! wheels and linked only to `libstubs_cudart.so`, run under `CUDA_STUBS_MOCK=h200`.
//!
//! - The PTX-only build (`-gencode arch=compute_90,code=compute_90`, as the samples are built
//!   for the mock): each case computes on the executor and the program checks the result on the
//!   host (vectorAdd; a tiled matrix multiply in shared memory; a shared-memory reduction with
//!   shuffles and an atomic; `__constant__` and `__device__` variables through
//!   `cudaMemcpyToSymbol`/`FromSymbol`; a kernel captured into a graph, replayed twice; device
//!   `malloc`/`free` and C++ `new`/`delete` with virtual calls, across launches); device
//!   `printf` reaches stdout at the synchronizing call; a device-side assert prints the board's
//!   line and answers 710, sticky; a store outside every allocation answers 700, sticky.
//!   nvcc 13.5 writes PTX ISA 9.5, newer than the profile's 13.0 driver: the runtime stub
//!   compiles it with nvJitLink 13.5 (from the wheels, on `LD_LIBRARY_PATH`), and the executor
//!   runs the PTX.
//! - The CUBIN-only build (`code=sm_90`): the launch answers 801 not supported, and the debug
//!   log says how to add PTX.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::{Outcome, Scenario, build_stubs, cuda_layout, temp_dir};

/// The two builds of the program, once per test process: [PTX only, CUBIN only].
fn programs() -> &'static [PathBuf; 2] {
    static BUILT: OnceLock<[PathBuf; 2]> = OnceLock::new();
    BUILT.get_or_init(|| {
        build_stubs(&[stubs_tests::MOCK_PACKAGE]);
        let build = |name: &str, code: &str| {
            let dir = temp_dir(&format!("mock-programs-{name}"));
            let gencode = format!("arch=compute_90,code={code}");
            stubs_tests::nvcc_with_stub(
                &dir,
                "mock_programs",
                "cuda/mock_programs.cu",
                &["-gencode", &gencode],
            )
        };
        [build("ptx", "compute_90"), build("cubin", "sm_90")]
    })
}

/// Runs one case of `program` on the mock H200, with the debug log and nvJitLink 13.5 findable.
fn run_case(program: &Path, case: &str) -> Outcome {
    let nvjitlink = cuda_layout(13)
        .nvjitlink
        .expect("layout.json of CUDA 13 names nvJitLink (scripts/fetch-cuda.py)");
    Scenario::new(program)
        .args([case])
        .env("CUDA_STUBS_MOCK", "h200")
        // Two block-running threads: the CI machine's cores; the result must not depend on it.
        .env("CUDA_STUBS_MOCK_THREADS", "2")
        .library_path([nvjitlink.parent().expect("nvJitLink's folder")])
        .debug()
        .run()
}

/// Runs a case of the PTX build that checks its own result; its one line must say `ok`.
fn assert_case_ok(case: &str) -> Outcome {
    let run = run_case(&programs()[0], case);
    run.assert_success();
    let line = run.line(case);
    assert!(line.starts_with(&format!("{case} ok")), "{line}\n{run}");
    // The kernel ran on the executor (not a registered host function, not skipped).
    assert!(
        run.stderr.contains("its PTX runs on the kernel executor"),
        "no executor launch in the debug log:\n{run}"
    );
    run
}

#[test]
fn vector_add_computes_each_sum() {
    assert_case_ok("vector_add");
}

#[test]
fn tiled_matrix_multiply_in_shared_memory_matches_the_host() {
    assert_case_ok("matmul");
}

#[test]
fn shared_memory_reduction_with_shuffles_and_an_atomic() {
    assert_case_ok("reduce");
}

#[test]
fn constant_and_device_variables_through_the_symbol_copies() {
    assert_case_ok("constant");
}

#[test]
fn a_captured_kernel_runs_at_each_graph_launch_only() {
    let run = assert_case_ok("graph");
    // Captured, not run: the values before the first replay were untouched.
    assert!(run.line("graph").contains("during=0"), "{run}");
}

#[test]
fn device_malloc_new_and_delete_on_the_heap_across_launches() {
    // Blocks made by one launch, read and freed by the next, objects made by `new` called
    // through their vtables; NULL past the heap's 4 MiB; its size fixed once made (1); cudaFree
    // refuses a heap pointer.
    let run = assert_case_ok("heap");
    let line = run.line("heap");
    assert!(line.contains("wrong=0 misaligned=0"), "{run}");
    assert!(line.contains("big=0 small=1 resize=1"), "{run}");
}

#[test]
fn device_printf_reaches_stdout_at_the_synchronizing_call() {
    let run = assert_case_ok("printf");
    let lines: Vec<&str> = run.stdout.lines().collect();
    // Every thread's line, before the host's line printed after cudaDeviceSynchronize. The
    // board gives no order between blocks or warps: compared as a set.
    let mut device: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with('['))
        .collect();
    device.sort_unstable();
    let want: Vec<String> = (0..2)
        .flat_map(|b| (0..3).map(move |t| format!("[{b}, {t}] value=10 half=5.00")))
        .collect();
    assert_eq!(device, want, "{run}");
    assert_eq!(lines.last(), Some(&"printf ok"), "{run}");
}

/// After a kernel's illegal address every further call of the context answers it (the CUDA C++
/// Programming Guide: the process is left in an inconsistent state and any further CUDA work
/// returns the same error): the synchronization, a memset, a copy, an allocation, a free and
/// the last error.
#[test]
fn after_a_fault_every_call_answers_it() {
    let run = run_case(&programs()[0], "sticky_calls");
    run.assert_success();
    assert_eq!(
        run.line("sticky_calls"),
        "sticky_calls sync=700 memset=700 memcpy=700 malloc=700 free=700 last=700",
        "{run}"
    );
}

#[test]
fn device_assert_prints_the_board_line_and_answers_710_sticky() {
    let run = run_case(&programs()[0], "assert");
    run.assert_success();
    assert_eq!(
        run.line("assert"),
        "assert ok launch=0 sync=710 later=710",
        "{run}"
    );
    // The board's line: the file, line and function, then the failing thread of block 1
    // (global index 60 = block 1, thread 28) and the expression.
    let line = run
        .stderr
        .lines()
        .chain(run.stdout.lines())
        .find(|l| l.contains("Assertion"))
        .unwrap_or_else(|| panic!("no assertion line:\n{run}"));
    assert!(
        line.contains("mock_programs.cu:")
            && line.contains("void asserting(int): block: [1,0,0], thread: [28,0,0] Assertion `g < limit` failed."),
        "{line}"
    );
}

#[test]
fn store_outside_every_allocation_answers_700_sticky() {
    let run = run_case(&programs()[0], "out_of_bounds");
    run.assert_success();
    assert_eq!(
        run.line("out_of_bounds"),
        "out_of_bounds ok launch=0 sync=700 later=700",
        "{run}"
    );
}

#[test]
fn cubin_only_build_answers_801_with_how_to_add_ptx() {
    let run = run_case(&programs()[1], "launch");
    run.assert_success();
    assert_eq!(run.line("launch"), "launch rc=801 sync=0", "{run}");
    assert!(
        run.stderr.contains("its image holds no PTX (CUBIN only)")
            && run
                .stderr
                .contains("nvcc -gencode arch=compute_90,code=compute_90, or NVRTC"),
        "no debug line telling how to add PTX:\n{run}"
    );
}

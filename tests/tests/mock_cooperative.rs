//! Cooperative launches on the mock device's kernel executor (issue 47):
//! `tests/cuda/mock_cooperative.cu`, built by NVIDIA's nvcc 13.5 from the wheels (PTX only,
//! `-gencode arch=compute_90,code=compute_90`), linked only to `libstubs_cudart.so`, run under
//! `CUDA_STUBS_MOCK=h200`. A two-pass multi-block reduction whose blocks wait for each other at
//! a grid-wide barrier (over the driver's grid workspace, `%envreg1:%envreg2`, as cooperative
//! groups' `grid.sync()` reads it) computes the right sums when launched by
//! `cudaLaunchCooperativeKernel`, `cudaLaunchKernelExC` with the cooperative attribute, and the
//! driver's `cuLaunchCooperativeKernel` and `cuLaunchKernelEx`; a grid past occupancy × SMs
//! answers 720 (`cudaErrorCooperativeLaunchTooLarge`), clusters of two blocks are accepted
//! (tests/tests/mock_clusters.rs runs clusters); the barrier
//! in a plain `<<<>>>` launch finds no workspace and traps (719, sticky), as on a board.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use stubs_tests::{Outcome, Scenario, build_stubs, cuda_layout, temp_dir};

/// The program and the PTX of its kernels (for the driver's module load), once per process.
fn built() -> &'static (PathBuf, PathBuf) {
    static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BUILT.get_or_init(|| {
        build_stubs(&[stubs_tests::MOCK_PACKAGE]);
        let dir = temp_dir("mock-cooperative");
        let exe = stubs_tests::nvcc_with_stub(
            &dir,
            "mock_cooperative",
            "cuda/mock_cooperative.cu",
            &["-gencode", "arch=compute_90,code=compute_90"],
        );
        let nvcc = cuda_layout(13)
            .nvcc
            .expect("layout.json of CUDA 13 names nvcc");
        let ptx = dir.join("mock_cooperative.ptx");
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("cuda/mock_cooperative.cu");
        let out = Command::new(nvcc)
            .args(["-gencode", "arch=compute_90,code=compute_90", "-ptx", "-o"])
            .arg(&ptx)
            .arg(source)
            .env("TMPDIR", &dir)
            .output()
            .expect("run nvcc");
        assert!(out.status.success(), "nvcc -ptx: {out:?}");
        // nvcc 13.5 writes PTX ISA 9.5; the H200 profile's 13.0 driver loads up to 9.0, and the
        // kernel uses nothing newer.
        let text = std::fs::read_to_string(&ptx).expect("read the PTX");
        assert!(text.contains("\n.version 9.5\n"), "{text}");
        std::fs::write(&ptx, text.replace("\n.version 9.5\n", "\n.version 9.0\n"))
            .expect("write the PTX");
        (exe, ptx)
    })
}

/// Runs one case on the mock H200, with the debug log and nvJitLink 13.5 findable.
fn run_case(args: &[&str]) -> Outcome {
    let nvjitlink = cuda_layout(13)
        .nvjitlink
        .expect("layout.json of CUDA 13 names nvJitLink (scripts/fetch-cuda.py)");
    Scenario::new(&built().0)
        .args(args)
        .env("CUDA_STUBS_MOCK", "h200")
        .env("CUDA_STUBS_MOCK_THREADS", "2")
        .library_path([nvjitlink.parent().expect("nvJitLink's folder")])
        .debug()
        .run()
}

/// The expected sums of the program's input (`in[i] = i % 101 - 50`, 32768 values).
fn sums() -> String {
    let sum: i32 = (0..1 << 15).map(|i| i % 101 - 50).sum();
    format!("sum={sum} doubled={} expected={sum}", 2 * sum)
}

#[test]
fn cuda_launch_cooperative_kernel_syncs_the_grid() {
    let run = run_case(&["cooperative"]);
    run.assert_success();
    // 48 blocks: fewer than the H200's 132 SMs × 8 resident blocks of 256 threads.
    assert_eq!(
        run.line("cooperative"),
        format!("cooperative ok blocks=48 rc=0 sync=0 {}", sums()),
        "{run}"
    );
    assert!(
        run.stderr.contains("its PTX runs on the kernel executor"),
        "no executor launch in the debug log:\n{run}"
    );
}

#[test]
fn a_grid_past_the_resident_blocks_answers_720() {
    let run = run_case(&["too_large"]);
    run.assert_success();
    // The occupancy calculator's 8 blocks of 256 threads per SM, × 132 SMs.
    assert_eq!(
        run.line("too_large"),
        "too_large ok resident=1056 one_block_rc=0 rc=720 last=720",
        "{run}"
    );
}

#[test]
fn cuda_launch_kernel_ex_c_with_the_cooperative_attribute() {
    let run = run_case(&["ex"]);
    run.assert_success();
    assert_eq!(
        run.line("ex"),
        format!("ex ok blocks=20 rc=0 sync=0 {}", sums()),
        "{run}"
    );
    assert_eq!(run.line("ex_cluster"), "ex_cluster rc=0", "{run}");
}

#[test]
fn the_drivers_cooperative_launches() {
    let ptx = built().1.to_str().expect("a UTF-8 path").to_owned();
    let run = run_case(&["driver", &ptx]);
    run.assert_success();
    assert_eq!(run.line("driver load"), "driver load=0 get=0", "{run}");
    assert_eq!(
        run.line("driver cooperative"),
        format!("driver cooperative ok blocks=16 rc=0 sync=0 {}", sums()),
        "{run}"
    );
    assert_eq!(
        run.line("driver ex"),
        format!("driver ex ok blocks=16 rc=0 sync=0 {}", sums()),
        "{run}"
    );
    assert_eq!(
        run.line("driver too large"),
        "driver too large rc=720",
        "{run}"
    );
}

#[test]
fn the_grid_barrier_in_a_plain_launch_traps() {
    let run = run_case(&["plain"]);
    run.assert_success();
    assert_eq!(run.line("plain"), "plain ok rc=0 sync=719", "{run}");
}

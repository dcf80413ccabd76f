//! Thread-block clusters on the mock device's kernel executor (issue 47):
//! `tests/cuda/mock_clusters.cu`, built by NVIDIA's nvcc 13.5 from the wheels (PTX only,
//! `-gencode arch=compute_90,code=compute_90`), linked only to `libstubs_cudart.so`, run under
//! `CUDA_STUBS_MOCK=h100`. Clusters of 2 and 4 blocks (`cudaLaunchKernelExC` with the
//! cluster-dimension attribute) read and add to each other's shared arrays through distributed
//! shared memory; the Programming Guide's DSMEM histogram; a `__cluster_dims__` kernel through
//! `<<<>>>`; the launches refused (912 for a grid the clusters do not divide, or 16 blocks
//! without the non-portable attribute). Each case's line is the program's own check against
//! values computed on the host; tests/gpu/clusters.sh runs the same program on a board.
//! Cooperative groups' `cluster_group` is used when CCCL's headers are found
//! (`CUDA_STUBS_NVRTC_INCLUDE`, as for `stub-ptx/tests/ptx/nvrtc.py`), else the intrinsics it
//! wraps.

use std::path::PathBuf;
use std::sync::OnceLock;
use stubs_tests::{Outcome, Scenario, build_stubs, cuda_layout, temp_dir};

/// The program, once per process.
fn built() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        build_stubs(&[stubs_tests::MOCK_PACKAGE]);
        let dir = temp_dir("mock-clusters");
        let mut args = vec![
            "-gencode".to_owned(),
            "arch=compute_90,code=compute_90".to_owned(),
        ];
        // CCCL's headers, where cooperative_groups.h finds <nv/target>.
        if let Ok(dirs) = std::env::var("CUDA_STUBS_NVRTC_INCLUDE") {
            args.extend(
                dirs.split(':')
                    .filter(|d| !d.is_empty())
                    .map(|d| format!("-I{d}")),
            );
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        stubs_tests::nvcc_with_stub(&dir, "mock_clusters", "cuda/mock_clusters.cu", &args)
    })
}

/// Runs one case on the mock H100, with the debug log and nvJitLink 13.5 findable.
fn run_case(case: &str) -> Outcome {
    let nvjitlink = cuda_layout(13)
        .nvjitlink
        .expect("layout.json of CUDA 13 names nvJitLink (scripts/fetch-cuda.py)");
    Scenario::new(built())
        .args([case])
        .env("CUDA_STUBS_MOCK", "h100")
        .env("CUDA_STUBS_MOCK_THREADS", "2")
        .library_path([nvjitlink.parent().expect("nvJitLink's folder")])
        .debug()
        .run()
}

#[test]
fn clusters_of_two_and_four_share_their_blocks_shared_memory() {
    let run = run_case("ring");
    run.assert_success();
    assert_eq!(
        run.line("ring2"),
        "ring2 ok grid=16 cluster=2 rc=0 sync=0",
        "{run}"
    );
    assert_eq!(
        run.line("ring4"),
        "ring4 ok grid=24 cluster=4 rc=0 sync=0",
        "{run}"
    );
    assert!(
        run.stderr.contains("its PTX runs on the kernel executor"),
        "no executor launch in the debug log:\n{run}"
    );
}

#[test]
fn the_programming_guides_dsmem_histogram() {
    let run = run_case("histogram");
    run.assert_success();
    assert_eq!(
        run.line("histogram2"),
        "histogram2 ok cluster=2 bins=256 total=50000 differ=0 rc=0 sync=0",
        "{run}"
    );
    assert_eq!(
        run.line("histogram4"),
        "histogram4 ok cluster=4 bins=1024 total=50000 differ=0 rc=0 sync=0",
        "{run}"
    );
}

#[test]
fn cluster_dims_of_the_kernel_through_triple_chevrons() {
    let run = run_case("dims");
    run.assert_success();
    assert_eq!(run.line("dims ok"), "dims ok differ=0 rc=0 sync=0", "{run}");
    // cudaErrorInvalidClusterSize.
    assert_eq!(run.line("dims odd"), "dims odd grid rc=912", "{run}");
}

#[test]
fn cluster_shapes_the_device_refuses() {
    let run = run_case("limits");
    run.assert_success();
    assert_eq!(run.line("limits odd"), "limits odd grid rc=912", "{run}");
    assert_eq!(run.line("limits 16"), "limits 16 blocks rc=912", "{run}");
    assert_eq!(
        run.line("limits non-portable"),
        "limits non-portable set=0 rc=0 sync=0",
        "{run}"
    );
}

//! Thread-block clusters on the mock device's kernel executor (issue 47):
//! `tests/cuda/mock_clusters.cu`, built by NVIDIA's nvcc 13.5 from the wheels (PTX only,
//! `-gencode arch=compute_90,code=compute_90`), linked only to `libstubs_cudart.so`, run under
//! `CUDA_STUBS_MOCK=h100`. Clusters of 2 and 4 blocks (`cudaLaunchKernelExC` with the
//! cluster-dimension attribute) read and add to each other's shared arrays through distributed
//! shared memory; the Programming Guide's DSMEM histogram; a `__cluster_dims__` kernel through
//! `<<<>>>`; the launches refused (912 for a grid the clusters do not divide, or 16 blocks
//! without the non-portable attribute); the driver's `cuLaunchKernelEx` with
//! `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION` on the program's PTX as a module. Each case's line is the program's own check against
//! values computed on the host; tests/gpu/clusters.sh runs the same program on a board.
//! Cooperative groups' `cluster_group` is used when CCCL's headers are found
//! (`CUDA_STUBS_NVRTC_INCLUDE`, as for `stub-ptx/tests/ptx/nvrtc.py`), else the intrinsics it
//! wraps.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use stubs_tests::{Outcome, Scenario, build_stubs, cuda_layout, temp_dir};

/// The program and its PTX (for the driver's module load), once per process.
fn built() -> &'static (PathBuf, PathBuf) {
    static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
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
        let exe =
            stubs_tests::nvcc_with_stub(&dir, "mock_clusters", "cuda/mock_clusters.cu", &args);
        let nvcc = cuda_layout(13)
            .nvcc
            .expect("layout.json of CUDA 13 names nvcc");
        let ptx = dir.join("mock_clusters.ptx");
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("cuda/mock_clusters.cu");
        let out = Command::new(nvcc)
            .args(&args)
            .args(["-ptx", "-o"])
            .arg(&ptx)
            .arg(source)
            .env("TMPDIR", &dir)
            .output()
            .expect("run nvcc");
        assert!(out.status.success(), "nvcc -ptx: {out:?}");
        // nvcc 13.5 writes PTX ISA 9.5; the H100 profile's 13.0 driver loads up to 9.0, and the
        // kernels use nothing newer.
        let text = std::fs::read_to_string(&ptx).expect("read the PTX");
        assert!(text.contains("\n.version 9.5\n"), "{text}");
        std::fs::write(&ptx, text.replace("\n.version 9.5\n", "\n.version 9.0\n"))
            .expect("write the PTX");
        (exe, ptx)
    })
}

/// Runs one case on the mock H100, with the debug log and nvJitLink 13.5 findable.
fn run_case(case: &str) -> Outcome {
    run_args(&[case])
}

/// [`run_case`] with the case's arguments.
fn run_args(args: &[&str]) -> Outcome {
    let nvjitlink = cuda_layout(13)
        .nvjitlink
        .expect("layout.json of CUDA 13 names nvJitLink (scripts/fetch-cuda.py)");
    Scenario::new(&built().0)
        .args(args)
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

#[test]
fn the_drivers_launch_in_clusters() {
    let ptx = built().1.to_str().expect("a UTF-8 path").to_owned();
    let run = run_args(&["driver", &ptx]);
    run.assert_success();
    assert_eq!(run.line("driver load"), "driver load=0 get=0", "{run}");
    assert_eq!(
        run.line("driver ring4"),
        "driver ring4 ok grid=16 cluster=4 rc=0 sync=0",
        "{run}"
    );
    // CUDA_ERROR_INVALID_CLUSTER_SIZE.
    assert_eq!(run.line("driver odd"), "driver odd grid rc=912", "{run}");
}

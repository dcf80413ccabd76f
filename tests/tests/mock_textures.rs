//! Texture and surface objects on the mock device's kernel executor (issues 47, 48):
//! `tests/cuda/mock_textures.cu`, built by NVIDIA's nvcc 13.5 from the wheels (PTX only, as
//! NVIDIA's samples are built for the mock) and linked only to `libstubs_cudart.so`, run under
//! `CUDA_STUBS_MOCK=h200`. Each case checks its fetches on the host against the CUDA C++
//! Programming Guide's "Texture Fetching" formulas and prints `<case> ok`: nearest filtering
//! with unnormalized coordinates and clamping; linear filtering with normalized coordinates and
//! wrapping, its weights in 9-bit fixed point (8 fraction bits); a `uchar4` array read as
//! normalized floats; a surface read, written (byte-addressed x) and read back by copy and by a
//! texture over the same array, a zero-mode read outside answering 0. The same program on a
//! board: tests/gpu/mock_textures.sh.

use std::path::PathBuf;
use std::sync::OnceLock;
use stubs_tests::{Outcome, Scenario, build_stubs, cuda_layout, temp_dir};

/// The PTX-only build of the program, once per test process.
fn program() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        build_stubs(&[stubs_tests::MOCK_PACKAGE]);
        let dir = temp_dir("mock-textures");
        stubs_tests::nvcc_with_stub(
            &dir,
            "mock_textures",
            "cuda/mock_textures.cu",
            &["-gencode", "arch=compute_90,code=compute_90"],
        )
    })
}

/// Runs `case` on the mock H200 (nvJitLink 13.5 findable, as the runtime stub needs it for
/// PTX ISA 9.5) and checks its line says `ok` and its kernels ran on the executor.
fn assert_case_ok(case: &str) -> Outcome {
    let nvjitlink = cuda_layout(13)
        .nvjitlink
        .expect("layout.json of CUDA 13 names nvJitLink (scripts/fetch-cuda.py)");
    let run = Scenario::new(program())
        .args([case])
        .env("CUDA_STUBS_MOCK", "h200")
        .env("CUDA_STUBS_MOCK_THREADS", "2")
        .library_path([nvjitlink.parent().expect("nvJitLink's folder")])
        .debug()
        .run();
    run.assert_success();
    let line = run.line(case);
    assert!(line.starts_with(&format!("{case} ok")), "{line}\n{run}");
    assert!(
        run.stderr.contains("its PTX runs on the kernel executor"),
        "no executor launch in the debug log:\n{run}"
    );
    run
}

#[test]
fn nearest_filtering_with_clamped_unnormalized_coordinates() {
    assert_case_ok("nearest");
}

#[test]
fn linear_filtering_with_fixed_point_weights_normalized_and_wrapped() {
    assert_case_ok("linear");
}

#[test]
fn an_8_bit_array_read_as_normalized_floats() {
    assert_case_ok("normalized_uchar");
}

#[test]
fn a_surface_written_and_read_back_by_copy_and_by_texture() {
    let run = assert_case_ok("surface");
    // The values themselves: each element plus 1000, then the zero-mode read plus 7.
    let v = run
        .stdout
        .lines()
        .find(|l| l.starts_with("v "))
        .expect("the values line");
    let want: Vec<String> = (0..15)
        .map(|i| ((i / 5) * 10 + i % 5 + 1000).to_string())
        .chain(["7".to_string()])
        .collect();
    assert_eq!(v, format!("v {}", want.join(" ")), "{run}");
}

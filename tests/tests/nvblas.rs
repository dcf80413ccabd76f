//! nvBLAS through `libstubs_nvblas.so`, on NVIDIA's real libnvblas of CUDA 11.8, 12.9 and 13.5
//! (cuBLAS's wheels: `libnvblas.so.11`, `.12`, `.13`, each beside the libcublas it needs) and on
//! none.
//!
//! Without a GPU nvBLAS passes every call to the CPU BLAS its configuration names
//! (`NVBLAS_CONFIG_FILE`: `NVBLAS_CPU_BLAS_LIB`), here `tests/mocks/cpu_blas.c`, which writes
//! each call it gets to stderr. `tests/c/nvblas_host.c` is compiled against each major's real
//! `nvblas.h` twice: linked only to the stubs, and linked normally to that major's libnvblas.
//! Both builds must print the same results, computed by the CPU BLAS behind the real library
//! (the stub build's on 13.5: NVIDIA's 11.8 and 12.9 fail under `dlopen`, see the first test).
//! A routine the stub cannot call has no result to carry an error: the process stops
//! (`SIGABRT`) with one line on stderr saying which routine and why, whether no library was
//! found, the copy found is of another release than the process's, or it lacks the cuBLAS it
//! needs.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stub_model::libraries::NVBLAS;
use stubs_tests::two_builds::{TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, compile_c, cuda_layout, link_file, temp_dir};

const MAJORS: [u32; 3] = [11, 12, 13];
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &NVBLAS,
    source: "c/nvblas_host.c",
    also_stubs: &["cudart"],
    nv_target_shim: false,
};

/// The results `nvblas_host.c`'s calls must print (its matrices, worked by hand).
const RESULTS: [&str; 5] = [
    "dgemm_ 23 34 31 46",
    "dgemm 24 35 32 47",
    "dsyrk_ 10 14 20",
    "sgemm_ 4 6 8 10",
    "zgemm_ -1 0",
];

/// An nvBLAS configuration naming the test's CPU BLAS, with nvBLAS's log in the same folder;
/// made once per test process.
fn config() -> &'static Path {
    static CONFIG: OnceLock<PathBuf> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let cpu = compile_c(
            "libcpu_blas.so",
            &[Path::new("mocks/cpu_blas.c")],
            &["-shared".as_ref(), "-fPIC".as_ref()],
        );
        let dir = temp_dir("nvblas-config");
        let file = dir.join("nvblas.conf");
        std::fs::write(
            &file,
            format!(
                "NVBLAS_LOGFILE {}\nNVBLAS_CPU_BLAS_LIB {}\n",
                dir.join("nvblas.log").display(),
                cpu.display()
            ),
        )
        .expect("write nvblas.conf");
        file
    })
}

/// The stub build of `header`'s header, with `args`, the runtime of the given major and the
/// nvBLAS file given as the overrides, under the test's configuration.
fn run_stub(header: u32, cudart: Option<u32>, nvblas: Option<&Path>, args: &[&str]) -> Outcome {
    let mut s = Scenario::new(PROGRAM.stub_program(header))
        .args(args)
        .debug()
        .env("NVBLAS_CONFIG_FILE", config());
    if let Some(m) = cudart {
        s = s
            .env("CUDA_STUBS_CUDART_PATH", cuda_layout(m).cudart)
            .env("STUBS_TESTS_RUNTIME_FIRST", "1");
    }
    if let Some(file) = nvblas {
        s = s.env("CUDA_STUBS_NVBLAS_PATH", file);
    }
    s.run()
}

/// Asserts the process stopped with `SIGABRT` after its first output line, with the stub's
/// line for `dgemm_` (the first routine called) on stderr containing `reason`.
fn assert_refused(run: &Outcome, reason: &str) {
    assert_eq!(run.status.signal(), Some(libc::SIGABRT), "{run}");
    assert_eq!(
        run.stdout.trim(),
        "start",
        "nothing after the refused call: {run}"
    );
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("cuda-stubs: nvblas: dgemm_ cannot be called: "))
        .unwrap_or_else(|| panic!("no refusal line: {run}"));
    assert!(line.contains(reason), "{line}\n{run}");
    assert!(!run.stderr.contains("cpu_blas:"), "no routine ran: {run}");
}

/// On every major the normal build prints the results the CPU BLAS behind the real nvBLAS
/// computed, each call having reached it, and the stub binds that major's library with its
/// soname's major as version. The stub build's routines run on 13.5 only: NVIDIA's 11.8 and
/// 12.9 nvBLAS fail when loaded by `dlopen` on a machine without a GPU, as every stub loads
/// its library (a plain `dlopen` and `dgemm_`, no stub: 12.9 crashes in the call, inside
/// `cublasXtDeviceSelect`, 11.8 now and then frees twice in its destructor at exit), while
/// linked at start-up both run.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in MAJORS {
        let normal = Scenario::new(PROGRAM.normal_program(major))
            .linked_normally()
            .library_path([PROGRAM.real_dir(major)])
            .env("NVBLAS_CONFIG_FILE", config())
            .run();
        normal.assert_success();
        for result in RESULTS {
            normal.assert_line(result);
        }
        assert!(
            normal.stderr.contains("cpu_blas: dgemm_ NN 2 2 2"),
            "{normal}"
        );

        let real = PROGRAM.real(major);
        let status = run_stub(major, Some(major), Some(&real), &["status"]);
        status
            .assert_success()
            .assert_bound("nvblas", &real, 1000 * major as i32, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={} found_by={OVERRIDE}",
                1000 * major
            ));
        if major != 13 {
            continue;
        }
        let stub = run_stub(major, Some(major), Some(&real), &[]);
        stub.assert_success();
        assert_eq!(
            api_lines(&stub, "dgemm")
                .into_iter()
                .chain(api_lines(&stub, "dsyrk_"))
                .chain(api_lines(&stub, "sgemm_"))
                .chain(api_lines(&stub, "zgemm_"))
                .collect::<Vec<_>>(),
            RESULTS,
            "{stub}"
        );
        for call in [
            "dgemm_ NN 2 2 2",
            "dsyrk_ UN 2 2",
            "sgemm_ NN 2 2 2",
            "zgemm_ NN 1 1 1",
        ] {
            assert!(
                stub.stderr.contains(&format!("cpu_blas: {call}")),
                "{call}: {stub}"
            );
        }
    }
}

/// With no nvBLAS anywhere, the first routine called stops the process with the search's
/// summary, instead of returning with its matrix unwritten.
#[test]
fn without_a_library_the_first_routine_stops_the_process() {
    let run = run_stub(13, None, None, &[]);
    assert_refused(
        &run,
        "libnvblas not found (searched libnvblas.so.13, libnvblas.so.12, libnvblas.so.11",
    );
}

/// 13.5's `libnvblas.so.13` beside a runtime stub bound to 12.9 is refused by its soname,
/// before `dlopen`: the routine stops the process naming the rule.
#[test]
fn a_13_nvblas_beside_a_12_runtime_is_refused() {
    let run = run_stub(13, Some(12), Some(&PROGRAM.real(13)), &[]);
    assert_refused(
        &run,
        "CUDA 13 (needs libcublas.so.13), but the process has CUDA 12 (libcudart.so.12): one CUDA \
         release per process",
    );
}

/// An nvBLAS copied without the cuBLAS it needs: `dlopen` fails, and the line names the
/// missing `libcublas.so.13`.
#[test]
fn an_nvblas_without_its_cublas_is_refused_naming_it() {
    let dir = temp_dir("nvblas-alone");
    let alone = dir.join("libnvblas.so.13");
    link_file(&PROGRAM.real(13), &alone);
    let run = run_stub(13, Some(13), Some(&alone), &[]);
    assert_refused(&run, "libcublas.so.13");
}

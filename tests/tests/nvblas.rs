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
//! A routine the stub cannot forward has no result to carry an error: it goes to the next
//! definition of its name in the process (the CPU BLAS linked after the stub), or, with none,
//! is not made, counted and logged, and its output matrix filled with NaN — whether no library
//! was found, the copy found is of another release than the process's, or it lacks the cuBLAS
//! it needs. Never an abort.

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

/// The NaN lines of `nvblas_host.c`'s calls not made (every bit set: printf's `-nan`).
const NOT_MADE: [&str; 5] = [
    "dgemm_ -nan -nan -nan -nan",
    "dgemm -nan -nan -nan -nan",
    // ?syrk fills its n × n output whole.
    "dsyrk_ -nan -nan -nan",
    "sgemm_ -nan -nan -nan -nan",
    "zgemm_ -nan -nan",
];

/// Asserts the process ran to its end with every routine not made: its output NaN, each call
/// counted in the status's `missing` (the program's five), the debug log naming `dgemm_`'s
/// reason (containing `reason`) and that no other definition was found; no CPU BLAS ran.
fn assert_not_made(run: &Outcome, reason: &str) {
    run.assert_success();
    for line in NOT_MADE {
        run.assert_line(line);
    }
    run.assert_line("status missing=5");
    assert!(
        run.stdout.contains(reason) || run.stderr.contains(reason),
        "{run}"
    );
    assert!(
        run.stderr
            .contains("dgemm_: no other definition in the process"),
        "{run}"
    );
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
        assert!(
            normal.stderr.contains("cpu_blas: dgemm_ NN 2 2 2"),
            "{normal}"
        );
        // NVIDIA's nvBLAS frees twice in its destructor at exit now and then (11.8 on x86-64,
        // seen under qemu-user on aarch64 too): glibc aborts the process after every routine
        // ran, its buffered output lost. That run says nothing of the stub: no lines to compare.
        if normal.status.signal() == Some(libc::SIGABRT) && normal.stderr.contains("double free") {
            eprintln!("nvBLAS {major}: NVIDIA's library freed twice at exit; lines not compared");
        } else {
            normal.assert_success();
            for result in RESULTS {
                normal.assert_line(result);
            }
        }

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

/// With no nvBLAS anywhere and no other BLAS in the process, each routine is not made: its
/// matrix NaN, counted, logged with the search's summary; the program runs to its end.
#[test]
fn without_a_library_routines_are_not_made_and_say_so() {
    let run = run_stub(13, None, None, &[]);
    assert_not_made(
        &run,
        "libnvblas not found (searched libnvblas.so.13, libnvblas.so.12, libnvblas.so.11",
    );
}

/// With no nvBLAS but a CPU BLAS after the stub in the process (`LD_PRELOAD` puts the stub
/// first and the test's CPU BLAS next, as `-lstubs_nvblas -lcpublas` would), every routine the
/// CPU BLAS defines goes to it and computes the right results, as nvBLAS hands the CPU BLAS what
/// it does not offload; the plain `dgemm`, which the test's CPU BLAS lacks (it has Fortran's
/// names only), is not made: NaN, counted. The debug log says where each went.
#[test]
fn without_a_library_routines_go_to_the_next_blas() {
    let stub = stubs_tests::stubs_dir().join(NVBLAS.stub_file());
    let cpu_blas = compile_c(
        "libcpu_blas.so",
        &[Path::new("mocks/cpu_blas.c")],
        &["-shared".as_ref(), "-fPIC".as_ref()],
    );
    let run = Scenario::new(PROGRAM.stub_program(13))
        .debug()
        .env(
            "LD_PRELOAD",
            format!("{} {}", stub.display(), cpu_blas.display()),
        )
        .run();
    run.assert_success();
    for result in RESULTS.iter().filter(|r| !r.starts_with("dgemm ")) {
        run.assert_line(result);
    }
    run.assert_line("dgemm -nan -nan -nan -nan");
    run.assert_line("status missing=1");
    assert!(run.stderr.contains("cpu_blas: dgemm_ NN 2 2 2"), "{run}");
    assert!(
        run.stderr
            .contains("dgemm: no other definition in the process"),
        "{run}"
    );
    assert!(
        run.stderr.contains("dgemm_: next definition in ") && run.stderr.contains(", called"),
        "{run}"
    );
}

/// 13.5's `libnvblas.so.13` beside a runtime stub bound to 12.9 is refused by its soname,
/// before `dlopen`: its routines are not made, and the debug log names the rule.
#[test]
fn a_13_nvblas_beside_a_12_runtime_is_refused() {
    let run = run_stub(13, Some(12), Some(&PROGRAM.real(13)), &[]);
    assert_not_made(
        &run,
        "CUDA 13 (needs libcublas.so.13), but the process has CUDA 12 (libcudart.so.12): one CUDA \
         release per process",
    );
}

/// An nvBLAS copied without the cuBLAS it needs: `dlopen` fails, and the debug log names the
/// missing `libcublas.so.13`.
#[test]
fn an_nvblas_without_its_cublas_is_refused_naming_it() {
    let dir = temp_dir("nvblas-alone");
    let alone = dir.join("libnvblas.so.13");
    link_file(&PROGRAM.real(13), &alone);
    let run = run_stub(13, Some(13), Some(&alone), &[]);
    assert_not_made(&run, "libcublas.so.13");
}

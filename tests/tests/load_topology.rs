//! How a program reaches the stubs must not matter (issue: crash at load time through another
//! shared library). Every stub declares what it uses (`DT_NEEDED libc.so.6`), and the three
//! topologies — executable → stubs, executable → library → stubs, `dlopen` of a library that
//! needs the stubs — each run against NVIDIA's real runtime and NVRTC of 11.8, 12.9 and 13.x
//! (plus the mock driver: CI has no libcuda), plainly, with `LD_BIND_NOW=1`, and linked
//! `-Wl,-z,now`. In the memcheck pass each major runs one of the three bindings (`variants`), a
//! different one per major, so memcheck still sees every topology and every binding.

use stubs_tests::dynamic;
use stubs_tests::topology::{Topology, topology_program};
use stubs_tests::{Scenario, cuda_layout, mock, stub};

/// Every stub needs libc (it calls `memset`, `dlopen`, `getenv` … from it), and libdl and
/// libpthread, where glibc < 2.34 defines the `dlopen` and `pthread_key_create` versions the
/// stubs bind (`glibc_floor.rs`), and nothing else.
#[test]
fn every_stub_declares_libc_as_needed() {
    for lib in ["cudart", "nvrtc", "cuda"] {
        let needed = dynamic::needed(&stub(lib));
        assert_eq!(
            needed,
            ["libc.so.6", "libdl.so.2", "libpthread.so.0"],
            "libstubs_{lib}.so DT_NEEDED entries: {needed:?}"
        );
    }
}

/// One topology against one real major: the program reaches `main`, and the three stubs bind
/// and answer (runtime and NVRTC version of the wheel, the mock driver's 13000).
fn runs(topology: Topology, turn: usize, major: u32) {
    let layout = cuda_layout(major);
    let code = layout.version_code();
    let (maj, min) = (code / 1000, (code % 1000) / 10);
    let mut dirs = layout.lib_dirs();
    dirs.push(mock("mock-driver"));
    let bindings = [(false, false), (false, true), (true, false)];
    for (bind_now_link, bind_now_env) in stubs_tests::variants(&bindings, turn) {
        let program = topology_program(topology, bind_now_link);
        let mut scenario = Scenario::new(&program.exe)
            .args(&program.args)
            .library_path(&dirs);
        if bind_now_env {
            scenario = scenario.env("LD_BIND_NOW", "1");
        }
        let run = scenario.run();
        let what = format!(
            "{topology:?} on {}, -z now {bind_now_link}, LD_BIND_NOW {bind_now_env}",
            layout.version
        );
        assert!(run.status.success(), "{what}: {run}");
        run.assert_line("main reached")
            .assert_line(&format!("nvrtcVersion rc=0 out={maj}.{min}"));
        run.assert_line("cuDriverGetVersion rc=0 out=13000");
        // 11.8's cudaRuntimeGetVersion asks the driver: the real runtime loads the mock
        // libcuda.so.1 from LD_LIBRARY_PATH, which lacks the entry points it wants (36);
        // 12.x and 13.x answer without a driver.
        let rt = run.line("cudaRuntimeGetVersion");
        let expected = if major == 11 {
            "cudaRuntimeGetVersion rc=36 (cudaErrorCallRequiresNewerDriver) out=-1".to_string()
        } else {
            format!("cudaRuntimeGetVersion rc=0 (cudaSuccess) out={code}")
        };
        assert_eq!(rt, expected, "{what}: {run}");
        assert!(run.stderr.is_empty(), "{what}: printed unasked: {run}");
    }
}

#[test]
fn executable_to_stub_on_11_12_13() {
    for (turn, major) in [11, 12, 13].into_iter().enumerate() {
        runs(Topology::Direct, turn, major);
    }
}

#[test]
fn executable_to_library_to_stub_on_11_12_13() {
    for (turn, major) in [11, 12, 13].into_iter().enumerate() {
        runs(Topology::Library, turn, major);
    }
}

#[test]
fn dlopen_of_a_library_that_needs_the_stub_on_11_12_13() {
    for (turn, major) in [11, 12, 13].into_iter().enumerate() {
        runs(Topology::Dlopen, turn, major);
    }
}

//! Graphs, stream capture, 2D/3D and peer copies on the mock device (issue 37):
//! `tests/c/graphs_and_copies.c`, compiled against NVIDIA's 13.5 headers and linked only to the
//! runtime and driver stubs, runs under `CUDA_STUBS_MOCK=h200:2`; its lines must be what the
//! same program printed on a real H200 linked to NVIDIA's libraries (`tests/gpu/graphs.sh`,
//! tests/gpu/RESULTS.md), but for the peer steps, which need two devices and come from the
//! runtime's documentation. Built twice: as is, and with `CUDA_API_PER_THREAD_DEFAULT_STREAM`,
//! whose `_ptsz`/`_ptds` entry points must answer the same.

use std::path::{Path, PathBuf};
use stubs_tests::{Outcome, Scenario, build_stubs, compile_c, cuda_include_args, stubs_dir};

/// What the program printed on the H200 (tests/gpu/RESULTS.md, "Graphs and copies"), line by
/// line but the first (the device count).
const ON_THE_H200: &[&str] = &[
    "cudaMallocPitch rc=0 pitch=512",
    "2D rc=0,0,0,0 same=1 pitch below width rc=12",
    "cuMemcpy2D rc=0 first=9,123 second row=223",
    "cudaMalloc3D rc=0 pitch=512 xsize=64 ysize=4",
    "3D rc=0,0,0 corner=200 after=108 row 2=125",
    "graph rc=0 nodes rc=0,0,0,0 count=4 types=2,5 instantiate rc=0 launches rc=0,0 sync rc=0 \
     counter=2 bytes=1",
    "dependency in another graph rc=1",
    "capture begin rc=0 ops rc=0,0,0 status=1 ran during=0 end rc=0 status after=0 nodes=3 \
     asked=3 last=NULL types=2,1,3 replays counter=3 bytes=1",
    "fork and join begin rc=0 ops rc=0,0,0,0,0,0 forked status=1 end rc=0 nodes=2 joined \
     status after=0",
    "unjoined end rc=904 graph=NULL last=904 forked status after=0",
    "cudaMalloc in a global capture rc=900 status=2 next op rc=901 end rc=901 graph=NULL",
    "cudaMalloc in a relaxed capture rc=0 begin rc=0 end rc=0",
    "sync in capture rc=900 status=2 end rc=901",
    "legacy stream rc=900 twice rc=401 end on another stream rc=401 end on another thread \
     rc=908 end rc=401",
    "driver capture rc=0,0,0,0 instantiate rc=0 launch rc=0 sync rc=0 counter=1 bytes=1",
    "last error=1",
];

/// The peer steps on two devices that reach each other (`cudaDeviceCanAccessPeer`,
/// `cudaDeviceEnablePeerAccess`, `cudaDeviceDisablePeerAccess`, `cudaMemcpyPeer` of
/// cuda_runtime_api.h: 704 enabled twice, 705 disabled twice, 101 for the device itself, 1 for
/// memory not of the device named).
const PEER: &str = "peer rc=0 can 0->1=1 0->0=0 enable rc=0,704 disable rc=0,705 self rc=101 \
                    copy rc=0,0 same=1 wrong device rc=1";

fn program(per_thread: bool) -> PathBuf {
    build_stubs(&[stubs_tests::MOCK_PACKAGE]);
    let dir = stubs_dir();
    let mut args = cuda_include_args(13);
    if per_thread {
        args.push("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1".into());
    }
    args.push(format!("-L{}", dir.display()).into());
    for a in ["-lstubs_cudart", "-lstubs_cuda", "-lpthread"] {
        args.push(a.into());
    }
    args.push(format!("-Wl,-rpath,{}", dir.display()).into());
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let name = if per_thread {
        "graphs_and_copies_ptds"
    } else {
        "graphs_and_copies"
    };
    compile_c(name, &[Path::new("c/graphs_and_copies.c")], &refs)
}

fn run(per_thread: bool) -> Outcome {
    let run = Scenario::new(program(per_thread))
        .env("CUDA_STUBS_MOCK", "h200:2")
        .args(["peer"])
        .run();
    run.assert_success();
    run
}

/// `run`'s lines are the board's (`per_thread`: built for the per-thread default stream,
/// whose stream 0 the board captured: `cudaStreamBeginCapture(0, …)` answered 0), then the
/// peer steps'.
fn assert_as_on_the_h200(run: &Outcome, per_thread: bool) {
    let mut expected = vec!["devices rc=0 count=2".to_string()];
    for line in ON_THE_H200 {
        expected.push(if per_thread {
            line.replace("legacy stream rc=900 ", "legacy stream rc=0 ")
        } else {
            line.to_string()
        });
    }
    expected.push(PEER.into());
    let got: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(got, expected, "{run}");
}

/// The mock answers the program as the H200 did: copies, graphs, capture and its rules.
#[test]
fn graphs_and_copies_answer_as_on_the_h200() {
    assert_as_on_the_h200(&run(false), false);
}

/// The same program built for the per-thread default stream: its `_ptsz` and `_ptds` entry
/// points are the mock's own functions, not "not supported".
#[test]
fn per_thread_default_stream_answers_the_same() {
    assert_as_on_the_h200(&run(true), true);
}

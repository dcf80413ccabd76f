//! The mock device (issue 37) answers as a real H200 did: two programs compiled against
//! NVIDIA's 13.5 headers and linked only to the runtime and driver stubs run under
//! `CUDA_STUBS_MOCK`, and their lines must be what the same programs printed on a lent H200
//! linked to NVIDIA's libraries (`tests/gpu/graphs.sh`, tests/gpu/RESULTS.md):
//! `tests/c/graphs_and_copies.c` (graphs, stream capture and its rules, 2D/3D copies; peer
//! steps too, which need two devices and come from the runtime's documentation), built twice
//! (as is, and with `CUDA_API_PER_THREAD_DEFAULT_STREAM`, whose `_ptsz`/`_ptds` entry points
//! must answer the same), `tests/c/device_state.c` (limits, flags, priorities, managed,
//! registered and page-locked memory, stream-ordered allocation, callbacks, capture modes and
//! information, lookups, resets), and `tests/cuda/symbols.cu`, built by NVIDIA's nvcc 13.5
//! (device variables: their sizes, addresses, initial values read off the CUBIN, copies).

use std::path::{Path, PathBuf};
use stubs_tests::{
    Outcome, Scenario, build_stubs, compile_c, cuda_include_args, stubs_dir, temp_dir,
};

/// What `graphs_and_copies.c` printed on the H200 (tests/gpu/RESULTS.md, "Graphs, capture,
/// 2D/3D copies"), line by line but the first (the device count).
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

/// What `device_state.c` printed on the H200 (tests/gpu/RESULTS.md, "Device state"), every line.
const STATE_ON_THE_H200: &[&str] = &[
    "devices rc=0 count=1",
    "limits 0:rc=0,1024 1:rc=0,8650752 2:rc=0,8388608 3:rc=215,0 4:rc=0,2048 5:rc=0,64",
    "set limits rc=0,0 heap=16777216 stack=4000 unknown rc=1 driver heap=16777216",
    "priorities rc=0 range=0,-5 driver=0,-5 create rc=0 priority=-5 flags=1 default stream \
     priority=0 flags=0 device rc=0,0 driver create rc=0 priority=0",
    "device flags rc=0 flags=8 set rc=0 flags=12 bad rc=1",
    "lookups by bus id rc=0 device=0 lower case rc=0,0 absent rc=101 choose rc=0,0 init rc=0",
    "managed rc=0 no flags rc=1 copy rc=0 byte=5 type=3 device=0 same pointers=1 range rc=0 \
     base=1 size=1048576 driver managed=1 type=2",
    "registered rc=0,712 type=1 device pointer rc=0 same=1 flags rc=0,2 unregister rc=0,713 \
     type after=0",
    "host alloc rc=0 flags=3 driver device pointer rc=0 same=1 driver alloc rc=0,0 free \
     rc=0,0 twice rc=1",
    "driver managed rc=0 free rc=0 register rc=0 unregister rc=0,713",
    "stream-ordered rc=0,0,0,0 byte=3 callback rc=0 bad flags rc=1 sync rc=0 called=100 \
     record with flags rc=0 external rc=401",
    "exchange rc=0 old=0 relaxed thread's cudaMalloc rc=0 end rc=0 back=2 bad rc=0",
    "capture info outside rc=0 status=0 inside rc=0 status=1 id set=1 graph same=1 \
     dependencies=1 last node=1 edges=set next id differs=1 driver rc=0 status=0",
    "reset rc=0 old pointer rc=1 last=1 malloc after rc=0 heap=8388608 flags=8 driver reset \
     rc=0 active=0",
    "last error=0",
];

/// What `symbols.cu` printed on the H200 (tests/gpu/RESULTS.md, "Device variables"), every
/// line.
const SYMBOLS_ON_THE_H200: &[&str] = &[
    "devices rc=0 count=1",
    "sizes rc=0,0,0 16,4,24 address rc=0 device memory=1 not a symbol rc=13",
    "initial rc=0,0 counter=7 table=1.5,2.5,3.5",
    "written rc=0,0,0,0,0 sync rc=0 back=0.5,1.5,2.5,3.5 at offset=9,10",
    "through the address rc=0,0 counter=9",
    "refused past the end rc=1 direction rc=21 not a symbol rc=13",
    "last error=0",
];

/// The peer steps on two devices that reach each other (`cudaDeviceCanAccessPeer`,
/// `cudaDeviceEnablePeerAccess`, `cudaDeviceDisablePeerAccess`, `cudaMemcpyPeer` of
/// cuda_runtime_api.h: 704 enabled twice, 705 disabled twice, 101 for the device itself, 1 for
/// memory not of the device named).
const PEER: &str = "peer rc=0 can 0->1=1 0->0=0 enable rc=0,704 disable rc=0,705 self rc=101 \
                    copy rc=0,0 same=1 wrong device rc=1";

/// `source` (in `tests/c`) as `name`, linked to the runtime and driver stubs; `defines`.
fn program(name: &str, source: &str, defines: &[&str]) -> PathBuf {
    build_stubs(&[stubs_tests::MOCK_PACKAGE]);
    let dir = stubs_dir();
    let mut args = cuda_include_args(13);
    for d in defines {
        args.push(format!("-D{d}").into());
    }
    args.push(format!("-L{}", dir.display()).into());
    for a in ["-lstubs_cudart", "-lstubs_cuda", "-lpthread"] {
        args.push(a.into());
    }
    args.push(format!("-Wl,-rpath,{}", dir.display()).into());
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    compile_c(name, &[&Path::new("c").join(source)], &refs)
}

/// `graphs_and_copies.c` on two mock H200s, with the peer steps.
fn run(per_thread: bool) -> Outcome {
    let exe = if per_thread {
        program(
            "graphs_and_copies_ptds",
            "graphs_and_copies.c",
            &["CUDA_API_PER_THREAD_DEFAULT_STREAM=1"],
        )
    } else {
        program("graphs_and_copies", "graphs_and_copies.c", &[])
    };
    let run = Scenario::new(exe)
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

/// The device's state beyond memory and streams answers as on the H200.
#[test]
fn device_state_answers_as_on_the_h200() {
    let exe = program("device_state", "device_state.c", &[]);
    let run = Scenario::new(exe).env("CUDA_STUBS_MOCK", "h200").run();
    run.assert_success();
    let got: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(got, STATE_ON_THE_H200, "{run}");
}

/// Device variables of an nvcc-built program answer as on the H200: registered by nvcc's code,
/// their initial values read off the fat binary's CUBIN for the device.
#[test]
fn device_variables_answer_as_on_the_h200() {
    build_stubs(&[stubs_tests::MOCK_PACKAGE]);
    // sm_90 code, the profile's device.
    let dir = temp_dir("mock-symbols");
    let exe = stubs_tests::nvcc_with_stub(&dir, "symbols", "cuda/symbols.cu", &["-arch=sm_90"]);
    let run = Scenario::new(&exe).env("CUDA_STUBS_MOCK", "h200").run();
    run.assert_success();
    let got: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(got, SYMBOLS_ON_THE_H200, "{run}");
}

//! The runtime and driver calls NVIDIA's cuda-samples make that the mock once answered "not
//! supported" (issue 48 item 5), on the mock device: `tests/c/samples_api.c`, linked to the
//! runtime and driver stubs, run under `CUDA_STUBS_MOCK=h200`. The profiler's start and stop,
//! stream attributes set and read back (the access policy window's fields, the priority the
//! stream was made with), managed memory prefetched to the device and the host, the default
//! memory pool (one handle in both APIs, its attributes, the bytes `cudaMallocAsync` draws
//! from it and their high watermark), memcpy nodes of 3D parameters whose graph carries the
//! bytes there and back, graph memory attributes, `cudaMallocAsync` / `cudaFreeAsync` in a
//! capture as memory nodes around copies that run, managed memory attached to a stream and two
//! devices' peer attributes. `tests/gpu/samples_api.sh` runs the same
//! program on a board, linked to NVIDIA's libraries, and compares its lines with the mock's.

use stubs_tests::{Scenario, build_stubs, stubs_dir};

/// The program, linked to the runtime and driver stubs (RPATH to their folder).
fn program() -> std::path::PathBuf {
    build_stubs(&[stubs_tests::MOCK_PACKAGE]);
    let dir = stubs_dir();
    let mut args = stubs_tests::cuda_include_args(13);
    args.push(format!("-L{}", dir.display()).into());
    args.push("-lstubs_cudart".into());
    args.push("-lstubs_cuda".into());
    args.push(format!("-Wl,-rpath,{}", dir.display()).into());
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    stubs_tests::compile_c(
        "samples_api",
        &[std::path::Path::new("c/samples_api.c")],
        &refs,
    )
}

/// Every step's line, as the mock answers it.
#[test]
fn the_samples_calls_answer_on_the_mock() {
    let exe = program();
    let run = Scenario::new(&exe).env("CUDA_STUBS_MOCK", "h200").run();
    run.assert_success().assert_lines(&[
        "init rc=0,0",
        // No profiler attached: success, as on a board.
        "profiler rc=0,0 driver rc=0,0",
        "window default rc=0,0 bytes=0 ratio=0.00",
        // cudaAccessPropertyPersisting (2), …Streaming (1), the pointer given back.
        "window set rc=0,0 same=1 bytes=65536 ratio=0.60 hit=2 miss=1",
        // A hit ratio above 1: cudaErrorInvalidValue.
        "window ratio 1.5 rc=1",
        // The priority the stream was made with.
        "priority rc=0 value=-1",
        // cudaSyncPolicyYield (3), read back through the driver.
        "sync policy rc=0 driver get rc=0 value=3",
        "destroy rc=0",
        "prefetch managed rc=0,0 device=0 host=0 sync=0",
        // cudaErrorInvalidDevice.
        "prefetch bad device rc=101",
        "driver prefetch managed rc=0",
        // One pool: the default is the current, the driver's the runtime's.
        "pool rc=0,0,0 same=1,1",
        "pool of device 99 rc=101",
        // Reuse on by default; the location's type and id, attributes newer than CUDA 13.0, are
        // cudaErrorInvalidValue from the profile's 13.0 driver, as from the H100's 580.159.04.
        "pool attributes rc=0,0,1,1 threshold=0 reuse=1 type=-1 id=-1",
        "threshold set rc=0 driver get rc=0 max=1",
        // 3 MiB drawn, given back; the high watermark stays.
        "used rc=0,0 during=3145728 after=0 high=3145728",
        // A reset takes only 0; the current bytes are read-only.
        "high reset rc=0 high=0 set 7 rc=1 set current rc=1",
        "trim rc=0",
        // cudaGraphNodeTypeMemcpy (1); the parameters given back; cudaMemcpyDeviceToHost (2).
        "memcpy nodes rc=0,0 type=1 get rc=0 same=1,1 kind=2",
        "memcpy graph rc=0,0,0 back[255]=255",
        // The node's copy set to the first half.
        "memcpy set params rc=0 back[127]=127 back[128]=0",
        // The clone: the same nodes, the set copy.
        "clone rc=0,0,0 nodes=2 back[127]=127 back[128]=0",
        "driver memcpy node rc=0,0,0,0,0 same=1 back[255]=255",
        "memcpy node past the end rc=1",
        "graph memory rc=0,0 used=0 reserved=0 reset rc=0 set 7 rc=1 set current rc=1 trim rc=0",
        // Memory nodes: cudaGraphNodeTypeMemAlloc (10) first, …MemFree (11) last, two copies
        // between; the graph's copies carry the bytes through the node's memory.
        "capture malloc rc=0,0,0,0,0,0 nodes=4 first=10 last=11",
        "captured graph rc=0,0,0 back[63]=189",
        // The launched graph's memory node counts as graph memory until it is destroyed.
        "graph memory after launch used>=256: 1",
        "graph memory after destroy and trim used=0 reserved=0 high>=256: 1",
        // cudaMemAttachSingle, …Host and …Global of a whole managed allocation (length 0 or its
        // size); part of it, or flags 3, cudaErrorInvalidValue.
        "attach managed rc=0,0 single=0 host=0 global=0 sync=0",
        "attach part rc=1 flags 3 rc=1",
        "driver attach rc=0",
        // A device is no peer of itself: cudaErrorInvalidDevice (101), as for no such device.
        "p2p same device rc=101 device 99 rc=101 driver rc=101",
        // The pool's own device: read-write (cudaMemAccessFlagsProtReadWrite, 3), set again.
        "pool access rc=0,0,0 own=3 driver rc=0 own=3",
        "p2p pair none",
    ]);
}

/// Two devices (`h200:2`) are peers (`cudaDeviceCanAccessPeer` answers 1): performance rank 0,
/// access, native atomics and CUDA array access 1; an attribute no enumerator names
/// `cudaErrorInvalidValue`; the driver's `cuDeviceGetP2PAttribute` the same. Access to a pool
/// given to the other device and taken back (`cudaMemPoolSetAccess`, `cudaMemPoolGetAccess`).
#[test]
fn two_devices_are_peers() {
    let exe = program();
    let run = Scenario::new(&exe).env("CUDA_STUBS_MOCK", "h200:2").run();
    run.assert_success();
    assert_eq!(
        run.line("p2p pair"),
        "p2p pair rc=0,0,0,0 rank=0 access=1 atomics=1 arrays=1 attr 99 rc=1 driver rc=0 access=1",
        "{run}"
    );
    // Device 1's access to device 0's pool: none (0), read-write once given (3), none again;
    // the pool's own device given none and a location that is no device invalid value (1),
    // read-only access not modelled (801, a debug line).
    assert_eq!(
        run.line("pool peer"),
        "pool peer rc=0,0,0,0,0,0 before=0 given=3 driver=3 after=0 own none rc=1 \
         device 99 rc=1 read rc=801",
        "{run}"
    );
}

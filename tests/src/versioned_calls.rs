//! What `tests/c/abi_versions_calls.c` prints, compiled against the 12.9 and the 13.5 headers,
//! when its calls reach the mock runtime of each major (`tests/mocks/cudart_abi.c`): shared by
//! `tests/tests/abi_versions.rs` (the libraries linked against the stubs) and
//! `tests/tests/compat.rs` (the same libraries linked against NVIDIA's runtimes, run through the
//! compatibility libraries), whose calls must land the same.

use crate::Outcome;
use crate::mock_values::{attr, mock_int};

/// The `12.` and `13.` lines of a run, checked against `expected` (one `key=value` per line);
/// every mismatch reported at once.
pub fn assert_calls(run: &Outcome, expected: &str) {
    let mut wrong = Vec::new();
    for line in expected.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let key = line.split_once('=').map_or(line, |(k, _)| k);
        let got: Vec<&str> = run
            .stdout
            .lines()
            .filter(|l| l.split_once('=').is_some_and(|(k, _)| k == key))
            .collect();
        if got != [line] {
            wrong.push(format!("expected `{line}`, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}\n{run}", wrong.join("\n"));
}

/// What each library's calls hand the mock runtime of `major`, and what they get back.
pub fn expected_on_mock(major: u32) -> String {
    let m = format!("{major:x}");
    let id = 7000 + major;
    let sms = mock_int("multiProcessorCount", major);
    // cudaMemAdvise: 12.x's int device / 13.x's location, whichever the runtime has (12.2+
    // also has the location form as cudaMemAdvise_v2).
    let (advise12, advise13) = match major {
        13 => (
            "location=1:3",
            "cudaMemAdvise ptr=0x5000 count=64 advice=3 location=1:3",
        ),
        12 => (
            "device=3",
            "cudaMemAdvise_v2 ptr=0x5000 count=64 advice=3 location=1:3",
        ),
        _ => (
            "device=3",
            "cudaMemAdvise ptr=0x5000 count=64 advice=3 device=3",
        ),
    };
    let edges = if major >= 13 { "null" } else { "-" };
    // cudaStreamGetCaptureInfo: 12.x headers call `_v2` (6 arguments); 13.x's plain name takes
    // 7 (edge data), which 12.3+ has as `_v3` and 11.x lacks (default edges returned).
    let (capture12, capture13, edge13) = match major {
        13 => (
            "cudaStreamGetCaptureInfo stream=0x55 status=1 id=1 graph=1 deps=1 edges=0 num=1",
            "cudaStreamGetCaptureInfo stream=0x55 status=1 id=1 graph=1 deps=1 edges=1 num=1",
            "nondefault",
        ),
        12 => (
            "cudaStreamGetCaptureInfo_v2 stream=0x55 status=1 id=1 graph=1 deps=1 edges=- num=1",
            "cudaStreamGetCaptureInfo_v3 stream=0x55 status=1 id=1 graph=1 deps=1 edges=1 num=1",
            "nondefault",
        ),
        _ => (
            "cudaStreamGetCaptureInfo_v2 stream=0x55 status=1 id=1 graph=1 deps=1 edges=- num=1",
            "cudaStreamGetCaptureInfo_v2 stream=0x55 status=1 id=1 graph=1 deps=1 edges=- num=1",
            "default",
        ),
    };
    // cudaGetDeviceProperties: 12.x headers call `_v2` (1032 bytes), 13.x the plain name (1008);
    // a field the runtime's layout lacks comes from cudaDeviceGetAttribute.
    let clock = if major >= 13 {
        attr(13, major)
    } else {
        mock_int("clockRate", major)
    };
    let numa = if major >= 13 {
        mock_int("deviceNumaId", major)
    } else {
        attr(131, major)
    };
    // cudaSignalExternalSemaphoresAsync: 12.x headers call `_v2`, the 13.x headers the plain
    // name with the same prototype (13.0 renamed `_v2`): the runtime's own spelling of it.
    let signal = if major >= 13 {
        "cudaSignalExternalSemaphoresAsync"
    } else {
        "cudaSignalExternalSemaphoresAsync_v2"
    };
    format!(
        "12.advise=0
         12.advise.got=cudaMemAdvise ptr=0x5000 count=64 advice=3 {advise12}
         13.advise=0
         13.advise.got={advise13}
         12.deps=0
         12.deps.got=cudaGraphAddDependencies graph=0x77 from=0x101,0x102 to=0x201,0x202 edges={edges} n=2
         13.deps=0
         13.deps.got=cudaGraphAddDependencies graph=0x77 from=0x101,0x102 to=0x201,0x202 edges={edges} n=2
         12.capture=0 status=1 id={id} graph=0x610{m} n=3 dep0=0x110{m}
         12.capture.got={capture12}
         13.capture=0 status=1 id={id} graph=0x610{m} n=3 dep0=0x110{m} edge0={edge13}
         13.capture.got={capture13}
         12.props=0 size=1032 name=mock-{major} sms={sms} clock={clock}
         12.props.got=
         13.props=0 size=1008 name=mock-{major} sms={sms} numa={numa}
         13.props.got=
         12.signal=0
         12.signal.got={signal} sem=0x4001 fence=42 key=9 flags=1 n=1 stream=0x5000
         13.signal=0
         13.signal.got={signal} sem=0x4001 fence=42 key=9 flags=1 n=1 stream=0x5000"
    )
}

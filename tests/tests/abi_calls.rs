//! Cross-major ABI adapters whose prototype changed, proven on CPU: `tests/c/abi_calls.c` is
//! compiled against the REAL CUDA 13.x headers (plain, and with
//! `CUDA_API_PER_THREAD_DEFAULT_STREAM` for the `_ptsz` twins), linked only against the stubs,
//! and run against the mock runtimes of 11.x, 12.x and 13.x (`tests/mocks/cudart_abi.c`: each
//! major's own prototypes, logging every call with its arguments). For every call the test
//! checks the status, every output (sentinels where it must stay untouched) and exactly which
//! entry point of the runtime received which arguments (nothing, where the stub must refuse).
//!
//! Families: `cudaStreamGetCaptureInfo`, `cudaMemAdvise` / `cudaMemPrefetchAsync`, the graph-edge
//! family (`cudaGraphAddDependencies`, `cudaGraphRemoveDependencies`, `cudaGraphGetEdges`,
//! `cudaGraphNodeGetDependencies`, `cudaGraphNodeGetDependentNodes`, `cudaGraphAddNode`),
//! `cudaGraphExecUpdate`, `cudaGetDriverEntryPoint`, `cudaChooseDevice`,
//! `cudaStreamUpdateCaptureDependencies`, external memory / semaphores (descriptors, signal,
//! wait), texture and surface objects (create and every descriptor query),
//! `cudaMemcpyBatchAsync` / `cudaMemcpy3DBatchAsync`, `cudaGraphNodeSetParams` /
//! `cudaGraphExecNodeSetParams` (and `cudaGraphAddNode`'s node parameters); and, forwarded
//! unchanged because their structs keep the ABI, the memory-pool calls (`cudaMemPoolCreate`,
//! `cudaMemPoolSetAccess`, `cudaMemPoolGetAccess`).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use stubs_tests::{Scenario, compile_c, cuda_include_args, mock, stubs_dir};

/// `cudaErrorNotSupported`: what the stub returns for a call the loaded major cannot express.
const REFUSED: &str = "801";
/// What the mock returns for handle 0xBAD (`cudaErrorInvalidResourceHandle`).
const BAD_HANDLE: &str = "400";
/// An untouched `0xAB`-filled handle.
const AB_NODE: &str = "0xabababababababab";
/// An untouched `0xAB`-filled `cudaGraphEdgeData`.
const AB_EDGE: &str = "abababababababab";
/// A default (zeroed) `cudaGraphEdgeData`.
const ZERO_EDGE: &str = "0000000000000000";

/// `abi_calls.c` built against the 13.x headers, plain or per-thread default stream, once per
/// test process.
fn program(ptsz: bool) -> PathBuf {
    static BUILT: OnceLock<Mutex<BTreeMap<bool, PathBuf>>> = OnceLock::new();
    let built = BUILT.get_or_init(|| Mutex::new(BTreeMap::new()));
    let mut built = built.lock().unwrap_or_else(|e| e.into_inner());
    built
        .entry(ptsz)
        .or_insert_with(|| {
            let dir = stubs_dir();
            let mut rpath = OsString::from("-Wl,-rpath,");
            rpath.push(dir);
            let mut libdir = OsString::from("-L");
            libdir.push(dir);
            let mut args = cuda_include_args(13);
            if ptsz {
                args.push("-DCUDA_API_PER_THREAD_DEFAULT_STREAM".into());
            }
            args.extend([libdir, "-lstubs_cudart".into(), rpath, "-ldl".into()]);
            let refs: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
            let name = if ptsz { "abi_calls_ptsz" } else { "abi_calls" };
            compile_c(name, &[Path::new("c/abi_calls.c")], &refs)
        })
        .clone()
}

/// One run's output, checked case by case; every mismatch is collected, then reported at once.
struct Run {
    major: u32,
    ptsz: bool,
    got: BTreeMap<String, String>,
    wrong: Vec<String>,
    checked: BTreeSet<String>,
}

impl Run {
    fn new(major: u32, ptsz: bool) -> Run {
        let outcome = Scenario::new(program(ptsz))
            .library_path([mock(&format!("mock-{major}"))])
            .run();
        outcome.assert_success();
        let got: BTreeMap<String, String> = outcome
            .stdout
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(got["ptsz"], if ptsz { "1" } else { "0" }, "{outcome}");
        Run {
            major,
            ptsz,
            got,
            wrong: Vec::new(),
            checked: BTreeSet::new(),
        }
    }

    /// `_ptsz` for the per-thread build (for the functions that have such a twin).
    fn sfx(&self) -> &'static str {
        if self.ptsz { "_ptsz" } else { "" }
    }

    /// A mock handle of this major: `base + major`, as `%#llx` prints it.
    fn handle(&self, base: u64) -> String {
        hex(base + u64::from(self.major))
    }

    /// Checks that `case` printed exactly these keys with these values.
    fn case(&mut self, case: &str, expected: &[(&str, String)]) {
        self.checked.insert(case.to_string());
        let prefix = format!("{case}.");
        let printed: BTreeSet<&str> = self
            .got
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .collect();
        let wanted: BTreeSet<&str> = expected.iter().map(|(k, _)| *k).collect();
        if printed != wanted {
            self.wrong.push(format!(
                "{case}: printed keys {printed:?}, the test expects {wanted:?}"
            ));
        }
        for (key, value) in expected {
            let full = format!("{case}.{key}");
            match self.got.get(&full) {
                Some(v) if v == value => {}
                other => self
                    .wrong
                    .push(format!("{full}: expected `{value}`, got {other:?}")),
            }
        }
    }

    /// Panics with every mismatch.
    fn finish(self) -> BTreeSet<String> {
        let what = format!(
            "abi_calls.c ({}) on mock CUDA {}",
            if self.ptsz {
                "per-thread default stream"
            } else {
                "legacy stream"
            },
            self.major
        );
        assert!(
            self.wrong.is_empty(),
            "{what}: {} mismatches:\n{}",
            self.wrong.len(),
            self.wrong.join("\n")
        );
        self.checked
    }
}

/// `%#llx`: `0` for zero, else `0x…` in lower case.
fn hex(v: u64) -> String {
    if v == 0 {
        "0".to_string()
    } else {
        format!("{v:#x}")
    }
}

fn s(v: impl ToString) -> String {
    v.to_string()
}

/// The edge data the mock's 12.3+ forms return for entry `i`: from_port i+1, type 1, reserved[0]
/// the major.
fn mock_edge(i: u32, major: u32) -> String {
    format!("{:02x}0001{:02x}00000000", i + 1, major)
}

fn join(items: impl IntoIterator<Item = String>) -> String {
    items.into_iter().collect::<Vec<_>>().join(",")
}

// ---- cudaStreamGetCaptureInfo -----------------------------------------------------------------

fn capture_info(r: &mut Run) {
    let m = r.major;
    let sfx = r.sfx();
    // 11.x: the 6-argument _v2 (no edge data); 12.x: _v3 (12.3+); 13.x: its own plain name.
    let (entry, has_edge_arg) = match m {
        11 => (format!("cudaStreamGetCaptureInfo_v2{sfx}"), false),
        12 => (format!("cudaStreamGetCaptureInfo_v3{sfx}"), true),
        _ => (format!("cudaStreamGetCaptureInfo{sfx}"), true),
    };
    let call = |stream: &str, id: u8, graph: u8, deps: u8, edges: u8, num: u8| {
        let e = if has_edge_arg {
            s(edges)
        } else {
            "-".to_string()
        };
        format!(
            "{entry} stream={stream} status=1 id={id} graph={graph} deps={deps} edges={e} num={num}"
        )
    };
    let deps = join([0x1100, 0x1200, 0x1300].map(|b| r.handle(b)));
    // Without _v3 every edge is a default edge: the stub returns zeroed edge data.
    let edges = if m == 11 {
        join((0..3).map(|_| ZERO_EDGE.to_string()))
    } else {
        join((0..3).map(|i| mock_edge(i, m)))
    };
    let graph = r.handle(0x6100);
    let active = |num: &str, deps: &str, edges: &str, calls: String| {
        vec![
            ("rc", s(0)),
            ("status", s(1)),
            ("id", s(7000 + m)),
            ("graph", graph.clone()),
            ("num", num.to_string()),
            ("deps", deps.to_string()),
            ("edges", edges.to_string()),
            ("calls", calls),
        ]
    };
    let untouched = |rc: &str, calls: String| {
        vec![
            ("rc", rc.to_string()),
            ("status", s(77)),
            ("id", s(77)),
            ("graph", s("0x77")),
            ("num", s(77)),
            ("deps", s("0x77")),
            ("edges", s("0x77")),
            ("calls", calls),
        ]
    };

    // Everything asked for; on 11.x the stub counts the dependencies itself (num=1 always).
    let full = active("3", &deps, &edges, call("0x5000", 1, 1, 1, 1, 1));
    r.case("cap_full", &full);
    // No edge data asked for: 0x77 stays.
    let no_edges = active("3", &deps, "0x77", call("0x5000", 1, 1, 1, 0, 1));
    r.case("cap_no_edges", &no_edges);
    // Edge data without a count: 11.x cannot size the array, refused untouched.
    if m == 11 {
        let refused = untouched(REFUSED, String::new());
        r.case("cap_no_num", &refused);
    } else {
        let no_num = active("77", &deps, &edges, call("0x5000", 1, 1, 1, 1, 0));
        r.case("cap_no_num", &no_num);
    }
    // The 3-argument usage.
    let status_only = vec![
        ("rc", s(0)),
        ("status", s(1)),
        ("id", s(77)),
        ("graph", s("0x77")),
        ("num", s(77)),
        ("deps", s("0x77")),
        ("edges", s("0x77")),
        ("calls", call("0x5000", 0, 0, 0, 0, 0)),
    ];
    r.case("cap_status_only", &status_only);
    // Errors pass through, outputs untouched.
    let bad = untouched(BAD_HANDLE, call("0xbad", 1, 1, 1, 1, 1));
    r.case("cap_bad", &bad);
}

// ---- cudaMemAdvise / cudaMemPrefetchAsync -----------------------------------------------------

/// (case, count, advice, location type, location id, the `int device` 11.x gets or `None`: 801)
type AdviseCase = (&'static str, u32, i32, i32, i32, Option<i32>);
/// (case, count, location type, location id, flags, the `int device` 11.x gets or `None`: 801)
type PrefetchCase = (&'static str, u32, i32, i32, u32, Option<i32>);

fn mem_advise(r: &mut Run) {
    let m = r.major;
    let cases: [AdviseCase; 7] = [
        ("adv_device", 4096, 3, 1, 3, Some(3)),
        ("adv_host", 4096, 5, 2, 9, Some(-1)),
        ("adv_numa", 4096, 3, 3, 2, None),
        ("adv_numa_current", 4096, 3, 4, 0, None),
        ("adv_invalid", 4096, 3, 0, 3, None),
        // Read-mostly ignores the location: device 0 whatever it is.
        ("adv_read_mostly", 4096, 1, 3, 2, Some(0)),
        ("adv_error", 0, 4, 1, 3, Some(3)),
    ];
    for (case, count, advice, ty, id, device) in cases {
        let ok = if count == 0 { s(1) } else { s(0) };
        let expected = match (m, device) {
            (11, None) => vec![("rc", s(REFUSED)), ("calls", String::new())],
            (11, Some(d)) => vec![
                ("rc", ok),
                (
                    "calls",
                    format!("cudaMemAdvise ptr=0x7000 count={count} advice={advice} device={d}"),
                ),
            ],
            // 12.2+: cudaMemAdvise_v2 takes the location as is.
            (12, _) => vec![
                ("rc", ok),
                (
                    "calls",
                    format!(
                        "cudaMemAdvise_v2 ptr=0x7000 count={count} advice={advice} location={ty}:{id}"
                    ),
                ),
            ],
            _ => vec![
                ("rc", ok),
                (
                    "calls",
                    format!(
                        "cudaMemAdvise ptr=0x7000 count={count} advice={advice} location={ty}:{id}"
                    ),
                ),
            ],
        };
        r.case(case, &expected);
    }

    let sfx = r.sfx();
    let cases: [PrefetchCase; 5] = [
        ("pf_device", 4096, 1, 3, 0, Some(3)),
        ("pf_host", 4096, 2, 0, 0, Some(-1)),
        ("pf_numa", 4096, 3, 1, 0, None),
        // The int form has no flags: non-zero flags are refused.
        ("pf_flags", 4096, 1, 3, 1, None),
        ("pf_error", 0, 1, 3, 0, Some(3)),
    ];
    for (case, count, ty, id, flags, device) in cases {
        let ok = if count == 0 { s(1) } else { s(0) };
        let calls = match (m, device) {
            (11, None) => None,
            (11, Some(d)) => Some(format!(
                "cudaMemPrefetchAsync{sfx} ptr=0x7000 count={count} device={d} stream=0x5000"
            )),
            (12, _) => Some(format!(
                "cudaMemPrefetchAsync_v2{sfx} ptr=0x7000 count={count} location={ty}:{id} flags={flags} stream=0x5000"
            )),
            _ => Some(format!(
                "cudaMemPrefetchAsync{sfx} ptr=0x7000 count={count} location={ty}:{id} flags={flags} stream=0x5000"
            )),
        };
        let expected = match calls {
            None => vec![("rc", s(REFUSED)), ("calls", String::new())],
            Some(c) => vec![("rc", ok), ("calls", c)],
        };
        r.case(case, &expected);
    }
}

// ---- the graph-edge family --------------------------------------------------------------------

/// The edge-data argument as the mock logs it, for the C program's 2-edge arrays.
fn edge_arg(kind: &str) -> String {
    match kind {
        "null" => "null".to_string(),
        "zero" => join([ZERO_EDGE.to_string(), ZERO_EDGE.to_string()]),
        "programmatic" => join([ZERO_EDGE.to_string(), "0000010000000000".to_string()]),
        "reserved" => join([ZERO_EDGE.to_string(), "0000000000000001".to_string()]),
        other => panic!("{other}"),
    }
}

fn graph_edges(r: &mut Run) {
    let m = r.major;

    // Add / Remove: NULL or default edge data → the old form on 11.x (and on 12.x for NULL);
    // 12.x takes edge data through _v2; non-default edge data is refused on 11.x.
    for (prefix, name) in [
        ("add", "cudaGraphAddDependencies"),
        ("remove", "cudaGraphRemoveDependencies"),
    ] {
        let kinds: &[(&str, &str, &str)] = if prefix == "add" {
            &[
                ("add_null", "null", "0x6000"),
                ("add_zero", "zero", "0x6000"),
                ("add_programmatic", "programmatic", "0x6000"),
                ("add_reserved", "reserved", "0x6000"),
                ("add_bad", "null", "0xbad"),
            ]
        } else {
            &[
                ("remove_null", "null", "0x6000"),
                ("remove_zero", "zero", "0x6000"),
                ("remove_programmatic", "programmatic", "0x6000"),
                ("remove_bad", "zero", "0xbad"),
            ]
        };
        for &(case, kind, graph) in kinds {
            let rc = if graph == "0xbad" { BAD_HANDLE } else { "0" };
            let args = "from=0x101,0x102 to=0x201,0x202";
            let calls = match (m, kind) {
                (11, "null" | "zero") | (12, "null") => {
                    Some(format!("{name} graph={graph} {args} edges=- n=2"))
                }
                (11, _) => None,
                (12, _) => Some(format!(
                    "{name}_v2 graph={graph} {args} edges={} n=2",
                    edge_arg(kind)
                )),
                _ => Some(format!(
                    "{name} graph={graph} {args} edges={} n=2",
                    edge_arg(kind)
                )),
            };
            let expected = match calls {
                None => vec![("rc", s(REFUSED)), ("calls", String::new())],
                Some(c) => vec![("rc", s(rc)), ("calls", c)],
            };
            r.case(case, &expected);
        }
    }

    // cudaGraphGetEdges: arrays of 4, the graph has 3 edges. With edge data on 11.x the old form
    // is called and the 3 returned entries are zeroed (the 4th is left alone); 12.x uses _v2.
    let from = join(
        [0x2000, 0x2010, 0x2020]
            .map(|b| r.handle(b))
            .into_iter()
            .chain([s(0)]),
    );
    let to = join(
        [0x3000, 0x3010, 0x3020]
            .map(|b| r.handle(b))
            .into_iter()
            .chain([s(0)]),
    );
    let ab_nodes = join((0..4).map(|_| AB_NODE.to_string()));
    let ab_edges = join((0..4).map(|_| AB_EDGE.to_string()));
    let returned_edges = if m == 11 {
        join(
            (0..3)
                .map(|_| ZERO_EDGE.to_string())
                .chain([AB_EDGE.to_string()]),
        )
    } else {
        join((0..3).map(|i| mock_edge(i, m)).chain([AB_EDGE.to_string()]))
    };
    let get_call = |name: &str, handle: &str, from: u8, with_edges: bool| -> String {
        let (entry, e) = match (m, with_edges) {
            (11, _) | (12, false) => (name.to_string(), "-".to_string()),
            (12, true) => (format!("{name}_v2"), "1".to_string()),
            _ => (name.to_string(), s(u8::from(with_edges))),
        };
        let to = u8::from(handle != "count");
        let handle = if handle == "count" { "0x6000" } else { handle };
        format!("{entry} handle={handle} from={from} to={to} edges={e} num=4")
    };
    let n = "cudaGraphGetEdges";
    let e = vec![
        ("rc", s(0)),
        ("num", s(3)),
        ("from", from.clone()),
        ("to", to.clone()),
        ("edges", returned_edges.clone()),
        ("calls", get_call(n, "0x6000", 1, true)),
    ];
    r.case("edges_full", &e);
    let e = vec![
        ("rc", s(0)),
        ("num", s(3)),
        ("from", from.clone()),
        ("to", to.clone()),
        ("edges", ab_edges.clone()),
        ("calls", get_call(n, "0x6000", 1, false)),
    ];
    r.case("edges_no_data", &e);
    let e = vec![
        ("rc", s(0)),
        ("num", s(3)),
        ("from", ab_nodes.clone()),
        ("to", ab_nodes.clone()),
        ("edges", ab_edges.clone()),
        ("calls", get_call(n, "count", 0, false)),
    ];
    r.case("edges_count", &e);
    let e = vec![
        ("rc", s(BAD_HANDLE)),
        ("num", s(4)),
        ("from", ab_nodes.clone()),
        ("to", ab_nodes.clone()),
        ("edges", ab_edges.clone()),
        ("calls", get_call(n, "0xbad", 1, true)),
    ];
    r.case("edges_bad", &e);

    // cudaGraphNodeGetDependencies / cudaGraphNodeGetDependentNodes: the same, one node list.
    for (prefix, name, base) in [
        ("deps", "cudaGraphNodeGetDependencies", 0x4000u64),
        ("dependents", "cudaGraphNodeGetDependentNodes", 0x5000u64),
    ] {
        let nodes = join(
            [base, base + 0x10, base + 0x20]
                .map(|b| r.handle(b))
                .into_iter()
                .chain([s(0)]),
        );
        let list_call = |handle: &str, with_nodes: bool, with_edges: bool| -> String {
            get_call(name, handle, 0, with_edges)
                .replace(" to=1 ", if with_nodes { " to=1 " } else { " to=0 " })
        };
        let e = vec![
            ("rc", s(0)),
            ("num", s(3)),
            ("nodes", nodes.clone()),
            ("edges", returned_edges.clone()),
            ("calls", list_call("0x300", true, true)),
        ];
        r.case(&format!("{prefix}_full"), &e);
        let e = vec![
            ("rc", s(0)),
            ("num", s(3)),
            ("nodes", nodes.clone()),
            ("edges", ab_edges.clone()),
            ("calls", list_call("0x300", true, false)),
        ];
        r.case(&format!("{prefix}_no_data"), &e);
        let e = vec![
            ("rc", s(0)),
            ("num", s(3)),
            ("nodes", ab_nodes.clone()),
            ("edges", ab_edges.clone()),
            ("calls", list_call("0x300", false, false)),
        ];
        r.case(&format!("{prefix}_count"), &e);
        let e = vec![
            ("rc", s(BAD_HANDLE)),
            ("num", s(4)),
            ("nodes", ab_nodes.clone()),
            ("edges", ab_edges.clone()),
            ("calls", list_call("0xbad", true, true)),
        ];
        r.case(&format!("{prefix}_bad"), &e);
    }

    // cudaGraphAddNode: absent from 11.x (refused by the gate, nothing called); 12.x: the
    // 5-argument form for NULL edge data, _v2 otherwise; 13.x: its own form.
    // The node parameters are a kernel node; node_ctx gives it an execution context, which
    // 12.x cannot express (refused, see node_params below).
    let kernel = kernel_params(m, "0", 0);
    for (case, kind, graph) in [
        ("node_null", "null", "0x6000"),
        ("node_zero", "zero", "0x6000"),
        ("node_programmatic", "programmatic", "0x6000"),
        ("node_bad", "null", "0xbad"),
        ("node_ctx", "null", "0x6000"),
    ] {
        let args = format!("out=1 graph={graph} deps=0x101,0x102");
        let params = if case == "node_ctx" {
            kernel_params(m, "0xc7", 0)
        } else {
            kernel.clone()
        };
        let calls = match (m, kind) {
            (11, _) => None,
            (12, _) if case == "node_ctx" => None,
            (12, "null") => Some(format!(
                "cudaGraphAddNode {args} edges=- n=2 params={{{params}}}"
            )),
            (12, _) => Some(format!(
                "cudaGraphAddNode_v2 {args} edges={} n=2 params={{{params}}}",
                edge_arg(kind)
            )),
            _ => Some(format!(
                "cudaGraphAddNode {args} edges={} n=2 params={{{params}}}",
                edge_arg(kind)
            )),
        };
        let expected = match calls {
            None => vec![
                ("rc", s(REFUSED)),
                ("node", s("0x77")),
                ("calls", String::new()),
            ],
            Some(c) if graph == "0xbad" => {
                vec![("rc", s(BAD_HANDLE)), ("node", s("0x77")), ("calls", c)]
            }
            Some(c) => vec![("rc", s(0)), ("node", r.handle(0x9000)), ("calls", c)],
        };
        r.case(case, &expected);
    }
}

// ---- cudaGraphExecUpdate ----------------------------------------------------------------------

fn exec_update(r: &mut Run) {
    let m = r.major;
    let call = |exec: &str, info: bool| -> String {
        if m == 11 {
            // The 4-argument form: the stub passes its own two out parameters.
            format!("cudaGraphExecUpdate exec={exec} graph=0x6000 errorNode=1 result=1")
        } else {
            format!(
                "cudaGraphExecUpdate exec={exec} graph=0x6000 info={}",
                u8::from(info)
            )
        }
    };
    let ab32 = s(0xabab_abab_u32);
    let untouched = |rc: &str, calls: String| {
        vec![
            ("rc", rc.to_string()),
            ("result", ab32.clone()),
            ("errorNode", s(AB_NODE)),
            ("errorFromNode", s(AB_NODE)),
            ("calls", calls),
        ]
    };
    let e = vec![
        ("rc", s(0)),
        ("result", s(0)),
        ("errorNode", s(0)),
        ("errorFromNode", s(0)),
        ("calls", call("0xe000", true)),
    ];
    r.case("update_ok", &e);
    // cudaErrorGraphExecUpdateFailure: the result and error node of the 4-argument form land in
    // resultInfo; errorFromNode, which 11.x cannot report, is NULL.
    let e = vec![
        ("rc", s(910)),
        ("result", s(2)),
        ("errorNode", r.handle(0x8100)),
        (
            "errorFromNode",
            if m == 11 { s(0) } else { r.handle(0x8200) },
        ),
        ("calls", call("0xe001", true)),
    ];
    r.case("update_refused", &e);
    let e = untouched(BAD_HANDLE, call("0xbad", true));
    r.case("update_bad", &e);
    // NULL resultInfo: 11.x's translation refuses it itself (cudaErrorInvalidValue).
    let calls = if m == 11 {
        String::new()
    } else {
        call("0xe000", false)
    };
    let e = untouched("1", calls);
    r.case("update_no_info", &e);
}

// ---- cudaGetDriverEntryPoint ------------------------------------------------------------------

fn driver_entry_point(r: &mut Run) {
    let m = r.major;
    let sfx = r.sfx();
    let call = |symbol: &str, status: bool| -> String {
        let base = format!("cudaGetDriverEntryPoint{sfx} symbol={symbol} funcPtr=1 flags=2");
        if m == 11 {
            base
        } else {
            format!("{base} driverStatus={}", u8::from(status))
        }
    };
    let found = r.handle(0xF000);
    let cases = [
        // 11.x: 3-argument success → cudaDriverEntryPointSuccess.
        ("ep_found", "cuInit", true, "0", found.clone(), "0"),
        // 11.x: 500 → success, NULL funcPtr, cudaDriverEntryPointSymbolNotFound.
        ("ep_missing", "cuNoSuchFunction", true, "0", s(0), "1"),
        ("ep_found_no_status", "cuInit", false, "0", found, "77"),
        // 12.0+ report a missing symbol as success with NULL funcPtr, driverStatus or not.
        (
            "ep_missing_no_status",
            "cuNoSuchFunction",
            false,
            "0",
            s(0),
            "77",
        ),
        // Other errors pass through, outputs untouched.
        ("ep_null", "null", true, "1", s("0x77"), "77"),
    ];
    for (case, symbol, status, rc, func, driver_status) in cases {
        let e = vec![
            ("rc", s(rc)),
            ("funcPtr", func),
            ("driverStatus", s(driver_status)),
            ("calls", call(symbol, status)),
        ];
        r.case(case, &e);
    }
}

// ---- cudaChooseDevice -------------------------------------------------------------------------

fn choose_device(r: &mut Run) {
    let m = r.major;
    // The mock logs the size of the layout it reads and fields of each kind at its offsets:
    // shared ones arrive unchanged, clockRate (gone in 13.0) as 0 ("no preference"),
    // clusterLaunch (12.x+) and deviceNumaId (13.0) where the layout has them.
    let (size, extra) = match m {
        11 => (728, "clockRate=0"),
        12 => (1032, "clockRate=0 clusterLaunch=1"),
        _ => (1008, "clusterLaunch=1 deviceNumaId=5"),
    };
    let e = vec![
        ("rc", s(0)),
        ("device", s(10 + m)),
        (
            "calls",
            format!(
                "cudaChooseDevice size={size} name=want major=9 minor=1 totalGlobalMem=8589934592 sms=132 {extra}"
            ),
        ),
    ];
    r.case("choose_ok", &e);
    // NULL prop: the runtime's own cudaErrorInvalidValue, device untouched.
    let e = vec![
        ("rc", s(1)),
        ("device", s(77)),
        ("calls", s("cudaChooseDevice prop=null")),
    ];
    r.case("choose_null", &e);
}

// ---- cudaStreamUpdateCaptureDependencies ------------------------------------------------------

fn update_capture_deps(r: &mut Run) {
    let m = r.major;
    let sfx = r.sfx();
    let name = "cudaStreamUpdateCaptureDependencies";
    for (case, kind, stream) in [
        ("upd_null", "null", "0x5000"),
        ("upd_zero", "zero", "0x5000"),
        ("upd_programmatic", "programmatic", "0x5000"),
        ("upd_bad", "null", "0xbad"),
    ] {
        let rc = if stream == "0xbad" { BAD_HANDLE } else { "0" };
        let args = format!("stream={stream} deps=0x101,0x102");
        // flags=1: cudaStreamSetCaptureDependencies.
        let calls = match (m, kind) {
            (11, "null" | "zero") | (12, "null") => {
                Some(format!("{name}{sfx} {args} edges=- n=2 flags=1"))
            }
            // 11.x has only default edges: a programmatic edge cannot be expressed.
            (11, _) => None,
            (12, _) => Some(format!(
                "{name}_v2{sfx} {args} edges={} n=2 flags=1",
                edge_arg(kind)
            )),
            _ => Some(format!(
                "{name}{sfx} {args} edges={} n=2 flags=1",
                edge_arg(kind)
            )),
        };
        let expected = match calls {
            None => vec![("rc", s(REFUSED)), ("calls", String::new())],
            Some(c) => vec![("rc", s(rc)), ("calls", c)],
        };
        r.case(case, &expected);
    }
}

// ---- External memory and semaphores -----------------------------------------------------------

fn external_memory(r: &mut Run) {
    let m = r.major;
    let sfx = r.sfx();
    // 13.x's descriptors end in reserved[16]: the 13.x mock logs how many words are non-zero;
    // the 11.8 / 12.9 layouts end at `flags`, and a set reserved word is refused there.
    let reserved = |n: u32| {
        if m >= 13 {
            format!(" reserved={n}")
        } else {
            String::new()
        }
    };
    let cases: [(&str, &str, &str, String, u32); 8] = [
        (
            "extmem_ok",
            "mem",
            "0xe100",
            "cudaImportExternalMemory type=2 handle=0x1234 name=0x5678 size=1048576 flags=1".into(),
            0,
        ),
        (
            "extmem_reserved",
            "mem",
            "0xe100",
            "cudaImportExternalMemory type=2 handle=0x1234 name=0x5678 size=1048576 flags=1".into(),
            1,
        ),
        (
            "extbuf_ok",
            "ptr",
            "0xe200",
            "cudaExternalMemoryGetMappedBuffer mem=0xc000 offset=4096 size=65536 flags=0".into(),
            0,
        ),
        (
            "extbuf_reserved",
            "ptr",
            "0xe200",
            "cudaExternalMemoryGetMappedBuffer mem=0xc000 offset=4096 size=65536 flags=0".into(),
            1,
        ),
        (
            "extmip_ok",
            "mipmap",
            "0xe300",
            "cudaExternalMemoryGetMappedMipmappedArray mem=0xc000 offset=8 format=8,16,32,0,2 extent=64,32,2 flags=4 numLevels=3".into(),
            0,
        ),
        (
            "extmip_reserved",
            "mipmap",
            "0xe300",
            "cudaExternalMemoryGetMappedMipmappedArray mem=0xc000 offset=8 format=8,16,32,0,2 extent=64,32,2 flags=4 numLevels=3".into(),
            1,
        ),
        (
            "extsem_ok",
            "sem",
            "0xe400",
            "cudaImportExternalSemaphore type=1 fd=7 flags=0".into(),
            0,
        ),
        (
            "extsem_reserved",
            "sem",
            "0xe400",
            "cudaImportExternalSemaphore type=1 fd=7 flags=0".into(),
            1,
        ),
    ];
    for (case, out, base, call, set) in cases {
        let base = u64::from_str_radix(&base[2..], 16).expect("hex");
        let e = if set == 1 && m < 13 {
            vec![
                ("rc", s(REFUSED)),
                (out, s("0x77")),
                ("calls", String::new()),
            ]
        } else {
            vec![
                ("rc", s(0)),
                (out, r.handle(base)),
                ("calls", format!("{call}{}", reserved(set))),
            ]
        };
        r.case(case, &e);
    }
    // Errors pass through, the output untouched.
    let e = vec![
        ("rc", s(BAD_HANDLE)),
        ("ptr", s("0x77")),
        (
            "calls",
            format!(
                "cudaExternalMemoryGetMappedBuffer mem=0xbad offset=4096 size=65536 flags=0{}",
                reserved(0)
            ),
        ),
    ];
    r.case("extbuf_bad", &e);

    // Signal / wait: 11.x and 12.x through _v2 (their plain names take the smaller _v1 structs).
    let v2 = if m < 13 { "_v2" } else { "" };
    for (case, func, sem, fence, key, flags, rc) in [
        ("signal_ok", "Signal", "0xc100", 42, 9, 1, "0"),
        ("signal_bad", "Signal", "0xbad", 42, 9, 1, BAD_HANDLE),
        ("wait_ok", "Wait", "0xc100", 43, 10, 0, "0"),
    ] {
        let e = vec![
            ("rc", s(rc)),
            (
                "calls",
                format!(
                    "cuda{func}ExternalSemaphoresAsync{v2}{sfx} sem={sem} fence={fence} key={key} flags={flags} n=1 stream=0x5000"
                ),
            ),
        ];
        r.case(case, &e);
    }
}

// ---- Texture and surface objects --------------------------------------------------------------

fn textures(r: &mut Run) {
    let m = r.major;
    let new = m >= 13;
    // What the mock logs of each descriptor: 13.x's resource `flags` and view `reserved` only in
    // the 13.x layout.
    let flags = |f: u32| {
        if new {
            format!(" flags={f}")
        } else {
            String::new()
        }
    };
    let view_reserved = |n: u32| {
        if new {
            format!(" reserved={n}")
        } else {
            String::new()
        }
    };
    let pitch = |f: u32| {
        format!(
            "type=3 ptr=0xd100 desc=32,0,0,0,2 w=64 h=32 pitch=256{}",
            flags(f)
        )
    };
    let linear = format!("type=2 ptr=0xd200 desc=8,8,8,8,1 bytes=4096{}", flags(0));
    // 11.x gets the 72-byte descriptor (seamlessCubemap) through cudaCreateTextureObject_v2.
    let create = if m == 11 {
        "cudaCreateTextureObject_v2"
    } else {
        "cudaCreateTextureObject"
    };
    let tex = "addr=1,2,3 filter=1 read=1 srgb=1 border=0.25,0,0,1 norm=1 aniso=8 mipfilter=1 bias=0.5 min=1 max=4 notrilinear=1 seamless=1";
    let view = |n: u32| {
        format!(
            "format=22 w=64 h=32 d=0 mip=0-0 layer=1-2{}",
            view_reserved(n)
        )
    };
    let tex_obj = s(0x7E00 + m);
    let e = vec![
        ("rc", s(0)),
        ("obj", tex_obj.clone()),
        (
            "calls",
            format!(
                "{create} res={{{}}} tex={{{tex}}} view={{{}}}",
                pitch(0),
                view(0)
            ),
        ),
    ];
    r.case("tex_pitch2d", &e);
    let e = vec![
        ("rc", s(0)),
        ("obj", tex_obj.clone()),
        (
            "calls",
            format!("{create} res={{{linear}}} tex={{{tex}}} view={{null}}"),
        ),
    ];
    r.case("tex_linear_no_view", &e);
    // A resource flag or a reserved view word: no 11.8 / 12.9 equivalent, refused untouched.
    let refused = vec![("rc", s(REFUSED)), ("obj", s(77)), ("calls", String::new())];
    let e = if new {
        vec![
            ("rc", s(0)),
            ("obj", tex_obj.clone()),
            (
                "calls",
                format!(
                    "{create} res={{{}}} tex={{{tex}}} view={{{}}}",
                    pitch(1),
                    view(0)
                ),
            ),
        ]
    } else {
        refused.clone()
    };
    r.case("tex_res_flags", &e);
    let e = if new {
        vec![
            ("rc", s(0)),
            ("obj", tex_obj),
            (
                "calls",
                format!(
                    "{create} res={{{}}} tex={{{tex}}} view={{{}}}",
                    pitch(0),
                    view(1)
                ),
            ),
        ]
    } else {
        refused.clone()
    };
    r.case("tex_view_reserved", &e);
    let e = vec![
        ("rc", s(0)),
        ("obj", s(0x5F00 + m)),
        (
            "calls",
            format!(
                "cudaCreateSurfaceObject res={{type=0 array=0xa100{}}}",
                flags(0)
            ),
        ),
    ];
    r.case("surf_array", &e);
    let e = if new {
        vec![
            ("rc", s(0)),
            ("obj", s(0x5F00 + m)),
            (
                "calls",
                format!("cudaCreateSurfaceObject res={{{}}}", pitch(1)),
            ),
        ]
    } else {
        refused
    };
    r.case("surf_flags", &e);

    // Queries: the major's pitch-2D resource converted back; the rest of 13.x's 128-byte union
    // (0xAB-filled by the caller) and `flags` zero.
    let ab32 = s(0xabab_abab_u32);
    let ab_int = s(0xabab_abab_u32 as i32);
    let ab_size = s(0xabab_abab_abab_abab_u64);
    for (case, func, object) in [
        ("texres_ok", "cudaGetTextureObjectResourceDesc", "0x7e01"),
        ("surfres_ok", "cudaGetSurfaceObjectResourceDesc", "0x5f01"),
        ("texres_bad", "cudaGetTextureObjectResourceDesc", "0xbad"),
    ] {
        let calls = format!("{func} object={object}");
        let e = if object == "0xbad" {
            vec![
                ("rc", s(BAD_HANDLE)),
                ("resType", ab32.clone()),
                ("ptr", s(AB_NODE)),
                ("desc", join((0..5).map(|_| ab_int.clone()))),
                ("size", join((0..3).map(|_| ab_size.clone()))),
                ("tail", s(72)),
                ("flags", ab32.clone()),
                ("calls", calls),
            ]
        } else {
            vec![
                ("rc", s(0)),
                ("resType", s(3)),
                ("ptr", r.handle(0xD000)),
                ("desc", format!("8,16,0,0,{m}")),
                ("size", format!("{},{},{}", 100 + m, 200 + m, 512 + m)),
                ("tail", s(0)),
                ("flags", s(0)),
                ("calls", calls),
            ]
        };
        r.case(case, &e);
    }
    let e = vec![
        ("rc", s(0)),
        (
            "view",
            format!("1 {},{},{} 1-{} 3-{}", 10 + m, 20 + m, 30 + m, 2 + m, 4 + m),
        ),
        ("reserved", s(0)),
        (
            "calls",
            s("cudaGetTextureObjectResourceViewDesc object=0x7e01"),
        ),
    ];
    r.case("view_ok", &e);
    let e = vec![
        ("rc", s(BAD_HANDLE)),
        (
            "view",
            format!("{ab32} {ab_size},{ab_size},{ab_size} {ab32}-{ab32} {ab32}-{ab32}"),
        ),
        ("reserved", s(16)),
        (
            "calls",
            s("cudaGetTextureObjectResourceViewDesc object=0xbad"),
        ),
    ];
    r.case("view_bad", &e);
    // 11.x: the 72-byte _v2 query, seamlessCubemap included.
    let get_tex = if m == 11 {
        "cudaGetTextureObjectTextureDesc_v2"
    } else {
        "cudaGetTextureObjectTextureDesc"
    };
    let mf = f64::from(m);
    let e = vec![
        ("rc", s(0)),
        (
            "tex",
            format!(
                "1,2,3 1 1 1 {},{},{},{} 1 {} 1 0.25 1.5 {m} 1",
                mf,
                mf + 0.5,
                mf + 1.0,
                mf + 1.5,
                4 + m
            ),
        ),
        ("seamless", s(m)),
        ("calls", format!("{get_tex} object=0x7e01")),
    ];
    r.case("texdesc_ok", &e);
    let abf = "-1.21979e-12";
    let e = vec![
        ("rc", s(BAD_HANDLE)),
        (
            "tex",
            format!(
                "{ab_int},{ab_int},{ab_int} {ab_int} {ab_int} {ab_int} {abf},{abf},{abf},{abf} {ab_int} {ab32} {ab_int} {abf} {abf} {abf} {ab_int}"
            ),
        ),
        ("seamless", ab_int.clone()),
        ("calls", format!("{get_tex} object=0xbad")),
    ];
    r.case("texdesc_bad", &e);
}

// ---- cudaMemcpyBatchAsync / cudaMemcpy3DBatchAsync --------------------------------------------

fn memcpy_batch(r: &mut Run) {
    let m = r.major;
    let sfx = r.sfx();
    // 12.8+ has a failIdx argument, which the stub passes (a local) and 13.x no longer has.
    let fail = if m == 12 { "1" } else { "-" };
    for (case, count, rc) in [("batch_ok", 2, "0"), ("batch_error", 0, "1")] {
        let e = if m == 11 {
            vec![("rc", s(REFUSED)), ("calls", String::new())]
        } else {
            vec![
                ("rc", s(rc)),
                (
                    "calls",
                    format!(
                        "cudaMemcpyBatchAsync{sfx} dsts=0xb001,0xb002 srcs=0xb101,0xb102 sizes=16,32 count={count} attrs=0xb200 idxs=0xb300 numAttrs=1 failIdx={fail} stream=0x5000"
                    ),
                ),
            ]
        };
        r.case(case, &e);
    }
    let e = if m == 11 {
        vec![("rc", s(REFUSED)), ("calls", String::new())]
    } else {
        vec![
            ("rc", s(0)),
            (
                "calls",
                format!(
                    "cudaMemcpy3DBatchAsync{sfx} numOps=2 ops=0xb400 failIdx={fail} flags=0 stream=0x5000"
                ),
            ),
        ]
    };
    r.case("batch3d_ok", &e);
}

// ---- cudaGraphNodeSetParams / cudaGraphExecNodeSetParams --------------------------------------

/// A kernel node's parameters as the mock of major `m` logs them: 13.x also shows the 13.0-only
/// `ctx` and `functionType`.
fn kernel_params(m: u32, ctx: &str, ftype: u32) -> String {
    let base = "type=0 func=0xf1 grid=2,1,1 block=32,4,1 shmem=64 args=0xf2";
    if m >= 13 {
        format!("{base} ctx={ctx} ftype={ftype}")
    } else {
        base.to_string()
    }
}

fn node_params(r: &mut Run) {
    let m = r.major;
    let host = |sync: u32| {
        if m >= 13 {
            format!("type=3 fn=0xf3 data=0xf4 sync={sync} ctx=0")
        } else {
            "type=3 fn=0xf3 data=0xf4".to_string()
        }
    };
    // (case, node, params as logged, whether 12.x can express them); 11.x has neither function.
    let cases: [(&str, &str, String, bool); 9] = [
        ("np_kernel", "0x300", kernel_params(m, "0", 0), true),
        // cudaKernelFunctionTypeDeviceEntry: what 12.x's `func` always is.
        ("np_kernel_entry", "0x300", kernel_params(m, "0", 1), true),
        // An execution context, a cudaFunction_t handle: 13.0-only.
        ("np_kernel_ctx", "0x300", kernel_params(m, "0xc7", 0), false),
        (
            "np_kernel_function",
            "0x300",
            kernel_params(m, "0", 3),
            false,
        ),
        ("np_host", "0x300", host(0), true),
        // cudaHostTaskSpinWait: 13.0-only.
        ("np_host_spin", "0x300", host(1), false),
        ("np_alloc", "0x300", "type=10 bytes=4096".to_string(), true),
        // cudaGraphNodeTypeMemcpyBatch: 13.0-only.
        ("np_batch", "0x300", "type=14".to_string(), false),
        ("np_bad", "0xbad", host(0), true),
    ];
    for (case, node, params, on_12) in cases {
        let called = m >= 13 || (m == 12 && on_12);
        let mut e = if called {
            let rc = if node == "0xbad" { BAD_HANDLE } else { "0" };
            vec![
                ("rc", s(rc)),
                (
                    "calls",
                    format!("cudaGraphNodeSetParams node={node} params={{{params}}}"),
                ),
            ]
        } else {
            vec![("rc", s(REFUSED)), ("calls", String::new())]
        };
        if case == "np_alloc" {
            // The runtime's output lands in the caller's struct (same offset in 12.x and 13.x).
            e.push(("dptr", if called { r.handle(0xA110) } else { s("0x77") }));
        }
        r.case(case, &e);
    }
    for (case, params, on_12) in [
        ("xnp_host", host(0), true),
        ("xnp_host_spin", host(1), false),
    ] {
        let e = if m >= 13 || (m == 12 && on_12) {
            vec![
                ("rc", s(0)),
                (
                    "calls",
                    format!(
                        "cudaGraphExecNodeSetParams exec=0xe000 node=0x300 params={{{params}}}"
                    ),
                ),
            ]
        } else {
            vec![("rc", s(REFUSED)), ("calls", String::new())]
        };
        r.case(case, &e);
    }
}

/// Memory pools. 13.5 turned `cudaMemLocation.id` into an anonymous union whose `int id` is the
/// same 4 bytes at offset 4, so the stub forwards `cudaMemPoolCreate`, `cudaMemPoolSetAccess`
/// and `cudaMemPoolGetAccess` to every major unchanged; each mock reads the fields with its own
/// major's layout, and the log shows they arrived as the caller wrote them.
fn mem_pool(r: &mut Run) {
    let m = u64::from(r.major);
    let e = vec![
        ("rc", s(0)),
        // 0x9000 + 16 * location.id + major.
        ("pool", hex(0x9000 + 16 * 5 + m)),
        (
            "calls",
            s("cudaMemPoolCreate allocType=1 handleTypes=1 location=1/5 win32=0x3210"),
        ),
    ];
    r.case("pool_create", &e);
    for (case, pool, rc) in [
        ("pool_access", "0x9100", "0"),
        ("pool_access_bad", "0xbad", BAD_HANDLE),
    ] {
        let e = vec![
            ("rc", s(rc)),
            (
                "calls",
                format!("cudaMemPoolSetAccess pool={pool} descs=1/1:3,1/2:1"),
            ),
        ];
        r.case(case, &e);
        let flags = if rc == "0" {
            // 100 + 10 * location.id + major.
            s(100 + 40 + m)
        } else {
            s(77)
        };
        let e = vec![
            ("rc", s(rc)),
            ("flags", flags),
            (
                "calls",
                format!("cudaMemPoolGetAccess pool={pool} location=1/4"),
            ),
        ];
        r.case(&format!("{case}_get"), &e);
    }
}

// ---- tests ------------------------------------------------------------------------------------

/// Runs one family on one mock major, for both builds of the program.
fn check(family: fn(&mut Run), major: u32) {
    for ptsz in [false, true] {
        let mut run = Run::new(major, ptsz);
        family(&mut run);
        run.finish();
    }
}

macro_rules! per_major {
    ($family:ident: $t11:ident, $t12:ident, $t13:ident) => {
        #[test]
        fn $t11() {
            check($family, 11);
        }
        #[test]
        fn $t12() {
            check($family, 12);
        }
        #[test]
        fn $t13() {
            check($family, 13);
        }
    };
}

per_major!(capture_info: capture_info_on_cuda11, capture_info_on_cuda12, capture_info_on_cuda13);
per_major!(mem_advise: mem_advise_prefetch_on_cuda11, mem_advise_prefetch_on_cuda12, mem_advise_prefetch_on_cuda13);
per_major!(graph_edges: graph_edges_on_cuda11, graph_edges_on_cuda12, graph_edges_on_cuda13);
per_major!(exec_update: exec_update_on_cuda11, exec_update_on_cuda12, exec_update_on_cuda13);
per_major!(driver_entry_point: driver_entry_point_on_cuda11, driver_entry_point_on_cuda12, driver_entry_point_on_cuda13);
per_major!(choose_device: choose_device_on_cuda11, choose_device_on_cuda12, choose_device_on_cuda13);
per_major!(update_capture_deps: update_capture_deps_on_cuda11, update_capture_deps_on_cuda12, update_capture_deps_on_cuda13);
per_major!(external_memory: external_memory_on_cuda11, external_memory_on_cuda12, external_memory_on_cuda13);
per_major!(textures: textures_on_cuda11, textures_on_cuda12, textures_on_cuda13);
per_major!(memcpy_batch: memcpy_batch_on_cuda11, memcpy_batch_on_cuda12, memcpy_batch_on_cuda13);
per_major!(node_params: node_params_on_cuda11, node_params_on_cuda12, node_params_on_cuda13);
per_major!(mem_pool: mem_pool_on_cuda11, mem_pool_on_cuda12, mem_pool_on_cuda13);

/// Every case the program prints is checked by some family above.
#[test]
fn every_case_is_checked() {
    let mut run = Run::new(13, false);
    for family in [
        capture_info,
        mem_advise,
        graph_edges,
        exec_update,
        driver_entry_point,
        choose_device,
        update_capture_deps,
        external_memory,
        textures,
        memcpy_batch,
        node_params,
        mem_pool,
    ] {
        family(&mut run);
    }
    let cases: BTreeSet<String> = run
        .got
        .keys()
        .filter_map(|k| k.split_once('.').map(|(c, _)| c.to_string()))
        .collect();
    let checked = run.finish();
    let unchecked: Vec<&String> = cases.difference(&checked).collect();
    assert!(unchecked.is_empty(), "cases nobody checks: {unchecked:?}");
}

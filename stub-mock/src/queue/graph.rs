//! Graphs and stream capture, one registry for both APIs (`cudaGraph_t` is `CUgraph`,
//! `cudaGraphExec_t` is `CUgraphExec`, `cudaGraphNode_t` is `CUgraphNode`).
//!
//! A graph is its nodes in the order they were added; a node's dependencies must already be
//! nodes of its graph, so that order is a topological one and a launch runs the nodes in it
//! (the mock's streams run one operation at a time). An executable graph is a snapshot of its
//! graph's operations at instantiation: changes to the graph later do not reach it, as with
//! the real libraries. Its launch checks each operation again before it runs it: memory freed
//! since the capture answers `ILLEGAL_ADDRESS`, as the device would, and like a device's fault
//! it is sticky: every later call in that context answers it.
//!
//! A stream in capture adds what is issued on it to its capture's graph, each node depending on
//! the stream's last ones; an event recorded in a capture carries those nodes to the streams
//! that wait on it (a fork joins them to the capture, a join adds the nodes to the origin's).
//! The capture rules the mock checks, with the codes both APIs share, as an H200 answered them
//! (tests/gpu/graphs.sh): the legacy stream cannot be captured (`CAPTURE_UNSUPPORTED`), a
//! stream in capture cannot begin another and one in none cannot end one (`ILLEGAL_STATE`),
//! only the origin stream ends it (`CAPTURE_UNMATCHED`) on the thread that began it unless
//! relaxed (`CAPTURE_WRONG_THREAD`, which ends the capture), every forked stream must have
//! joined back (`CAPTURE_UNJOINED`), two captures do not merge (`CAPTURE_MERGE`);
//! synchronizing a stream in capture, or a call that is unsafe during a global or thread-local
//! capture (`cudaMalloc`, synchronous copies, …), invalidates it (`CAPTURE_UNSUPPORTED` now,
//! `CAPTURE_INVALIDATED` for what follows and at its end).

use crate::device::handles;
use crate::device::model::Model;
use crate::queue::ops::{
    CAPTURE_INVALIDATED, CAPTURE_MERGE, CAPTURE_UNJOINED, CAPTURE_UNMATCHED, CAPTURE_UNSUPPORTED,
    CAPTURE_WRONG_THREAD, Code, ILLEGAL_ADDRESS, ILLEGAL_STATE, INVALID_HANDLE, INVALID_VALUE, Op,
};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use stub_loader::sync::{Mutex, MutexGuard, ThreadWord};

/// `cudaStreamCaptureModeGlobal`, `CU_STREAM_CAPTURE_MODE_GLOBAL` (thread-local is 1).
pub const MODE_GLOBAL: u32 = 0;
/// `cudaStreamCaptureModeRelaxed`, `CU_STREAM_CAPTURE_MODE_RELAXED`.
pub const MODE_RELAXED: u32 = 2;

/// `cudaStreamCaptureStatusNone` / `…Active` / `…Invalidated` (the driver's numbers too).
pub const STATUS_NONE: u32 = 0;
/// See [`STATUS_NONE`].
pub const STATUS_ACTIVE: u32 = 1;
/// See [`STATUS_NONE`].
pub const STATUS_INVALIDATED: u32 = 2;

#[derive(Debug)]
struct Node {
    graph: usize,
    op: Op,
    deps: Vec<usize>,
}

/// An executable graph: the nodes of its graph at instantiation (what its per-node updates
/// name) and a snapshot of their operations.
#[derive(Debug, Clone, Default)]
struct Exec {
    nodes: Vec<usize>,
    ops: Vec<Op>,
    /// Launched at least once: its memory nodes' memory is then the device's graph memory
    /// ([`graph_memory`]).
    launched: bool,
}

#[derive(Debug, Clone)]
struct Capture {
    /// Its identity (`cudaStreamGetCaptureInfo`'s `id_out`), unique in the process.
    id: u64,
    /// The stream that began it (its key).
    origin: (usize, usize),
    mode: u32,
    /// The thread that began it (`handles::thread_number`).
    thread: usize,
    /// Whether it was invalidated.
    invalid: bool,
}

#[derive(Debug, Default)]
struct Registry {
    /// Live graphs: their nodes, in the order they were added.
    graphs: BTreeMap<usize, Vec<usize>>,
    nodes: BTreeMap<usize, Node>,
    /// Live executable graphs: their graph's nodes and their operations, in order.
    execs: BTreeMap<usize, Exec>,
    /// Captures by their graph.
    captures: BTreeMap<usize, Capture>,
    /// Streams in capture (by [`key`]): their capture's graph, their last nodes.
    streams: BTreeMap<(usize, usize), (usize, Vec<usize>)>,
    /// Events recorded in a capture: its graph, the recording stream's last nodes then.
    events: BTreeMap<usize, (usize, Vec<usize>)>,
    /// The last capture's id.
    last_id: u64,
    /// The edge data [`info`] last gave each stream in capture (all default: zero bytes).
    edges: BTreeMap<(usize, usize), Vec<[u8; 8]>>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    graphs: BTreeMap::new(),
    nodes: BTreeMap::new(),
    execs: BTreeMap::new(),
    captures: BTreeMap::new(),
    streams: BTreeMap::new(),
    events: BTreeMap::new(),
    last_id: 0,
    edges: BTreeMap::new(),
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock()
}

/// `cudaStreamPerThread` / `CU_STREAM_PER_THREAD`: one stream of each thread.
const PER_THREAD: usize = 2;

/// A stream's identity in capture: the per-thread default stream is the calling thread's own.
fn key(stream: usize) -> (usize, usize) {
    if stream == PER_THREAD {
        (stream, handles::thread_number())
    } else {
        (stream, 0)
    }
}

impl Registry {
    fn add(&mut self, graph: usize, op: Op, deps: Vec<usize>) -> usize {
        let node = handles::fresh();
        self.nodes.insert(node, Node { graph, op, deps });
        if let Some(list) = self.graphs.get_mut(&graph) {
            list.push(node);
        }
        node
    }

    /// Forgets `graph`'s capture and its streams' and events' part in it.
    fn end_capture(&mut self, graph: usize) {
        self.captures.remove(&graph);
        self.streams.retain(|_, (g, _)| *g != graph);
        let streams = &self.streams;
        self.edges.retain(|k, _| streams.contains_key(k));
        self.events.retain(|_, (g, _)| *g != graph);
    }

    fn destroy_graph(&mut self, graph: usize) {
        self.end_capture(graph);
        for node in self.graphs.remove(&graph).unwrap_or_default() {
            self.nodes.remove(&node);
            // SAFETY: made by `handles::fresh` in `add`, removed above.
            unsafe { handles::release(node) };
        }
        // SAFETY: made by `handles::fresh` in `create`, removed above.
        unsafe { handles::release(graph) };
    }

    /// Whether every node of `from` is one of `to`'s nodes or their ancestors.
    fn reaches(&self, from: &[usize], to: &[usize]) -> bool {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<usize> = to.to_vec();
        while let Some(n) = todo.pop() {
            if seen.insert(n) {
                todo.extend(self.nodes.get(&n).map_or(&[][..], |x| &x.deps[..]));
            }
        }
        from.iter().all(|n| seen.contains(n))
    }
}

/// An API call's operation on `stream`: the stream checked (`INVALID_HANDLE`), a synchronous
/// call (`sync`, on the legacy stream) first asked whether it may run during a capture
/// ([`unsafe_call`]), then [`issue`]d.
pub fn submit(m: &Model, stream: usize, sync: bool, op: Op) -> Result<(), Code> {
    if !handles::is_stream(stream) {
        return Err(INVALID_HANDLE);
    }
    if sync {
        unsafe_call()?;
        // A blocking copy is one of the points where a GPU's driver writes what kernels
        // printed (CUDA C++ Programming Guide, "Formatted Output").
        crate::code::printf::flush();
    }
    issue(m, stream, op)
}

/// Whether `stream` is in a capture.
pub fn is_capturing(stream: usize) -> bool {
    registry().streams.contains_key(&key(stream))
}

/// Issues `op` on `stream`: added to the stream's capture, or checked and run now.
pub fn issue(m: &Model, stream: usize, op: Op) -> Result<(), Code> {
    op.check(m)?;
    match capture(stream, op) {
        Ok(captured) => captured,
        // SAFETY: host sides and functions are the caller's, by the APIs' contracts.
        Err(op) => unsafe { op.run(m) },
    }
}

/// Adds `op` to `stream`'s capture: `Ok` with the capture's answer when the stream is in one,
/// `Err(op)` when it is not.
pub fn capture(stream: usize, op: Op) -> Result<Result<(), Code>, Op> {
    let mut r = registry();
    let Some((graph, tail)) = r.streams.get(&key(stream)).cloned() else {
        return Err(op);
    };
    if r.captures.get(&graph).is_some_and(|c| c.invalid) {
        return Ok(Err(CAPTURE_INVALIDATED));
    }
    let node = r.add(graph, op, tail);
    if let Some(s) = r.streams.get_mut(&key(stream)) {
        s.1 = alloc::vec![node];
    }
    Ok(Ok(()))
}

/// A new, empty graph.
pub fn create() -> usize {
    let g = handles::fresh();
    registry().graphs.insert(g, Vec::new());
    g
}

/// A copy of `graph` (`cudaGraphClone`, `cuGraphClone`): each node's operation and its
/// dependencies among the copies, in the same order; `INVALID_VALUE` for no graph.
pub fn clone_graph(graph: usize) -> Result<usize, Code> {
    let mut r = registry();
    let list = r.graphs.get(&graph).cloned().ok_or(INVALID_VALUE)?;
    let copy = handles::fresh();
    r.graphs.insert(copy, Vec::new());
    let mut made: BTreeMap<usize, usize> = BTreeMap::new();
    for node in list {
        let Some((op, deps)) = r.nodes.get(&node).map(|n| (n.op.clone(), n.deps.clone())) else {
            continue;
        };
        let deps = deps.iter().filter_map(|d| made.get(d).copied()).collect();
        made.insert(node, r.add(copy, op, deps));
    }
    Ok(copy)
}

/// Whether the allocation at `ptr` is a graph's (a memory allocation node's, of a graph or an
/// executable graph): it stays mapped for the graph's launches, so a free of it outside the
/// graph (`cudaFree`, `cudaFreeAsync`, the driver's) ends only that launch's use of it, as on
/// a GPU, where each launch maps it again at the same address.
pub fn owns_allocation(ptr: usize) -> bool {
    let r = registry();
    let is = |op: &Op| matches!(op, Op::MemAlloc { ptr: p, .. } if *p == ptr);
    r.nodes.values().any(|n| is(&n.op)) || r.execs.values().any(|e| e.ops.iter().any(is))
}

/// Device `d`'s graph memory (`cudaGraphMemAttrUsedMemCurrent`, `CU_GRAPH_MEM_ATTR_…`): the
/// bytes of the memory nodes of the executable graphs launched and not destroyed, each
/// allocation once. The mock keeps nothing more in reserve, so it is also the reserved bytes.
pub fn graph_memory(m: &Model, d: usize) -> u64 {
    let r = registry();
    let mut seen = BTreeSet::new();
    let mut bytes = 0u64;
    for op in r.execs.values().filter(|e| e.launched).flat_map(|e| &e.ops) {
        if let Op::MemAlloc { ptr, size } = op
            && seen.insert(*ptr)
            && m.find(*ptr).and_then(|f| f.kind.device()) == Some(d)
        {
            bytes = bytes.saturating_add(*size as u64);
        }
    }
    bytes
}

/// Destroys `graph` and its nodes (`INVALID_VALUE` for no graph, as both APIs answer).
pub fn destroy(graph: usize) -> Result<(), Code> {
    let mut r = registry();
    if !r.graphs.contains_key(&graph) {
        return Err(INVALID_VALUE);
    }
    r.destroy_graph(graph);
    Ok(())
}

/// Adds a node of `op` to `graph` after `deps` (each a node of that graph: `INVALID_VALUE`
/// otherwise, and for no graph); the node's handle.
pub fn add_node(m: &Model, graph: usize, deps: &[usize], op: Op) -> Result<usize, Code> {
    op.check(m)?;
    let mut r = registry();
    let valid = r.graphs.contains_key(&graph)
        && deps
            .iter()
            .all(|d| r.nodes.get(d).is_some_and(|n| n.graph == graph));
    if !valid {
        return Err(INVALID_VALUE);
    }
    Ok(r.add(graph, op, deps.to_vec()))
}

/// `graph`'s nodes in the order they were added.
pub fn nodes(graph: usize) -> Result<Vec<usize>, Code> {
    registry().graphs.get(&graph).cloned().ok_or(INVALID_VALUE)
}

/// The node type of `node` (`Op::node_type`).
pub fn node_type(node: usize) -> Result<u32, Code> {
    registry()
        .nodes
        .get(&node)
        .map(|n| n.op.node_type())
        .ok_or(INVALID_VALUE)
}

/// An executable graph of `graph`'s operations as they are now.
pub fn instantiate(graph: usize) -> Result<usize, Code> {
    let mut r = registry();
    let Some(list) = r.graphs.get(&graph) else {
        return Err(INVALID_VALUE);
    };
    let (nodes, ops) = list
        .iter()
        .filter_map(|&n| r.nodes.get(&n).map(|x| (n, x.op.clone())))
        .unzip();
    let exec = handles::fresh();
    let launched = false;
    r.execs.insert(
        exec,
        Exec {
            nodes,
            ops,
            launched,
        },
    );
    Ok(exec)
}

/// Destroys an executable graph.
pub fn exec_destroy(exec: usize) -> Result<(), Code> {
    if registry().execs.remove(&exec).is_none() {
        return Err(INVALID_VALUE);
    }
    // SAFETY: made by `handles::fresh` in `instantiate`, removed above.
    unsafe { handles::release(exec) };
    Ok(())
}

/// Launches `exec` on `stream` of device `device`: its operations in order, each checked again
/// first (the first failure answers; `ILLEGAL_ADDRESS`, memory freed since, is the device's
/// sticky fault: `Model::fault`); into the stream's capture if it is in one.
pub fn launch(m: &Model, exec: usize, stream: usize, device: usize) -> Result<(), Code> {
    if !handles::is_stream(stream) {
        return Err(INVALID_HANDLE);
    }
    // Copied out: a host node may call the APIs, never under the lock.
    let Some(ops) = registry().execs.get_mut(&exec).map(|e| {
        e.launched = true;
        e.ops.clone()
    }) else {
        return Err(INVALID_VALUE);
    };
    // The graph memory its memory nodes add is counted toward the device's high watermark.
    crate::queue::mem_pools::graph_high(device, graph_memory(m, device));
    for op in ops {
        match capture(stream, op) {
            Ok(captured) => captured?,
            // SAFETY: the operations' host sides and functions, as the caller gave them.
            Err(op) => unsafe { op.run(m) }.inspect_err(|&code| {
                if code == ILLEGAL_ADDRESS {
                    m.fault(device, code);
                }
            })?,
        }
    }
    Ok(())
}

/// The operation of `node` (`INVALID_VALUE` for no node).
pub fn node_op(node: usize) -> Result<Op, Code> {
    registry()
        .nodes
        .get(&node)
        .map(|n| n.op.clone())
        .ok_or(INVALID_VALUE)
}

/// Replaces the operation of `node` with `op`, of the same node type (`INVALID_VALUE`
/// otherwise, as both APIs answer a set of the wrong kind of node).
pub fn set_node_op(m: &Model, node: usize, op: Op) -> Result<(), Code> {
    op.check(m)?;
    let mut r = registry();
    let n = r.nodes.get_mut(&node).ok_or(INVALID_VALUE)?;
    if n.op.node_type() != op.node_type() {
        return Err(INVALID_VALUE);
    }
    n.op = op;
    Ok(())
}

/// Replaces the operation `exec` runs for its graph's `node` with `op`, of the same node type
/// (`cudaGraphExecKernelNodeSetParams` and the like): `INVALID_VALUE` for no executable graph,
/// a node not of its graph or another type.
pub fn exec_set_node_op(m: &Model, exec: usize, node: usize, op: Op) -> Result<(), Code> {
    op.check(m)?;
    let mut r = registry();
    let e = r.execs.get_mut(&exec).ok_or(INVALID_VALUE)?;
    let at = e
        .nodes
        .iter()
        .position(|&n| n == node)
        .ok_or(INVALID_VALUE)?;
    let old = e.ops.get_mut(at).ok_or(INVALID_VALUE)?;
    if old.node_type() != op.node_type() {
        return Err(INVALID_VALUE);
    }
    *old = op;
    Ok(())
}

/// Why an executable graph cannot take another graph's operations (`cudaGraphExecUpdateResult`,
/// `CUgraphExecUpdateResult`): the result and the node of the other graph that caused it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UpdateRefused {
    /// `…ErrorTopologyChanged` (2) or `…ErrorNodeTypeChanged` (3).
    pub result: u32,
    /// The node of `graph` that differs, 0 for none.
    pub node: usize,
}

/// `cudaGraphExecUpdateErrorTopologyChanged`, `…NodeTypeChanged`.
pub const UPDATE_TOPOLOGY_CHANGED: u32 = 2;
/// See [`UPDATE_TOPOLOGY_CHANGED`].
pub const UPDATE_NODE_TYPE_CHANGED: u32 = 3;

/// Gives `exec` the operations of `graph`, whose nodes must pair one to one with those `exec`
/// was made of: as many, in the order added, of the same types and with the same dependencies
/// (`cudaGraphExecUpdate`'s rules for a graph of the same topology). `Ok(None)`: done;
/// `Ok(Some(refused))`: the update fails, `exec` unchanged; `Err(INVALID_VALUE)` for no such
/// graph or executable graph.
pub fn exec_update(exec: usize, graph: usize) -> Result<Option<UpdateRefused>, Code> {
    let mut r = registry();
    let new = r.graphs.get(&graph).cloned().ok_or(INVALID_VALUE)?;
    let old = r
        .execs
        .get(&exec)
        .map(|e| e.nodes.clone())
        .ok_or(INVALID_VALUE)?;
    if new.len() != old.len() {
        let node = new.get(old.len()).copied().unwrap_or(0);
        return Ok(Some(UpdateRefused {
            result: UPDATE_TOPOLOGY_CHANGED,
            node,
        }));
    }
    let index = |list: &[usize], n: &usize| list.iter().position(|x| x == n);
    let mut ops = Vec::with_capacity(new.len());
    for (&n, &o) in new.iter().zip(&old) {
        let (Some(a), Some(b)) = (r.nodes.get(&n), r.nodes.get(&o)) else {
            return Err(INVALID_VALUE);
        };
        if a.op.node_type() != b.op.node_type() {
            return Ok(Some(UpdateRefused {
                result: UPDATE_NODE_TYPE_CHANGED,
                node: n,
            }));
        }
        let mut da: Vec<Option<usize>> = a.deps.iter().map(|d| index(&new, d)).collect();
        let mut db: Vec<Option<usize>> = b.deps.iter().map(|d| index(&old, d)).collect();
        da.sort_unstable();
        db.sort_unstable();
        if da != db {
            return Ok(Some(UpdateRefused {
                result: UPDATE_TOPOLOGY_CHANGED,
                node: n,
            }));
        }
        ops.push(a.op.clone());
    }
    if let Some(e) = r.execs.get_mut(&exec) {
        e.ops = ops;
    }
    Ok(None)
}

/// Whether `exec` is a live executable graph (`…Upload`: nothing to upload).
pub fn is_exec(exec: usize) -> bool {
    registry().execs.contains_key(&exec)
}

/// Begins a capture of `stream` in `mode`.
pub fn begin(stream: usize, mode: u32) -> Result<(), Code> {
    if mode > MODE_RELAXED {
        return Err(INVALID_VALUE);
    }
    if !handles::is_stream(stream) {
        return Err(INVALID_HANDLE);
    }
    // The legacy default stream synchronizes with every other: it cannot be captured.
    if stream < PER_THREAD {
        return Err(CAPTURE_UNSUPPORTED);
    }
    let graph = create();
    let mut r = registry();
    if r.streams.contains_key(&key(stream)) {
        drop(r);
        destroy(graph).ok();
        return Err(ILLEGAL_STATE);
    }
    r.last_id += 1;
    let id = r.last_id;
    r.captures.insert(
        graph,
        Capture {
            id,
            origin: key(stream),
            mode,
            thread: handles::thread_number(),
            invalid: false,
        },
    );
    r.streams.insert(key(stream), (graph, Vec::new()));
    Ok(())
}

/// Ends the capture `stream` began: its graph, or why there is none (the graph is then
/// destroyed).
pub fn end(stream: usize) -> Result<usize, Code> {
    if !handles::is_stream(stream) {
        return Err(INVALID_HANDLE);
    }
    let mut r = registry();
    let Some((graph, tail)) = r.streams.get(&key(stream)).cloned() else {
        return Err(ILLEGAL_STATE);
    };
    let Some(c) = r.captures.get(&graph).cloned() else {
        return Err(ILLEGAL_STATE);
    };
    if c.origin != key(stream) {
        return Err(CAPTURE_UNMATCHED);
    }
    // The runtime ends the capture there too (the origin thread then finds none).
    if c.mode != MODE_RELAXED && c.thread != handles::thread_number() {
        r.destroy_graph(graph);
        return Err(CAPTURE_WRONG_THREAD);
    }
    let joined = r
        .streams
        .iter()
        .filter(|(k, (g, _))| *g == graph && **k != c.origin)
        .all(|(_, (_, other))| r.reaches(other, &tail));
    let failure = if c.invalid {
        Some(CAPTURE_INVALIDATED)
    } else if !joined {
        Some(CAPTURE_UNJOINED)
    } else {
        None
    };
    match failure {
        Some(code) => {
            r.destroy_graph(graph);
            Err(code)
        }
        None => {
            r.end_capture(graph);
            Ok(graph)
        }
    }
}

/// `stream`'s capture status ([`STATUS_NONE`], …); the legacy stream is never in one.
pub fn status(stream: usize) -> Result<u32, Code> {
    if !handles::is_stream(stream) {
        return Err(INVALID_HANDLE);
    }
    let r = registry();
    Ok(match r.streams.get(&key(stream)) {
        None => STATUS_NONE,
        Some((g, _)) if r.captures.get(g).is_some_and(|c| c.invalid) => STATUS_INVALIDATED,
        Some(_) => STATUS_ACTIVE,
    })
}

/// What `stream`'s capture says of itself (`cudaStreamGetCaptureInfo`).
#[derive(Debug, Clone, Copy)]
pub struct Info {
    /// [`STATUS_NONE`], …
    pub status: u32,
    /// The capture's id (0 outside one).
    pub id: u64,
    /// Its graph (0 outside one).
    pub graph: usize,
    /// The stream's last nodes: valid until the next operation on the stream or the capture's
    /// end, as the runtime's are.
    pub deps: *const usize,
    /// How many.
    pub count: usize,
    /// Their edges' data (`cudaGraphEdgeData`, 8 bytes each), all default, valid as `deps`.
    pub edges: *const [u8; 8],
}

/// [`Info`] of `stream`.
pub fn info(stream: usize) -> Result<Info, Code> {
    let status = status(stream)?;
    let mut r = registry();
    let none = Info {
        status,
        id: 0,
        graph: 0,
        deps: core::ptr::null(),
        count: 0,
        edges: core::ptr::null(),
    };
    let Some((graph, tail)) = r.streams.get(&key(stream)) else {
        return Ok(none);
    };
    let (graph, deps, count) = (*graph, tail.as_ptr(), tail.len());
    let id = r.captures.get(&graph).map_or(0, |c| c.id);
    let edges = r.edges.entry(key(stream)).or_default();
    *edges = alloc::vec![[0; 8]; count];
    Ok(Info {
        status,
        id,
        graph,
        deps,
        count,
        edges: edges.as_ptr(),
    })
}

/// Records `event` on `stream`: in the stream's capture, `true` (the event then carries the
/// stream's last nodes); `false` when the stream is in none (the caller records the time).
pub fn record_event(stream: usize, event: usize) -> bool {
    let mut r = registry();
    match r.streams.get(&key(stream)).cloned() {
        Some(captured) => {
            r.events.insert(event, captured);
            true
        }
        None => {
            r.events.remove(&event);
            false
        }
    }
}

/// Makes `stream` wait on `event`: an event recorded in a capture joins the stream to that
/// capture (a fork) or adds its nodes to the stream's (a join); an event recorded outside any
/// capture has completed (the mock runs everything when issued): nothing to wait for.
pub fn wait_event(stream: usize, event: usize) -> Result<(), Code> {
    let mut r = registry();
    let Some((graph, nodes)) = r.events.get(&event).cloned() else {
        return Ok(());
    };
    match r.streams.get_mut(&key(stream)) {
        Some((g, _)) if *g != graph => Err(CAPTURE_MERGE),
        Some((_, tail)) => {
            for n in nodes {
                if !tail.contains(&n) {
                    tail.push(n);
                }
            }
            Ok(())
        }
        None => {
            r.streams.insert(key(stream), (graph, nodes));
            Ok(())
        }
    }
}

/// The thread's capture interaction mode (`cudaThreadExchangeStreamCaptureMode`): the mode + 1,
/// 0 for the default, global.
static THREAD_MODE: ThreadWord = ThreadWord::new();

/// Sets the thread's capture interaction mode to `mode`; the one it had. Any number is taken,
/// as an H200's runtime takes it (7 answered success); one of no mode counts as global.
pub fn exchange_mode(mode: u32) -> u32 {
    let old = THREAD_MODE.get().saturating_sub(1) as u32;
    THREAD_MODE.set(mode as usize + 1);
    old
}

/// A call that is unsafe during capture (`cudaMalloc`, `cudaFree`, synchronous copies and
/// memsets, device and context synchronization), by the thread's interaction mode
/// ([`exchange_mode`]): global (the default) refuses it while this thread has a capture not
/// begun relaxed or any thread a global one, thread-local only for this thread's own, relaxed
/// never. Refused: `CAPTURE_UNSUPPORTED`, and those captures invalidated; `Ok` otherwise.
pub fn unsafe_call() -> Result<(), Code> {
    let me = handles::thread_number();
    let mode = THREAD_MODE.get().saturating_sub(1) as u32;
    if mode == MODE_RELAXED {
        return Ok(());
    }
    let mut r = registry();
    let mut refused = false;
    for c in r.captures.values_mut() {
        let own = c.thread == me && c.mode != MODE_RELAXED;
        // Thread-local (1) heeds only this thread's captures.
        let applies = own || (mode != 1 && c.mode == MODE_GLOBAL);
        if applies {
            c.invalid = true;
            refused = true;
        }
    }
    if refused {
        Err(CAPTURE_UNSUPPORTED)
    } else {
        Ok(())
    }
}

/// Synchronizing `stream` (or querying it): a stream in capture cannot be, and its capture is
/// invalidated (`CAPTURE_UNSUPPORTED`).
pub fn sync(stream: usize) -> Result<(), Code> {
    let mut r = registry();
    let Some((graph, _)) = r.streams.get(&key(stream)).cloned() else {
        return Ok(());
    };
    if let Some(c) = r.captures.get_mut(&graph) {
        c.invalid = true;
    }
    Err(CAPTURE_UNSUPPORTED)
}

/// The entry points' work both APIs share, on their outputs as they lay them out: every graph,
/// node and stream handle is a pointer, passed here as an address (`*mut usize`), and every
/// status and mode a 32-bit enum.
pub mod out {
    use super::*;

    /// Adds a node of `op` to `graph` after the `count` handles at `deps` (NULL only for
    /// none), its handle into `*node`; `INVALID_VALUE` for a NULL output.
    ///
    /// # Safety
    /// `deps` holds `count` handles; `node` is NULL or the caller's handle.
    pub unsafe fn add_node(
        m: &Model,
        node: *mut usize,
        graph: usize,
        (deps, count): (*const usize, usize),
        op: Op,
    ) -> Result<(), Code> {
        if node.is_null() || (count > 0 && deps.is_null()) {
            return Err(INVALID_VALUE);
        }
        let deps = if count == 0 {
            &[][..]
        } else {
            // SAFETY: non-NULL, the caller's `count` handles by the contract.
            unsafe { core::slice::from_raw_parts(deps, count) }
        };
        let n = super::add_node(m, graph, deps, op)?;
        // SAFETY: non-NULL, the caller's handle.
        unsafe { *node = n };
        Ok(())
    }

    /// `graph`'s nodes into the caller's array of `*count` (entries past them NULL, `*count`
    /// then how many it has), or only their count when `nodes` is NULL.
    ///
    /// # Safety
    /// `count` is NULL or the caller's; `nodes` NULL or `*count` handles.
    pub unsafe fn nodes(graph: usize, nodes: *mut usize, count: *mut usize) -> Result<(), Code> {
        if count.is_null() {
            return Err(INVALID_VALUE);
        }
        let list = super::nodes(graph)?;
        // SAFETY: the caller's count and array, by the contract.
        unsafe {
            if !nodes.is_null() {
                for i in 0..*count {
                    *nodes.add(i) = list.get(i).copied().unwrap_or(0);
                }
            }
            if nodes.is_null() || *count > list.len() {
                *count = list.len();
            }
        }
        Ok(())
    }

    /// Swaps the thread's capture interaction mode with `*mode` ([`exchange_mode`]).
    ///
    /// # Safety
    /// `mode` is NULL or the caller's enum.
    pub unsafe fn exchange(mode: *mut u32) -> Result<(), Code> {
        // SAFETY: NULL or the caller's enum, read then written.
        let mode = unsafe { mode.as_mut() }.ok_or(INVALID_VALUE)?;
        *mode = exchange_mode(*mode);
        Ok(())
    }

    /// `cudaStreamGetCaptureInfo` / `cuStreamGetCaptureInfo_v3` ([`info`]): the status always,
    /// the rest (each output optional) in a capture; edge data needs the dependencies beside it
    /// (the headers' rule).
    ///
    /// # Safety
    /// Each output is NULL or the caller's storage of its type.
    pub unsafe fn capture_info(
        stream: usize,
        status_out: *mut u32,
        (id_out, graph_out): (*mut u64, *mut usize),
        (deps_out, edges_out, count_out): (*mut *const usize, *mut *const [u8; 8], *mut usize),
    ) -> Result<(), Code> {
        if status_out.is_null() || (!edges_out.is_null() && deps_out.is_null()) {
            return Err(INVALID_VALUE);
        }
        let i = info(stream)?;
        // SAFETY: non-NULL outputs are the caller's storage; the others are not asked for.
        unsafe {
            *status_out = i.status;
            if i.status != STATUS_NONE {
                if let Some(id) = id_out.as_mut() {
                    *id = i.id;
                }
                if let Some(g) = graph_out.as_mut() {
                    *g = i.graph;
                }
                if let Some(d) = deps_out.as_mut() {
                    *d = i.deps;
                }
                // Every edge the mock makes is a default one (zero bytes).
                if let Some(e) = edges_out.as_mut() {
                    *e = i.edges;
                }
                if let Some(n) = count_out.as_mut() {
                    *n = i.count;
                }
            }
        }
        Ok(())
    }
}

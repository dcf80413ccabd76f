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
//!
//! Conditional nodes (CUDA 12.3+; the CUDA C++ Programming Guide's "Conditional Graph Nodes"):
//! a handle is made for a graph with its default value and flag (`cudaGraphCondAssignDefault`:
//! the value is the default again at each launch; without it the value a launch leaves is the
//! next launch's, 0 at first); a conditional node of that graph, or of one of its bodies, owns
//! its body graphs (destroyed with it), which hold only the node types the guide allows there
//! (kernel, copy, memset, empty, conditional; anything else fails the instantiation with
//! `INVALID_VALUE`, the error `cudaGraphInstantiate` documents). A launch makes its handles
//! live (`code::conditional`) so that its kernels' `cudaGraphSetConditional` sets them, and
//! runs a conditional node's bodies as the value says when it reaches the node: If body 0 when
//! it is not zero (body 1, when there is one, when it is), While body 0 again until it is zero,
//! Switch body `value` when `value < size`. A capture may begin into an existing graph
//! (`cudaStreamBeginCaptureToGraph`: a body, typically) and its dependencies may be set or
//! added to (`cudaStreamUpdateCaptureDependencies`), so that a conditional node added by hand
//! to a capture's graph joins the captured work.
//!
//! Child graph nodes (`cudaGraphAddChildGraphNode`, `cudaGraphAddNode` of
//! `cudaGraphNodeTypeGraph`): the node embeds a copy of the graph it was added with, made then
//! (later changes of that graph do not reach it), and owns it as a conditional node owns its
//! bodies (destroyed with it, with its parent graph, never alone); changes made to the
//! embedded graph itself (`cudaGraphChildGraphNodeGetGraph`'s: "Changes to the graph will be
//! reflected in the node") do reach the node, until an instantiation snapshots it with the
//! rest. A graph holding memory allocation, memory free or conditional nodes cannot be
//! embedded so, and no memory node can be added to an embedded graph (`INVALID_VALUE`, the
//! code cuda_runtime_api.h documents; a conditional node added to one is not modelled:
//! `NOT_SUPPORTED`). A graph moved into its node (`cudaGraphChildGraphOwnershipMove`, CUDA
//! 12.9+) is embedded itself, not a copy, and is the node's from then on ([`add_child`]). A
//! launch runs the embedded graph's operations where the node stands, as part of its parent
//! (nested children too); a capture takes them one by one.
//!
//! A clone (`cudaGraphClone`) remembers which of its nodes copied which of its original's
//! (`cudaGraphNodeFindInClone`); a node can be removed from its graph with its edges
//! (`cudaGraphDestroyNode`: [`destroy_node`]).

use crate::device::handles;
use crate::device::model::Model;
use crate::queue::ops::{
    CAPTURE_INVALIDATED, CAPTURE_MERGE, CAPTURE_UNJOINED, CAPTURE_UNMATCHED, CAPTURE_UNSUPPORTED,
    CAPTURE_WRONG_THREAD, COND_IF, COND_SWITCH, COND_WHILE, Code, ILLEGAL_ADDRESS, ILLEGAL_STATE,
    INVALID_HANDLE, INVALID_VALUE, NOT_SUPPORTED, Op,
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

/// A conditional handle (`cudaGraphConditionalHandle`): the graph it was made for, its default
/// and whether each launch starts from it, and the value the last launch left.
#[derive(Debug, Clone, Copy)]
struct Cond {
    graph: usize,
    default: u32,
    assign_default: bool,
    value: u32,
}

/// `cudaGraphCondAssignDefault`, `CU_GRAPH_COND_ASSIGN_DEFAULT` (driver_types.h, cuda.h: a
/// `#define`, which codegen's types do not carry).
pub const COND_ASSIGN_DEFAULT: u32 = 1;

/// An executable graph: the nodes of its graph at instantiation (what its per-node updates
/// name) and a snapshot of their operations.
#[derive(Debug, Clone, Default)]
struct Exec {
    nodes: Vec<usize>,
    ops: Vec<Op>,
    /// Launched at least once: its memory nodes' memory is then the device's graph memory
    /// ([`graph_memory`]).
    launched: bool,
    /// The handles of its conditional nodes, their values kept from launch to launch.
    conds: BTreeMap<u64, Cond>,
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
    /// Begun into an existing graph (`cudaStreamBeginCaptureToGraph`): the graph is the
    /// caller's, kept when the capture fails.
    to_graph: bool,
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
    /// Conditional handles by their value.
    conds: BTreeMap<u64, Cond>,
    /// Body graphs of conditional nodes and embedded graphs of child graph nodes: the node that
    /// owns each.
    owners: BTreeMap<usize, usize>,
    /// The last conditional handle made.
    last_handle: u64,
    /// Graphs made by [`clone_graph`]: each original node's copy, by the original
    /// (`cudaGraphNodeFindInClone`); a copy destroyed since is dropped from its map.
    clones: BTreeMap<usize, BTreeMap<usize, usize>>,
    /// Graphs moved into their child graph node (`cudaGraphChildGraphOwnershipMove`): no longer
    /// the caller's to instantiate or update from (driver_types.h).
    moved: BTreeSet<usize>,
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
    conds: BTreeMap::new(),
    owners: BTreeMap::new(),
    last_handle: 0,
    clones: BTreeMap::new(),
    moved: BTreeSet::new(),
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

    /// Ends a failed capture of `graph`: the graph destroyed, unless it was the caller's
    /// (`cudaStreamBeginCaptureToGraph`), which keeps what was added.
    fn fail_capture(&mut self, graph: usize, to_graph: bool) {
        if to_graph {
            self.end_capture(graph);
        } else {
            self.destroy_graph(graph);
        }
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
        self.owners.remove(&graph);
        self.clones.remove(&graph);
        self.moved.remove(&graph);
        self.conds.retain(|_, c| c.graph != graph);
        for node in self.graphs.remove(&graph).unwrap_or_default() {
            // A conditional node's bodies are its own (`phGraph_out`: "CUDA-owned"), as a child
            // graph node's embedded graph is ("the node retains ownership of the graph").
            match self.nodes.remove(&node).map(|n| n.op) {
                Some(Op::Conditional { bodies, .. }) => {
                    for body in bodies {
                        self.destroy_graph(body);
                    }
                }
                Some(Op::Child { graph }) => self.destroy_graph(graph),
                _ => {}
            }
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

    /// Whether `graph` is `ancestor` or one of its conditional nodes' bodies, at any depth.
    fn within(&self, mut graph: usize, ancestor: usize) -> bool {
        loop {
            if graph == ancestor {
                return true;
            }
            match self.owners.get(&graph).and_then(|n| self.nodes.get(n)) {
                Some(node) => graph = node.graph,
                None => return false,
            }
        }
    }

    /// Whether `graph` is a child graph node's embedded graph, or inside one at any depth.
    fn in_child(&self, mut graph: usize) -> bool {
        while let Some(node) = self.owners.get(&graph).and_then(|n| self.nodes.get(n)) {
            if matches!(node.op, Op::Child { .. }) {
                return true;
            }
            graph = node.graph;
        }
        false
    }

    /// The type of the first node of `graph` (its children's included) that a graph embedded in
    /// a child graph node may not hold: memory allocation (10), memory free (11), conditional
    /// (13) ("If childGraph contains allocation nodes, free nodes, or conditional nodes, this
    /// call will return an error", cudaGraphAddChildGraphNode, cuda_runtime_api.h).
    fn not_embeddable(&self, graph: usize) -> Option<u32> {
        for n in self.graphs.get(&graph).map_or(&[][..], |l| &l[..]) {
            match self.nodes.get(n).map(|x| &x.op) {
                Some(Op::Child { graph }) => {
                    if let Some(t) = self.not_embeddable(*graph) {
                        return Some(t);
                    }
                }
                Some(op) if [10, 11, 13].contains(&op.node_type()) => return Some(op.node_type()),
                _ => {}
            }
        }
        None
    }

    /// A new graph of copies of `graph`'s nodes, in the same order, each after the copies of
    /// its dependencies; a child graph node's embedded graph copied too (owned by the copy).
    /// The caller has refused conditional nodes, whose bodies and handle this does not copy.
    /// With the copy, each of `graph`'s nodes' copy by the original.
    fn copy_graph(&mut self, graph: usize) -> (usize, BTreeMap<usize, usize>) {
        let list = self.graphs.get(&graph).cloned().unwrap_or_default();
        let copy = handles::fresh();
        self.graphs.insert(copy, Vec::new());
        let mut made: BTreeMap<usize, usize> = BTreeMap::new();
        for node in list {
            let Some((op, deps)) = self
                .nodes
                .get(&node)
                .map(|n| (n.op.clone(), n.deps.clone()))
            else {
                continue;
            };
            let deps = deps.iter().filter_map(|d| made.get(d).copied()).collect();
            let (op, embedded) = match op {
                Op::Child { graph } => {
                    let (inner, _) = self.copy_graph(graph);
                    (Op::Child { graph: inner }, Some(inner))
                }
                op => (op, None),
            };
            let new = self.add(copy, op, deps);
            if let Some(inner) = embedded {
                self.owners.insert(inner, new);
            }
            made.insert(node, new);
        }
        (copy, made)
    }

    /// A child graph node's operations as an executable graph keeps them ([`Op::ChildExec`]):
    /// the embedded graph's, snapshotted as a graph's are, with their dependencies as indices.
    fn snapshot_child(&self, graph: usize, conds: &mut BTreeMap<u64, Cond>) -> Result<Op, Code> {
        let list = self.graphs.get(&graph).ok_or(INVALID_VALUE)?;
        let mut ops = Vec::with_capacity(list.len());
        let mut deps = Vec::with_capacity(list.len());
        for n in list {
            let node = self.nodes.get(n).ok_or(INVALID_VALUE)?;
            ops.push(self.snapshot(&node.op, conds)?);
            let mut at: Vec<usize> = node
                .deps
                .iter()
                .filter_map(|d| list.iter().position(|x| x == d))
                .collect();
            at.sort_unstable();
            deps.push(at);
        }
        Ok(Op::ChildExec { ops, deps })
    }

    /// The handles of `op`, an executable graph's conditional node, and of the conditional
    /// nodes in its bodies, into `conds`: as their graph keeps them, or (their graph destroyed
    /// since) with no default.
    fn exec_handles(&self, op: &Op, conds: &mut BTreeMap<u64, Cond>) {
        if let Op::CondExec { handle, bodies, .. } = op {
            let cond = self.conds.get(handle).copied().unwrap_or(Cond {
                graph: 0,
                default: 0,
                assign_default: false,
                value: 0,
            });
            conds.insert(*handle, cond);
            for inner in bodies.iter().flatten() {
                self.exec_handles(inner, conds);
            }
        }
    }

    /// `op` as an executable graph keeps it: a conditional node with its bodies' operations as
    /// they are now (each body holding only the node types a body may: kernel, copy, memset,
    /// empty, conditional; `INVALID_VALUE` otherwise, as the board's instantiation answers),
    /// its handle's state into `conds`.
    fn snapshot(&self, op: &Op, conds: &mut BTreeMap<u64, Cond>) -> Result<Op, Code> {
        let (handle, kind, bodies) = match op {
            Op::Conditional {
                handle,
                kind,
                bodies,
            } => (handle, kind, bodies),
            // An executable graph's node, captured by a launch into a stream: its handles are
            // still the launch's to make live.
            Op::CondExec { .. } => {
                self.exec_handles(op, conds);
                return Ok(op.clone());
            }
            Op::Child { graph } => return self.snapshot_child(*graph, conds),
            _ => return Ok(op.clone()),
        };
        let cond = self.conds.get(handle).ok_or(INVALID_VALUE)?;
        conds.insert(*handle, *cond);
        let mut out = Vec::with_capacity(bodies.len());
        for body in bodies {
            let mut ops = Vec::new();
            for n in self.graphs.get(body).ok_or(INVALID_VALUE)? {
                let node = self.nodes.get(n).ok_or(INVALID_VALUE)?;
                let op = self.snapshot(&node.op, conds)?;
                // Kernel 0, memcpy 1, memset 2, child graph 4, empty 5, conditional 13, which
                // "applies recursively to child graphs" (cudaConditionalNodeParams,
                // driver_types.h). The board answers such a body `cudaErrorInvalidValue` at
                // instantiation (an H100, driver 580.159.04: tests/gpu/conditional_nodes.sh,
                // case `rules`).
                if let Some(t) = body_refuses(&op) {
                    stub_loader::debug_line(
                        "mock",
                        format_args!(
                            "graph instantiation: a conditional node's body holds a node of \
                             type {t}, which a body may not (the CUDA C++ Programming Guide, \
                             \"Conditional Graph Nodes\"): invalid value (1)"
                        ),
                    );
                    return Err(INVALID_VALUE);
                }
                ops.push(op);
            }
            out.push(ops);
        }
        Ok(Op::CondExec {
            handle: *handle,
            kind: *kind,
            bodies: out,
        })
    }
}

/// The type of the first operation of `op` (a conditional body's node, snapshotted), a child
/// graph's at any depth included, that a conditional node's body may not hold; `None` when it
/// may hold them all. A conditional node's own bodies were checked when it was snapshotted.
fn body_refuses(op: &Op) -> Option<u32> {
    match op {
        Op::ChildExec { ops, .. } => ops.iter().find_map(body_refuses),
        op if [0, 1, 2, 5, 13].contains(&op.node_type()) => None,
        op => Some(op.node_type()),
    }
}

/// Whether `a` and `b`, operations of executable graphs, have the same topology: any two
/// operations do, but two child graph nodes only with as many operations, of the same types,
/// with the same dependencies, their own children alike (`cudaGraphExecUpdate`'s rule, which
/// `cudaGraphExecChildGraphNodeSetParams` applies "recursively").
fn same_topology(a: &Op, b: &Op) -> bool {
    match (a, b) {
        (Op::ChildExec { ops: x, deps: dx }, Op::ChildExec { ops: y, deps: dy }) => {
            x.len() == y.len()
                && dx == dy
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| p.node_type() == q.node_type() && same_topology(p, q))
        }
        _ => true,
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
    // A capture begun into a child graph node's embedded graph takes no memory node there.
    if matches!(op, Op::MemAlloc { .. } | Op::MemFree { .. }) && r.in_child(graph) {
        return Ok(Err(INVALID_VALUE));
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
/// dependencies among the copies, in the same order, child graph nodes with copies of their
/// graphs; `INVALID_VALUE` for no graph.
pub fn clone_graph(graph: usize) -> Result<usize, Code> {
    let mut r = registry();
    let list = r.graphs.get(&graph).cloned().ok_or(INVALID_VALUE)?;
    // A conditional node's bodies and handle would need copies of their own: not modelled.
    if list
        .iter()
        .any(|n| matches!(r.nodes.get(n).map(|x| &x.op), Some(Op::Conditional { .. })))
    {
        stub_loader::debug_line(
            "mock",
            format_args!("cudaGraphClone of a graph with a conditional node: not supported (801)"),
        );
        return Err(NOT_SUPPORTED);
    }
    // Child graph nodes' embedded graphs are copied too, owned by the copies.
    let (copy, made) = r.copy_graph(graph);
    r.clones.insert(copy, made);
    Ok(copy)
}

/// The node of `clone`, a graph made by [`clone_graph`], that copied `original`
/// (`cudaGraphNodeFindInClone`, `cuGraphNodeFindInClone`); `INVALID_VALUE` (the code both
/// headers document) for a graph not made so, a node that was not in its original then, or a
/// copy destroyed since.
pub fn find_in_clone(original: usize, clone: usize) -> Result<usize, Code> {
    let r = registry();
    r.clones
        .get(&clone)
        .and_then(|made| made.get(&original))
        .copied()
        .filter(|copy| r.nodes.contains_key(copy))
        .ok_or(INVALID_VALUE)
}

/// Removes `node` from its graph (`cudaGraphDestroyNode`, `cuGraphDestroyNode`), with its edges:
/// the nodes after it no longer wait for it, and a stream in capture or an event recorded in one
/// whose last nodes held it no longer carry it. A conditional node's bodies and a child graph
/// node's embedded graph go with it. `INVALID_VALUE` for no node, and for a node with an edge in
/// a graph holding memory allocation or free nodes ("Dependencies cannot be removed from graphs
/// which contain allocation or free nodes. Any attempt to do so will return an error.",
/// cuda_runtime_api.h).
pub fn destroy_node(node: usize) -> Result<(), Code> {
    let mut r = registry();
    let graph = r.nodes.get(&node).ok_or(INVALID_VALUE)?.graph;
    let list = r.graphs.get(&graph).cloned().unwrap_or_default();
    let has_edge = r.nodes.get(&node).is_some_and(|n| !n.deps.is_empty())
        || list
            .iter()
            .any(|n| r.nodes.get(n).is_some_and(|x| x.deps.contains(&node)));
    let memory = list.iter().any(|n| {
        r.nodes
            .get(n)
            .is_some_and(|x| matches!(x.op, Op::MemAlloc { .. } | Op::MemFree { .. }))
    });
    if has_edge && memory {
        stub_loader::debug_line(
            "mock",
            format_args!(
                "a node with dependencies destroyed in a graph holding memory allocation or free \
                 nodes: invalid value (1)"
            ),
        );
        return Err(INVALID_VALUE);
    }
    if let Some(l) = r.graphs.get_mut(&graph) {
        l.retain(|&n| n != node);
    }
    for n in &list {
        if let Some(x) = r.nodes.get_mut(n) {
            x.deps.retain(|&d| d != node);
        }
    }
    let reg = &mut *r;
    for (g, tail) in reg.streams.values_mut().chain(reg.events.values_mut()) {
        if *g == graph {
            tail.retain(|&d| d != node);
        }
    }
    if let Some(made) = r.clones.get_mut(&graph) {
        made.retain(|_, copy| *copy != node);
    }
    match r.nodes.remove(&node).map(|n| n.op) {
        Some(Op::Conditional { bodies, .. }) => {
            for body in bodies {
                r.destroy_graph(body);
            }
        }
        Some(Op::Child { graph }) => r.destroy_graph(graph),
        _ => {}
    }
    // SAFETY: made by `handles::fresh` in `add`, removed above.
    unsafe { handles::release(node) };
    Ok(())
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
    // A conditional node's body is destroyed with its node, never alone.
    if !r.graphs.contains_key(&graph) || r.owners.contains_key(&graph) {
        return Err(INVALID_VALUE);
    }
    r.destroy_graph(graph);
    Ok(())
}

/// A conditional handle for `graph` (`cudaGraphConditionalHandleCreate`,
/// `cuGraphConditionalHandleCreate`) with `default` and `flags` (0 or
/// [`COND_ASSIGN_DEFAULT`]): `INVALID_VALUE` for no graph or another flag.
pub fn create_handle(graph: usize, default: u32, flags: u32) -> Result<u64, Code> {
    let mut r = registry();
    if !r.graphs.contains_key(&graph) || flags & !COND_ASSIGN_DEFAULT != 0 {
        return Err(INVALID_VALUE);
    }
    // Numbers of their own, never an address: a kernel passes them by value.
    r.last_handle += 1;
    let handle = r.last_handle;
    r.conds.insert(
        handle,
        Cond {
            graph,
            default,
            assign_default: flags & COND_ASSIGN_DEFAULT != 0,
            value: 0,
        },
    );
    Ok(handle)
}

/// Adds a conditional node of `kind` on `handle` with `size` bodies to `graph` after `deps`
/// (`cudaGraphAddNode` with `cudaGraphNodeTypeConditional`): the node and its new, empty body
/// graphs. `INVALID_VALUE` for a kind or size the type does not take (If 1 or 2, While 1,
/// Switch 1 or more), a handle not made for `graph` or a graph it sits in, dependencies not of
/// `graph`.
pub fn add_conditional(
    graph: usize,
    deps: &[usize],
    (handle, kind, size): (u64, u32, u32),
) -> Result<(usize, Vec<usize>), Code> {
    let sizes_ok = match kind {
        COND_IF => (1..=2).contains(&size),
        COND_WHILE => size == 1,
        COND_SWITCH => size >= 1,
        _ => false,
    };
    let mut r = registry();
    let handle_ok = r
        .conds
        .get(&handle)
        .is_some_and(|c| r.within(graph, c.graph));
    let valid = sizes_ok
        && handle_ok
        && r.graphs.contains_key(&graph)
        && deps
            .iter()
            .all(|d| r.nodes.get(d).is_some_and(|n| n.graph == graph));
    if !valid {
        return Err(INVALID_VALUE);
    }
    // The documentation refuses conditional nodes in an embedded graph when it is embedded;
    // what the board answers for one added to it afterwards is not known.
    if r.in_child(graph) {
        stub_loader::debug_line(
            "mock",
            format_args!(
                "a conditional node added to a child graph node's graph: not modelled by the \
                 mock device: not supported (801)"
            ),
        );
        return Err(NOT_SUPPORTED);
    }
    let bodies: Vec<usize> = (0..size)
        .map(|_| {
            let g = handles::fresh();
            r.graphs.insert(g, Vec::new());
            g
        })
        .collect();
    let op = Op::Conditional {
        handle,
        kind,
        bodies: bodies.clone(),
    };
    let node = r.add(graph, op, deps.to_vec());
    for &b in &bodies {
        r.owners.insert(b, node);
    }
    Ok((node, bodies))
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
    // "Allocation and free nodes cannot be added to the returned graph. Attempting to do so
    // will return an error." (cudaGraphChildGraphNodeGetGraph, cuda_runtime_api.h)
    if matches!(op, Op::MemAlloc { .. } | Op::MemFree { .. }) && r.in_child(graph) {
        stub_loader::debug_line(
            "mock",
            format_args!(
                "a memory node added to a child graph node's graph, which may hold none: \
                 invalid value (1)"
            ),
        );
        return Err(INVALID_VALUE);
    }
    Ok(r.add(graph, op, deps.to_vec()))
}

/// Adds a child graph node to `graph` after `deps`, embedding a copy of `child` made now
/// (`cudaGraphAddChildGraphNode`, `cuGraphAddChildGraphNode`, `cudaGraphAddNode` of
/// `cudaGraphNodeTypeGraph` with `cudaGraphChildGraphOwnershipClone`), or `child` itself when
/// `moved` (`cudaGraphChildGraphOwnershipMove`: the node owns it from now on, and it can no
/// longer be destroyed, instantiated, embedded elsewhere or given to an update on its own,
/// driver_types.h): the node's handle. `INVALID_VALUE` for no graph or child, dependencies not
/// of `graph`, a child holding memory allocation, memory free or conditional nodes, or one moved
/// into a node before; for a move also for a child owned by a node already, in capture, or that
/// is `graph` or holds it.
/// A moved child holding memory or conditional nodes, which NVIDIA allows, is not modelled
/// (`NOT_SUPPORTED` and a debug line): the mock's graph memory counts only a graph's own memory
/// nodes.
pub fn add_child(graph: usize, deps: &[usize], child: usize, moved: bool) -> Result<usize, Code> {
    let mut r = registry();
    let valid = r.graphs.contains_key(&graph)
        && r.graphs.contains_key(&child)
        && deps
            .iter()
            .all(|d| r.nodes.get(d).is_some_and(|n| n.graph == graph));
    if !valid {
        return Err(INVALID_VALUE);
    }
    // A moved graph "Cannot be added as a child graph of a separate parent graph", copied or not.
    if r.moved.contains(&child)
        || moved
            && (r.owners.contains_key(&child)
                || r.captures.contains_key(&child)
                || r.within(graph, child))
    {
        stub_loader::debug_line(
            "mock",
            format_args!(
                "a child graph node of a graph moved into a node before, or moved into its node \
                 while a node's, in capture, or the parent graph or one holding it: invalid \
                 value (1)"
            ),
        );
        return Err(INVALID_VALUE);
    }
    if let Some(t) = r.not_embeddable(child)
        && moved
    {
        stub_loader::debug_line(
            "mock",
            format_args!(
                "a child graph moved into its node holding a node of type {t} (memory allocation, \
                 memory free or conditional): not modelled by the mock device: not supported (801)"
            ),
        );
        return Err(NOT_SUPPORTED);
    }
    if let Some(t) = r.not_embeddable(child) {
        stub_loader::debug_line(
            "mock",
            format_args!(
                "a child graph node of a graph holding a node of type {t} (memory allocation, \
                 memory free and conditional nodes cannot be embedded): invalid value (1)"
            ),
        );
        return Err(INVALID_VALUE);
    }
    let embedded = if moved {
        r.moved.insert(child);
        child
    } else {
        r.copy_graph(child).0
    };
    let node = r.add(graph, Op::Child { graph: embedded }, deps.to_vec());
    r.owners.insert(embedded, node);
    Ok(node)
}

/// The graph embedded in child graph node `node` (`cudaGraphChildGraphNodeGetGraph`), owned by
/// the node; `INVALID_VALUE` for another node or none.
pub fn child_graph(node: usize) -> Result<usize, Code> {
    match registry().nodes.get(&node).map(|n| &n.op) {
        Some(Op::Child { graph }) => Ok(*graph),
        _ => Err(INVALID_VALUE),
    }
}

/// Gives `exec`'s child graph node `node` the operations of `child`, a graph of the same
/// topology as the one the node ran (`cudaGraphExecChildGraphNodeSetParams`,
/// `cuGraphExecChildGraphNodeSetParams`): as many nodes, in the same order, of the same types,
/// with the same dependencies, at every depth. `INVALID_VALUE` otherwise (the code both
/// headers document), for no such executable graph or graph, and for a node of `exec` of
/// another type.
pub fn exec_set_child(exec: usize, node: usize, child: usize) -> Result<(), Code> {
    let mut r = registry();
    let e = r.execs.get(&exec).ok_or(INVALID_VALUE)?;
    let at = e
        .nodes
        .iter()
        .position(|&n| n == node)
        .ok_or(INVALID_VALUE)?;
    let old = e.ops.get(at).cloned().ok_or(INVALID_VALUE)?;
    if !matches!(old, Op::ChildExec { .. }) || !r.graphs.contains_key(&child) {
        return Err(INVALID_VALUE);
    }
    let mut conds = BTreeMap::new();
    let new = r.snapshot_child(child, &mut conds)?;
    if !conds.is_empty() || !same_topology(&old, &new) {
        stub_loader::debug_line(
            "mock",
            format_args!(
                "cudaGraphExecChildGraphNodeSetParams: the graph's topology is not the child \
                 graph node's: invalid value (1)"
            ),
        );
        return Err(INVALID_VALUE);
    }
    if let Some(slot) = r.execs.get_mut(&exec).and_then(|e| e.ops.get_mut(at)) {
        *slot = new;
    }
    Ok(())
}

/// The array of `node`'s body graphs (`phGraph_out`), owned by the node: valid while it
/// lives (its operation is never replaced: `set_node_op` keeps a node's type and only kernel
/// and event nodes are set); NULL for no conditional node.
pub fn bodies_array(node: usize) -> *const usize {
    match registry().nodes.get(&node).map(|n| &n.op) {
        Some(Op::Conditional { bodies, .. }) => bodies.as_ptr(),
        _ => core::ptr::null(),
    }
}

/// A conditional node's handle, type and body count (`cudaGraphNodeGetParams`), with its bodies'
/// array ([`bodies_array`]); `None` for another node or none.
pub fn conditional_of(node: usize) -> Option<(u64, u32, u32, *const usize)> {
    let r = registry();
    match r.nodes.get(&node).map(|n| &n.op) {
        Some(Op::Conditional {
            handle,
            kind,
            bodies,
        }) => Some((*handle, *kind, bodies.len() as u32, bodies.as_ptr())),
        _ => None,
    }
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
    // A graph moved into its child graph node "Cannot be independently instantiated".
    let Some(list) = r.graphs.get(&graph).filter(|_| !r.moved.contains(&graph)) else {
        return Err(INVALID_VALUE);
    };
    let mut conds = BTreeMap::new();
    let mut nodes = Vec::with_capacity(list.len());
    let mut ops = Vec::with_capacity(list.len());
    for &n in list {
        if let Some(x) = r.nodes.get(&n) {
            nodes.push(n);
            ops.push(r.snapshot(&x.op, &mut conds)?);
        }
    }
    let exec = handles::fresh();
    let launched = false;
    r.execs.insert(
        exec,
        Exec {
            nodes,
            ops,
            launched,
            conds,
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
    let Some((ops, conds)) = registry().execs.get_mut(&exec).map(|e| {
        e.launched = true;
        (e.ops.clone(), e.conds.clone())
    }) else {
        return Err(INVALID_VALUE);
    };
    // A graph with conditional nodes cannot be launched into a stream capture: the board
    // answers `cudaErrorStreamCaptureUnsupported` (900) and the capture is invalidated, as for
    // any call a capture cannot take (an H100, driver 580.159.04: tests/gpu/conditional_nodes.sh,
    // case `captured_launch`).
    if !conds.is_empty() {
        let mut r = registry();
        if let Some((graph, _)) = r.streams.get(&key(stream)).cloned() {
            if let Some(c) = r.captures.get_mut(&graph) {
                c.invalid = true;
            }
            return Err(CAPTURE_UNSUPPORTED);
        }
    }
    // The graph memory its memory nodes add is counted toward the device's high watermark.
    crate::queue::mem_pools::graph_high(device, graph_memory(m, device));
    // Its handles live for the launch: the default, or what the last launch left.
    for (&h, c) in &conds {
        let start = if c.assign_default { c.default } else { c.value };
        crate::code::conditional::begin(h, start);
    }
    let ran = run_ops(m, &ops, stream, device);
    let values: Vec<(u64, u32)> = conds
        .keys()
        .map(|&h| (h, crate::code::conditional::end(h)))
        .collect();
    if let Some(e) = registry().execs.get_mut(&exec) {
        for (h, v) in values {
            if let Some(c) = e.conds.get_mut(&h) {
                c.value = v;
            }
        }
    }
    ran
}

/// Runs (or adds to `stream`'s capture) `ops` in order, a conditional node's bodies as its
/// handle's value says when the node is reached.
fn run_ops(m: &Model, ops: &[Op], stream: usize, device: usize) -> Result<(), Code> {
    for op in ops {
        // A child graph node's operations run where it stands (or join the capture one by one).
        if let Op::ChildExec { ops, .. } = op {
            run_ops(m, ops, stream, device)?;
            continue;
        }
        match capture(stream, op.clone()) {
            Ok(captured) => captured?,
            Err(Op::CondExec {
                handle,
                kind,
                bodies,
            }) => {
                // Read when the node is reached: what the kernels before it set.
                let value = || crate::code::conditional::value(handle).unwrap_or(0);
                let body = |i: usize| bodies.get(i).map_or(&[][..], |b| &b[..]);
                match kind {
                    COND_WHILE => {
                        while value() != 0 {
                            run_ops(m, body(0), stream, device)?;
                        }
                    }
                    COND_IF if value() != 0 => run_ops(m, body(0), stream, device)?,
                    COND_IF => run_ops(m, body(1), stream, device)?,
                    _ => run_ops(m, body(value() as usize), stream, device)?,
                }
            }
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
    // A graph moved into its child graph node "Cannot be used as an argument to
    // cudaGraphExecUpdate".
    if r.moved.contains(&graph) {
        return Err(INVALID_VALUE);
    }
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
    let mut conds = BTreeMap::new();
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
        let op = r.snapshot(&a.op, &mut conds)?;
        let kept = r.execs.get(&exec).and_then(|e| e.ops.get(ops.len()));
        if kept.is_some_and(|k| !same_topology(k, &op)) {
            return Ok(Some(UpdateRefused {
                result: UPDATE_TOPOLOGY_CHANGED,
                node: n,
            }));
        }
        ops.push(op);
    }
    if let Some(e) = r.execs.get_mut(&exec) {
        e.ops = ops;
        e.conds = conds;
    }
    Ok(None)
}

/// Whether `exec` is a live executable graph (`…Upload`: nothing to upload).
pub fn is_exec(exec: usize) -> bool {
    registry().execs.contains_key(&exec)
}

/// Begins a capture of `stream` in `mode`.
pub fn begin(stream: usize, mode: u32) -> Result<(), Code> {
    begin_into(stream, mode, None)
}

/// Begins a capture of `stream` in `mode` into the existing `graph`, its first nodes after
/// `deps` (each a node of `graph`: `INVALID_VALUE` otherwise, and for no graph)
/// (`cudaStreamBeginCaptureToGraph`, `cuStreamBeginCaptureToGraph`).
pub fn begin_to_graph(stream: usize, mode: u32, graph: usize, deps: &[usize]) -> Result<(), Code> {
    {
        let r = registry();
        let valid = r.graphs.contains_key(&graph)
            && deps
                .iter()
                .all(|d| r.nodes.get(d).is_some_and(|n| n.graph == graph));
        if !valid {
            return Err(INVALID_VALUE);
        }
    }
    begin_into(stream, mode, Some((graph, deps.to_vec())))
}

/// Begins a capture of `stream` in `mode`: into a new graph, or `into`'s graph after its
/// nodes.
fn begin_into(stream: usize, mode: u32, into: Option<(usize, Vec<usize>)>) -> Result<(), Code> {
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
    let to_graph = into.is_some();
    let (graph, tail) = match into {
        Some(into) => into,
        None => (create(), Vec::new()),
    };
    let mut r = registry();
    if r.streams.contains_key(&key(stream)) || r.captures.contains_key(&graph) {
        drop(r);
        if !to_graph {
            destroy(graph).ok();
        }
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
            to_graph,
        },
    );
    r.streams.insert(key(stream), (graph, tail));
    Ok(())
}

/// `cudaStreamAddCaptureDependencies`, `CU_STREAM_ADD_CAPTURE_DEPENDENCIES`.
pub const ADD_CAPTURE_DEPENDENCIES: u32 = 0;
/// `cudaStreamSetCaptureDependencies`, `CU_STREAM_SET_CAPTURE_DEPENDENCIES`.
pub const SET_CAPTURE_DEPENDENCIES: u32 = 1;

/// Adds `deps` to the nodes `stream`'s next captured work depends on, or makes them those
/// nodes (`cudaStreamUpdateCaptureDependencies`, `cuStreamUpdateCaptureDependencies`, by
/// `flags`): `ILLEGAL_STATE` outside a capture, `INVALID_VALUE` for another flag or a node not
/// of the capture's graph, `CAPTURE_INVALIDATED` for an invalidated capture.
pub fn update_dependencies(stream: usize, deps: &[usize], flags: u32) -> Result<(), Code> {
    if !handles::is_stream(stream) {
        return Err(INVALID_HANDLE);
    }
    let set = match flags {
        ADD_CAPTURE_DEPENDENCIES => false,
        SET_CAPTURE_DEPENDENCIES => true,
        _ => return Err(INVALID_VALUE),
    };
    let mut r = registry();
    let Some((graph, _)) = r.streams.get(&key(stream)).cloned() else {
        return Err(ILLEGAL_STATE);
    };
    if r.captures.get(&graph).is_some_and(|c| c.invalid) {
        return Err(CAPTURE_INVALIDATED);
    }
    if !deps
        .iter()
        .all(|d| r.nodes.get(d).is_some_and(|n| n.graph == graph))
    {
        return Err(INVALID_VALUE);
    }
    if let Some((_, tail)) = r.streams.get_mut(&key(stream)) {
        if set {
            tail.clear();
        }
        for &d in deps {
            if !tail.contains(&d) {
                tail.push(d);
            }
        }
    }
    Ok(())
}

/// Whether `stream`'s capture was begun into an existing graph (`cudaStreamBeginCaptureToGraph`):
/// its end may then give no graph back (`cudaStreamEndCapture(stream, NULL)`: the graph is
/// the caller's already).
pub fn captures_to_graph(stream: usize) -> bool {
    let r = registry();
    r.streams
        .get(&key(stream))
        .and_then(|(g, _)| r.captures.get(g))
        .is_some_and(|c| c.to_graph)
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
        r.fail_capture(graph, c.to_graph);
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
            r.fail_capture(graph, c.to_graph);
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

    /// Whether the `count` edges at `edges` (`cudaGraphEdgeData`, `CUgraphEdgeData`: 8 bytes
    /// each; NULL: all default) are all the default edge (zero bytes), the only kind the mock's
    /// graphs have.
    ///
    /// # Safety
    /// `edges` is NULL or `count` edges.
    pub unsafe fn default_edges(edges: *const [u8; 8], count: usize) -> bool {
        if edges.is_null() || count == 0 {
            return true;
        }
        // SAFETY: the caller's `count` edges, by the contract.
        let edges = unsafe { core::slice::from_raw_parts(edges, count) };
        edges.iter().all(|e| *e == [0; 8])
    }

    /// The `count` node handles at `deps` (NULL only for none); `None` for NULL with a count.
    ///
    /// # Safety
    /// `deps` is NULL or `count` handles.
    pub unsafe fn handles(deps: *const usize, count: usize) -> Option<Vec<usize>> {
        if count == 0 {
            return Some(Vec::new());
        }
        if deps.is_null() {
            return None;
        }
        // SAFETY: the caller's `count` handles, by the contract.
        Some(unsafe { core::slice::from_raw_parts(deps, count) }.to_vec())
    }

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

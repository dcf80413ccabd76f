//! Child graph nodes on the mock device (issue 48): `tests/cuda/child_graphs.cu`, built by
//! NVIDIA's nvcc 13.5 from the wheels (PTX only, `-gencode arch=compute_90,code=compute_90`),
//! linked only to the runtime and driver stubs, run under `CUDA_STUBS_MOCK=h100`. Each case
//! prints one line, which must be what cuda_runtime_api.h and cuda.h say a board does
//! (`tests/gpu/child_graphs.sh` prints the same lines on one): the child is copied when its node
//! is added, the node's embedded graph is its own and changes to it are the node's, nested
//! children run in dependency order as part of the parent, `cudaGraphAddNode` and
//! `cudaGraphNodeGetParams` of `cudaGraphNodeTypeGraph`, the graphs that cannot be embedded,
//! `cudaGraphClone`, `cudaGraphExecChildGraphNodeSetParams` and `cudaGraphExecUpdate` (topology
//! kept or refused), a capture begun into an embedded graph, a parent launched into a capture,
//! the driver's twins, a child in a conditional node's body, `cudaGraphNodeFindInClone`,
//! `cudaGraphDestroyNode` and a child graph moved into its node.

use std::path::PathBuf;
use std::sync::OnceLock;
use stubs_tests::{Outcome, Scenario, build_stubs, cuda_layout, temp_dir};

/// The program, once per test process.
fn program() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        build_stubs(&[stubs_tests::MOCK_PACKAGE]);
        let dir = temp_dir("mock-child-graphs");
        stubs_tests::nvcc_with_stub(
            &dir,
            "child_graphs",
            "cuda/child_graphs.cu",
            // The driver case's calls: the driver stub beside the runtime's.
            &[
                "-gencode",
                "arch=compute_90,code=compute_90",
                "-lstubs_cuda",
            ],
        )
    })
}

/// Runs `case` on the mock H100, with the debug log and nvJitLink 13.5 (for nvcc's PTX ISA
/// 9.5 on the profile's 13.0 driver) findable.
fn run_case(case: &str) -> Outcome {
    let nvjitlink = cuda_layout(13)
        .nvjitlink
        .expect("layout.json of CUDA 13 names nvJitLink (scripts/fetch-cuda.py)");
    Scenario::new(program())
        .args([case])
        .env("CUDA_STUBS_MOCK", "h100")
        .env("CUDA_STUBS_MOCK_THREADS", "2")
        .library_path([nvjitlink.parent().expect("nvJitLink's folder")])
        .debug()
        .run()
}

/// Every case but `moved_rules` and `destroy`, in one process (as the GPU script runs them),
/// once.
fn all() -> &'static Outcome {
    static RUN: OnceLock<Outcome> = OnceLock::new();
    RUN.get_or_init(|| {
        let run = run_case("all");
        run.assert_success();
        run
    })
}

/// The child is cloned when its node is added ("The child graph is cloned in this call"): a
/// kernel added to the original afterwards does not run in the parent. 4:
/// `cudaGraphNodeTypeGraph`.
#[test]
fn the_child_is_copied_when_its_node_is_added() {
    assert_eq!(
        all().line("clone_at_add"),
        "clone_at_add type=4 count=2 original_nodes=3 embedded_nodes=2 parent_nodes=1",
        "{}",
        all()
    );
}

/// `cudaGraphChildGraphNodeGetGraph` gives the node's own graph, the same each time, not the
/// original; a kernel added to it runs in the parent ("Changes to the graph will be reflected
/// in the node").
#[test]
fn the_embedded_graph_is_the_nodes_own() {
    assert_eq!(
        all().line("get_graph"),
        "get_graph same=1 differs=1 nodes=3 count=102",
        "{}",
        all()
    );
}

/// A child holding a child, between kernels of the parent, each after its dependencies:
/// ((1 * 3) + 5 + 4) * 10, again at the second launch; the graphs it was made of destroyed
/// before the instantiation.
#[test]
fn nested_children_run_in_dependency_order() {
    assert_eq!(all().line("nested"), "nested x=120 again=120", "{}", all());
}

/// `cudaGraphAddNode` of `cudaGraphNodeTypeGraph` and `cudaGraphNodeGetParams` of the node:
/// its embedded graph and ownership `cudaGraphChildGraphOwnershipInvalid` (-1), which
/// driver_types.h says a query sets.
#[test]
fn add_node_and_get_params_of_a_child_graph_node() {
    assert_eq!(
        all().line("add_node"),
        "add_node type=4 same_graph=1 not_child=1 ownership=-1 count=3",
        "{}",
        all()
    );
}

/// `cudaErrorInvalidValue` (1), the code cuda_runtime_api.h documents: a child holding a
/// memory allocation, memory free or conditional node; a memory allocation node added to an
/// embedded graph; the embedded graph of a kernel node; an ownership no enumerator names.
/// Nothing is added to the parent by a refused call.
#[test]
fn what_cannot_be_embedded_is_refused() {
    let run = all();
    assert_eq!(
        run.line("rules"),
        "rules alloc=1 free=1 conditional=1 alloc_in_embedded=1 not_child=1 ownership=1 nodes=2",
        "{run}"
    );
    assert!(
        run.stderr
            .contains("a child graph node of a graph holding a node of type 10"),
        "{run}"
    );
}

/// `cudaGraphClone` copies a child graph node's embedded graph too: the clone runs after the
/// original parent and child are destroyed.
#[test]
fn a_clone_copies_the_embedded_graph() {
    assert_eq!(
        all().line("clone"),
        "clone nodes=1 type=4 distinct=1 copied_nodes=2 count=2",
        "{}",
        all()
    );
}

/// `cudaGraphExecChildGraphNodeSetParams`: a graph of the same topology changes what the
/// executable graph runs (store 10, add 5), not the node; fewer nodes, other edges or other
/// node types answer `cudaErrorInvalidValue` and change nothing.
#[test]
fn exec_child_set_params_keeps_the_topology() {
    assert_eq!(
        all().line("exec_set"),
        "exec_set first=2 set=0 second=15 fewer=1 unlinked=1 types=1 after=15 node_kept=2",
        "{}",
        all()
    );
}

/// `cudaGraphExecUpdate` from a parent whose child has the same topology (taken: 30 + 3), then
/// from one whose child's edges differ: `cudaErrorGraphExecUpdateFailure` (910),
/// `cudaGraphExecUpdateErrorTopologyChanged` (2).
#[test]
fn exec_update_compares_the_childrens_topology() {
    assert_eq!(
        all().line("exec_update"),
        "exec_update same=0 x=33 other=910 result=2",
        "{}",
        all()
    );
}

/// A capture begun into an embedded graph after its node adds the captured kernels there:
/// (0 + 1) * 7 + 2.
#[test]
fn a_capture_into_the_embedded_graph() {
    assert_eq!(
        all().line("capture_to_child"),
        "capture_to_child same=1 nodes=3 x=9",
        "{}",
        all()
    );
}

/// A parent launched into a stream capture: the child's work runs where it stood, between
/// the captured kernels: (2 + 3) * 4 + 1.
#[test]
fn a_parent_launched_into_a_capture() {
    assert_eq!(
        all().line("captured_launch"),
        "captured_launch launch=0 x=21",
        "{}",
        all()
    );
}

/// The driver's `cuGraphAddChildGraphNode`, `cuGraphAddNode`, `cuGraphChildGraphNodeGetGraph`,
/// `cuGraphNodeGetParams` and `cuGraphExecChildGraphNodeSetParams` (a child of one node for
/// one of two: `CUDA_ERROR_INVALID_VALUE`).
#[test]
fn the_driver_api_adds_and_sets_child_graph_nodes() {
    assert_eq!(
        all().line("driver"),
        "driver type=4 same_graph=1 ownership=-1 count=4 mismatch=1 null_node=1",
        "{}",
        all()
    );
}

/// A child graph node in an If body runs with it; a child holding a host node makes the body
/// one the instantiation refuses (`cudaErrorInvalidValue`: the rule "applies recursively to
/// child graphs").
#[test]
fn a_child_in_a_conditional_body() {
    assert_eq!(
        all().line("in_conditional"),
        "in_conditional count=2 host_in_child=1",
        "{}",
        all()
    );
}

/// `cudaGraphNodeFindInClone`: each original node's copy in the clone (a kernel node, 0, and
/// not the original), which runs as the original ((0 + 1) * 10); `cudaErrorInvalidValue` (1,
/// the code cuda_runtime_api.h documents) for a graph that is no clone of the node's, for a node
/// added to the original after the clone and for a copy removed since.
#[test]
fn find_in_clone_gives_the_copy_of_a_node() {
    assert_eq!(
        all().line("find_in_clone"),
        "find_in_clone distinct=1 type=0 not_clone=1 later=1 x=10 removed=1",
        "{}",
        all()
    );
}

/// `cudaGraphDestroyNode` removes the node and its edges: the node after it runs alone (x
/// untouched, y = 7) and the chain's last node no longer runs (0 + 5 + 1); in a graph holding a
/// memory allocation node, a node with an edge stays (`cudaErrorInvalidValue`: "Dependencies
/// cannot be removed from graphs which contain allocation or free nodes").
#[test]
fn destroy_node_removes_the_node_and_its_edges() {
    let run = all();
    assert_eq!(
        run.line("destroy_node"),
        "destroy_node left=1 x=0 y=7 chain=6 memory=1 mem_nodes=2",
        "{run}"
    );
    assert!(
        run.stderr
            .contains("a node with dependencies destroyed in a graph holding memory"),
        "{run}"
    );
}

/// The driver's `cuGraphNodeFindInClone` (`CUDA_ERROR_INVALID_VALUE` for a graph that is no
/// clone) and `cuGraphDestroyNode`: the clone of a chain of three adders, its last copy removed,
/// adds 2.
#[test]
fn the_driver_api_finds_and_destroys_nodes() {
    assert_eq!(
        all().line("driver_nodes"),
        "driver_nodes distinct=1 not_clone=1 left=2 x=2",
        "{}",
        all()
    );
}

/// A graph moved into its node (`cudaGraphChildGraphOwnershipMove`, CUDA 12.9+) runs in the
/// parent: the chain of two adders.
#[test]
fn a_moved_child_runs_in_its_parent() {
    assert_eq!(all().line("move"), "move add=0 count=2", "{}", all());
}

/// The moved graph is the node's own (`cudaGraphChildGraphNodeGetGraph` gives it back), and
/// what driver_types.h says it "Cannot" be is refused with `cudaErrorInvalidValue` (1): destroyed,
/// instantiated, moved or copied into another parent; a graph is not moved into itself, and a
/// refused call adds nothing; the parent's destruction takes it. The mock alone: the header
/// names no code, and a destroyed graph's handle may not be used on a board.
#[test]
fn a_moved_child_is_its_nodes() {
    let run = run_case("moved_rules");
    run.assert_success();
    assert_eq!(
        run.line("moved_rules"),
        "moved_rules same=1 destroy=1 instantiate=1 again=1 copied=1 into_itself=1 \
         other_nodes=1 after=1",
        "{run}"
    );
    assert!(
        run.stderr.contains("a graph moved into a node before"),
        "{run}"
    );
}

/// The embedded graph is the node's: `cudaGraphDestroy` of it alone answers
/// `cudaErrorInvalidValue` and leaves it whole; destroying the parent destroys it (its handle
/// then names no graph), the original child untouched. The mock alone: on a board a destroyed
/// graph's handle may not be used, so the GPU script does not run this case.
#[test]
fn the_parent_destroys_its_embedded_graph() {
    let run = run_case("destroy");
    run.assert_success();
    assert_eq!(
        run.line("destroy"),
        "destroy alone=1 before=2 after=1 original=2",
        "{run}"
    );
}

//! Conditional graph nodes on the mock device (issue 48): `tests/cuda/conditional_nodes.cu`,
//! built by NVIDIA's nvcc 13.5 from the wheels (PTX only, `-gencode
//! arch=compute_90,code=compute_90`), linked only to the runtime and driver stubs, run under
//! `CUDA_STUBS_MOCK=h100`. Each case prints one line, which must be what the CUDA C++
//! Programming Guide's "Conditional Graph Nodes" says a board does (`tests/gpu/conditional_nodes.sh`
//! prints the same lines on one): an If of one body runs it only when a kernel set the handle,
//! an If of two runs the second otherwise, a While runs its body until the body's kernel sets
//! 0, one added by hand to a stream capture with its body captured by
//! `cudaStreamBeginCaptureToGraph` runs between the captured work, a Switch runs the body its
//! value names and none past its size, `cudaGraphCondAssignDefault` gives the handle its
//! default again at each launch, and the driver's `cuGraphConditionalHandleCreate` and
//! `cuGraphAddNode` do the same; a graph with conditional nodes launched into a capture is
//! refused as the board refuses it. A kernel's `cudaGraphSetConditional` is the executor's
//! (nvcc writes it as a call of an `.extern .func`: no `-rdc`, no cudadevrt).

use std::path::PathBuf;
use std::sync::OnceLock;
use stubs_tests::{Outcome, Scenario, build_stubs, cuda_layout, temp_dir};

/// The program, once per test process.
fn program() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        build_stubs(&[stubs_tests::MOCK_PACKAGE]);
        let dir = temp_dir("mock-conditional-nodes");
        stubs_tests::nvcc_with_stub(
            &dir,
            "conditional_nodes",
            "cuda/conditional_nodes.cu",
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

/// Every case but `outside`, in one process (as the GPU script runs them), once.
fn all() -> &'static Outcome {
    static RUN: OnceLock<Outcome> = OnceLock::new();
    RUN.get_or_init(|| {
        let run = run_case("all");
        run.assert_success();
        run
    })
}

#[test]
fn if_of_one_body_runs_it_when_a_kernel_set_the_handle() {
    // 13: cudaGraphNodeTypeConditional; `marks`: the body's second kernel, of no parameters,
    // its node's kernelParams NULL.
    assert_eq!(
        all().line("if1"),
        "if1 type=13 flag0=0 flag1=1 marks=1",
        "{}",
        all()
    );
}

#[test]
fn if_of_two_bodies_runs_the_second_when_the_value_is_zero() {
    assert_eq!(all().line("if2"), "if2 flag0=20 flag1=10", "{}", all());
}

#[test]
fn while_runs_its_body_until_the_body_sets_zero() {
    assert_eq!(all().line("while"), "while count=7", "{}", all());
}

#[test]
fn while_added_to_a_capture_with_a_body_captured_to_its_graph() {
    assert_eq!(
        all().line("while_capture"),
        "while_capture same_body=1 nodes=3 before=1 count=4 after=1",
        "{}",
        all()
    );
}

#[test]
fn switch_runs_the_body_its_value_names_and_none_past_its_size() {
    assert_eq!(
        all().line("switch"),
        "switch 0=100 1=101 2=102 3=-1",
        "{}",
        all()
    );
}

#[test]
fn assign_default_gives_the_handle_its_default_at_each_launch() {
    assert_eq!(
        all().line("default_reset"),
        "default_reset launches=3 count=3",
        "{}",
        all()
    );
}

#[test]
fn the_driver_api_makes_handles_and_conditional_nodes() {
    assert_eq!(all().line("driver_if"), "driver_if count=1", "{}", all());
}

/// An executable graph with conditional nodes launched into a stream capture: refused with
/// `cudaErrorStreamCaptureUnsupported` (900), the capture ended invalidated (901, no graph),
/// nothing run; the board's answer (an H100, driver 580.159.04, tests/gpu/RESULTS.md).
#[test]
fn a_graph_with_conditional_nodes_is_not_launched_into_a_capture() {
    assert_eq!(
        all().line("captured_launch"),
        "captured_launch launch=900 end=901 graph=0 count=0",
        "{}",
        all()
    );
}

/// `cudaGraphNodeGetParams` and `cuGraphNodeGetParams` of a Switch node: its type, size,
/// handle and bodies (the node's own array).
#[test]
fn a_conditional_node_gives_its_parameters_back() {
    let run = run_case("node_params");
    run.assert_success();
    assert_eq!(
        run.line("node_params"),
        "node_params type=13 kind=2 size=4 same_handle=1 same_bodies=1 driver_size=4 \
         driver_bodies=1",
        "{run}"
    );
}

/// What is refused, with `cudaErrorInvalidValue` (1), as the board refuses it: a host node in a
/// body at instantiation, bodies a type does not take, a handle of another graph.
#[test]
fn the_rules_of_bodies_and_handles_answer_as_the_board() {
    let run = all();
    assert_eq!(
        run.line("rules"),
        "rules host_body=1 if3=1 while2=1 switch0=1 foreign_handle=1",
        "{run}"
    );
    assert!(
        run.stderr
            .contains("a conditional node's body holds a node of type 3"),
        "{run}"
    );
}

/// A kernel launched on its own that sets a handle: no graph launch holds it; the launch
/// succeeds and the kernel faults, 700 at the synchronization, sticky, as the board answered;
/// the debug log names the handle and the PTX line.
#[test]
fn a_handle_set_outside_its_graph_launch_faults() {
    let run = run_case("outside");
    run.assert_success();
    assert_eq!(run.line("outside"), "outside launch=0 sync=700", "{run}");
    assert!(
        run.stderr.contains("ended: Conditional { handle: "),
        "{run}"
    );
}

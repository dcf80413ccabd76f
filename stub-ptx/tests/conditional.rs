//! `cudaGraphSetConditional` (cuda_device_runtime_api.h, CUDA 12.3+) as nvcc 13.5 writes it in
//! PTX: a call of the `.extern .func` the driver's JIT resolves, its handle and value passed as
//! `.param` variables. The executor hands each calling thread's pair to
//! [`stub_ptx::Device::set_conditional`]; a handle the device does not know ends the launch
//! with [`Fault::Conditional`] at the call's line.

mod common;

use common::{TestDevice, launch};
use stub_ptx::{Fault, Program};

/// `__global__ void k(cudaGraphConditionalHandle h, const int *v) { if (threadIdx.x == 0)
/// cudaGraphSetConditional(h, *v > 0); }`, as nvcc 13.5 wrote it (`-arch=compute_90 -ptx`):
/// no `-rdc`, no cudadevrt; the driver's JIT resolves the call.
const PTX: &str = r#"
.version 9.5
.target sm_90
.address_size 64

	// .globl	_Z1kyPKi
.extern .func cudaGraphSetConditional
(
	.param .b64 cudaGraphSetConditional_param_0,
	.param .b32 cudaGraphSetConditional_param_1
)
;

.visible .entry _Z1kyPKi(
	.param .u64 _Z1kyPKi_param_0,
	.param .u64 _Z1kyPKi_param_1
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;


	ld.param.u64 	%rd1, [_Z1kyPKi_param_0];
	ld.param.u64 	%rd2, [_Z1kyPKi_param_1];
	mov.u32 	%r1, %tid.x;
	setp.ne.s32 	%p1, %r1, 0;
	@%p1 bra 	$L__BB0_2;

	cvta.to.global.u64 	%rd3, %rd2;
	ld.global.u32 	%r2, [%rd3];
	setp.gt.s32 	%p2, %r2, 0;
	selp.u32 	%r3, 1, 0, %p2;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd1;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r3;
	call.uni
	cudaGraphSetConditional,
	(
	param0,
	param1
	);
	} // callseq 0

$L__BB0_2:
	ret;

}

"#;

fn run(dev: &mut TestDevice, handle: u64, value: i32) -> Result<(), Fault> {
    let program = Program::load(PTX).expect("the PTX parses");
    let v = dev.upload(&[value]);
    launch(
        &program,
        "_Z1kyPKi",
        dev,
        [2, 1, 1],
        [64, 1, 1],
        0,
        &[&handle.to_le_bytes(), &v.to_le_bytes()],
    )
}

#[test]
fn each_calling_thread_sets_the_handle() {
    let mut dev = TestDevice::default();
    dev.handles.push(0x1234_5678_9abc);
    run(&mut dev, 0x1234_5678_9abc, 5).unwrap();
    run(&mut dev, 0x1234_5678_9abc, -1).unwrap();
    // Thread 0 of each of the two blocks, per launch.
    let got = dev.conditionals.lock().unwrap().clone();
    assert_eq!(
        got,
        vec![
            (0x1234_5678_9abc, 1),
            (0x1234_5678_9abc, 1),
            (0x1234_5678_9abc, 0),
            (0x1234_5678_9abc, 0)
        ]
    );
}

#[test]
fn an_unknown_handle_ends_the_launch_at_the_call() {
    let mut dev = TestDevice::default();
    let fault = run(&mut dev, 77, 1).unwrap_err();
    let line = PTX
        .lines()
        .position(|l| l.contains("call.uni"))
        .expect("the call") as u32
        + 1;
    assert!(
        matches!(fault, Fault::Conditional { handle: 77, line: l } if l == line),
        "{fault:?}"
    );
}

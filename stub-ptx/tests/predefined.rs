//! PTX's predefined identifier `WARP_SZ` (PTX ISA "Predefined Identifiers"), which nvcc writes
//! for `warpSize` (cuda-samples' simpleHyperQ): a source operand worth 32.

mod common;

use common::{TestDevice, launch};
use stub_ptx::Program;

/// out[tid] = tid * WARP_SZ + WARP_SZ.
const PTX: &str = "
.version 8.5
.target sm_90
.address_size 64
.visible .entry warp_sz(.param .u64 out)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, WARP_SZ;
	mad.lo.s32 %r3, %r1, %r2, WARP_SZ;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}
";

#[test]
fn warp_sz_is_32() {
    let p = Program::load(PTX).expect("parses");
    let mut dev = TestDevice::default();
    let out = dev.alloc(40 * 4);
    launch(
        &p,
        "warp_sz",
        &dev,
        [1, 1, 1],
        [40, 1, 1],
        0,
        &[&out.to_le_bytes()],
    )
    .unwrap();
    let got: Vec<u32> = dev.download(out, 40);
    let want: Vec<u32> = (0..40).map(|t| t * 32 + 32).collect();
    assert_eq!(got, want);
}

//! Warp-wide instructions whose lanes pass different membermasks (PTX ISA `redux.sync`,
//! `vote.sync`, `match.sync`: each thread names the threads it synchronizes with):
//! cooperative groups' `reduce` over a `labeled_partition` does exactly this (cuda-samples'
//! warpAggregatedAtomicsCG, whose bucket maxima came out as the whole warp's maximum when
//! every lane used the first lane's mask).

mod common;

use common::{TestDevice, launch};
use stub_ptx::Program;

/// Per lane: m = match.any(key), then max(val), min(val) as unsigned and ballot(val < 0)
/// over m, and match.all(key) over m; each to its own output array.
const PTX: &str = "
.version 8.5
.target sm_90
.address_size 64
.visible .entry masks(.param .u64 keys, .param .u64 vals, .param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [keys];
	ld.param.u64 %rd2, [vals];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u32 %r2, [%rd5];
	add.s64 %rd6, %rd2, %rd4;
	ld.global.u32 %r3, [%rd6];
	match.any.sync.b32 %r4, %r2, 0xffffffff;
	redux.sync.max.s32 %r5, %r3, %r4;
	redux.sync.min.u32 %r6, %r3, %r4;
	setp.lt.s32 %p1, %r3, 0;
	vote.sync.ballot.b32 %r7, %p1, %r4;
	match.all.sync.b32 %r8|%p2, %r2, %r4;
	add.s64 %rd7, %rd3, %rd4;
	st.global.u32 [%rd7], %r4;
	st.global.u32 [%rd7+128], %r5;
	st.global.u32 [%rd7+256], %r6;
	st.global.u32 [%rd7+384], %r7;
	st.global.u32 [%rd7+512], %r8;
	ret;
}
";

#[test]
fn each_lane_uses_its_own_membermask() {
    let p = Program::load(PTX).expect("parses");
    let mut dev = TestDevice::default();
    let mut s = 12345u32;
    let mut keys = [0u32; 32];
    let mut vals = [0i32; 32];
    for i in 0..32 {
        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
        keys[i] = (s >> 8) % 5;
        vals[i] = s as i32;
    }
    let (dk, dv, out) = (dev.upload(&keys), dev.upload(&vals), dev.alloc(5 * 128));
    let args: [&[u8]; 3] = [&dk.to_le_bytes(), &dv.to_le_bytes(), &out.to_le_bytes()];
    launch(&p, "masks", &dev, [1, 1, 1], [32, 1, 1], 0, &args).unwrap();
    let got: Vec<u32> = dev.download(out, 5 * 32);
    for t in 0..32 {
        let group: Vec<usize> = (0..32).filter(|&j| keys[j] == keys[t]).collect();
        let mask = group.iter().fold(0u32, |m, &j| m | 1 << j);
        let max = group.iter().map(|&j| vals[j]).max().unwrap();
        let umin = group.iter().map(|&j| vals[j] as u32).min().unwrap();
        let ballot = group
            .iter()
            .filter(|&&j| vals[j] < 0)
            .fold(0u32, |m, &j| m | 1 << j);
        let lane: Vec<u32> = (0..5).map(|k| got[k * 32 + t]).collect();
        assert_eq!(lane, [mask, max as u32, umin, ballot, mask], "lane {t}");
    }
    // Not one group: the test means something only with several masks in the warp.
    assert!(keys.iter().any(|&k| k != keys[0]));
}

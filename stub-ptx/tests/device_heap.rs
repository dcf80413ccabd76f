//! The device heap's `malloc` and `free` as nvcc's PTX calls them (`.extern .func` resolved by
//! the driver's JIT): each lane's call reaches [`stub_ptx::Device::malloc`] with its own size
//! and gets its own block; `free` hands the pointer back, NULL is a no-op, a pointer the heap
//! did not give faults; a device without a heap answers NULL; a module defining its own
//! `malloc` calls that one.

mod common;

use common::{HEAP_BLOCK, TestDevice, launch};
use stub_ptx::{Fault, Program};

/// `blocks[tid] = malloc(sizes[tid])`, `*blocks[tid] = tid` where non-NULL, then
/// `free(blocks[tid])` when `release` is set; `free(bad)` when `bad` is not 0.
const HEAP: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.extern .func (.param .b64 func_retval0) malloc
(
	.param .b64 malloc_param_0
)
;
.extern .func free
(
	.param .b64 free_param_0
)
;

.visible .entry heap(
	.param .u64 heap_param_0,
	.param .u64 heap_param_1,
	.param .u32 heap_param_2,
	.param .u64 heap_param_3
)
{
	.reg .pred %p<4>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<12>;

	ld.param.u64 %rd1, [heap_param_0];
	ld.param.u64 %rd2, [heap_param_1];
	ld.param.u32 %r1, [heap_param_2];
	ld.param.u64 %rd9, [heap_param_3];
	cvta.to.global.u64 %rd3, %rd1;
	cvta.to.global.u64 %rd4, %rd2;
	mov.u32 %r2, %tid.x;
	mul.wide.u32 %rd5, %r2, 8;
	add.s64 %rd6, %rd4, %rd5;
	ld.global.u64 %rd7, [%rd6];
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 [param0], %rd7;
	.param .b64 retval0;
	call.uni (retval0),
	malloc,
	(
	param0
	);
	ld.param.b64 %rd8, [retval0];
	} // callseq 0
	add.s64 %rd10, %rd3, %rd5;
	st.global.u64 [%rd10], %rd8;
	setp.eq.s64 %p1, %rd8, 0;
	@%p1 bra $L_skip;
	st.u32 [%rd8], %r2;
	setp.eq.s32 %p2, %r1, 0;
	@%p2 bra $L_skip;
	{ // callseq 1, 0
	.param .b64 param0;
	st.param.b64 [param0], %rd8;
	call.uni
	free,
	(
	param0
	);
	} // callseq 1
$L_skip:
	setp.eq.s64 %p3, %rd9, 0;
	@%p3 bra $L_end;
	{ // callseq 2, 0
	.param .b64 param0;
	st.param.b64 [param0], %rd9;
	call.uni
	free,
	(
	param0
	);
	} // callseq 2
$L_end:
	ret;
}
"#;

/// A module of its own `malloc` (a bump over a `.global` array): called as any function.
const OWN_MALLOC: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.global .align 8 .b8 arena[64];

.func (.param .b64 func_retval0) malloc(
	.param .b64 malloc_param_0
)
{
	.reg .b64 %rd<3>;
	mov.u64 %rd1, arena;
	cvta.global.u64 %rd2, %rd1;
	st.param.b64 [func_retval0], %rd2;
	ret;
}

.visible .entry own(
	.param .u64 own_param_0
)
{
	.reg .b64 %rd<5>;
	ld.param.u64 %rd1, [own_param_0];
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 [param0], 8;
	.param .b64 retval0;
	call.uni (retval0),
	malloc,
	(
	param0
	);
	ld.param.b64 %rd2, [retval0];
	} // callseq 0
	cvta.to.global.u64 %rd3, %rd1;
	st.global.u64 [%rd3], %rd2;
	ret;
}
"#;

/// Runs `heap` over `threads` lanes with each lane's size: the pointers each got.
fn run_heap(
    dev: &mut TestDevice,
    sizes: &[u64],
    release: bool,
    bad: u64,
) -> (Result<(), Fault>, Vec<u64>) {
    let p = Program::load(HEAP).expect("HEAP parses");
    let n = sizes.len();
    let (out, dsizes) = (dev.alloc(n * 8), dev.upload(sizes));
    let r = launch(
        &p,
        "heap",
        dev,
        [1, 1, 1],
        [n as u32, 1, 1],
        0,
        &[
            &out.to_le_bytes(),
            &dsizes.to_le_bytes(),
            &u32::from(release).to_le_bytes(),
            &bad.to_le_bytes(),
        ],
    );
    (r, dev.download(out, n))
}

#[test]
fn each_lane_gets_its_own_block_and_writes_it() {
    let mut dev = TestDevice::default();
    dev.heap(40);
    let sizes: Vec<u64> = (0..40).map(|i| 4 + i % 8).collect();
    let (r, got) = run_heap(&mut dev, &sizes, false, 0);
    r.expect("the launch ends");
    let mut sorted = got.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 40, "distinct blocks: {got:x?}");
    for (tid, &b) in got.iter().enumerate() {
        assert!(dev.heap.contains(&b), "lane {tid}: {b:#x} is no heap block");
        assert_eq!(
            dev.download::<u32>(b, 1)[0],
            tid as u32,
            "lane {tid}'s block"
        );
    }
    assert!(dev.freed.lock().unwrap().is_empty());
}

#[test]
fn a_request_past_the_heap_or_with_no_heap_answers_null() {
    // Lanes 2 and 5 ask more than a block: NULL, and they write nothing.
    let mut dev = TestDevice::default();
    dev.heap(8);
    let mut sizes = vec![8u64; 8];
    sizes[2] = HEAP_BLOCK + 1;
    sizes[5] = 1 << 40;
    let (r, got) = run_heap(&mut dev, &sizes, false, 0);
    r.expect("the launch ends");
    assert_eq!((got[2], got[5]), (0, 0), "{got:x?}");
    assert_eq!(got.iter().filter(|&&b| b != 0).count(), 6, "{got:x?}");
    // The trait's default device has no heap.
    let mut bare = TestDevice::default();
    let (r, got) = run_heap(&mut bare, &[8; 4], false, 0);
    r.expect("the launch ends");
    assert_eq!(got, vec![0; 4]);
}

#[test]
fn free_hands_each_block_back_and_null_is_a_no_op() {
    let mut dev = TestDevice::default();
    dev.heap(16);
    let (r, got) = run_heap(&mut dev, &[16; 16], true, 0);
    r.expect("the launch ends");
    let mut freed = dev.freed.lock().unwrap().clone();
    freed.sort_unstable();
    let mut want = got.clone();
    want.sort_unstable();
    assert_eq!(freed, want);
    // NULL from a full heap: its free does nothing and the launch ends well.
    let mut full = TestDevice::default();
    full.heap(1);
    let (r, got) = run_heap(&mut full, &[8; 3], true, 0);
    r.expect("free(NULL) is a no-op");
    assert_eq!(got.iter().filter(|&&b| b == 0).count(), 2);
}

#[test]
fn freeing_a_pointer_the_heap_did_not_give_faults() {
    let mut dev = TestDevice::default();
    dev.heap(4);
    let stranger = dev.alloc(16);
    let (r, _) = run_heap(&mut dev, &[8], false, stranger);
    match r {
        Err(Fault::IllegalAddress { addr, len: 0, line }) => {
            assert_eq!(addr, stranger);
            assert!(line > 0);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_module_with_its_own_malloc_calls_it() {
    let p = Program::load(OWN_MALLOC).expect("OWN_MALLOC parses");
    let mut dev = TestDevice::default();
    dev.heap(4);
    dev.load_variables(&p);
    let out = dev.alloc(8);
    launch(
        &p,
        "own",
        &dev,
        [1, 1, 1],
        [1, 1, 1],
        0,
        &[&out.to_le_bytes()],
    )
    .unwrap();
    let got = dev.download::<u64>(out, 1)[0];
    assert_eq!(Some(got), stub_ptx::Device::symbol(&dev, "arena"));
    assert_eq!(
        *dev.heap_used.lock().unwrap(),
        0,
        "the device heap was not asked"
    );
}

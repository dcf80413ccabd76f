//! Executor bugs found by the GPU conformance families (`tests/cuda/conformance/`, issue 47),
//! each reduced to a few lines of PTX with the value the PTX ISA gives.

mod common;

use common::{TestDevice, launch};
use stub_ptx::Program;

/// Runs `body` (PTX statements reading `%a`, `%b` (also as f32 in `%fa`, `%fb`) and writing
/// `%r`; `%u` (b32) and `%h` (b16) free, `%t` the thread's index) once per pair of `pairs`, one
/// thread each, and returns each `%r`.
fn run_pairs(body: &str, pairs: &[(u32, u32)]) -> Vec<u32> {
    let ptx = format!(
        ".version 9.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 out, .param .u64 in)\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %a, %b, %r, %t, %u;\n.reg .f32 %fa, %fb;\n.reg .b16 %h;\n.reg .b64 %o, %i, %x;\n\
         ld.param.u64 %o, [out];\nld.param.u64 %i, [in];\nmov.u32 %t, %tid.x;\n\
         mul.wide.u32 %x, %t, 8;\nadd.s64 %x, %i, %x;\nld.global.v2.u32 {{%a, %b}}, [%x];\n\
         mov.b32 %fa, %a;\nmov.b32 %fb, %b;\n{body}\n\
         mul.wide.u32 %x, %t, 4;\nadd.s64 %x, %o, %x;\nst.global.u32 [%x], %r;\nret;\n}}\n"
    );
    let p = Program::load(&ptx).expect("the PTX parses");
    let mut dev = TestDevice::default();
    let input: Vec<u32> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    let din = dev.upload(&input);
    let dout = dev.alloc(pairs.len() * 4);
    let n = u32::try_from(pairs.len()).expect("few pairs");
    launch(
        &p,
        "k",
        &dev,
        [1, 1, 1],
        [n, 1, 1],
        0,
        &[&dout.to_le_bytes(), &din.to_le_bytes()],
    )
    .expect("the launch runs");
    dev.download(dout, pairs.len())
}

/// `setp.cmp.ftz.f32` flushes subnormal inputs to the zero of their sign before comparing
/// (PTX ISA "setp": "subnormal numbers are flushed to sign-preserving zero"): the largest
/// subnormal equals 0 and -3 × 2^-149 is not below 0; without `.ftz` they compare as values.
/// Found by the fp32_ftz family (`-ftz=true`, whose comparisons NVRTC emits with `.ftz`).
#[test]
fn setp_ftz_flushes_subnormal_inputs() {
    let body = "setp.eq.ftz.f32 %p1, %fa, %fb;\nsetp.lt.ftz.f32 %p2, %fa, %fb;\n\
                setp.lt.f32 %p3, %fa, %fb;\n\
                selp.u32 %r, 1, 0, %p1;\nselp.u32 %a, 2, 0, %p2;\nor.b32 %r, %r, %a;\n\
                selp.u32 %a, 4, 0, %p3;\nor.b32 %r, %r, %a;";
    let pairs = [
        (0x007f_ffff, 0x0000_0000), // largest subnormal vs +0: equal under .ftz
        (0x8000_0003, 0x0000_0000), // -3 × 2^-149 vs +0: equal under .ftz, less without
        (0x0000_0001, 0x0080_0000), // 2^-149 vs the smallest normal: less either way
        (0x3f80_0000, 0x4000_0000), // 1 < 2
    ];
    assert_eq!(run_pairs(body, &pairs), [1, 1 | 4, 2 | 4, 2 | 4]);
}

/// `set.cmp.ftz.u32.f32` likewise.
#[test]
fn set_ftz_flushes_subnormal_inputs() {
    let body = "set.eq.ftz.u32.f32 %r, %fa, %fb;";
    assert_eq!(
        run_pairs(
            body,
            &[(0x007f_ffff, 0x8000_0000), (0x3f80_0000, 0x3f80_0001)]
        ),
        [0xffff_ffff, 0]
    );
}

/// `cvt` to and from `.bf16` converts floats (PTX ISA "cvt"): `.bf16` was taken for an integer
/// type (its name starts `.b`, as `.b16` does), so `cvt.rn.bf16.f32` saturated to an integer.
/// Found by the half family (`__float2bfloat16_rn`, `__bfloat162float`, `__bfloat162int_rz`).
#[test]
fn cvt_bf16_is_a_float_conversion() {
    // f32 -> bf16 in the four modes, on 1 + 2^-8 + 2^-9 (between two bf16 values) and -inf.
    let body = "cvt.rn.bf16.f32 %h, %fa;\ncvt.u32.u16 %r, %h;\n\
                cvt.rz.bf16.f32 %h, %fa;\ncvt.u32.u16 %u, %h;\nshl.b32 %u, %u, 16;\nxor.b32 %r, %r, %u;";
    let got = run_pairs(body, &[(0x3f80_c000, 0), (0xff80_0000, 0)]);
    assert_eq!(
        got,
        [0x3f80 ^ (0x3f80 << 16) ^ 0x1, 0xff80 ^ (0xff80 << 16)]
    );
    // bf16 -> f32 (exact), bf16 -> s32 (toward zero), s32 -> bf16.
    let body = "cvt.u16.u32 %h, %a;\ncvt.f32.bf16 %fa, %h;\nmov.b32 %r, %fa;";
    assert_eq!(
        run_pairs(body, &[(0x8000, 0), (0xc120, 0)]),
        [0x8000_0000, 0xc120_0000]
    );
    let body = "cvt.u16.u32 %h, %a;\ncvt.rzi.s32.bf16 %r, %h;";
    assert_eq!(
        run_pairs(body, &[(0xc128, 0), (0x7f80, 0)]),
        [(-10i32) as u32, i32::MAX as u32]
    );
    let body = "cvt.rn.bf16.s32 %h, %a;\ncvt.u32.u16 %r, %h;";
    assert_eq!(
        run_pairs(body, &[((-12i32) as u32, 0), (257, 0)]),
        [0xc140, 0x4380]
    );
}

/// `vabsdiff4` and `vabsdiff2` (PTX ISA "SIMD Video Instructions"), which NVRTC emits for
/// `__vabsdiffu4`, `__vsadu4` and `__vsadu2`, were refused at decode. Found by the bits family
/// (bits_simd).
#[test]
fn vabsdiff_simd_lanes() {
    let pairs = [(0x0180_ff10, 0x0280_00ff), (0x8000_7fff, 0x7fff_8000)];
    // Bytes: |1-2|, |0x80-0x80|, |0xff-0|, |0x10-0xff| = 1, 0, 0xff, 0xef.
    let body = "vabsdiff4.u32.u32.u32 %r, %a, %b, %u;";
    let got = run_pairs(&format!("mov.u32 %u, 0;\n{body}"), &pairs);
    assert_eq!(got[0], 0x0100_ffef);
    // With .add: c + the sum of the lanes.
    let body = "mov.u32 %u, 1000;\nvabsdiff4.u32.u32.u32.add %r, %a, %b, %u;";
    assert_eq!(run_pairs(body, &pairs)[0], 1000 + 1 + 0xff + 0xef);
    // Signed bytes: |(-128) - 127| = 255, saturated to 127 in a signed destination.
    let body = "mov.u32 %u, 0;\nvabsdiff4.s32.s32.s32.sat %r, %a, %b, %u;";
    assert_eq!(
        run_pairs(body, &[(0x0000_0080, 0x0000_007f)])[0],
        0x0000_007f
    );
    // Half-words, accumulated: |0x8000-0x7fff| + |0x7fff-0x8000| = 2 (unsigned).
    let body = "mov.u32 %u, 5;\nvabsdiff2.u32.u32.u32.add %r, %a, %b, %u;";
    assert_eq!(run_pairs(body, &pairs)[1], 5 + 1 + 1);
}

/// A lane selector or mask on a video instruction's operand is not modelled: refused, never
/// run as if it were absent.
#[test]
fn vabsdiff_with_a_lane_selector_is_refused() {
    let ptx = ".version 9.0\n.target sm_90\n.address_size 64\n\
               .visible .entry k()\n{\n.reg .b32 %r<4>;\n\
               vabsdiff4.u32.u32.u32 %r1, %r2.b3210, %r3.b0123, %r0;\nret;\n}\n";
    let refused = match Program::load(ptx) {
        Err(_) => true,
        Ok(p) => p.kernel("k").is_err(),
    };
    assert!(refused);
}

/// `add`, `sub`, `min`, `max` on `.u16x2` / `.s16x2` (PTX ISA 8.0, sm_90), which NVRTC emits
/// for `__vadd2`, `__vsub2`, `__vmaxs2`, `__vminu2` …, were refused at decode. Found by the bits
/// family (bits_simd).
#[test]
fn packed_16x2_integer_arithmetic() {
    let pairs = [(0xffff_8000, 0x0001_8000)];
    let one = |op: &str| run_pairs(&format!("{op} %r, %a, %b;"), &pairs)[0];
    assert_eq!(one("add.u16x2"), 0x0000_0000); // no carry between the halves
    assert_eq!(one("add.s16x2"), 0x0000_0000);
    assert_eq!(one("sub.u16x2"), 0xfffe_0000);
    assert_eq!(one("min.u16x2"), 0x0001_8000);
    assert_eq!(one("max.u16x2"), 0xffff_8000);
    assert_eq!(one("min.s16x2"), 0xffff_8000); // -1 < 1, -32768 = -32768
    assert_eq!(one("max.s16x2"), 0x0001_8000);
}

/// `mul24.hi` (bits 47..16 of the 48-bit product) and `mad24` were refused at decode although
/// their numerics were there (`num::mul24`, `num::mad24`); only `mul24.lo` was wired.
#[test]
fn mul24_hi_and_mad24() {
    // 0x00ffffff × 0x00ffffff = 0xffff_fe00_0001: bits 47..16 = 0xfffffe00.
    let pairs = [(0xabff_ffff, 0x12ff_ffff)]; // the top bytes are not read
    let one = |op: &str| run_pairs(&format!("mov.u32 %u, 7;\n{op}"), &pairs)[0];
    assert_eq!(one("mul24.hi.u32 %r, %a, %b;"), 0xffff_fe00);
    // Signed: -1 × -1 = 1, bits 47..16 = 0.
    assert_eq!(one("mul24.hi.s32 %r, %a, %b;"), 0);
    assert_eq!(
        one("mad24.lo.u32 %r, %a, %b, %u;"),
        0xfe00_0001u32.wrapping_add(7)
    );
    assert_eq!(one("mad24.hi.u32 %r, %a, %b, %u;"), 0xffff_fe07);
    let big = [(0x0040_0000, 0x0040_0000)]; // 2^22 × 2^22 = 2^44: .hi = 2^28
    assert_eq!(
        run_pairs(
            "mov.u32 %u, 0x7ffffff0;\nmad24.hi.sat.s32 %r, %a, %b, %u;",
            &big
        )[0],
        0x7fff_ffff
    );
}

/// `slct` (PTX ISA "slct": `d = c >= 0 ? a : b`) was refused at decode (issue 47 lists it with
/// setp and selp).
#[test]
fn slct_selects_by_the_sign_of_c() {
    // a and b as they come; c in %u: -0.0 selects a, NaN and negative values b, .ftz flushes
    // -subnormal to -0 (selects a).
    let run = |op: &str, cs: &[u32]| -> Vec<u32> {
        let pairs: Vec<(u32, u32)> = cs.iter().map(|&c| (c, 0)).collect();
        run_pairs(
            &format!("mov.b32 %u, %a;\nmov.u32 %a, 111;\nmov.u32 %b, 222;\n{op}"),
            &pairs,
        )
    };
    let cs = [
        0x8000_0000,
        0x7fc0_0000,
        0xbf80_0000,
        0x8000_0001,
        0x3f80_0000,
    ];
    assert_eq!(
        run("mov.b32 %fb, %u;\nslct.u32.f32 %r, %a, %b, %fb;", &cs),
        [111, 222, 222, 222, 111]
    );
    assert_eq!(
        run("mov.b32 %fb, %u;\nslct.ftz.u32.f32 %r, %a, %b, %fb;", &cs),
        [111, 222, 222, 111, 111]
    );
    assert_eq!(
        run(
            "slct.u32.s32 %r, %a, %b, %u;",
            &[0, 1, 0xffff_ffff, 0x8000_0000]
        ),
        [111, 111, 222, 222]
    );
}

/// `.relu` on the f16/bf16 forms of `fma`, `min` and `max` (sm_80+; cuda_fp16.h's
/// `__hfma_relu`, `__hmax2_relu` ...) was refused at decode although `num` had the relu
/// function: negative results (-0 included) become +0, NaN the canonical NaN.
#[test]
fn relu_on_half_fma_min_max() {
    // %a's low half times %b's low half plus %a's high half, as f16: 2 × -3 + 1 = -5 → +0;
    // 2 × 3 + 1 = 7.
    let run = |op: &str, a: u32, b: u32| -> u32 {
        let text = format!(
            "{{ .reg .b16 %x, %y, %z, %w;\nmov.b32 {{%x, %z}}, %a;\nmov.b32 {{%y, %w}}, %b;\n\
             {op}\ncvt.u32.u16 %r, %w; }}"
        );
        run_pairs(&text, &[(a, b)])[0]
    };
    let two_one = 0x3c00_4000; // low 2.0, high 1.0
    assert_eq!(run("fma.rn.relu.f16 %w, %x, %y, %z;", two_one, 0xc200), 0);
    assert_eq!(
        run("fma.rn.relu.f16 %w, %x, %y, %z;", two_one, 0x4200),
        0x4700
    );
    assert_eq!(run("fma.rn.f16 %w, %x, %y, %z;", two_one, 0xc200), 0xc500);
    assert_eq!(run("max.relu.f16 %w, %x, %y;", 0x0000_bc00, 0xc000), 0);
    assert_eq!(
        run("min.relu.bf16 %w, %x, %y;", 0x0000_7fc1, 0x7fc2),
        0x7fff
    );
    // x2: each half.
    let x2 = "{ .reg .b32 %s;\nfma.rn.relu.f16x2 %s, %a, %b, %a;\nmov.b32 %r, %s; }";
    assert_eq!(run_pairs(x2, &[(0x3c00_4000, 0xc000_c200)])[0], 0x0000_0000);
}

/// `fns.b32` (find the n-th set bit; CUDA's `__fns`) was refused at decode although
/// `num::fns` was there.
#[test]
fn fns_finds_the_nth_set_bit() {
    // mask 0b1011_0100: set bits 2, 4, 5, 7.
    let run = |base: u32, offset: i32| {
        run_pairs(
            "mov.u32 %u, 0xb4;\nfns.b32 %r, %u, %a, %b;",
            &[(base, offset as u32)],
        )[0]
    };
    assert_eq!(run(0, 1), 2);
    assert_eq!(run(3, 2), 5);
    assert_eq!(run(7, -3), 4);
    assert_eq!(run(4, 0), 4);
    assert_eq!(run(3, 0), u32::MAX);
    assert_eq!(run(0, 5), u32::MAX);
}

/// The fp8 pair conversions (sm_89: `cvt.rn.satfinite{.relu}.e4m3x2.f32`, `.e5m2x2`, from and to
/// `.f16x2`), which cuda_fp8.h emits on sm_90, were refused at decode although `num` had them.
#[test]
fn fp8_pair_conversions() {
    let to8 = |op: &str, a: f32, b: f32| {
        let text = format!("{{ .reg .b16 %q;\n{op} %q, %fa, %fb;\ncvt.u32.u16 %r, %q; }}");
        run_pairs(&text, &[(a.to_bits(), b.to_bits())])[0]
    };
    // E4M3: 1.0 = 0x38, -2.0 = 0xc0, past 448 saturates to 0x7e; `a` is the upper byte.
    assert_eq!(to8("cvt.rn.satfinite.e4m3x2.f32", 1.0, -2.0), 0x38c0);
    assert_eq!(to8("cvt.rn.satfinite.e4m3x2.f32", 1000.0, 448.0), 0x7e7e);
    // E5M2: 1.0 = 0x3c, past 57344 saturates to 0x7b; .relu makes -2.0 zero.
    assert_eq!(to8("cvt.rn.satfinite.e5m2x2.f32", 65536.0, 1.0), 0x7b3c);
    assert_eq!(to8("cvt.rn.satfinite.relu.e5m2x2.f32", -2.0, 1.0), 0x003c);
    // Back to f16x2: each byte exactly, the low byte into the low half.
    let body = "{ .reg .b16 %q;\ncvt.u16.u32 %q, %a;\ncvt.rn.f16x2.e4m3x2 %r, %q; }";
    assert_eq!(run_pairs(body, &[(0x38c0, 0)])[0], 0x3c00_c000);
}

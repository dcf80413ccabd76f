//! 128-bit registers (`.reg .b128`, `ld`/`st.b128`, `mov.b128`) of `tests/ptx/b128.cu` as NVRTC
//! 13.5 compiled it; the expected values computed here.

mod common;

use common::{TestDevice, launch};
use stub_ptx::{Fault, Program};

fn program() -> Program {
    Program::load(include_str!("ptx/b128.ptx")).expect("b128.ptx parses")
}

#[test]
fn loads_moves_and_stores_both_halves() {
    let p = program();
    let mut dev = TestDevice::default();
    let input: Vec<u64> = (0..64u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let (din, dout) = (dev.upload(&input), dev.alloc(64 * 8));
    launch(
        &p,
        "swap128",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&din.to_le_bytes(), &dout.to_le_bytes(), &0i32.to_le_bytes()],
    )
    .unwrap();
    let out: Vec<u64> = dev.download(dout, 64);
    for t in 0..32 {
        assert_eq!(out[2 * t], input[2 * t + 1], "thread {t} low half");
        assert_eq!(out[2 * t + 1], input[2 * t], "thread {t} high half");
    }
}

#[test]
fn a_128_bit_access_must_be_16_aligned() {
    let p = program();
    let mut dev = TestDevice::default();
    let (din, dout) = (dev.alloc(66 * 8), dev.alloc(64 * 8));
    let r = launch(
        &p,
        "swap128",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&din.to_le_bytes(), &dout.to_le_bytes(), &1i32.to_le_bytes()],
    );
    assert!(
        matches!(r, Err(Fault::MisalignedAddress { addr, .. }) if addr == din + 8),
        "{r:?}"
    );
}

#[test]
fn other_uses_of_a_128_bit_register_are_refused() {
    let ptx = ".version 8.3\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b128 %q<2>;\n.reg .b64 %rd<2>;\n\tadd.s64 %rd1, %q1, 1;\n\tret;\n}\n";
    let p = Program::load(ptx).expect("parses");
    let e = p.kernel("k").expect_err("refused");
    assert_eq!(e.line, 8);
}

//! Indirect calls (`call (r), %rd, (a), prototype;`) of `tests/ptx/indirect.cu` as NVRTC 13.5
//! compiled it: function pointers from a `.global` table, from registers, and a bad one from
//! the host; the expected values computed here.

// Index loops: the expected values are computed per index, beside the kernel's own.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{TestDevice, launch};
use stub_ptx::{Fault, Program};

fn program() -> Program {
    Program::load(include_str!("ptx/indirect.ptx")).expect("indirect.ptx parses")
}

#[test]
fn calls_through_a_table_with_divergent_targets() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let n = 100usize;
    let input: Vec<i32> = (0..n as i32).map(|i| i * 7 + i / 3).collect();
    let (din, dout) = (dev.upload(&input), dev.alloc(n * 4));
    launch(
        &p,
        "through_table",
        &dev,
        [2, 1, 1],
        [64, 1, 1],
        0,
        &[
            &din.to_le_bytes(),
            &dout.to_le_bytes(),
            &(n as i32).to_le_bytes(),
        ],
    )
    .unwrap();
    let out: Vec<i32> = dev.download(dout, n);
    for i in 0..n {
        let x = i as i32;
        let want = match input[i] % 3 {
            0 => 2 * x,
            1 => x * x,
            _ => -x,
        };
        assert_eq!(out[i], want, "out[{i}]");
    }
}

#[test]
fn calls_a_pointer_chosen_in_registers() {
    let p = program();
    for which in [0i32, 1] {
        let mut dev = TestDevice::default();
        dev.load_variables(&p);
        let dout = dev.alloc(32 * 4);
        launch(
            &p,
            "chosen",
            &dev,
            [1, 1, 1],
            [32, 1, 1],
            0,
            &[&dout.to_le_bytes(), &which.to_le_bytes()],
        )
        .unwrap();
        let out: Vec<i32> = dev.download(dout, 32);
        for t in 0..32 {
            assert_eq!(
                out[t],
                if which == 0 {
                    2 * t as i32
                } else {
                    (t * t) as i32
                }
            );
        }
    }
}

#[test]
fn a_pointer_to_no_function_is_refused() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let dout = dev.alloc(32 * 4);
    let bad = dout; // device memory, not code
    let r = launch(
        &p,
        "from_argument",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&bad.to_le_bytes(), &dout.to_le_bytes()],
    );
    assert!(
        matches!(r, Err(Fault::Unsupported { ref instruction, .. }) if instruction.contains("indirect call")),
        "{r:?}"
    );
}

//! Hand-written PTX (`tests/ptx/handwritten.ptx`): guards and immediates, the shared window and
//! generic pointers, module variables, and the faults: trap, timeout, misaligned and
//! out-of-bounds accesses, an unknown instruction, text that does not parse.
// Index loops: the expected values are computed per index, beside the kernel's own.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{TestDevice, launch};
use stub_ptx::{Fault, Launch, Program, Reason};

fn program() -> Program {
    Program::load(include_str!("ptx/handwritten.ptx")).expect("handwritten.ptx parses")
}

fn line_of(text: &str, needle: &str) -> u32 {
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle") as u32
        + 1
}

#[test]
fn guards_selp_and_immediates() {
    let p = program();
    let mut dev = TestDevice::default();
    let a: Vec<f32> = (0..100).map(|i| i as f32 * 1.5 - 20.0).collect();
    let (dout, da) = (dev.alloc(128 * 4), dev.upload(&a));
    launch(
        &p,
        "guards",
        &dev,
        [2, 1, 1],
        [64, 1, 1],
        0,
        &[
            &dout.to_le_bytes(),
            &da.to_le_bytes(),
            &100u32.to_le_bytes(),
        ],
    )
    .unwrap();
    let out: Vec<f32> = dev.download(dout, 128);
    for i in 0..128 {
        let want = if i >= 100 {
            0.0
        } else if i % 2 == 1 {
            a[i] * 2.0
        } else {
            a[i] + 0.5
        };
        assert_eq!(out[i], want, "element {i}");
    }
}

#[test]
fn shared_window_and_module_variables() {
    let p = program();
    let mut dev = TestDevice::default();
    dev.load_variables(&p);
    let dout = dev.alloc(64 * 4);
    launch(
        &p,
        "windows",
        &dev,
        [1, 1, 1],
        [64, 1, 1],
        0,
        &[&dout.to_le_bytes()],
    )
    .unwrap();
    let out: Vec<u32> = dev.download(dout, 64);
    for t in 0..64u32 {
        assert_eq!(out[t as usize], 2 * (63 - t) + 2 + 7, "thread {t}");
    }
    assert_eq!(
        dev.download::<u32>(dev_symbol(&dev, "counter"), 1)[0],
        5 + 64
    );
}

fn dev_symbol(dev: &TestDevice, name: &str) -> u64 {
    use stub_ptx::Device;
    dev.symbol(name).expect("symbol")
}

#[test]
fn trap_names_its_line() {
    let text = include_str!("ptx/handwritten.ptx");
    let p = program();
    let dev = TestDevice::default();
    launch(
        &p,
        "traps",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&99u32.to_le_bytes()],
    )
    .unwrap();
    let r = launch(
        &p,
        "traps",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&7u32.to_le_bytes()],
    );
    assert_eq!(
        r,
        Err(Fault::Trap {
            line: line_of(text, "@%p1 trap;")
        })
    );
}

#[test]
fn endless_kernel_times_out() {
    let p = program();
    let dev = TestDevice::default();
    let k = p.kernel("spins").unwrap();
    let mut l = Launch::new([1, 1, 1], [32, 1, 1], &[]);
    l.budget = Some(100_000);
    assert_eq!(stub_ptx::run(k, &l, &dev), Err(Fault::Timeout));
    let calls = std::sync::atomic::AtomicU32::new(0);
    let stop = || calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= 2;
    let mut l = Launch::new([1, 1, 1], [32, 1, 1], &[]);
    l.stop = Some(&stop);
    assert_eq!(stub_ptx::run(k, &l, &dev), Err(Fault::Timeout));
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 3);
}

#[test]
fn misaligned_and_out_of_bounds_accesses() {
    let text = include_str!("ptx/handwritten.ptx");
    let p = program();
    let mut dev = TestDevice::default();
    let d = dev.alloc(64);
    let r = launch(
        &p,
        "misaligned",
        &dev,
        [1, 1, 1],
        [1, 1, 1],
        0,
        &[&d.to_le_bytes()],
    );
    assert_eq!(
        r,
        Err(Fault::MisalignedAddress {
            addr: d + 2,
            line: line_of(text, "ld.global.u32 %r1, [%rd2]")
        })
    );
    // tile is 256 bytes: thread 16 stores at offset 256.
    launch(&p, "shared_oob2", &dev, [1, 1, 1], [16, 1, 1], 0, &[]).unwrap();
    let r = launch(&p, "shared_oob2", &dev, [1, 1, 1], [17, 1, 1], 0, &[]);
    assert!(
        matches!(
            r,
            Err(Fault::IllegalAddress {
                addr: 256,
                len: 4,
                ..
            })
        ),
        "{r:?}"
    );
}

#[test]
fn unknown_instruction_is_refused_with_its_line() {
    let text = include_str!("ptx/handwritten.ptx");
    let p = program();
    let e = p.kernel("unknown").unwrap_err();
    assert_eq!(e.line, line_of(text, "frobnicate.b32"));
    assert_eq!(e.text, "frobnicate.b32 %r2, %r1;");
    assert_eq!(e.reason, Reason::Unsupported("instruction"));
    // The other kernels still run.
    assert!(p.kernel("guards").is_ok());
    assert_eq!(p.kernel("nope").unwrap_err().reason, Reason::NoKernel);
}

#[test]
fn text_that_does_not_parse_names_its_line() {
    // Operands that do not parse refuse their kernel (the module loads: its other kernels run),
    // naming the line.
    let text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tmov.u32 %r1, ;\n}\n";
    let e = Program::load(text).unwrap().kernel("k").unwrap_err();
    assert_eq!(e.line, 6);
    assert_eq!(e.text, "mov.u32 %r1, ;");
    // A register is no address offset.
    let e = Program::load(
        ".version 8.0\n.visible .entry k()\n{\n\tst.shared.u32 [tile+%r2], %r1;\n}\n",
    )
    .unwrap()
    .kernel("k")
    .unwrap_err();
    assert_eq!((e.line, e.reason), (4, Reason::Unsupported("an address")));
    let e = Program::load(".version 8.0\n.bogus 3\n").unwrap_err();
    assert_eq!(
        (e.line, e.reason),
        (2, Reason::Unsupported("module directive"))
    );
}

#[test]
fn undefined_register_is_refused() {
    let text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.u32 %r1, %r7, 1;\n\tret;\n}\n";
    let p = Program::load(text).unwrap();
    let e = p.kernel("k").unwrap_err();
    assert_eq!((e.line, e.reason), (7, Reason::Undefined("%r7".into())));
}

#[test]
fn warp_vote_match_redux_and_segmented_shuffles() {
    let p = program();
    let mut dev = TestDevice::default();
    let input: Vec<u32> = (0..32u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 20 | 1)
        .collect();
    let (dout, din) = (dev.alloc(32 * 64), dev.upload(&input));
    launch(
        &p,
        "warp_misc",
        &dev,
        [1, 1, 1],
        [32, 1, 1],
        0,
        &[&dout.to_le_bytes(), &din.to_le_bytes()],
    )
    .unwrap();
    let out: Vec<u32> = dev.download(dout, 32 * 16);
    let all_or = input.iter().fold(0, |a, v| a | v);
    let all_xor = input.iter().fold(0, |a, v| a ^ v);
    let all_and = input.iter().fold(u32::MAX, |a, v| a & v);
    let max_s = input.iter().map(|v| *v as i32).max().unwrap() as u32;
    for l in 0..32usize {
        let o = &out[l * 16..l * 16 + 14];
        let base = l & !7;
        let (down_ok, up_ok) = (l + 3 <= base + 7, l >= base + 2);
        let want = [
            1,
            0,
            u32::MAX,
            0,
            1,
            all_or,
            all_xor,
            max_s,
            all_and,
            if down_ok { input[l + 3] } else { input[l] },
            u32::from(down_ok),
            if up_ok { input[l - 2] } else { input[l] },
            0xffff_0000,
            l as u32,
        ];
        assert_eq!(o, &want, "lane {l}");
    }
}

#[test]
fn runaway_recursion_overflows_the_stack() {
    let text = include_str!("ptx/handwritten.ptx");
    let p = program();
    let dev = TestDevice::default();
    let r = launch(&p, "recurses", &dev, [1, 1, 1], [32, 1, 1], 0, &[]);
    let line = line_of(text, "call.uni (b), forever, (a);");
    assert_eq!(r, Err(Fault::StackOverflow { line }));
}

#[test]
fn launches_the_kernel_cannot_run() {
    let p = program();
    let dev = TestDevice::default();
    let k = p.kernel("guards").unwrap();
    let params = [0u8; 20];
    let bad = |grid: [u32; 3], block: [u32; 3], params: &[u8]| {
        stub_ptx::run(k, &Launch::new(grid, block, params), &dev).unwrap_err()
    };
    assert!(matches!(
        bad([1, 1, 1], [0, 1, 1], &params),
        Fault::InvalidLaunch(_)
    ));
    assert!(matches!(
        bad([0, 1, 1], [1, 1, 1], &params),
        Fault::InvalidLaunch(_)
    ));
    assert!(matches!(
        bad([1, 1, 1], [33, 32, 1], &params),
        Fault::InvalidLaunch(_)
    ));
    assert!(matches!(
        bad([1, 1, 1], [32, 1, 1], &params[..19]),
        Fault::InvalidLaunch(_)
    ));
    assert_eq!(k.param_layout(), &[(0, 8), (8, 8), (16, 4)]);
}

//! What the executor does with cooperative launches' grid-wide sync: refuses it at decode
//! (blocks run one after another, so a barrier over every block would never release).

use stub_ptx::Program;

/// Cooperative groups' `grid.sync()` reads the grid workspace from `%envreg1`/`%envreg2`
/// (inline PTX in `cooperative_groups/details/sync.h`, as NVRTC 13.5 emits it): refused at
/// decode, with its line, instead of spinning until the launch's timeout.
#[test]
fn grid_sync_is_refused_at_decode() {
    let ptx = ".version 9.5\n.target sm_80\n.address_size 64\n.visible .entry gs(.param .u64 p)\n{\n.reg .b32 %r<9>;\n\tmov.u32 %r7, %envreg2;\n\tmov.u32 %r8, %envreg1;\n\tret;\n}\n";
    let p = Program::load(ptx).expect("parses");
    let e = p.kernel("gs").expect_err("refused");
    assert_eq!(e.line, 7);
    assert!(
        matches!(e.reason, stub_ptx::Reason::Unsupported(m) if m.contains("grid-wide sync")),
        "{e:?}"
    );
}

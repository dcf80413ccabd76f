//! One kernel the executor cannot run does not refuse its module: an instruction whose operands
//! the parser does not read (a texture fetch in independent mode, `[tex, sampler, {x, y}]`: the
//! object form `[tex, {x, y}]` runs, tests/textures.rs) is kept and refused when that kernel is
//! decoded, with its line; the module's other kernels run (NVIDIA's lineOfSight sample: a thrust
//! fill kernel beside a `tex.2d` one).

mod common;

use common::{TestDevice, launch};
use stub_ptx::{Program, Reason};

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.visible .entry fetch(.param .u64 tex, .param .u64 out)
{
    .reg .f32 %f<7>;
    .reg .b64 %rd<3>;
    mov.f32 %f5, 0f00000000;
    mov.f32 %f6, 0f00000000;
    ld.param.u64 %rd1, [tex];
    tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd1, {%f5, %f6}];
    ld.param.u64 %rd2, [out];
    st.global.f32 [%rd2], %f1;
    ret;
}

.visible .entry fill(.param .u64 out, .param .u32 v)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [v];
    cvta.to.global.u64 %rd2, %rd1;
    st.global.u32 [%rd2], %r1;
    ret;
}
"#;

#[test]
fn a_kernel_with_an_unread_instruction_is_refused_alone() {
    let p = Program::load(PTX).expect("the module loads");
    let e = p.kernel("fetch").expect_err("fetch is refused");
    assert_eq!(e.line, 13, "{e:?}");
    assert!(e.text.starts_with("tex.2d.v4.f32.f32"), "{e:?}");
    assert!(matches!(e.reason, Reason::Unsupported(_)), "{e:?}");
    let mut dev = TestDevice::default();
    let out = dev.upload(&[0u32]);
    launch(
        &p,
        "fill",
        &dev,
        [1, 1, 1],
        [1, 1, 1],
        0,
        &[&out.to_le_bytes(), &7u32.to_le_bytes()],
    )
    .expect("fill runs");
    assert_eq!(dev.download::<u32>(out, 1), [7]);
}

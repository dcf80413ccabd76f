//! Texture and surface instructions (`tests/ptx/textures.cu`, NVRTC's PTX): nearest and linear
//! sampling with the hardware's 8-bit fixed-point weights, normalized coordinates, wrap, clamp,
//! mirror and border addressing, normalized-float reads of integer formats, layered, 3D and
//! cubemap textures, `tld4`, `tex.level`, surface loads and stores with their out-of-range
//! modes, `txq`/`suq`. Expected values are computed here from the CUDA C++ Programming Guide's
//! "Texture Fetching" formulas, independently of the executor's code.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{TestDevice, pack};
use stub_ptx::texture::{AddressMode, ChannelKind, Sampling, TextureView};
use stub_ptx::{Device, Fault, Launch, Program, Reason};

/// The test device plus texture objects: handle → its views per mipmap level.
#[derive(Default)]
struct TexDevice {
    mem: TestDevice,
    objects: Vec<(u64, Vec<TextureView>)>,
}

impl Device for TexDevice {
    fn global_ok(&self, addr: u64, len: u64) -> bool {
        self.mem.global_ok(addr, len)
    }
    fn global_range(&self, addr: u64, len: u64) -> Option<(u64, u64)> {
        self.mem.global_range(addr, len)
    }
    fn symbol(&self, name: &str) -> Option<u64> {
        self.mem.symbol(name)
    }
    fn vprintf(&self, format: u64, args: u64) -> i32 {
        self.mem.vprintf(format, args)
    }
    fn texture(&self, handle: u64, level: u32) -> Option<TextureView> {
        let (_, v) = self.objects.iter().find(|(h, _)| *h == handle)?;
        v.get(level as usize).copied()
    }
}

impl TexDevice {
    fn add(&mut self, views: Vec<TextureView>) -> u64 {
        let h = self.objects.len() as u64 + 1;
        self.objects.push((h, views));
        h
    }
}

fn program() -> Program {
    Program::load(include_str!("ptx/textures.ptx")).expect("textures.ptx parses")
}

fn run(
    p: &Program,
    name: &str,
    dev: &TexDevice,
    grid: u32,
    block: u32,
    args: &[&[u8]],
) -> Result<(), Fault> {
    let k = p.kernel(name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let params = pack(k, args);
    let mut l = Launch::new([grid, 1, 1], [block, 1, 1], &params);
    l.budget = Some(10_000_000);
    stub_ptx::run(k, &l, dev)
}

fn sampling(address: AddressMode, linear: bool, normalized_coords: bool) -> Sampling {
    Sampling {
        address: [address; 3],
        linear,
        normalized_float: false,
        normalized_coords,
        border: [0.0; 4],
    }
}

/// A `w` × `h` × `d` (or `layers`) object of `channels` × `bits` elements at `addr`, rows packed.
#[allow(clippy::too_many_arguments)]
fn view(
    addr: u64,
    extent: [u32; 3],
    layers: u32,
    channels: u8,
    bits: u8,
    kind: ChannelKind,
    s: Option<Sampling>,
) -> TextureView {
    let pitch = u64::from(extent[0]) * u64::from(channels) * u64::from(bits / 8);
    TextureView {
        addr,
        pitch,
        slice: pitch * u64::from(extent[1]),
        extent,
        layers,
        levels: 1,
        channels,
        bits,
        kind,
        sampling: s,
    }
}

fn b<T: Copy>(v: T) -> Vec<u8> {
    // SAFETY: plain values of T, read as their bytes.
    unsafe { std::slice::from_raw_parts(&v as *const T as *const u8, size_of::<T>()).to_vec() }
}

/// The weight linear filtering uses for coordinate `x` (already less 0.5): frac(x) rounded to
/// 1/256 (the guide: 9-bit fixed point, 8 fraction bits).
fn weight(x: f64) -> f64 {
    ((x - x.floor()) * 256.0).round() / 256.0
}

#[test]
fn nearest_unnormalized_clamp() {
    let p = program();
    let mut dev = TexDevice::default();
    let (w, h) = (4usize, 3usize);
    let mut texels = vec![[0f32; 4]; w * h];
    for y in 0..h {
        for x in 0..w {
            texels[y * w + x] = [(x + 10 * y) as f32, 100.0 + x as f32, y as f32, -1.0];
        }
    }
    let a = dev.mem.upload(&texels);
    let v = view(
        a,
        [4, 3, 1],
        1,
        4,
        32,
        ChannelKind::Float,
        Some(sampling(AddressMode::Clamp, false, false)),
    );
    let t = dev.add(vec![v]);
    let pts = [
        (0.5f32, 0.5f32),
        (3.99, 2.2),
        (-5.0, 1.5),
        (10.0, 10.0),
        (1.0, 1.0),
        (2.999, 0.0),
    ];
    let want = [(0, 0), (3, 2), (0, 1), (3, 2), (1, 1), (2, 0)];
    let xs: Vec<f32> = pts.iter().map(|p| p.0).collect();
    let ys: Vec<f32> = pts.iter().map(|p| p.1).collect();
    let (dx, dy, dout) = (
        dev.mem.upload(&xs),
        dev.mem.upload(&ys),
        dev.mem.alloc(16 * pts.len()),
    );
    let n = pts.len() as i32;
    run(
        &p,
        "fetch2d",
        &dev,
        1,
        32,
        &[&b(t), &b(dx), &b(dy), &b(dout), &b(n)],
    )
    .unwrap();
    let out: Vec<[f32; 4]> = dev.mem.download(dout, pts.len());
    for (i, (x, y)) in want.iter().enumerate() {
        assert_eq!(out[i], texels[y * w + x], "point {:?}", pts[i]);
    }
}

#[test]
fn linear_normalized_wrap_uses_fixed_point_weights() {
    let p = program();
    let mut dev = TexDevice::default();
    let n = 4usize;
    let texel = |x: usize, y: usize| (x * 7 + y * 3 + 1) as f32;
    let texels: Vec<f32> = (0..n * n).map(|i| texel(i % n, i / n)).collect();
    let a = dev.mem.upload(&texels);
    let v = view(
        a,
        [4, 4, 1],
        1,
        1,
        32,
        ChannelKind::Float,
        Some(sampling(AddressMode::Wrap, true, true)),
    );
    let t = dev.add(vec![v]);
    let pts = [
        (0.3f32, 0.6f32),
        (-0.1, 0.45),
        (1.3, 0.77),
        (0.0, 0.0),
        (0.9999, 0.01),
        (0.126, 0.374),
    ];
    let xs: Vec<f32> = pts.iter().map(|p| p.0).collect();
    let ys: Vec<f32> = pts.iter().map(|p| p.1).collect();
    let (dx, dy, dout) = (
        dev.mem.upload(&xs),
        dev.mem.upload(&ys),
        dev.mem.alloc(16 * pts.len()),
    );
    let cnt = pts.len() as i32;
    run(
        &p,
        "fetch2d",
        &dev,
        1,
        32,
        &[&b(t), &b(dx), &b(dy), &b(dout), &b(cnt)],
    )
    .unwrap();
    let out: Vec<[f32; 4]> = dev.mem.download(dout, pts.len());
    let mut quantized_differs = false;
    for (k, &(u, v)) in pts.iter().enumerate() {
        let x = f64::from(u) * n as f64 - 0.5;
        let y = f64::from(v) * n as f64 - 0.5;
        let (i, j) = (x.floor() as i64, y.floor() as i64);
        let wrap = |i: i64| i.rem_euclid(n as i64) as usize;
        let t = |di: i64, dj: i64| f64::from(texel(wrap(i + di), wrap(j + dj)));
        let lerp2 = |a: f64, bb: f64| {
            (1.0 - a) * (1.0 - bb) * t(0, 0)
                + a * (1.0 - bb) * t(1, 0)
                + (1.0 - a) * bb * t(0, 1)
                + a * bb * t(1, 1)
        };
        let want = lerp2(weight(x), weight(y));
        // Integer texels below 64 and weights in 1/256: the result is exact in an f32.
        assert_eq!(f64::from(want as f32), want);
        assert_eq!(out[k], [want as f32, 0.0, 0.0, 1.0], "point ({u}, {v})");
        let exact = lerp2(x - x.floor(), y - y.floor());
        quantized_differs |= (exact as f32) != (want as f32);
    }
    assert!(
        quantized_differs,
        "some point tells fixed-point weights from exact ones"
    );
}

#[test]
fn mirror_border_and_integer_fetch() {
    let p = program();
    let mut dev = TexDevice::default();
    let vals = [1f32, 2.0, 3.0, 4.0, 5.0];
    let a = dev.mem.upload(&vals);
    let mirror = view(
        a,
        [5, 1, 1],
        1,
        1,
        32,
        ChannelKind::Float,
        Some(sampling(AddressMode::Mirror, false, true)),
    );
    let mut bs = sampling(AddressMode::Border, false, true);
    bs.border = [42.0, 0.0, 0.0, 0.0];
    let border = view(a, [5, 1, 1], 1, 1, 32, ChannelKind::Float, Some(bs));
    let (tm, tb) = (dev.add(vec![mirror]), dev.add(vec![border]));
    // Normalized x times 5: 5.5 → 5 → mirrored 4; -0.5 → -1 → 0; 7.5 → 7 → 2; 2.5 → 2.
    let xs = [1.1f32, -0.1, 1.5, 0.5, 0.99];
    let mirrored = [5.0f32, 1.0, 3.0, 3.0, 5.0];
    let bordered = [42.0f32, 42.0, 42.0, 3.0, 5.0];
    let dx = dev.mem.upload(&xs);
    for (t, want) in [(tm, mirrored), (tb, bordered)] {
        let (dout, dfetch) = (dev.mem.alloc(4 * 5), dev.mem.alloc(4 * 5));
        run(
            &p,
            "fetch1d",
            &dev,
            1,
            32,
            &[&b(t), &b(dx), &b(dout), &b(dfetch), &b(5i32)],
        )
        .unwrap();
        let out: Vec<f32> = dev.mem.download(dout, 5);
        let fetched: Vec<f32> = dev.mem.download(dfetch, 5);
        assert_eq!(out, want);
        // tex1Dfetch: integer texel indices, no scaling.
        assert_eq!(fetched, vals);
    }
    // tex1Dfetch past the end reads zero (no addressing modes), the clamping object's too.
    let clamped = view(
        a,
        [3, 1, 1],
        1,
        1,
        32,
        ChannelKind::Float,
        Some(sampling(AddressMode::Clamp, false, false)),
    );
    let tc = dev.add(vec![clamped]);
    let (dout, dfetch) = (dev.mem.alloc(4 * 5), dev.mem.alloc(4 * 5));
    run(
        &p,
        "fetch1d",
        &dev,
        1,
        32,
        &[&b(tc), &b(dx), &b(dout), &b(dfetch), &b(5i32)],
    )
    .unwrap();
    let fetched: Vec<f32> = dev.mem.download(dfetch, 5);
    assert_eq!(fetched, [1.0, 2.0, 3.0, 0.0, 0.0]);
}

#[test]
fn integer_formats_element_and_normalized_float() {
    let p = program();
    let mut dev = TexDevice::default();
    let bytes: [[u8; 4]; 4] = [
        [0, 255, 128, 7],
        [1, 2, 3, 4],
        [200, 100, 50, 25],
        [9, 8, 7, 6],
    ];
    let a = dev.mem.upload(&bytes);
    let elem = view(
        a,
        [2, 2, 1],
        1,
        4,
        8,
        ChannelKind::Unsigned,
        Some(sampling(AddressMode::Clamp, false, false)),
    );
    let mut ns = sampling(AddressMode::Clamp, false, false);
    ns.normalized_float = true;
    let norm = view(a, [2, 2, 1], 1, 4, 8, ChannelKind::Unsigned, Some(ns));
    let signed = view(a, [4, 4, 1], 1, 1, 8, ChannelKind::Signed, Some(ns));
    let (te, tn, ts) = (
        dev.add(vec![elem]),
        dev.add(vec![norm]),
        dev.add(vec![signed]),
    );
    let xs = [0.5f32, 1.5, 0.5, 1.5];
    let ys = [0.5f32, 0.5, 1.5, 1.5];
    let (dx, dy) = (dev.mem.upload(&xs), dev.mem.upload(&ys));
    let dout = dev.mem.alloc(16 * 4);
    run(
        &p,
        "fetch_uchar",
        &dev,
        1,
        32,
        &[&b(te), &b(dx), &b(dy), &b(dout), &b(4i32)],
    )
    .unwrap();
    let out: Vec<[u8; 4]> = dev.mem.download(dout, 4);
    assert_eq!(out, bytes);
    run(
        &p,
        "fetch2d",
        &dev,
        1,
        32,
        &[&b(tn), &b(dx), &b(dy), &b(dout), &b(4i32)],
    )
    .unwrap();
    let out: Vec<[f32; 4]> = dev.mem.download(dout, 4);
    for i in 0..4 {
        assert_eq!(out[i], bytes[i].map(|c| f32::from(c) / 255.0), "texel {i}");
    }
    // One signed byte per element, 4 × 4: row 0 is 0, -1, -128, 7; [-1, 1] with -128 → -1.
    run(
        &p,
        "fetch2d",
        &dev,
        1,
        32,
        &[&b(ts), &b(dx), &b(dy), &b(dout), &b(4i32)],
    )
    .unwrap();
    let out: Vec<[f32; 4]> = dev.mem.download(dout, 4);
    let s = |v: u8| (f32::from(v as i8) / 127.0).max(-1.0);
    let flat: Vec<u8> = bytes.iter().flatten().copied().collect();
    for (i, (x, y)) in [(0usize, 0usize), (1, 0), (0, 1), (1, 1)]
        .iter()
        .enumerate()
    {
        assert_eq!(out[i], [s(flat[y * 4 + x]), 0.0, 0.0, 1.0], "texel {i}");
    }
    assert_eq!(s(128), -1.0);
}

#[test]
fn layered_volume_cubemap_gather_and_level() {
    let p = program();
    let mut dev = TexDevice::default();
    let clamp = Some(sampling(AddressMode::Clamp, false, false));
    let layered: Vec<f32> = (0..48).map(|i| i as f32).collect(); // l*16 + y*4 + x
    let vol: Vec<f32> = (0..64).map(|i| i as f32 + 100.0).collect(); // z*16 + y*4 + x + 100
    let cube: Vec<f32> = (0..6)
        .flat_map(|f| (0..4).map(move |i| (f * 10 + i) as f32))
        .collect();
    let level1: Vec<f32> = (0..4).map(|i| 500.0 + i as f32).collect();
    let (al, av, ac, a1) = (
        dev.mem.upload(&layered),
        dev.mem.upload(&vol),
        dev.mem.upload(&cube),
        dev.mem.upload(&level1),
    );
    let mut lv = view(al, [4, 4, 1], 3, 1, 32, ChannelKind::Float, clamp);
    lv.levels = 2;
    let mut l1 = view(a1, [2, 2, 1], 1, 1, 32, ChannelKind::Float, clamp);
    l1.levels = 2;
    let tl = dev.add(vec![lv, l1]);
    let tv = dev.add(vec![view(
        av,
        [4, 4, 4],
        1,
        1,
        32,
        ChannelKind::Float,
        clamp,
    )]);
    let tc = dev.add(vec![view(
        ac,
        [2, 2, 1],
        6,
        1,
        32,
        ChannelKind::Float,
        clamp,
    )]);
    let coords: [[f32; 4]; 3] = [
        [1.5, 2.5, 3.5, 2.0],
        [-2.0, 0.25, -0.5, 0.0],
        [0.0, -3.0, 0.1, 1.0],
    ];
    let dc = dev.mem.upload(&coords);
    let dout = dev.mem.alloc(4 * 6 * 3);
    run(
        &p,
        "fetch_shapes",
        &dev,
        1,
        3,
        &[&b(tl), &b(tv), &b(tc), &b(dc), &b(dout)],
    )
    .unwrap();
    let out: Vec<[f32; 6]> = dev.mem.download(dout, 3);
    // Layered: layer l, (x, y) clamped. Volume: (x, y, z) clamped. Cubemap: the guide's face
    // table: (1.5, 2.5, 3.5) is +z (face 4: s = x, t = -y), texel (1, 0); (-2, .25, -.5) is -x
    // (face 1: s = z, t = -y), texel (0, 0); (0, -3, .1) is -y (face 3: s = x, t = -z),
    // texel (1, 0). tld4.r of layer 0 at (x - .5, y - .5): (i, j+1) and (i, j). Level: lod
    // = layer - 1, nearest level (1 answers the 2 × 2 view), negative → 0.
    let want = [
        [41.0, 157.0, 41.0, 13.0, 9.0, 503.0],
        [0.0, 100.0, 10.0, 0.0, 0.0, 0.0],
        [16.0, 100.0, 31.0, 0.0, 0.0, 0.0],
    ];
    assert_eq!(out, want);
}

#[test]
fn surfaces_load_store_zero_clamp_and_trap() {
    let p = program();
    let mut dev = TexDevice::default();
    let (w, h, pitch) = (5usize, 3usize, 8usize);
    let init: Vec<i32> = (0..pitch * h)
        .map(|i| ((i / pitch) * 10 + i % pitch) as i32)
        .collect();
    let a = dev.mem.upload(&init);
    let mut v = view(a, [5, 3, 1], 1, 1, 32, ChannelKind::Signed, None);
    v.pitch = (pitch * 4) as u64;
    let (s, r) = (dev.add(vec![v]), dev.add(vec![v]));
    let dout = dev.mem.alloc(4 * (w * h + 2));
    run(
        &p,
        "surface2d",
        &dev,
        h as u32,
        8,
        &[&b(s), &b(r), &b(dout), &b(w as i32), &b(h as i32)],
    )
    .unwrap();
    let out: Vec<i32> = dev.mem.download(dout, w * h + 2);
    for y in 0..h {
        for x in 0..w {
            assert_eq!(out[y * w + x], (y * 10 + x) as i32 + 1000, "({x}, {y})");
        }
    }
    assert_eq!(out[w * h], 0, ".zero outside");
    assert_eq!(out[w * h + 1], 1004, ".clamp to (4, 0)");
    // The padding after each row is not the surface's: untouched.
    let after: Vec<i32> = dev.mem.download(a, pitch * h);
    assert_eq!(after[5], 5);
    let e = run(&p, "surface_trap", &dev, 1, 1, &[&b(s)]).unwrap_err();
    assert!(matches!(e, Fault::IllegalAddress { .. }), "{e:?}");
    let e = run(&p, "surface_trap", &dev, 1, 1, &[&b(99u64)]).unwrap_err();
    assert!(matches!(e, Fault::IllegalAddress { addr: 99, .. }), "{e:?}");
}

const QUERIES: &str = r#"
.version 8.0
.target sm_80
.address_size 64
.visible .entry q(.param .u64 t, .param .u64 out)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [t];
    ld.param.u64 %rd2, [out];
    txq.width.b32 %r1, [%rd1];
    txq.height.b32 %r2, [%rd1];
    suq.depth.b32 %r3, [%rd1];
    txq.array_size.b32 %r4, [%rd1];
    txq.normalized_coords.b32 %r5, [%rd1];
    st.global.v4.b32 [%rd2], {%r1, %r2, %r3, %r4};
    st.global.b32 [%rd2+16], %r5;
    ret;
}
.visible .entry grad(.param .u64 t)
{
    .reg .f32 %f<5>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [t];
    tex.grad.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}], {%f1, %f2}, {%f1, %f2};
    ret;
}
"#;

#[test]
fn queries_and_refusals() {
    let p = Program::load(QUERIES).unwrap();
    let mut dev = TexDevice::default();
    let a = dev.mem.alloc(4 * 7 * 3 * 2);
    let v = view(
        a,
        [7, 3, 1],
        2,
        1,
        32,
        ChannelKind::Float,
        Some(sampling(AddressMode::Wrap, false, true)),
    );
    let t = dev.add(vec![v]);
    let dout = dev.mem.alloc(20);
    run(&p, "q", &dev, 1, 1, &[&b(t), &b(dout)]).unwrap();
    let out: Vec<u32> = dev.mem.download(dout, 5);
    assert_eq!(out, [7, 3, 1, 2, 1]);
    let e = p.kernel("grad").unwrap_err();
    assert_eq!(e.reason, Reason::Unsupported("tex.grad"));
}

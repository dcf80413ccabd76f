//! Texture and surface instructions (PTX ISA 9.7.10 "Texture Instructions", 9.7.11 "Surface
//! Instructions"): `tex` (`.1d .2d .3d .a1d .a2d .cube .acube`, `.level`), `tld4`, `txq`,
//! `suld.b`, `sust.b`, `suq`, over texture and surface objects whose handle is a 64-bit
//! register. The host describes an object by its handle ([`crate::Device::texture`]: a
//! [`TextureView`]); texels are read and written through the device's memory checks like any
//! global access.
//!
//! Sampling follows the CUDA C++ Programming Guide, appendix "Texture Fetching": nearest
//! filtering reads `T[floor(x)]`; linear filtering reads `(1-α)T[i] + αT[i+1]` with `i =
//! floor(x - 0.5)` and `α = frac(x - 0.5)` kept in 9-bit fixed point with 8 fraction bits (the
//! guide: "α, β, γ are stored in 9-bit fixed point format with 8 bits of fractional value"),
//! per dimension; normalized coordinates are scaled by the extent first; addressing wraps,
//! clamps, mirrors or answers the border colour (wrap and mirror need normalized coordinates:
//! otherwise they clamp, as the guide says). Integer formats read in
//! `cudaReadModeNormalizedFloat` give `[0, 1]` (unsigned) or `[-1, 1]` (signed) floats, 8- and
//! 16-bit ones only. Components a format lacks read as 0, the fourth as 1.
//!
//! Surfaces are byte-addressed in x (`suld.b`/`sust.b`: raw bits, no conversion); `.trap`
//! faults out of range ([`Fault::IllegalAddress`]), `.clamp` uses the nearest element inside,
//! `.zero` loads zeros and drops stores.

use crate::error::Fault;
use crate::memory::{Mems, Space};
use crate::ops::{Lanes, Slot};

/// A channel's kind (`cudaChannelFormatKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    /// Signed integers.
    Signed,
    /// Unsigned integers.
    Unsigned,
    /// Floats (16-bit halves or 32-bit singles).
    Float,
}

/// An address mode (`cudaTextureAddressMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressMode {
    /// Coordinates modulo the extent (normalized coordinates only).
    Wrap,
    /// Clamped to the edge.
    Clamp,
    /// Mirrored at every edge (normalized coordinates only).
    Mirror,
    /// Outside the extent: the border colour.
    Border,
}

/// How a texture object samples (`cudaTextureDesc`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// Per dimension (x, y, z).
    pub address: [AddressMode; 3],
    /// Linear filtering (else nearest).
    pub linear: bool,
    /// `cudaReadModeNormalizedFloat`: 8/16-bit integers read as floats in [0, 1] or [-1, 1].
    pub normalized_float: bool,
    /// Coordinates normalized to [0, 1) over the extent.
    pub normalized_coords: bool,
    /// The border colour (address mode border), per component.
    pub border: [f32; 4],
}

/// One texture or surface object as the executor reads it: the memory of one mipmap level
/// (element `(x, y, z)` at `addr + z * slice + y * pitch + x * element bytes`, `z` the depth
/// index or the layer, a cubemap's face `6 * layer + face`), its format and sampling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureView {
    /// Device address of element (0, 0, 0).
    pub addr: u64,
    /// Bytes from a row to the next.
    pub pitch: u64,
    /// Bytes from a slice (depth, layer or face) to the next.
    pub slice: u64,
    /// Width, height, depth in elements (1 for a dimension the object lacks; a layered or
    /// cubemap object's depth is 1).
    pub extent: [u32; 3],
    /// Layers (cubemaps: faces, 6 per layer); 1 for an object without layers.
    pub layers: u32,
    /// Mipmap levels (1 without mipmaps).
    pub levels: u32,
    /// Components per element, 1 to 4.
    pub channels: u8,
    /// Bits per component: 8, 16 or 32.
    pub bits: u8,
    /// The components' kind.
    pub kind: ChannelKind,
    /// How a texture samples; `None` for a surface object.
    pub sampling: Option<Sampling>,
}

impl TextureView {
    /// Bytes per element.
    pub fn element(&self) -> u64 {
        u64::from(self.channels) * u64::from(self.bits / 8)
    }
}

/// A texture's or surface's shape (the instruction's geometry modifier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geom {
    /// `.1d`: x.
    D1,
    /// `.2d`: x, y.
    D2,
    /// `.3d`: x, y, z.
    D3,
    /// `.a1d`: layer, x.
    A1,
    /// `.a2d`: layer, x, y.
    A2,
    /// `.cube`: a direction x, y, z.
    Cube,
    /// `.acube`: layer, direction x, y, z.
    ACube,
}

impl Geom {
    /// The geometry a modifier names.
    pub fn of(m: &str) -> Option<Geom> {
        Some(match m {
            ".1d" => Geom::D1,
            ".2d" => Geom::D2,
            ".3d" => Geom::D3,
            ".a1d" => Geom::A1,
            ".a2d" => Geom::A2,
            ".cube" => Geom::Cube,
            ".acube" => Geom::ACube,
            _ => return None,
        })
    }
    /// Coordinates it reads (a layer index included).
    pub fn coords(self) -> usize {
        match self {
            Geom::D1 => 1,
            Geom::D2 | Geom::A1 => 2,
            Geom::D3 | Geom::A2 | Geom::Cube => 3,
            Geom::ACube => 4,
        }
    }
}

/// A `tex` or `tld4` result's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dty {
    /// `.f32`.
    F32,
    /// `.s32`.
    S32,
    /// `.u32`.
    U32,
}

/// Out-of-range handling of a surface access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oob {
    /// `.trap`: the launch faults.
    Trap,
    /// `.clamp`: the nearest element inside.
    Clamp,
    /// `.zero`: loads read 0, stores are dropped.
    Zero,
}

/// A `txq`/`suq` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `.width`, `.height`, `.depth` (0, 1, 2).
    Extent(u8),
    /// `.array_size`: layers.
    Layers,
    /// `.num_mipmap_levels`.
    Levels,
    /// `.normalized_coords`.
    NormalizedCoords,
    /// `.filter_mode` (0 nearest, 1 linear).
    FilterMode,
    /// `.addr_mode_0/1/2` (`cudaTextureAddressMode` numbers).
    AddrMode(u8),
}

/// What a texture/surface instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `tex` (its level operand, if `.level`).
    Tex {
        /// The level of detail's slot (`tex.level`).
        lod: Option<Slot>,
    },
    /// `tld4.{r,g,b,a}`: the component gathered from the four texels linear filtering reads.
    Tld4(u8),
    /// `suld.b`: `width` bytes per component.
    Suld {
        /// Bytes per component: 1, 2, 4, 8.
        width: u8,
        /// Out-of-range handling.
        oob: Oob,
    },
    /// `sust.b`: `width` bytes per component.
    Sust {
        /// Bytes per component: 1, 2, 4, 8.
        width: u8,
        /// Out-of-range handling.
        oob: Oob,
    },
    /// `txq`/`suq`.
    Query(Query),
}

/// A decoded texture/surface instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TexOp {
    /// What it does.
    pub kind: Kind,
    /// The geometry.
    pub geom: Geom,
    /// The handle's slot.
    pub handle: Slot,
    /// The coordinates' slots (the first [`Geom::coords`] used).
    pub coords: [Slot; 4],
    /// Whether coordinates are `.s32` (texel indices) rather than `.f32`.
    pub int_coords: bool,
    /// The result type (`tex`, `tld4`).
    pub dty: Dty,
    /// Destinations (`tex`, `tld4`, `suld`, queries) or sources (`sust`).
    pub data: [Slot; 4],
    /// How many of `data`.
    pub n: u8,
}

type Read<'r> = dyn FnMut(u64, u8) -> Result<u64, Fault> + 'r;

fn f16_to_f32(h: u16) -> f32 {
    half::f16::from_bits(h).to_f32()
}

/// Element `(x, y, z)` (inside the extent) as four component values, as the texture reads them
/// (normalized-float conversion applied; integers exact in an f64).
fn texel(v: &TextureView, x: u64, y: u64, z: u64, read: &mut Read<'_>) -> Result<[f64; 4], Fault> {
    let normalized = v.sampling.is_some_and(|s| s.normalized_float);
    let w = v.bits / 8;
    let at = v
        .addr
        .wrapping_add(z.wrapping_mul(v.slice))
        .wrapping_add(y.wrapping_mul(v.pitch))
        .wrapping_add(x.wrapping_mul(v.element()));
    let mut out = [0.0, 0.0, 0.0, 1.0];
    for (k, o) in out.iter_mut().enumerate().take(usize::from(v.channels)) {
        let raw = read(at.wrapping_add(k as u64 * u64::from(w)), w)?;
        *o = match (v.kind, v.bits) {
            (ChannelKind::Float, 16) => f64::from(f16_to_f32(raw as u16)),
            (ChannelKind::Float, _) => f64::from(f32::from_bits(raw as u32)),
            (ChannelKind::Unsigned, 8) if normalized => f64::from(raw as u8 as f32 / 255.0),
            (ChannelKind::Unsigned, 16) if normalized => f64::from(raw as u16 as f32 / 65535.0),
            (ChannelKind::Signed, 8) if normalized => {
                f64::from((raw as u8 as i8 as f32 / 127.0).max(-1.0))
            }
            (ChannelKind::Signed, 16) if normalized => {
                f64::from((raw as u16 as i16 as f32 / 32767.0).max(-1.0))
            }
            (ChannelKind::Unsigned, 8) => f64::from(raw as u8),
            (ChannelKind::Unsigned, 16) => f64::from(raw as u16),
            (ChannelKind::Unsigned, _) => f64::from(raw as u32),
            (ChannelKind::Signed, 8) => f64::from(raw as u8 as i8),
            (ChannelKind::Signed, 16) => f64::from(raw as u16 as i16),
            (ChannelKind::Signed, _) => f64::from(raw as u32 as i32),
        };
    }
    Ok(out)
}

/// Index `i` of a dimension of `n` elements under `mode` (`normalized`: the coordinates were):
/// the element read, or `None` for the border.
fn address(i: i64, n: u32, mode: AddressMode, normalized: bool) -> Option<u64> {
    let n = i64::from(n.max(1));
    let mode = match mode {
        AddressMode::Wrap | AddressMode::Mirror if !normalized => AddressMode::Clamp,
        m => m,
    };
    let j = match mode {
        AddressMode::Wrap => i.rem_euclid(n),
        AddressMode::Mirror => {
            let m = i.rem_euclid(2 * n);
            if m >= n { 2 * n - 1 - m } else { m }
        }
        AddressMode::Clamp => i.clamp(0, n - 1),
        AddressMode::Border => {
            if (0..n).contains(&i) {
                i
            } else {
                return None;
            }
        }
    };
    Some(j as u64)
}

/// A float coordinate's floor as an index, saturated (NaN: 0).
fn floor_index(x: f32) -> i64 {
    let f = libm_floor(x);
    if f.is_nan() {
        0
    } else {
        f.clamp(-1.0e15, 1.0e15) as i64
    }
}

fn libm_floor(x: f32) -> f32 {
    // `f32::floor` needs std; the integer part by truncation, one less below zero.
    if !x.is_finite() || x.abs() >= 8_388_608.0 {
        return x;
    }
    let t = x as i32 as f32;
    if t > x { t - 1.0 } else { t }
}

/// The 8-bit fixed-point fraction of `x - floor(x)` (0 to 256), as the hardware keeps linear
/// filtering's weights (9 bits, 8 of them fraction), rounded to nearest.
pub fn weight(x: f32) -> u32 {
    let f = x - libm_floor(x);
    let w = f * 256.0;
    let r = libm_floor(w + 0.5);
    if r.is_nan() {
        0
    } else {
        r.clamp(0.0, 256.0) as u32
    }
}

/// Texel `(ix, iy, iz)` of slice `layer` after addressing (the border colour outside).
fn addressed(
    v: &TextureView,
    s: &Sampling,
    idx: [i64; 3],
    dims: usize,
    layer: u64,
    read: &mut Read<'_>,
) -> Result<[f64; 4], Fault> {
    let mut at = [0u64; 3];
    for d in 0..dims {
        let (Some(&i), Some(&n), Some(&mode), Some(a)) =
            (idx.get(d), v.extent.get(d), s.address.get(d), at.get_mut(d))
        else {
            continue;
        };
        match address(i, n, mode, s.normalized_coords) {
            Some(j) => *a = j,
            None => return Ok(s.border.map(f64::from)),
        }
    }
    texel(v, at[0], at[1], at[2].wrapping_add(layer), read)
}

/// Samples `v` at float coordinates `c` (its first `dims`) in slice `layer`: nearest or linear.
fn sample(
    v: &TextureView,
    s: &Sampling,
    c: [f32; 3],
    dims: usize,
    layer: u64,
    read: &mut Read<'_>,
) -> Result<[f64; 4], Fault> {
    let mut x = c;
    if s.normalized_coords {
        for (d, xd) in x.iter_mut().enumerate().take(dims) {
            *xd *= v.extent.get(d).copied().unwrap_or(1) as f32;
        }
    }
    // Linear filtering applies to float results only: integer element reads are nearest.
    let linear = s.linear && (v.kind == ChannelKind::Float || s.normalized_float && v.bits < 32);
    if !linear {
        let idx = [floor_index(x[0]), floor_index(x[1]), floor_index(x[2])];
        return addressed(v, s, idx, dims, layer, read);
    }
    let mut base = [0i64; 3];
    let mut a = [0f32; 3];
    for d in 0..dims {
        let xb = x[d] - 0.5;
        base[d] = floor_index(xb);
        a[d] = weight(xb) as f32 / 256.0;
    }
    let mut out = [0f32; 4];
    let corners = 1usize << dims;
    for k in 0..corners {
        let mut idx = base;
        let mut w = 1f32;
        for d in 0..dims {
            if k >> d & 1 == 1 {
                idx[d] += 1;
                w *= a[d];
            } else {
                w *= 1.0 - a[d];
            }
        }
        let t = addressed(v, s, idx, dims, layer, read)?;
        for (o, tv) in out.iter_mut().zip(t) {
            *o += w * tv as f32;
        }
    }
    Ok(out.map(f64::from))
}

/// A cubemap direction's face (0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z) and normalized face
/// coordinates (CUDA C++ Programming Guide, "Cubemap Textures" table).
pub fn cube_face(x: f32, y: f32, z: f32) -> (u64, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if x >= 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay >= az {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if z >= 0.0 {
        (4, x, -y, az)
    } else {
        (5, -x, -y, az)
    };
    let ma = if ma == 0.0 { 1.0 } else { ma };
    (face, (sc / ma + 1.0) * 0.5, (tc / ma + 1.0) * 0.5)
}

/// One lane's `tex` (or `tld4` with `gather`: the component's four texels, in the order
/// (i, j+1), (i+1, j+1), (i+1, j), (i, j)): the four result components' bits in `dty`.
///
/// # Errors
/// A texel outside device memory (from `read`).
pub fn fetch(
    v: &TextureView,
    geom: Geom,
    coords: [u64; 4],
    int_coords: bool,
    dty: Dty,
    gather: Option<u8>,
    read: &mut Read<'_>,
) -> Result<[u32; 4], Fault> {
    let s = v.sampling.unwrap_or(Sampling {
        address: [AddressMode::Clamp; 3],
        linear: false,
        normalized_float: false,
        normalized_coords: false,
        border: [0.0; 4],
    });
    let f = |i: usize| {
        let b = coords.get(i).copied().unwrap_or(0) as u32;
        if int_coords {
            b as i32 as f32
        } else {
            f32::from_bits(b)
        }
    };
    let layer_of = |i: usize, n: u32| {
        let l = coords.get(i).copied().unwrap_or(0) as u32 as i32;
        l.clamp(0, n.max(1) as i32 - 1) as u64
    };
    let (c, dims, layer, s) = match geom {
        Geom::D1 => ([f(0), 0.0, 0.0], 1, 0, s),
        Geom::D2 => ([f(0), f(1), 0.0], 2, 0, s),
        Geom::D3 => ([f(0), f(1), f(2)], 3, 0, s),
        Geom::A1 => ([f(1), 0.0, 0.0], 1, layer_of(0, v.layers), s),
        Geom::A2 => ([f(1), f(2), 0.0], 2, layer_of(0, v.layers), s),
        Geom::Cube | Geom::ACube => {
            let o = usize::from(geom == Geom::ACube);
            let (face, u, w) = cube_face(f(o), f(o + 1), f(o + 2));
            let layer = if o == 1 {
                layer_of(0, v.layers / 6) * 6
            } else {
                0
            };
            // Face coordinates are normalized, whatever the object says.
            let mut s = s;
            s.normalized_coords = true;
            ([u, w, 0.0], 2, layer + face, s)
        }
    };
    let out = if let Some(comp) = gather {
        let mut s = s;
        s.linear = false;
        let (x, y) = (c[0] * scale(&s, v, 0) - 0.5, c[1] * scale(&s, v, 1) - 0.5);
        let (i, j) = (floor_index(x), floor_index(y));
        let mut g = [0f64; 4];
        for (o, (di, dj)) in g.iter_mut().zip([(0, 1), (1, 1), (1, 0), (0, 0)]) {
            let t = addressed(v, &s, [i + di, j + dj, 0], 2, layer, read)?;
            *o = t.get(usize::from(comp)).copied().unwrap_or(0.0);
        }
        g
    } else if int_coords {
        let idx = [c[0] as i64, c[1] as i64, c[2] as i64];
        // `tex1Dfetch` (linear memory): no addressing modes; out of range reads zero (CUDA C++
        // Programming Guide, "tex1Dfetch()").
        if geom == Geom::D1 && !(0..i64::from(v.extent[0])).contains(&idx[0]) {
            return Ok([0; 4]);
        }
        let mut s = s;
        s.normalized_coords = false;
        addressed(v, &s, idx, dims, layer, read)?
    } else {
        sample(v, &s, c, dims, layer, read)?
    };
    Ok(out.map(|x| match dty {
        Dty::F32 => (x as f32).to_bits(),
        Dty::S32 | Dty::U32 => x as i64 as u32,
    }))
}

fn scale(s: &Sampling, v: &TextureView, d: usize) -> f32 {
    if s.normalized_coords {
        v.extent.get(d).copied().unwrap_or(1) as f32
    } else {
        1.0
    }
}

/// A surface access's element address: byte `x`, row `y`, slice `z` for `len` bytes; `None`
/// out of range under `.zero`.
///
/// # Errors
/// Out of range under `.trap`.
fn surface_at(
    v: &TextureView,
    geom: Geom,
    coords: [u64; 4],
    len: u64,
    oob: Oob,
    line: u32,
) -> Result<Option<u64>, Fault> {
    let c = |i: usize| i64::from(coords.get(i).copied().unwrap_or(0) as u32 as i32);
    let (x, y, z, zmax) = match geom {
        Geom::D1 => (c(0), 0, 0, 1),
        Geom::D2 => (c(0), c(1), 0, 1),
        Geom::D3 => (c(0), c(1), c(2), v.extent[2]),
        Geom::A1 => (c(1), 0, c(0), v.layers),
        Geom::A2 | Geom::Cube | Geom::ACube => (c(1), c(2), c(0), v.layers),
    };
    let row = i64::from(v.extent[0]).saturating_mul(v.element() as i64);
    let len = len as i64;
    let inside = x >= 0
        && x.saturating_add(len) <= row
        && (0..i64::from(v.extent[1].max(1))).contains(&y)
        && (0..i64::from(zmax.max(1))).contains(&z);
    let (x, y, z) = if inside {
        (x, y, z)
    } else {
        match oob {
            Oob::Zero => return Ok(None),
            Oob::Trap => {
                return Err(Fault::IllegalAddress {
                    addr: v.addr.wrapping_add(x as u64),
                    len: len as u32,
                    line,
                });
            }
            Oob::Clamp => (
                x.clamp(0, (row - len).max(0)) / len * len,
                y.clamp(0, i64::from(v.extent[1].max(1)) - 1),
                z.clamp(0, i64::from(zmax.max(1)) - 1),
            ),
        }
    };
    Ok(Some(
        v.addr
            .wrapping_add(z as u64 * v.slice)
            .wrapping_add(y as u64 * v.pitch)
            .wrapping_add(x as u64),
    ))
}

fn query(v: &TextureView, q: Query) -> u64 {
    let s = v.sampling;
    let mode = |m: AddressMode| match m {
        AddressMode::Wrap => 0,
        AddressMode::Clamp => 1,
        AddressMode::Mirror => 2,
        AddressMode::Border => 3,
    };
    match q {
        Query::Extent(d) => u64::from(v.extent.get(usize::from(d)).copied().unwrap_or(1)),
        Query::Layers => u64::from(v.layers),
        Query::Levels => u64::from(v.levels),
        Query::NormalizedCoords => u64::from(s.is_some_and(|s| s.normalized_coords)),
        Query::FilterMode => u64::from(s.is_some_and(|s| s.linear)),
        Query::AddrMode(d) => s.map_or(0, |s| {
            mode(
                s.address
                    .get(usize::from(d))
                    .copied()
                    .unwrap_or(AddressMode::Wrap),
            )
        }),
    }
}

fn lanes(r: &[u64], s: Slot) -> Result<&Lanes, Fault> {
    let i = s as usize * 32;
    r.get(i..i + 32)
        .and_then(|x| x.try_into().ok())
        .ok_or(Fault::Internal("register slot"))
}

fn lanes_mut(r: &mut [u64], s: Slot) -> Result<&mut Lanes, Fault> {
    let i = s as usize * 32;
    r.get_mut(i..i + 32)
        .and_then(|x| x.try_into().ok())
        .ok_or(Fault::Internal("register slot"))
}

/// Runs `op` for the lanes of `em`: each lane's object looked up by its handle (an unknown
/// handle faults as an illegal address, as a garbage handle does on the board).
///
/// # Errors
/// A texel or surface element outside device memory, a surface access out of range under
/// `.trap`, an unknown handle.
pub fn run(
    op: &TexOp,
    r: &mut [u64],
    mems: &mut Mems<'_>,
    em: u32,
    line: u32,
) -> Result<(), Fault> {
    let handles = *lanes(r, op.handle)?;
    let mut coords = [[0u64; 4]; 32];
    for (k, &c) in op.coords.iter().enumerate() {
        let cv = lanes(r, c)?;
        for (l, lc) in coords.iter_mut().enumerate() {
            if let (Some(x), Some(&v)) = (lc.get_mut(k), cv.get(l)) {
                *x = v;
            }
        }
    }
    let mut data = [[0u64; 4]; 32];
    if matches!(op.kind, Kind::Sust { .. }) {
        for (k, &c) in op.data.iter().enumerate().take(usize::from(op.n)) {
            let cv = lanes(r, c)?;
            for (l, ld) in data.iter_mut().enumerate() {
                if let (Some(x), Some(&v)) = (ld.get_mut(k), cv.get(l)) {
                    *x = v;
                }
            }
        }
    }
    let dev = mems.dev;
    let mut cached: Option<(u64, TextureView)> = None;
    let mut m = em;
    while m != 0 {
        let l = (m.trailing_zeros() & 31) as usize;
        m &= m - 1;
        let h = handles[l];
        let level = match op.kind {
            Kind::Tex { lod: Some(s) } => {
                let lod = f32::from_bits(lanes(r, s)?[l] as u32);
                // Nearest level (the mipmap filter's point mode); negative and NaN: level 0.
                if lod > 0.0 {
                    floor_index(lod + 0.5) as u32
                } else {
                    0
                }
            }
            _ => 0,
        };
        let v = match cached {
            Some((ch, v)) if ch == h && level == 0 => v,
            _ => {
                let Some(mut v) = dev.texture(h, 0) else {
                    return Err(Fault::IllegalAddress {
                        addr: h,
                        len: 0,
                        line,
                    });
                };
                if level > 0 {
                    let top = level.min(v.levels.saturating_sub(1));
                    if let Some(lv) = dev.texture(h, top) {
                        v = lv;
                    }
                } else {
                    cached = Some((h, v));
                }
                v
            }
        };
        let mut read = |addr: u64, w: u8| -> Result<u64, Fault> {
            mems.check(Space::Global, addr, u64::from(w), u64::from(w), addr)?;
            mems.load(Space::Global, addr, w, addr)
        };
        let c = coords[l];
        match op.kind {
            Kind::Tex { .. } | Kind::Tld4(_) => {
                let gather = match op.kind {
                    Kind::Tld4(k) => Some(k),
                    _ => None,
                };
                let out = fetch(&v, op.geom, c, op.int_coords, op.dty, gather, &mut read)?;
                for (k, &d) in op.data.iter().enumerate().take(usize::from(op.n)) {
                    let dv = lanes_mut(r, d)?;
                    dv[l] = u64::from(out.get(k).copied().unwrap_or(0));
                }
            }
            Kind::Suld { width, oob } => {
                let len = u64::from(width) * u64::from(op.n);
                let at = surface_at(&v, op.geom, c, len, oob, line)?;
                for (k, &d) in op.data.iter().enumerate().take(usize::from(op.n)) {
                    let x = match at {
                        Some(a) => read(a.wrapping_add(k as u64 * u64::from(width)), width)?,
                        None => 0,
                    };
                    lanes_mut(r, d)?[l] = x;
                }
            }
            Kind::Sust { width, oob } => {
                let len = u64::from(width) * u64::from(op.n);
                if let Some(a) = surface_at(&v, op.geom, c, len, oob, line)? {
                    for k in 0..usize::from(op.n) {
                        let at = a.wrapping_add(k as u64 * u64::from(width));
                        let x = data[l].get(k).copied().unwrap_or(0);
                        mems.check(Space::Global, at, u64::from(width), u64::from(width), at)?;
                        mems.store(Space::Global, at, width, x, at)?;
                    }
                }
            }
            Kind::Query(q) => {
                if let Some(&d) = op.data.first() {
                    lanes_mut(r, d)?[l] = query(&v, q);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_eighths_of_a_texel_rounded() {
        assert_eq!(weight(0.5), 128);
        assert_eq!(weight(0.7), 179); // 179.2
        assert_eq!(weight(0.998), 255); // 255.488
        assert_eq!(weight(0.999), 256); // 255.744: the next texel's full weight
        assert_eq!(weight(-0.25), 192); // frac(-0.25) = 0.75
        assert_eq!(weight(f32::NAN), 0);
    }

    #[test]
    fn address_modes() {
        use AddressMode::*;
        assert_eq!(address(-1, 4, Wrap, true), Some(3));
        assert_eq!(address(9, 4, Wrap, true), Some(1));
        assert_eq!(address(4, 4, Mirror, true), Some(3));
        assert_eq!(address(-1, 4, Mirror, true), Some(0));
        assert_eq!(address(-2, 4, Mirror, true), Some(1));
        assert_eq!(address(9, 4, Mirror, true), Some(1)); // 0 1 2 3 3 2 1 0 | 0 1
        // Wrap and mirror need normalized coordinates: they clamp otherwise.
        assert_eq!(address(9, 4, Wrap, false), Some(3));
        assert_eq!(address(-3, 4, Mirror, false), Some(0));
        assert_eq!(address(4, 4, Border, false), None);
        assert_eq!(address(3, 4, Border, true), Some(3));
    }

    #[test]
    fn cube_faces() {
        assert_eq!(cube_face(2.0, 0.0, 0.0), (0, 0.5, 0.5));
        assert_eq!(cube_face(-2.0, 1.0, 0.0), (1, 0.5, 0.25));
        assert_eq!(cube_face(0.0, 1.0, 0.5), (2, 0.5, 0.75));
        assert_eq!(cube_face(0.5, -1.0, 0.5), (3, 0.75, 0.25));
        assert_eq!(cube_face(1.0, 0.0, 4.0), (4, 0.625, 0.5));
        assert_eq!(cube_face(1.0, 0.0, -4.0), (5, 0.375, 0.5));
    }
}

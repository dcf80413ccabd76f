//! The warp-level matrix instructions (PTX ISA 9.7.14 "Warp Level Matrix Multiply-Accumulate
//! Instructions"): `mma.sync`, `wmma.load`/`wmma.mma`/`wmma.store`, `ldmatrix` and `stmatrix`,
//! each run once per warp as one small-matrix operation: the fragments of all 32 lanes are
//! gathered into matrices by the ISA's fragment layouts, multiplied natively, and the result
//! scattered back, never lane by lane.
//!
//! Numerics: products of f16, bf16, tf32 and 8-bit integers are exact; a floating-point
//! `D = A·B + C` sums them (and C) in f64 and rounds once to D's type (nearest even; a NaN
//! canonical). PTX leaves the order and precision of the accumulation unspecified; inputs
//! whose sums are exact in D's type (the tests' choice) give the board's answers. `.tf32`
//! operands are f32 registers of which the tensor core reads the 19 high bits: the low 13
//! mantissa bits are ignored (truncated). Integer products are summed in i64, wrapped to 32
//! bits or, with `.satfinite`, clamped.
//!
//! `wmma` fragments are opaque in PTX ("the mapping of matrix elements into fragments is
//! unspecified"): element `e` of lane `l` of a 16×16 fragment is the matrix's element
//! `(l·E + e) mod 256` in row-major order, `E` the lane's element count (f16 `a`/`b` carry 16
//! per lane, twice over, as PTX's 8 `.f16x2` registers do), whatever the memory layout the
//! fragment was loaded with; element-wise code over matching fragments (`acc.x[i] * alpha`)
//! works as on the board.

use alloc::vec::Vec;

use crate::error::Fault;
use crate::memory::{Mems, Space};
use crate::ops::{Addr, Lanes, Mem, Slot};

/// An element type of a fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `.f16` (two per 32-bit register).
    F16,
    /// `.bf16` (two per register).
    Bf16,
    /// `.tf32` (one per register, in f32's format).
    Tf32,
    /// `.f32`.
    F32,
    /// `.f64`.
    F64,
    /// `.s8` (four per register).
    S8,
    /// `.u8` (four per register).
    U8,
    /// `.s32`.
    S32,
}

impl Ty {
    /// The type of a `.f16`-style modifier.
    pub fn of(m: &str) -> Option<Ty> {
        Some(match m {
            ".f16" => Ty::F16,
            ".bf16" => Ty::Bf16,
            ".tf32" => Ty::Tf32,
            ".f32" => Ty::F32,
            ".f64" => Ty::F64,
            ".s8" => Ty::S8,
            ".u8" => Ty::U8,
            ".s32" => Ty::S32,
            _ => return None,
        })
    }

    /// Elements per 32-bit register (f64: one per 64-bit register).
    fn per_reg(self) -> usize {
        match self {
            Ty::F16 | Ty::Bf16 => 2,
            Ty::S8 | Ty::U8 => 4,
            _ => 1,
        }
    }

    /// Bits per element.
    fn bits(self) -> u32 {
        match self {
            Ty::F16 | Ty::Bf16 => 16,
            Ty::S8 | Ty::U8 => 8,
            Ty::F64 => 64,
            _ => 32,
        }
    }

    fn is_int(self) -> bool {
        matches!(self, Ty::S8 | Ty::U8 | Ty::S32)
    }

    /// Element `sub` of register value `v`, as a number.
    #[inline]
    fn read(self, v: u64, sub: usize) -> f64 {
        let bits = self.bits();
        let x = if bits >= 64 {
            v
        } else {
            (v >> (bits as usize * sub)) & ((1u64 << bits) - 1)
        };
        match self {
            Ty::F16 => f16_value(x as u16),
            Ty::Bf16 => f64::from(f32::from_bits((x as u32) << 16)),
            Ty::Tf32 => f64::from(f32::from_bits(x as u32 & 0xffff_e000)),
            Ty::F32 => f64::from(f32::from_bits(x as u32)),
            Ty::F64 => f64::from_bits(x),
            Ty::S8 => f64::from(x as u8 as i8),
            Ty::U8 => f64::from(x as u8),
            Ty::S32 => f64::from(x as u32 as i32),
        }
    }

    /// Element `sub` of register value `v`, as an integer (integer types).
    fn read_int(self, v: u64, sub: usize) -> i64 {
        match self {
            Ty::S8 => i64::from((v >> (8 * sub)) as u8 as i8),
            Ty::U8 => i64::from((v >> (8 * sub)) as u8),
            _ => i64::from(v as u32 as i32),
        }
    }

    /// `x` rounded to this type, as the bits of element `sub` of a register (f32, f16, bf16,
    /// f64: nearest even, NaN canonical).
    #[inline]
    fn write(self, x: f64, sub: usize) -> u64 {
        let bits = match self {
            Ty::F16 => {
                if x.is_nan() {
                    0x7fff
                } else {
                    u64::from(half::f16::from_f64(x).to_bits())
                }
            }
            Ty::Bf16 => {
                if x.is_nan() {
                    0x7fff
                } else {
                    u64::from(half::bf16::from_f64(x).to_bits())
                }
            }
            Ty::F64 => return x.to_bits(),
            // An integer accumulator: wrapped to 32 bits (`.satfinite` clamps before).
            Ty::S32 | Ty::S8 | Ty::U8 => u64::from(x as i64 as i32 as u32),
            _ => {
                if x.is_nan() {
                    0x7fff_ffff
                } else {
                    u64::from((x as f32).to_bits())
                }
            }
        };
        bits << (self.bits() as usize * sub)
    }
}

/// An f16's value: normal numbers by moving the bits into f32's format (exact, the hot path
/// of every f16 product), subnormals, infinities and NaNs through `half`.
#[inline]
fn f16_value(h: u16) -> f64 {
    let exp = (h >> 10) & 0x1f;
    if exp == 0 || exp == 0x1f {
        return half::f16::from_bits(h).to_f64();
    }
    // Rebias the exponent (15 → 127: + 112 << 10) and widen the mantissa (10 → 23 bits).
    let bits = (u32::from(h & 0x8000) << 16) | ((u32::from(h & 0x7fff) + (112 << 10)) << 13);
    f64::from(f32::from_bits(bits))
}

/// Which fragment of a product.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frag {
    /// The left factor A (M×K).
    A,
    /// The right factor B (K×N).
    B,
    /// The accumulator C or the result D (M×N).
    C,
}

/// An `mma.sync` shape and its types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Rows of A and D.
    pub m: usize,
    /// Columns of B and D.
    pub n: usize,
    /// Columns of A, rows of B.
    pub k: usize,
    /// A's and B's element types (A, B).
    pub ab: (Ty, Ty),
    /// C's element type.
    pub c: Ty,
    /// D's element type.
    pub d: Ty,
}

/// The (row, column) of element `i` of lane `lane`'s fragment `f` of an `mma.sync` of
/// `shape`, by the PTX ISA's "Matrix fragments for mma.m16n8k*" figures (groupID = lane / 4,
/// threadID_in_group = lane % 4); `None` for a shape without a layout here.
fn mma_pos(s: &Shape, f: Frag, lane: usize, i: usize) -> Option<(usize, usize)> {
    let (g, t) = (lane >> 2, lane & 3);
    let ty = s.ab.0;
    Some(match (f, s.m, s.n, s.k, ty) {
        // D/C of every m16n8 shape: row g (i < 2) or g + 8, columns 2t and 2t + 1; f64 too.
        (Frag::C, 16, 8, _, _) => (g + 8 * (i >> 1), 2 * t + (i & 1)),
        (Frag::A, 16, 8, 16, Ty::F16 | Ty::Bf16) => {
            (g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2))
        }
        (Frag::B, 16, 8, 16, Ty::F16 | Ty::Bf16) => (2 * t + (i & 1) + 8 * (i >> 1), g),
        (Frag::A, 16, 8, 8, Ty::F16 | Ty::Bf16) => (g + 8 * (i >> 1), 2 * t + (i & 1)),
        (Frag::B, 16, 8, 8, Ty::F16 | Ty::Bf16) => (2 * t + i, g),
        (Frag::A, 16, 8, 8, Ty::Tf32) => (g + 8 * (i & 1), t + 4 * (i >> 1)),
        (Frag::B, 16, 8, 8, Ty::Tf32) => (t + 4 * i, g),
        (Frag::A, 16, 8, 4, Ty::Tf32) => (g + 8 * i, t),
        (Frag::B, 16, 8, 4, Ty::Tf32) => (t, g),
        (Frag::A, 16, 8, 32, Ty::S8 | Ty::U8) => {
            (g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3))
        }
        (Frag::B, 16, 8, 32, Ty::S8 | Ty::U8) => (4 * t + (i & 3) + 16 * (i >> 2), g),
        (Frag::A, 16, 8, 16, Ty::S8 | Ty::U8) => (g + 8 * (i >> 2), 4 * t + (i & 3)),
        (Frag::B, 16, 8, 16, Ty::S8 | Ty::U8) => (4 * t + i, g),
        _ => return None,
    })
}

/// How many registers lane fragments of `f` take in an `mma.sync` of `s`.
fn mma_regs(s: &Shape, f: Frag) -> usize {
    let (elems, ty) = match f {
        Frag::A => (s.m * s.k, s.ab.0),
        Frag::B => (s.k * s.n, s.ab.1),
        Frag::C => (s.m * s.n, s.c),
    };
    elems / 32 / ty.per_reg()
}

/// Whether the executor has `s` (its layouts and types).
pub fn mma_supported(s: &Shape) -> bool {
    let float_ab = matches!(s.ab.0, Ty::F16 | Ty::Bf16 | Ty::Tf32);
    let ok_types = if float_ab {
        s.ab.0 == s.ab.1
            && matches!(s.c, Ty::F32 | Ty::F16)
            && matches!(s.d, Ty::F32 | Ty::F16)
            && (s.ab.0 == Ty::F16 || (s.c == Ty::F32 && s.d == Ty::F32))
    } else {
        s.ab.0.is_int() && s.ab.1.is_int() && s.c == Ty::S32 && s.d == Ty::S32
    };
    ok_types && mma_pos(s, Frag::A, 0, 0).is_some() && mma_pos(s, Frag::B, 0, 0).is_some()
}

/// A decoded `mma.sync` (the register lists in operand order).
#[derive(Clone, Debug)]
pub struct Mma {
    /// The shape and types.
    pub shape: Shape,
    /// `.satfinite` (integer results clamped to s32).
    pub satfinite: bool,
    /// D's registers.
    pub d: Vec<Slot>,
    /// A's registers.
    pub a: Vec<Slot>,
    /// B's registers.
    pub b: Vec<Slot>,
    /// C's registers.
    pub c: Vec<Slot>,
}

impl Mma {
    /// Checks the operand counts against the shape.
    pub fn counts_ok(&self) -> bool {
        let s = &self.shape;
        let dregs = s.m * s.n / 32 / s.d.per_reg();
        self.a.len() == mma_regs(s, Frag::A)
            && self.b.len() == mma_regs(s, Frag::B)
            && self.c.len() == mma_regs(s, Frag::C)
            && self.d.len() == dregs
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

/// Gathers fragment `f` (registers `regs`, element type `ty`) of all 32 lanes into a
/// row-major matrix of `cols` columns, through `pos` (lane, element index) → (row, column).
fn gather(
    r: &[u64],
    regs: &[Slot],
    ty: Ty,
    cols: usize,
    out: &mut [f64],
    pos: impl Fn(usize, usize) -> Option<(usize, usize)>,
) -> Result<(), Fault> {
    let per = ty.per_reg();
    for (k, &s) in regs.iter().enumerate() {
        let v = lanes(r, s)?;
        for (lane, &x) in v.iter().enumerate() {
            for sub in 0..per {
                let (row, col) = pos(lane, k * per + sub).ok_or(Fault::Internal("fragment"))?;
                let e = out
                    .get_mut(row * cols + col)
                    .ok_or(Fault::Internal("fragment"))?;
                *e = ty.read(x, sub);
            }
        }
    }
    Ok(())
}

/// Runs `mma.sync` for the warp: D = A·B + C over the gathered fragments.
///
/// # Errors
/// [`Fault::Unsupported`] when not every lane of the warp runs it (`.sync.aligned`: all 32
/// lanes must, else the result is undefined in PTX); [`Fault::Internal`] for a decoding defect.
pub fn mma(op: &Mma, r: &mut [u64], em: u32, line: u32) -> Result<(), Fault> {
    if em != u32::MAX {
        return Err(not_all_lanes(line, "mma.sync"));
    }
    let s = &op.shape;
    let (m, n, k) = (s.m, s.n, s.k);
    let mut d = [0u64; 32 * 8];
    let dper = s.d.per_reg();
    if s.ab.0.is_int() {
        let mut a = [0i64; 16 * 32];
        let mut b = [0i64; 32 * 8];
        let mut c = [0i64; 16 * 8];
        gather_int(r, &op.a, s.ab.0, k, &mut a, |l, i| {
            mma_pos(s, Frag::A, l, i)
        })?;
        gather_int(r, &op.b, s.ab.1, n, &mut b, |l, i| {
            mma_pos(s, Frag::B, l, i)
        })?;
        gather_int(r, &op.c, s.c, n, &mut c, |l, i| mma_pos(s, Frag::C, l, i))?;
        for lane in 0..32 {
            for i in 0..op.d.len() * dper {
                let (row, col) = mma_pos(s, Frag::C, lane, i).ok_or(Fault::Internal("fragment"))?;
                let mut acc = c.get(row * n + col).copied().unwrap_or(0);
                for kk in 0..k {
                    let x = a.get(row * k + kk).copied().unwrap_or(0);
                    let y = b.get(kk * n + col).copied().unwrap_or(0);
                    acc += x * y;
                }
                let v = if op.satfinite {
                    acc.clamp(i64::from(i32::MIN), i64::from(i32::MAX))
                } else {
                    acc
                };
                if let Some(x) = d.get_mut(lane * 8 + i) {
                    *x = u64::from(v as i32 as u32);
                }
            }
        }
    } else {
        let mut a = [0f64; 16 * 16];
        let mut b = [0f64; 16 * 8];
        let mut c = [0f64; 16 * 8];
        gather(r, &op.a, s.ab.0, k, &mut a, |l, i| {
            mma_pos(s, Frag::A, l, i)
        })?;
        gather(r, &op.b, s.ab.1, n, &mut b, |l, i| {
            mma_pos(s, Frag::B, l, i)
        })?;
        gather(r, &op.c, s.c, n, &mut c, |l, i| mma_pos(s, Frag::C, l, i))?;
        let prod = product(&a, &b, &c, m, n, k);
        for lane in 0..32 {
            for reg in 0..op.d.len() {
                let mut v = 0u64;
                for sub in 0..dper {
                    let (row, col) = mma_pos(s, Frag::C, lane, reg * dper + sub)
                        .ok_or(Fault::Internal("fragment"))?;
                    v |=
                        s.d.write(prod.get(row * n + col).copied().unwrap_or(0.0), sub);
                }
                if let Some(x) = d.get_mut(lane * 8 + reg) {
                    *x = v;
                }
            }
        }
    }
    scatter(r, &op.d, &d)
}

/// Writes each lane's registers (`d[lane * 8 + reg]`, packed) to the destination registers.
fn scatter(r: &mut [u64], regs: &[Slot], d: &[u64]) -> Result<(), Fault> {
    for (reg, &s) in regs.iter().enumerate() {
        let dv = lanes_mut(r, s)?;
        for (lane, x) in dv.iter_mut().enumerate() {
            *x = d.get(lane * 8 + reg).copied().unwrap_or(0);
        }
    }
    Ok(())
}

fn gather_int(
    r: &[u64],
    regs: &[Slot],
    ty: Ty,
    cols: usize,
    out: &mut [i64],
    pos: impl Fn(usize, usize) -> Option<(usize, usize)>,
) -> Result<(), Fault> {
    let per = ty.per_reg();
    for (k, &s) in regs.iter().enumerate() {
        let v = lanes(r, s)?;
        for (lane, &x) in v.iter().enumerate() {
            for sub in 0..per {
                let (row, col) = pos(lane, k * per + sub).ok_or(Fault::Internal("fragment"))?;
                let e = out
                    .get_mut(row * cols + col)
                    .ok_or(Fault::Internal("fragment"))?;
                *e = ty.read_int(x, sub);
            }
        }
    }
    Ok(())
}

/// `A·B + C` (row-major, A m×k, B k×n, C m×n) in f64.
fn product(a: &[f64], b: &[f64], c: &[f64], m: usize, n: usize, k: usize) -> Vec<f64> {
    let mut out: Vec<f64> = c.iter().take(m * n).copied().collect();
    // Row by row, a row of B at a time: the inner loop is a slice zip the compiler vectorizes.
    for (row, orow) in out.chunks_exact_mut(n.max(1)).enumerate().take(m) {
        let arow = a.get(row * k..row * k + k).unwrap_or(&[]);
        for (kk, &x) in arow.iter().enumerate() {
            let Some(brow) = b.get(kk * n..kk * n + n) else {
                continue;
            };
            for (o, &y) in orow.iter_mut().zip(brow) {
                *o += x * y;
            }
        }
    }
    out
}

fn not_all_lanes(line: u32, what: &str) -> Fault {
    Fault::Unsupported {
        line,
        instruction: alloc::format!(
            "{what} run by part of a warp (.sync.aligned needs all 32 lanes)"
        ),
    }
}

/// A lane's resolved address: its space, the offset in it, and the address faults show.
pub type At = (Space, u64, u64);

/// A decoded `ldmatrix` or `stmatrix` (`.m8n8`, `.b16`).
#[derive(Clone, Debug)]
pub struct Matrix8 {
    /// `stmatrix` (else `ldmatrix`).
    pub store: bool,
    /// Matrices: 1, 2 or 4 (`.x1`, `.x2`, `.x4`).
    pub num: usize,
    /// `.trans`.
    pub trans: bool,
    /// The destination (ldmatrix) or source (stmatrix) registers, one per matrix.
    pub regs: Vec<Slot>,
}

/// Runs `ldmatrix`/`stmatrix` (PTX ISA "Warp-level matrix load instruction: ldmatrix"): lanes
/// `8j … 8j + 7` give the addresses of matrix `j`'s eight rows of eight 16-bit elements (16
/// bytes, 16-aligned); lane `l`'s register `j` holds row `l / 4`, columns `2(l % 4)` and
/// `2(l % 4) + 1` of matrix `j` (low half first), or with `.trans` column `l / 4`, rows
/// `2(l % 4)` and `2(l % 4) + 1`.
///
/// # Errors
/// A fault of a row's access; [`Fault::Unsupported`] when part of the warp runs it.
pub fn matrix8(
    op: &Matrix8,
    r: &mut [u64],
    mems: &mut Mems<'_>,
    at: &[At; 32],
    em: u32,
    line: u32,
) -> Result<(), Fault> {
    if em != u32::MAX {
        return Err(not_all_lanes(
            line,
            if op.store { "stmatrix" } else { "ldmatrix" },
        ));
    }
    // m[j][row][col]
    let mut m = [[[0u16; 8]; 8]; 4];
    let pos = |lane: usize, h: usize| {
        let (row, col) = (lane >> 2, 2 * (lane & 3) + h);
        if op.trans { (col, row) } else { (row, col) }
    };
    if op.store {
        for (j, &s) in op.regs.iter().enumerate().take(op.num) {
            let v = lanes(r, s)?;
            for (lane, &x) in v.iter().enumerate() {
                for h in 0..2 {
                    let (row, col) = pos(lane, h);
                    if let Some(e) = m
                        .get_mut(j)
                        .and_then(|a| a.get_mut(row))
                        .and_then(|a| a.get_mut(col))
                    {
                        *e = (x >> (16 * h)) as u16;
                    }
                }
            }
        }
    }
    for (j, mat) in m.iter_mut().enumerate().take(op.num) {
        for (row, vals) in mat.iter_mut().enumerate() {
            let &(sp, off, shown) = at.get(8 * j + row).ok_or(Fault::Internal("lane"))?;
            mems.check(sp, off, 16, 16, shown)?;
            for (c, e) in vals.iter_mut().enumerate() {
                let o = off + 2 * c as u64;
                if op.store {
                    mems.store(sp, o, 2, u64::from(*e), shown)?;
                } else {
                    *e = mems.load(sp, o, 2, shown)? as u16;
                }
            }
        }
    }
    if !op.store {
        for (j, &s) in op.regs.iter().enumerate().take(op.num) {
            let dv = lanes_mut(r, s)?;
            let mat = m.get(j).ok_or(Fault::Internal("matrix"))?;
            for (lane, x) in dv.iter_mut().enumerate() {
                let mut v = 0u64;
                for h in 0..2 {
                    let (row, col) = pos(lane, h);
                    let e = mat.get(row).and_then(|a| a.get(col)).copied().unwrap_or(0);
                    v |= u64::from(e) << (16 * h);
                }
                *x = v;
            }
        }
    }
    Ok(())
}

/// A `wmma` shape: (m, n, k).
pub type WShape = (usize, usize, usize);

/// A decoded `wmma.load` or `wmma.store`.
#[derive(Clone, Debug)]
pub struct WmmaMem {
    /// `wmma.store.d` (else a load).
    pub store: bool,
    /// The fragment (`.a`, `.b`, `.c`; a store's `.d` is [`Frag::C`]).
    pub frag: Frag,
    /// The shape.
    pub shape: WShape,
    /// `.col` (else `.row`): the memory's layout.
    pub col: bool,
    /// The element type.
    pub ty: Ty,
    /// The fragment's registers.
    pub regs: Vec<Slot>,
    /// The stride (elements between rows, or columns for `.col`), if given.
    pub stride: Option<Slot>,
}

/// A decoded `wmma.mma`.
#[derive(Clone, Debug)]
pub struct WmmaMma {
    /// `.satfinite` (integer results clamped to s32).
    pub satfinite: bool,
    /// The shape.
    pub shape: WShape,
    /// A's and B's element type.
    pub ab: Ty,
    /// C's element type.
    pub c: Ty,
    /// D's element type.
    pub d: Ty,
    /// D's registers.
    pub dr: Vec<Slot>,
    /// A's registers.
    pub a: Vec<Slot>,
    /// B's registers.
    pub b: Vec<Slot>,
    /// C's registers.
    pub cr: Vec<Slot>,
}

/// Rows and columns of fragment `f` of a `wmma` of `shape`.
fn wdims((m, n, k): WShape, f: Frag) -> (usize, usize) {
    match f {
        Frag::A => (m, k),
        Frag::B => (k, n),
        Frag::C => (m, n),
    }
}

/// The shapes and fragment types the executor runs: f16, bf16, s8 and u8 at m16n16k16,
/// m32n8k16 and m8n32k16; tf32 at m16n16k8; f64 at m8n8k4 (with f32, s32 and f64
/// accumulators).
pub fn wmma_supported(shape: WShape, ty: Ty) -> bool {
    match ty {
        Ty::F16 | Ty::Bf16 | Ty::S8 | Ty::U8 | Ty::F32 | Ty::S32 => {
            matches!(shape, (16, 16, 16) | (32, 8, 16) | (8, 32, 16))
                || (matches!(ty, Ty::F32) && shape == (16, 16, 8))
        }
        Ty::Tf32 => shape == (16, 16, 8),
        Ty::F64 => shape == (8, 8, 4),
    }
}

/// The row-major index of element `e` of lane `lane` of a fragment of `elems` elements with
/// `per_lane` per lane (see the module's documentation).
#[inline]
fn widx(lane: usize, e: usize, per_lane: usize, elems: usize) -> usize {
    let mut i = lane * per_lane + e;
    // Subtractions, not a division: the inner loop; duplicated holders (f16 a/b) wrap once or
    // a few times.
    while i >= elems && elems > 0 {
        i -= elems;
    }
    i
}

/// Runs `wmma.load` / `wmma.store` (PTX ISA "wmma.load", "wmma.store"): the 16×16 (or
/// 32×8, 8×32) matrix at the first lane's address, `stride` elements between rows (`.row`)
/// or columns (`.col`), to or from the warp's fragment.
///
/// # Errors
/// A fault of an element's access; [`Fault::Unsupported`] when part of the warp runs it.
pub fn wmma_mem(
    op: &WmmaMem,
    r: &mut [u64],
    mems: &mut Mems<'_>,
    base: At,
    stride: Option<u64>,
    em: u32,
    line: u32,
) -> Result<(), Fault> {
    if em != u32::MAX {
        return Err(not_all_lanes(line, "wmma"));
    }
    let (rows, cols) = wdims(op.shape, op.frag);
    let elems = rows * cols;
    let w = u64::from(op.ty.bits() / 8);
    let stride = stride.unwrap_or(if op.col { rows } else { cols } as u64);
    let (sp, off, shown) = base;
    let addr = |i: usize| {
        let (row, col) = ((i / cols) as u64, (i % cols) as u64);
        let e = if op.col {
            col * stride + row
        } else {
            row * stride + col
        };
        off.wrapping_add(e.wrapping_mul(w))
    };
    let per = op.ty.per_reg();
    let per_lane = op.regs.len() * per;
    if op.store {
        for (reg, &s) in op.regs.iter().enumerate() {
            let v = *lanes(r, s)?;
            // Duplicated elements (f16 a/b) are stored once: lanes whose slot wraps around.
            for (lane, &x) in v.iter().enumerate() {
                for sub in 0..per {
                    if lane * per_lane + reg * per + sub >= elems {
                        continue;
                    }
                    let i = widx(lane, reg * per + sub, per_lane, elems);
                    let a = addr(i);
                    mems.check(sp, a, w, w, shown.wrapping_add(a.wrapping_sub(off)))?;
                    let bits = (x >> (op.ty.bits() as usize * sub)) & mask(op.ty.bits());
                    mems.store(sp, a, w as u8, bits, shown)?;
                }
            }
        }
        return Ok(());
    }
    let mut mat = alloc::vec![0u64; elems];
    // Run by run of contiguous elements (a row, or a column for `.col`): one bounds check each.
    let (outer, inner) = if op.col { (cols, rows) } else { (rows, cols) };
    for o in 0..outer {
        let run = off.wrapping_add((o as u64).wrapping_mul(stride).wrapping_mul(w));
        mems.check(
            sp,
            run,
            inner as u64 * w,
            w,
            shown.wrapping_add(run.wrapping_sub(off)),
        )?;
        for i in 0..inner {
            let (row, col) = if op.col { (i, o) } else { (o, i) };
            let v = mems.load(sp, run + i as u64 * w, w as u8, shown)?;
            if let Some(e) = mat.get_mut(row * cols + col) {
                *e = v;
            }
        }
    }
    for (reg, &s) in op.regs.iter().enumerate() {
        let dv = lanes_mut(r, s)?;
        for (lane, x) in dv.iter_mut().enumerate() {
            let mut v = 0u64;
            for sub in 0..per {
                let i = widx(lane, reg * per + sub, per_lane, elems);
                v |= mat.get(i).copied().unwrap_or(0) << (op.ty.bits() as usize * sub);
            }
            *x = v;
        }
    }
    Ok(())
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Runs `wmma.mma` (PTX ISA "wmma.mma"): D = A·B + C over the warp's fragments.
///
/// # Errors
/// [`Fault::Unsupported`] when part of the warp runs it.
pub fn wmma_mma(op: &WmmaMma, r: &mut [u64], em: u32, line: u32) -> Result<(), Fault> {
    if em != u32::MAX {
        return Err(not_all_lanes(line, "wmma.mma"));
    }
    let (m, n, k) = op.shape;
    let mut mats: [Vec<f64>; 3] = Default::default();
    for (slot, (regs, ty, f)) in mats.iter_mut().zip([
        (&op.a, op.ab, Frag::A),
        (&op.b, op.ab, Frag::B),
        (&op.cr, op.c, Frag::C),
    ]) {
        let (rows, cols) = wdims(op.shape, f);
        let elems = rows * cols;
        *slot = alloc::vec![0f64; elems];
        let per = ty.per_reg();
        let per_lane = regs.len() * per;
        for (reg, &s) in regs.iter().enumerate() {
            let v = lanes(r, s)?;
            for (lane, &x) in v.iter().enumerate() {
                for sub in 0..per {
                    // A duplicate (f16 a/b: every element twice) is read once, from its first
                    // holder, as a store writes it.
                    if lane * per_lane + reg * per + sub >= elems {
                        continue;
                    }
                    let i = widx(lane, reg * per + sub, per_lane, elems);
                    if let Some(e) = slot.get_mut(i) {
                        *e = ty.read(x, sub);
                    }
                }
            }
        }
    }
    let [a, b, c] = &mats;
    let prod = product(a, b, c, m, n, k);
    let per = op.d.per_reg();
    let per_lane = op.dr.len() * per;
    for (reg, &s) in op.dr.iter().enumerate() {
        let dv = lanes_mut(r, s)?;
        for (lane, x) in dv.iter_mut().enumerate() {
            let mut v = 0u64;
            for sub in 0..per {
                let i = widx(lane, reg * per + sub, per_lane, m * n);
                let mut y = prod.get(i).copied().unwrap_or(0.0);
                if op.satfinite && op.d == Ty::S32 {
                    y = y.clamp(f64::from(i32::MIN), f64::from(i32::MAX));
                }
                v |= op.d.write(y, sub);
            }
            *x = v;
        }
    }
    Ok(())
}

/// A warp-level matrix instruction, decoded.
#[derive(Clone, Debug)]
pub enum TensorOp {
    /// `mma.sync`.
    Mma(Mma),
    /// `ldmatrix` / `stmatrix`, with the memory and the lanes' address.
    Matrix8(Matrix8, Mem, Addr),
    /// `wmma.load` / `wmma.store`, with the memory and the address.
    WmmaMem(WmmaMem, Mem, Addr),
    /// `wmma.mma`.
    WmmaMma(WmmaMma),
}

/// `cvt.rna.tf32.f32` modes in an ALU kernel's `aux`: ties away from zero.
pub const TF32_RNA: u32 = 0;
/// `cvt.rn.tf32.f32`: ties to even.
pub const TF32_RN: u32 = 1;
/// `cvt.rz.tf32.f32`: toward zero.
pub const TF32_RZ: u32 = 2;
/// `.satfinite`: an infinity becomes the largest finite tf32 of its sign.
pub const TF32_SATFINITE: u32 = 4;

/// `cvt.{rna,rn,rz}{.satfinite}.tf32.f32 d, a` (PTX ISA "cvt"): `a` rounded to tf32's 10
/// mantissa bits (`aux`: [`TF32_RNA`], [`TF32_RN`] or [`TF32_RZ`], plus [`TF32_SATFINITE`]),
/// in f32's format with the 13 low bits zero (the tensor core's reading of a tf32); a NaN
/// gives 0x7fc00000, as an H100 does (`num::f32_to_tf32`).
pub fn cvt_tf32(d: &mut Lanes, a: &Lanes, _: &Lanes, _: &Lanes, mask: u32, aux: u32) {
    for (l, (dv, &av)) in d.iter_mut().zip(a.iter()).enumerate() {
        if mask >> l & 1 == 0 {
            continue;
        }
        // One conversion for cvt and the tensor path alike (`num::f32_to_tf32`).
        let rnd = match aux & 3 {
            TF32_RNA => crate::num::Rnd::Rna,
            TF32_RN => crate::num::Rnd::Rn,
            _ => crate::num::Rnd::Rz,
        };
        let x = f32::from_bits(av as u32);
        *dv = u64::from(crate::num::f32_to_tf32(x, rnd, aux & TF32_SATFINITE != 0));
    }
}

#[cfg(test)]
mod tf32_tests {
    use super::*;

    fn one(x: u32, aux: u32) -> u32 {
        let mut d = [0u64; 32];
        cvt_tf32(&mut d, &[u64::from(x); 32], &[0; 32], &[0; 32], 1, aux);
        d[0] as u32
    }

    #[test]
    fn rounding_modes() {
        // 1 + 2^-11 (exactly halfway between two tf32 values, 1 and 1 + 2^-10).
        let half = 0x3f80_1000;
        assert_eq!(one(half, TF32_RNA), 0x3f80_2000);
        assert_eq!(one(half, TF32_RN), 0x3f80_0000);
        assert_eq!(one(half | 0x2000, TF32_RN), 0x3f80_4000);
        assert_eq!(one(half | 1, TF32_RZ), 0x3f80_0000);
        assert_eq!(one(0xbf80_1000, TF32_RNA), 0xbf80_2000);
        // The largest f32 rounds up to infinity, or to tf32's largest with .satfinite.
        assert_eq!(one(0x7f7f_ffff, TF32_RNA), 0x7f80_0000);
        assert_eq!(one(0x7f7f_ffff, TF32_RNA | TF32_SATFINITE), 0x7f7f_e000);
        // Any NaN: 0x7fc00000, as an H100 gives it (tests/data/conformance/lowp.txt).
        assert_eq!(one(0x7fc0_0001, TF32_RN), 0x7fc0_0000);
    }
}

#[cfg(test)]
mod f16_tests {
    #[test]
    fn f16_value_is_half_for_every_bit_pattern() {
        for h in 0..=u16::MAX {
            let (got, want) = (super::f16_value(h), half::f16::from_bits(h).to_f64());
            assert!(got == want || (got.is_nan() && want.is_nan()), "{h:#06x}");
            assert_eq!(got.is_sign_negative(), want.is_sign_negative(), "{h:#06x}");
        }
    }
}

//! PTX numeric semantics: the results of PTX's arithmetic, conversion and bit-manipulation
//! instructions, as pure functions over primitive types (`no_std`: core, `libm`, `half`).
//!
//! Conventions, for every function here:
//! - Floating-point values are passed as Rust `f32`/`f64`, or as bit patterns: `u16` for one
//!   f16/bf16, `u32` for an `.f16x2`/`.bf16x2` pair whose low half is the first element
//!   (`%r = {lo, hi}`, PTX ISA "Packed data types").
//! - IEEE 754 operations (`.rn .rz .rm .rp` add, sub, mul, fma, div, sqrt, rcp, and `cvt`) are
//!   bitwise exact: computed as an exact significand and rounded once (`soft.rs`).
//! - NaN results are the NaN an H100 produces (`tests/data/conformance/`): for f32 and f16 the
//!   canonical NaN, sign clear, every other bit set (`0x7fffffff`, `0x7fff`); for f64 the first
//!   NaN operand made quiet, else `0xfff8000000000000` (`f64.rs`). The pure bit operations
//!   `abs`, `neg`, `copysign` keep the payload (`neg.f64` leaves a NaN unchanged).
//! - `.ftz` flushes subnormal inputs and subnormal results to the zero of their sign; `.sat`
//!   clamps the result to [+0.0, 1.0] and turns NaN into +0.0 (PTX ISA "Floating-point
//!   instructions", "Saturation modifiers").
//! - `.approx` functions are computed in f64 with `libm` and rounded to nearest: they are within
//!   PTX's documented error bounds but need not equal the hardware's bits (see each function).
//! - Nothing here panics: shifts, widths and positions out of range follow PTX's definitions.
//!
//! Files: `soft.rs` (the exact rounding core), `f32.rs`, `f64.rs`, `half.rs` (f16, bf16 and
//! their x2 forms), `cvt.rs` (conversions), `int.rs` (integer arithmetic), `bits.rs` (bit
//! manipulation).

mod bits;
mod cvt;
mod f32;
mod f64;
mod half;
mod int;
mod soft;
#[cfg(test)]
mod tests;

pub use self::bits::*;
pub use self::cvt::*;
pub use self::f32::*;
pub use self::f64::*;
pub use self::half::*;
pub use self::int::*;

/// Rounding modifiers of floating-point results (PTX ISA "Rounding modifiers", floating-point
/// instructions): `.rn` nearest-even, `.rna` nearest with ties away from zero (`cvt` to tf32 and
/// fp8 only), `.rz` toward zero, `.rm` toward −∞, `.rp` toward +∞.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rnd {
    /// `.rn`: round to nearest, ties to even.
    Rn,
    /// `.rna`: round to nearest, ties away from zero.
    Rna,
    /// `.rz`: round toward zero.
    Rz,
    /// `.rm`: round toward negative infinity.
    Rm,
    /// `.rp`: round toward positive infinity.
    Rp,
}

/// Integer rounding modifiers (PTX ISA "cvt": `.rni .rzi .rmi .rpi`), for float-to-integer
/// conversions and float-to-float rounding to an integral value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntRnd {
    /// `.rni`: nearest integer, ties to even.
    Rni,
    /// `.rzi`: toward zero.
    Rzi,
    /// `.rmi`: toward negative infinity.
    Rmi,
    /// `.rpi`: toward positive infinity.
    Rpi,
}

/// The flavours of `div.f32` (PTX ISA "div (floating point)").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DivKind {
    /// `div.approx.f32`: `a * (1/b)`, max 2 ulp error for |b| in [2^-126, 2^126]; for
    /// 2^126 < |b| < 2^128 the result is 0 (NaN if `a` is infinite).
    Approx,
    /// `div.full.f32`: full range, max 2 ulp error, no rounding modifier.
    Full,
    /// `div.rnd.f32` (IEEE 754 compliant, `.rn .rz .rm .rp`).
    Rnd(Rnd),
}

/// The properties `testp` tests (PTX ISA "testp").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestP {
    /// `.finite`: neither infinite nor NaN.
    Finite,
    /// `.infinite`: ±∞.
    Infinite,
    /// `.number`: not NaN.
    Number,
    /// `.notanumber`: NaN.
    NotANumber,
    /// `.normal`: a normal number (not zero, subnormal, infinite or NaN).
    Normal,
    /// `.subnormal`: a subnormal number (nonzero, with a zero exponent field).
    Subnormal,
}

/// The modes of `prmt` (PTX ISA "prmt"): the generic byte selector, or one of the special modes
/// that use only `c[1:0]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrmtMode {
    /// No mode: four 4-bit selectors in `c[15:0]`, bit 3 of each replicating the sign.
    Default,
    /// `.f4e`: forward 4 extract.
    F4e,
    /// `.b4e`: backward 4 extract.
    B4e,
    /// `.rc8`: replicate one byte.
    Rc8,
    /// `.ecl`: edge clamp left.
    Ecl,
    /// `.ecr`: edge clamp right.
    Ecr,
    /// `.rc16`: replicate one half-word.
    Rc16,
}

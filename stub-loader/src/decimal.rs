//! A decimal number from 0 to 1 read into the nearest `f64` with integer arithmetic only:
//! `CUDA_STUBS_FAULT`'s `%P`. `str::parse::<f64>` would link core's general float parser (the
//! Eisel-Lemire tables, `POWER_OF_FIVE_128` alone 10 KiB, and its big-decimal fallback, about
//! 26 KiB in all) into every stub for one debugging variable.
//!
//! The result is the one `str::parse::<f64>` gives, bit for bit (the unit tests compare the
//! two): the same grammar (Rust's `f64::from_str`: an optional sign, digits with an optional
//! point, an optional exponent `e`/`E`; `inf` and `nan` read but out of range), rounded to
//! nearest, ties to even, subnormals included. A value is exact in binary after at most 767
//! significant digits, so digits past the 800th only say "more than zero" (as core's own
//! parser keeps 768).

use alloc::vec;
use alloc::vec::Vec;

/// Significant digits kept; the rest only say whether the value is above the kept ones.
const MAX_DIGITS: usize = 800;

/// 1 + 2^-53, the halfway point between 1 and the next `f64`, digits without the point: at or
/// below it a value in [1, 10) rounds to 1 (the tie to the even mantissa, 1's).
const ONE_AND_HALF_ULP: &[u8] = b"100000000000000011102230246251565404236316680908203125";

/// A number's decimal digits and where its point is.
struct Decimal {
    negative: bool,
    /// Significant digits (values 0-9), no leading or trailing zeros; empty for zero.
    digits: Vec<u8>,
    /// Nonzero digits were dropped past [`MAX_DIGITS`].
    truncated: bool,
    /// The value is `0.d1d2d3… × 10^point` (`digits` = `[5]`, `point` = 0: 0.5).
    point: i64,
}

/// `text` read as a decimal in [0, 1] (`-0` included, as `-0.0`), rounded to the nearest
/// `f64`; `None` when it is not a number in `f64::from_str`'s grammar or its `f64` is outside
/// [0, 1] (NaN, infinities, negatives, above 1).
pub(crate) fn parse_unit_f64(text: &str) -> Option<f64> {
    let d = parse_decimal(text.as_bytes())?;
    let magnitude = if d.digits.is_empty() {
        Some(0.0)
    } else {
        magnitude(&d)
    };
    match magnitude {
        // A negative number is in range only when it rounds to zero: -0.0.
        Some(m) if d.negative => (m == 0.0).then_some(-0.0),
        m => m,
    }
}

/// The `f64` nearest `|d|` (nonzero digits) if it is at most 1.
fn magnitude(d: &Decimal) -> Option<f64> {
    match d.point {
        // 10 and above.
        p if p > 1 => None,
        // [1, 10): the digits against 1 + 2^-53, point at the first.
        1 => {
            let limit = ONE_AND_HALF_ULP.iter().map(|b| b - b'0');
            let at_most = match d.digits.iter().copied().cmp(limit) {
                core::cmp::Ordering::Less => true,
                core::cmp::Ordering::Equal => !d.truncated,
                core::cmp::Ordering::Greater => false,
            };
            at_most.then_some(1.0)
        }
        // Below 10^-330, under half the least subnormal (2^-1075 ≈ 2.5e-325): zero.
        p if p < -330 => Some(0.0),
        p => Some(below_one(&d.digits, p, d.truncated)),
    }
}

/// The grammar of `f64::from_str`: `[+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?`, or
/// `inf`, `infinity`, `nan` (any case), which are returned as `None` too: none is in [0, 1].
fn parse_decimal(text: &[u8]) -> Option<Decimal> {
    let (negative, rest) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    let (int_part, rest) = split_digits(rest);
    let (frac_part, rest) = match rest.split_first() {
        Some((b'.', after)) => split_digits(after),
        _ => (&[][..], rest),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let exponent = match rest.split_first() {
        None => 0,
        Some((b'e' | b'E', after)) => {
            let (negative_exp, after) = match after.split_first() {
                Some((b'-', a)) => (true, a),
                Some((b'+', a)) => (false, a),
                _ => (false, after),
            };
            let (exp_digits, after) = split_digits(after);
            if exp_digits.is_empty() || !after.is_empty() {
                return None;
            }
            // Saturated far beyond any value that is not 0 or out of range.
            let e = exp_digits.iter().fold(0i64, |e, b| {
                e.saturating_mul(10)
                    .saturating_add(i64::from(b - b'0'))
                    .min(1 << 40)
            });
            if negative_exp { -e } else { e }
        }
        Some(_) => return None,
    };
    let mut digits = Vec::new();
    let mut truncated = false;
    // The point sits after the integer part, then moves left past each leading zero dropped.
    let mut point = i64::try_from(int_part.len()).unwrap_or(i64::MAX);
    for &b in int_part.iter().chain(frac_part) {
        let v = b - b'0';
        if digits.is_empty() && v == 0 {
            point = point.saturating_sub(1);
        } else if digits.len() < MAX_DIGITS {
            digits.push(v);
        } else if v != 0 {
            truncated = true;
        }
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
    Some(Decimal {
        negative,
        digits,
        truncated,
        point: point.saturating_add(exponent),
    })
}

/// The leading ASCII digits of `s`, and what follows them.
fn split_digits(s: &[u8]) -> (&[u8], &[u8]) {
    let n = s.iter().take_while(|b| b.is_ascii_digit()).count();
    s.split_at_checked(n).unwrap_or((s, &[]))
}

/// `0.digits × 10^point` (below 1: `point` ≤ 0, digits nonempty, no leading zero) rounded to
/// the nearest `f64`, ties to even: the quotient `digits / 10^(len - point)` by binary long
/// division, 53 bits (fewer for a subnormal), then the rounding bit, and the remainder (and
/// any digit truncated) as the sticky bit.
fn below_one(digits: &[u8], point: i64, truncated: bool) -> f64 {
    // value = numerator / 10^k.
    let k = usize::try_from(point.unsigned_abs())
        .unwrap_or(usize::MAX)
        .saturating_add(digits.len());
    // 10^k < 2^(3.33 k): limbs for the denominator and twice the numerator (always below 2 ×
    // the denominator), with one to spare.
    let limbs = k.saturating_mul(3322) / 1000 / 32 + 3;
    let mut den = vec![0u32; limbs];
    if let Some(first) = den.first_mut() {
        *first = 1;
    }
    for _ in 0..k {
        mul_add(&mut den, 10, 0);
    }
    let mut num = vec![0u32; limbs];
    for &d in digits {
        mul_add(&mut num, 10, u32::from(d));
    }
    // value in [2^-shift, 2^(1-shift)): double the numerator until it reaches the denominator.
    // Below 2^-1075 (still below after 1075 doublings) the value rounds to zero.
    let mut shift: i64 = 0;
    while less(&num, &den) {
        if shift >= 1075 {
            return 0.0;
        }
        shl1(&mut num);
        shift += 1;
    }
    let exp = -shift; // value = 1.xxx × 2^exp
    // Mantissa bits: 53 for a normal number, fewer below 2^-1022 (0 at 2^-1075).
    let precision = if exp >= -1022 { 53 } else { 1075 + exp };
    let mut mantissa: u64 = 0;
    for _ in 0..precision {
        let bit = !less(&num, &den);
        if bit {
            sub(&mut num, &den);
        }
        mantissa = (mantissa << 1) | u64::from(bit);
        shl1(&mut num);
    }
    let round = !less(&num, &den);
    if round {
        sub(&mut num, &den);
    }
    let sticky = truncated || num.iter().any(|&l| l != 0);
    // A normal mantissa carries its leading 1 into the exponent field: (exp + 1022) << 52 plus
    // the 53-bit mantissa is the biased exponent exp + 1023 and the fraction; a subnormal's
    // field is 0. Rounding up adds one unit, carrying into the exponent where it must.
    let field = u64::try_from(exp + 1022).unwrap_or(0) << 52;
    let mut bits = field.wrapping_add(mantissa);
    if round && (sticky || mantissa & 1 == 1) {
        bits = bits.wrapping_add(1);
    }
    f64::from_bits(bits)
}

/// `n = n × m + add` (little-endian limbs); what overflows the top limb is dropped, which the
/// callers' sizes never reach.
fn mul_add(n: &mut [u32], m: u32, add: u32) {
    let mut carry = u64::from(add);
    for limb in n.iter_mut() {
        let v = u64::from(*limb) * u64::from(m) + carry;
        *limb = v as u32; // the low 32 bits; the rest carries
        carry = v >> 32;
    }
}

/// `n <<= 1`.
fn shl1(n: &mut [u32]) {
    let mut carry = 0;
    for limb in n.iter_mut() {
        let top = *limb >> 31;
        *limb = (*limb << 1) | carry;
        carry = top;
    }
}

/// `a < b`, both of the same length.
fn less(a: &[u32], b: &[u32]) -> bool {
    a.iter().rev().cmp(b.iter().rev()) == core::cmp::Ordering::Less
}

/// `a -= b` where `a >= b`, both of the same length.
fn sub(a: &mut [u32], b: &[u32]) {
    let mut borrow = false;
    for (x, &y) in a.iter_mut().zip(b) {
        let (v, b1) = x.overflowing_sub(y);
        let (v, b2) = v.overflowing_sub(u32::from(borrow));
        *x = v;
        borrow = b1 || b2;
    }
}

#[cfg(test)]
mod tests {
    use super::parse_unit_f64;

    /// What `str::parse::<f64>` and the range check made of `text`.
    fn by_core(text: &str) -> Option<f64> {
        text.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p))
    }

    fn same(text: &str) {
        let ours = parse_unit_f64(text).map(f64::to_bits);
        let core = by_core(text).map(f64::to_bits);
        assert_eq!(ours, core, "{text:?}: ours {ours:x?}, core {core:x?}");
    }

    #[test]
    fn agrees_with_core_on_chosen_texts() {
        // One text per `|`-separated entry (the empty text included: `||`).
        const TEXTS: &str = "0|-0|+0|0.0|-0.0|00|.5|5.|0.5|+0.5|-0.5|1|1.|1.0|01|1e0|10e-1|0.1e1|0.7|0.1|0.3|\
         0.25|0.999999999|0.9999999999999999|0.99999999999999994|0.99999999999999995|\
         0.999999999999999944488848768742172978818416595458984375|\
         0.999999999999999944488848768742172978818416595458984374|\
         0.999999999999999944488848768742172978818416595458984376|\
         1.00000000000000011102230246251565404236316680908203125|\
         1.000000000000000111022302462515654042363166809082031250|\
         1.00000000000000011102230246251565404236316680908203126|\
         1.000000000000000111022302462515654042363166809082031250000000001|\
         1.0000000000000001|1.0000000000000002|1.00000000000000012|1.5|2|10|1e1|0.1e2|5e-1|\
         5E-1|5e+0|1e-5|3e-10|1e-300|1e-307|2.2250738585072014e-308|2.2250738585072011e-308|\
         4.9406564584124654e-324|2.4703282292062327e-324|2.4703282292062328e-324|1e-323|\
         5e-324|1e-324|1e-400|0e999999999999999999|1e-99999999999999999999|\
         1e99999999999999999|inf|-inf|infinity|Infinity|nan|NaN|-nan||.|-|+|e1|.e1|1e|1e+|\
         1e-|1.e1|0x1|1_0| 0.5|0.5 |0..5|0.5.|1e1.5|++1|--1|0.5%|٠.5|\
         0.333333333333333314829616256247390992939472198486328125|\
         0.3333333333333333148296162562473909929394721984863281250000001|\
         0.33333333333333331482961625624739099293947219848632812499999";
        for text in TEXTS.split('|') {
            same(text);
        }
    }

    #[test]
    fn agrees_with_core_on_generated_texts() {
        // A fixed generator: reproducible, and a failure names the text.
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let r = next();
            let mut text = alloc::string::String::new();
            if r & 7 == 0 {
                text.push('-');
            }
            let int_digits = (r >> 3) % 3;
            for _ in 0..int_digits {
                text.push(char::from(b'0' + (next() % 2) as u8));
            }
            text.push('.');
            let frac_digits = (r >> 5) % 40;
            for i in 0..frac_digits {
                let n = next();
                // Runs of 9s and 0s reach the halfway points and the carries.
                let d = match (n >> 8) % 4 {
                    0 => 9,
                    1 if i > 2 => 0,
                    _ => (n % 10) as u8,
                };
                text.push(char::from(b'0' + d));
            }
            if int_digits == 0 && frac_digits == 0 {
                text.push('5');
            }
            if r & (1 << 20) != 0 {
                text.push_str(&alloc::format!("e-{}", (r >> 21) % 330));
            }
            same(&text);
        }
        // Exact doubles below 1 and their neighbours' halfway points, written out in full.
        for _ in 0..500 {
            let bits = next() % 0x3FF0_0000_0000_0000;
            let x = f64::from_bits(bits);
            same(&alloc::format!("{x:e}"));
            let up = f64::from_bits(bits + 1);
            // The halfway point between x and the next double, in full decimal (exact: a
            // dyadic fraction), and one digit either side of it.
            let half = halfway(x, up);
            same(&half);
            same(&alloc::format!("{half}1"));
            same(&lower_last(&half));
        }
    }

    /// The exact decimal expansion of (a + b) / 2 for two adjacent positive doubles.
    fn halfway(a: f64, b: f64) -> alloc::string::String {
        // a = ma × 2^ea, b = mb × 2^eb: over the smaller exponent e the midpoint is
        // (ma' + mb') × 2^(e-1).
        let (ma, ea) = parts(a);
        let (mb, eb) = parts(b);
        let e = ea.min(eb);
        exact_decimal((ma << (ea - e)) + (mb << (eb - e)), e - 1)
    }

    /// `x` = m × 2^e with m an integer.
    fn parts(x: f64) -> (u128, i32) {
        let bits = x.to_bits();
        let field = ((bits >> 52) & 0x7FF) as i32;
        let frac = u128::from(bits & ((1 << 52) - 1));
        if field == 0 {
            (frac, -1074)
        } else {
            (frac | 1 << 52, field - 1075)
        }
    }

    /// m × 2^e (e < 0) in full decimal, `0.` and its digits.
    fn exact_decimal(m: u128, e: i32) -> alloc::string::String {
        // m × 2^e = m × 5^-e / 10^-e: the digits of m × 5^-e, the point -e places left.
        let mut digits = alloc::vec![0u32];
        let carry_in = |digits: &mut alloc::vec::Vec<u32>, mul: u32, add: u32| {
            let mut carry = add;
            for d in digits.iter_mut() {
                let v = *d * mul + carry;
                *d = v % 10;
                carry = v / 10;
            }
            while carry > 0 {
                digits.push(carry % 10);
                carry /= 10;
            }
        };
        for c in m.to_string().bytes() {
            carry_in(&mut digits, 10, u32::from(c - b'0'));
        }
        for _ in 0..-e {
            carry_in(&mut digits, 5, 0);
        }
        let places = usize::try_from(-e).unwrap();
        while digits.len() <= places {
            digits.push(0);
        }
        let text: alloc::string::String = digits
            .iter()
            .rev()
            .map(|d| char::from(b'0' + *d as u8))
            .collect();
        let (int, frac) = text.split_at(text.len() - places);
        alloc::format!("{int}.{frac}")
    }

    /// The decimal text with its last nonzero digit lowered by one and 9s appended: just
    /// below it.
    fn lower_last(text: &str) -> alloc::string::String {
        let trimmed = text.trim_end_matches('0');
        let mut bytes = trimmed.as_bytes().to_vec();
        let last = bytes.last_mut().unwrap();
        if *last == b'.' {
            return text.into();
        }
        *last -= 1;
        alloc::format!("{}999", alloc::string::String::from_utf8(bytes).unwrap())
    }
}

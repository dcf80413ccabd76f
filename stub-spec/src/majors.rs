//! The CUDA majors a declaration may name, and the 16-bit mask the stubs' function table stores
//! them in (`stub_loader::FnMeta::majors`, bit `m - MASK_BASE` for major `m`).

/// Lowest CUDA major a mask can hold: bit 0 (re-exported as `stub_loader::MASK_BASE`).
pub const MASK_BASE: u32 = 10;

/// The oldest major a declaration may name (10 is bit 0 but no stub serves it).
pub const MIN: u32 = MASK_BASE + 1;

/// The newest major a 16-bit mask can hold.
pub const MAX: u32 = MASK_BASE + 15;

/// The parser's message for a major outside [`MIN`]..=[`MAX`].
pub const RANGE_ERROR: &str = "cuda_stubs: a CUDA major is an integer from 11 to 25";

/// Whether `major` is one a declaration may name.
pub fn valid(major: u32) -> bool {
    (MIN..=MAX).contains(&major)
}

/// The mask of `majors` (each [`valid`]; others are left out).
pub fn mask(majors: &[u32]) -> u16 {
    majors
        .iter()
        .filter(|m| valid(**m))
        .fold(0, |mask, m| mask | 1u16 << (m - MASK_BASE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_the_range_message_agree() {
        assert!(RANGE_ERROR.ends_with(&alloc::format!("from {MIN} to {MAX}")));
        assert_eq!(mask(&[11, 12, 13]), 0b1110);
        assert_eq!(mask(&[MAX]), 1 << 15);
    }
}

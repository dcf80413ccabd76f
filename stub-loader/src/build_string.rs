//! The CUDA release a library's own build string names, read from its file's read-only data
//! (`VersionProbe::BuiltFor`, `VersionProbe::BuiltForMajorMinor`): NCCL's
//! `NCCL version 2.32.3+cuda13.4`, libNVVM's `Cuda compilation tools, release 12.9, V12.9.86`.
//! The walk both systems share; each OS face reads the section (`.rodata` of an ELF file,
//! `.rdata` of a PE image) and hands it here.

/// The `(major, minor)` after the first `marker` in `data`: two dot-separated decimal numbers
/// of at most 4 digits each, each ended by any non-digit. `None` when `data` has no `marker`
/// or no such numbers after it.
pub(crate) fn release_after(data: &[u8], marker: &[u8]) -> Option<(u32, u32)> {
    let at = data
        .windows(marker.len().max(1))
        .position(|w| w == marker)?
        .checked_add(marker.len())?;
    let mut numbers = data.get(at..)?.split(|&b| b == b'.');
    let number = |part: Option<&[u8]>| -> Option<u32> {
        let digits: &[u8] = part?;
        let end = digits
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(digits.len());
        let digits = digits.get(..end.min(4))?;
        if digits.is_empty() {
            return None;
        }
        core::str::from_utf8(digits).ok()?.parse().ok()
    };
    let major = number(numbers.next())?;
    let minor = number(numbers.next())?;
    Some((major, minor))
}

#[cfg(test)]
mod tests {
    use super::release_after;

    #[test]
    fn nccl_and_nvvm_strings() {
        let nccl = b"\0xyz\0NCCL version 2.32.3+cuda13.4\0";
        assert_eq!(release_after(nccl, b"+cuda"), Some((13, 4)));
        let nvvm = b"\0Cuda compilation tools, release 12.9, V12.9.86\0";
        assert_eq!(
            release_after(nvvm, b"Cuda compilation tools, release "),
            Some((12, 9))
        );
    }

    #[test]
    fn no_marker_or_no_numbers() {
        assert_eq!(release_after(b"NCCL version 2.32.3", b"+cuda"), None);
        assert_eq!(release_after(b"+cuda.4", b"+cuda"), None);
        assert_eq!(release_after(b"+cuda13", b"+cuda"), None);
        assert_eq!(release_after(b"", b""), None);
    }
}

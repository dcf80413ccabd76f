//! Which PTX ISA a CUDA release's compiler writes and its driver accepts: NVIDIA's table
//! (PTX ISA reference, "Release Notes": PTX ISA version per CUDA release). A driver JIT-compiles
//! PTX up to its own release's ISA and answers 222 `CUDA_ERROR_UNSUPPORTED_PTX_VERSION` above
//! it; nvJitLink and NVRTC of a release read and write up to the same ISA.

/// A PTX ISA version, as `.version MAJOR.MINOR` spells it (`(9, 5)` for `.version 9.5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PtxIsa {
    /// `.version`'s major.
    pub major: u32,
    /// `.version`'s minor.
    pub minor: u32,
}

impl core::fmt::Display for PtxIsa {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// `(CUDA release as 1000 * major + 10 * minor, the newest PTX ISA it reads and writes)`, oldest
/// first, for the releases the stubs serve. Releases NVIDIA skipped (12.7) take their
/// predecessor's row.
const TABLE: &[(i32, PtxIsa)] = &[
    (11000, isa(7, 0)),
    (11010, isa(7, 1)),
    (11020, isa(7, 2)),
    (11030, isa(7, 3)),
    (11040, isa(7, 4)),
    (11050, isa(7, 5)),
    (11060, isa(7, 6)),
    (11070, isa(7, 7)),
    (11080, isa(7, 8)),
    (12000, isa(8, 0)),
    (12010, isa(8, 1)),
    (12020, isa(8, 2)),
    (12030, isa(8, 3)),
    (12040, isa(8, 4)),
    (12050, isa(8, 5)),
    // 12.6 kept ISA 8.5.
    (12060, isa(8, 5)),
    (12080, isa(8, 7)),
    (12090, isa(8, 8)),
    (13000, isa(9, 0)),
    (13010, isa(9, 1)),
    (13020, isa(9, 2)),
    (13030, isa(9, 3)),
    (13040, isa(9, 4)),
    (13050, isa(9, 5)),
];

const fn isa(major: u32, minor: u32) -> PtxIsa {
    PtxIsa { major, minor }
}

/// The newest PTX ISA that CUDA release `cuda_version` (`1000 * major + 10 * minor`, as
/// `cuDriverGetVersion` and `nvJitLinkVersion` give it) reads: what its driver JIT-compiles and
/// its nvJitLink links.
///
/// `None` for a release newer than the table's last major (CUDA 14 and later: what it accepts is
/// unknown here, so nothing is taken to be too new for it) or older than 11.0. A newer minor of
/// a known major takes that major's ISA major and its own minor (13.6 → 9.6), as every 12.x and
/// 13.x release so far has.
pub fn max_ptx_isa(cuda_version: i32) -> Option<PtxIsa> {
    let &(last, last_isa) = TABLE.last()?;
    if cuda_version > last {
        return (cuda_version / 1000 == last / 1000).then(|| PtxIsa {
            major: last_isa.major,
            minor: u32::try_from(cuda_version % 1000 / 10).unwrap_or(last_isa.minor),
        });
    }
    TABLE
        .iter()
        .rev()
        .find(|(release, _)| *release <= cuda_version)
        .map(|&(_, isa)| isa)
}

/// The oldest CUDA release whose driver and nvJitLink read PTX ISA `isa` (`1000 * major + 10 *
/// minor`): what a message says to install. `None` past the table.
pub fn release_for_ptx_isa(isa: PtxIsa) -> Option<i32> {
    TABLE
        .iter()
        .find(|(_, row)| *row >= isa)
        .map(|&(release, _)| release)
        .or_else(|| {
            // A newer minor of the last ISA major: the same minor of the last CUDA major.
            let &(last, last_isa) = TABLE.last()?;
            (isa.major == last_isa.major).then(|| last / 1000 * 1000 + 10 * isa.minor as i32)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_map_to_their_isa() {
        assert_eq!(max_ptx_isa(13000), Some(isa(9, 0)));
        assert_eq!(max_ptx_isa(13050), Some(isa(9, 5)));
        assert_eq!(max_ptx_isa(12040), Some(isa(8, 4)));
        assert_eq!(max_ptx_isa(12070), Some(isa(8, 5)));
        assert_eq!(max_ptx_isa(12090), Some(isa(8, 8)));
        assert_eq!(max_ptx_isa(11080), Some(isa(7, 8)));
        assert_eq!(max_ptx_isa(13060), Some(isa(9, 6)));
        assert_eq!(max_ptx_isa(14000), None);
        assert_eq!(max_ptx_isa(10020), None);
    }

    #[test]
    fn isa_maps_to_the_first_release_that_reads_it() {
        assert_eq!(release_for_ptx_isa(isa(9, 5)), Some(13050));
        assert_eq!(release_for_ptx_isa(isa(8, 6)), Some(12080));
        assert_eq!(release_for_ptx_isa(isa(7, 8)), Some(11080));
        assert_eq!(release_for_ptx_isa(isa(9, 7)), Some(13070));
        assert_eq!(release_for_ptx_isa(isa(10, 0)), None);
    }
}

//! The CUDA driver as every other library sees it: which libraries load it ([`DriverUse`], a
//! field of each spec) and which driver runs which CUDA major ([`DRIVER_MINIMUMS`], the one
//! table of it).

/// What a library has to do with the CUDA driver ([`RealLibrary::driver`](crate::RealLibrary::driver)):
/// whether the driver's CUDA version caps the release a stub binds, and whether the library
/// loads the driver itself (so that its stub may load it first to learn that version).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DriverUse {
    /// The driver itself, or a library that ships with it (NVML, `libnvidia-ml.so.1`, whose
    /// version is the driver's): no CUDA release of its own to cap.
    OfTheDriver,
    /// A host compiler or linker that never loads the driver (NVRTC, nvJitLink, nvFatbin: their
    /// output is bytes): capped only by a driver the process already has loaded, and with
    /// nothing present that driver runs, the release it would bind without the driver is bound
    /// anyway (it compiles; its PTX may need a newer driver, which the driver stub reconciles).
    /// Its stub never loads the driver.
    CompileOnly,
    /// Loads the driver itself (`dlopen("libcuda.so.1")`, `nvcuda.dll`, at the first call that
    /// needs a device): the runtime and every library that needs a device (the math libraries,
    /// NCCL, cuDNN, cuTENSOR, cuSPARSELt, CUPTI, nvJPEG, NPP, cuFile). Its stub opens the
    /// driver the same way before its search, and a copy of a major the driver cannot run is
    /// refused: its calls would only answer "insufficient driver".
    Loads,
}

/// The oldest driver of one CUDA major: every minor of the major runs on it (NVIDIA's
/// minor-version compatibility, from CUDA 11 on), and on every newer driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DriverMinimum {
    /// The CUDA major.
    pub major: u32,
    /// The driver branch (`580` for R580, Linux's `580.65.06`).
    pub branch: u32,
    /// The CUDA version that driver reports (`cuDriverGetVersion`, `1000 * major + 10 *
    /// minor`): `13000` for R580.
    pub cuda_version: i32,
}

/// The minimum driver of each CUDA major the stubs serve, oldest first: R450 (CUDA 11.0), R525
/// (12.0), R580 (13.0). NVIDIA's "CUDA Compatibility" tables; a driver reporting at least a
/// major's `cuda_version` runs every release of that major.
pub const DRIVER_MINIMUMS: &[DriverMinimum] = &[
    DriverMinimum {
        major: 11,
        branch: 450,
        cuda_version: 11000,
    },
    DriverMinimum {
        major: 12,
        branch: 525,
        cuda_version: 12000,
    },
    DriverMinimum {
        major: 13,
        branch: 580,
        cuda_version: 13000,
    },
];

/// The minimum driver of CUDA `major` ([`DRIVER_MINIMUMS`]); a major the table does not list
/// yet needs a driver reporting `1000 * major` (the rule of every major so far), branch unknown
/// (0).
pub fn driver_minimum(major: u32) -> DriverMinimum {
    DRIVER_MINIMUMS
        .iter()
        .find(|m| m.major == major)
        .copied()
        .unwrap_or(DriverMinimum {
            major,
            branch: 0,
            cuda_version: i32::try_from(major.saturating_mul(1000)).unwrap_or(i32::MAX),
        })
}

/// Whether a driver reporting `driver_cuda_version` (`cuDriverGetVersion`: 12040 for 12.4)
/// runs a library of CUDA `major`: it reports at least the major's minimum. Major 0 (a release
/// not known) always runs.
pub fn driver_runs(driver_cuda_version: i32, major: u32) -> bool {
    major == 0 || driver_cuda_version >= driver_minimum(major).cuda_version
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The measured case: a 12.4 driver runs 12.9 and 11.8, not 13.x; R580 runs all three.
    #[test]
    fn which_driver_runs_which_major() {
        assert!(driver_runs(12040, 12));
        assert!(driver_runs(12040, 11));
        assert!(!driver_runs(12040, 13));
        assert!(driver_runs(13000, 13));
        assert!(!driver_runs(11080, 12));
        assert!(driver_runs(11000, 11));
        assert!(!driver_runs(10020, 11));
        assert!(driver_runs(10020, 0));
        assert_eq!(driver_minimum(13).branch, 580);
        assert_eq!(driver_minimum(14).cuda_version, 14000);
        assert_eq!(driver_minimum(14).branch, 0);
    }
}

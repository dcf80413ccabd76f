//! cuRAND, libcurand (`curand.h`, CUDA 11.8, 12.x, 13.x): the host API of NVIDIA's random
//! number generators. Its soname is `libcurand.so.10` in all three majors, so the soname does
//! not say the major: the library's own version does (`curandGetVersion`), and the CUDA
//! release of the process decides which copy may be loaded ([`RealLibrary::same_release_as`]).

use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Release, Soname, StatusCode, TestWheel, TypedErrors, Unpack,
    VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-curand-cu11`, `-cu12`) put it.
const CURAND_LIB: &CStr = c"nvidia/curand/lib";

/// cuRAND.
pub const CURAND: Library = Library {
    kind: LibraryKind::Curand,
    real: &RealLibrary {
        name: "curand",
        // One soname for every major (verified in NVIDIA's wheels 10.3.0.86 / 10.3.10.19 /
        // 10.4.5.25): major 0, the version function says which.
        sonames: &[Soname {
            name: c"libcurand.so.10",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CURAND_PATH",
        wheel_dirs: &[CU13_LIB, CURAND_LIB],
        // cuRAND's own versions per CUDA major, from NVIDIA's wheels: 10.3.0.86 is CUDA 11.8
        // (`nvidia-curand-cu11`; 11.0's was 10.2.1), 10.3.1.50 is 12.0 and 10.3.10.19 12.9
        // (`nvidia-curand-cu12`), 10.4.0.35 is 13.0 (`nvidia-curand`). `curandGetVersion`
        // answers `CURAND_VERSION`, `1000 * major + 100 * minor + patch`.
        version: VersionProbe::OwnVersion {
            symbol: c"curandGetVersion",
            releases: &[
                Release {
                    first: 10201,
                    major: 11,
                },
                Release {
                    first: 10301,
                    major: 12,
                },
                Release {
                    first: 10400,
                    major: 13,
                },
            ],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // 13.5's wheel's libcurand (10.4.5) needs libcudart.so.13 (`DT_NEEDED`, no RUNPATH);
        // 11.8's, 12.9's and the CUDA 13.0 toolkit's (10.4.0) link the runtime statically
        // (RUNPATH `$ORIGIN`). Either way it must be the process's release.
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // One name in every major, as on Linux (NVIDIA's win_amd64 wheels 10.3.0.86,
            // 10.3.10.19, 10.4.5.25): the version says which.
            dlls: &[Soname {
                name: c"curand64_10.dll",
                major: 0,
            }],
            wheel_dirs: &[CU13_BIN, c"nvidia/curand/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "curandStatus_t",
    // cuRAND has no status for "library missing" or "function missing".
    errors: TypedErrors {
        // What the real library answers when CUDA cannot be set up (no driver, no GPU): a
        // program treats a missing cuRAND as it treats a machine without CUDA.
        no_library: StatusCode {
            name: "CURAND_STATUS_INITIALIZATION_FAILED",
            value: 203,
        },
        // "Header file and linked library version do not match": literally the case of a
        // function the loaded version lacks.
        absent: StatusCode {
            name: "CURAND_STATUS_VERSION_MISMATCH",
            value: 100,
        },
    },
    crate_name: "stubs-curand",
    header: "curand.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "curand.*",
    extra_types: "curandStatus_t|curandGenerator_t|curandRngType_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-curand-cu11==10.3.0.86",
            lib_dir: CURAND_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-curand-cu12==10.3.10.19",
            lib_dir: CURAND_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-curand==10.4.5.25",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "cuRAND (libcurand)",
        cmake_target: "curand",
        toolkit_targets: &["curand", "curand_static"],
        link_names: &[
            LinkName::Shared("curand"),
            LinkName::Static("curand_static"),
        ],
        compat_majors: &[],
    },
};

//! cuFFT, libcufft (`cufft.h` and `cufftXt.h`, CUDA 11.8, 12.x, 13.x): NVIDIA's FFTs. Its
//! soname carries its own major, one per CUDA major (`libcufft.so.10` in 11.x, `.11` in 12.x,
//! `.12` in 13.x), and every major links the runtime statically.

use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Release, Soname, StatusCode, TestWheel, TypedErrors, Unpack,
    VersionProbe, VersionedNames, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-cufft-cu11`, `-cu12`) put it.
const CUFFT_LIB: &CStr = c"nvidia/cufft/lib";

/// cuFFT.
pub const CUFFT: Library = Library {
    kind: LibraryKind::Cufft,
    real: &RealLibrary {
        name: "cufft",
        // Verified in NVIDIA's wheels 10.9.0.58 (11.8), 11.4.1.4 (12.9), 12.5.0.14 (13.5).
        sonames: &[
            Soname {
                name: c"libcufft.so.12",
                major: 13,
            },
            Soname {
                name: c"libcufft.so.11",
                major: 12,
            },
            Soname {
                name: c"libcufft.so.10",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_CUFFT_PATH",
        wheel_dirs: &[CU13_LIB, CUFFT_LIB],
        // `cufftGetVersion` answers `CUFFT_VERSION`, `1000 * major + 100 * minor + patch`
        // (10900, 11401, 12500 in the wheels above); each CUDA major's first cuFFT: 10.2.0 in
        // CUDA 11.0, 11.0.0 in 12.0, 12.0.0 in 13.0 (`nvidia-cufft` 12.0.0.15).
        version: VersionProbe::OwnVersion {
            symbol: c"cufftGetVersion",
            releases: &[
                Release {
                    first: 10200,
                    major: 11,
                },
                Release {
                    first: 11000,
                    major: 12,
                },
                Release {
                    first: 12000,
                    major: 13,
                },
            ],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // Its runtime is linked in statically, but it must still be the process's release.
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 10.9.0.58, 11.4.1.4, 12.5.0.14: the name says the major.
            dlls: &[
                Soname {
                    name: c"cufft64_12.dll",
                    major: 13,
                },
                Soname {
                    name: c"cufft64_11.dll",
                    major: 12,
                },
                Soname {
                    name: c"cufft64_10.dll",
                    major: 11,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/cufft/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "cufftResult",
    // cuFFT has no status for "library missing" or "function missing".
    errors: TypedErrors {
        // "The cuFFT library failed to initialize": what a missing library is. (Without a GPU
        // the real library answers 11, CUFFT_INVALID_DEVICE, in 11.8 and 5,
        // CUFFT_INTERNAL_ERROR, in 12.9 and 13.5.)
        no_library: StatusCode {
            name: "CUFFT_SETUP_FAILED",
            value: 7,
        },
        // As the runtime's and the driver's "not supported".
        absent: StatusCode {
            name: "CUFFT_NOT_SUPPORTED",
            value: 16,
        },
    },
    crate_name: "stubs-cufft",
    header: "cufft.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &["cufftXt.h"],
    functions: "cufft.*|__cufft.*",
    extra_types: "cufftResult|cufftHandle|cufftType",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    // 12.x's cufftXt.h binds `cufftXtSetJITCallback` to `__cufftXtSetJITCallback_12_7`
    // through a static inline wrapper; 13.x exports only the plain name.
    versioned_names: Some(VersionedNames { prefix: "__" }),
    proc_address: None,
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-cufft-cu11==10.9.0.58",
            lib_dir: CUFFT_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cufft-cu12==11.4.1.4",
            lib_dir: CUFFT_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cufft==12.5.0.14",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "cuFFT (libcufft)",
        cmake_target: "cufft",
        // Not `cufft_static`: cuFFT's callbacks need the static library (linked to the shared
        // one, NVIDIA's `simpleCUFFT_callback` gets CUFFT_NOT_IMPLEMENTED from
        // `cufftXtSetCallback`, seen on an H100), and a static cuFFT adds no `DT_NEEDED`.
        toolkit_targets: &["cufft", "cufft_static_nocallback"],
        link_names: &[
            LinkName::Shared("cufft"),
            LinkName::Static("cufft_static_nocallback"),
        ],
        compat_majors: &[],
    },
};

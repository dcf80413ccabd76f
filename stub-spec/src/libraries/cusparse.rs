//! cuSPARSE, libcusparse (`cusparse.h`, CUDA 11.8, 12.x, 13.x): sparse linear algebra. Its soname
//! is `libcusparse.so.11` in 11.x and `libcusparse.so.12` in both 12.x and 13.x, so the soname
//! does not say the release: its version does (cuSPARSE 12.0 – 12.5 are CUDA 12.x, 12.6 and later
//! 13.x). 12.x's needs `libnvJitLink.so.12` (RUNPATH to the nvJitLink wheel); every major links the
//! runtime statically. Its legacy API (the `cusparse<t>csrmv` family …) is gone from 12.0.

use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Release, Soname, StatusCode, TestWheel, TextAbi, TextKind,
    TypedErrors, Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-cusparse-cu11`, `-cu12`) put it.
const CUSPARSE_LIB: &CStr = c"nvidia/cusparse/lib";

/// cuSPARSE.
pub const CUSPARSE: Library = Library {
    kind: LibraryKind::Cusparse,
    real: &RealLibrary {
        name: "cusparse",
        // Verified in NVIDIA's wheels 11.7.5.86 (11.8), 12.5.10.65 (12.9), 12.9.4.2 (13.x).
        sonames: &[
            Soname {
                name: c"libcusparse.so.12",
                major: 0,
            },
            Soname {
                name: c"libcusparse.so.11",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_CUSPARSE_PATH",
        wheel_dirs: &[CU13_LIB, CUSPARSE_LIB],
        // `cusparseGetProperty`: each CUDA major's first cuSPARSE, from NVIDIA's wheels:
        // 11.0.0 (CUDA 11.0), 12.0.0.76 (12.0, `nvidia-cusparse-cu12`), 12.6.2.49 (13.0,
        // `nvidia-cusparse`).
        version: VersionProbe::Property {
            symbol: c"cusparseGetProperty",
            releases: &[
                Release {
                    first: 11000,
                    major: 11,
                },
                Release {
                    first: 12000,
                    major: 12,
                },
                Release {
                    first: 12600,
                    major: 13,
                },
            ],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 11.7.5.86, 12.5.10.65, 12.9.4.2: 12.x's and 13.x's share a
            // name, as their sonames do; 12.x's imports `nvJitLink_120_0.dll`, in another
            // wheel's folder (`nvidia/nvjitlink/bin`).
            dlls: &[
                Soname {
                    name: c"cusparse64_12.dll",
                    major: 0,
                },
                Soname {
                    name: c"cusparse64_11.dll",
                    major: 11,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/cusparse/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "cusparseStatus_t",
    // cuSPARSE has no status for "library missing" or "function missing".
    errors: TypedErrors {
        // "The cuSPARSE library was not initialized": what the real `cusparseCreate` answers
        // without a GPU too.
        no_library: StatusCode {
            name: "CUSPARSE_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // As the runtime's and the driver's "not supported".
        absent: StatusCode {
            name: "CUSPARSE_STATUS_NOT_SUPPORTED",
            value: 10,
        },
    },
    crate_name: "stubs-cusparse",
    header: "cusparse.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cusparse.*",
    extra_types: "cusparseStatus_t|cusparseHandle_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[
        ErrorText {
            function: "cusparseGetErrorName",
            text: TextKind::Name,
            abi: TextAbi::Returned,
        },
        ErrorText {
            function: "cusparseGetErrorString",
            text: TextKind::Description,
            abi: TextAbi::Returned,
        },
    ],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-cusparse-cu11==11.7.5.86",
            lib_dir: CUSPARSE_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cusparse-cu12==12.5.10.65",
            lib_dir: CUSPARSE_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cusparse==12.9.4.2",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "cuSPARSE (libcusparse)",
        cmake_target: "cusparse",
        toolkit_targets: &["cusparse", "cusparse_static"],
        link_names: &[
            LinkName::Shared("cusparse"),
            LinkName::Static("cusparse_static"),
        ],
        compat_majors: &[],
    },
};

//! NVRTC, libnvrtc (`nvrtc.h`, CUDA 11.8, 12.x, 13.x).

use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x NVRTC wheels (`nvidia-cuda-nvrtc-cu11`, `-cu12`) put it.
const NVRTC_LIB: &CStr = c"nvidia/cuda_nvrtc/lib";

/// NVRTC.
pub const NVRTC: Library = Library {
    kind: LibraryKind::Nvrtc,
    real: &RealLibrary {
        name: "nvrtc",
        sonames: &[
            Soname {
                name: c"libnvrtc.so.13",
                major: 13,
            },
            Soname {
                name: c"libnvrtc.so.12",
                major: 12,
            },
            Soname {
                name: c"libnvrtc.so.11.2",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_NVRTC_PATH",
        wheel_dirs: &[CU13_LIB, NVRTC_LIB],
        version: VersionProbe::MajorMinor(c"nvrtcVersion"),
        gating: Gating::Exact,
        companion: Some("libnvrtc-builtins.so."),
        lazy_dependency: None,
        same_release_as: &[],
        // A compiler: never loads the driver (capped only by one the process has loaded).
        driver: DriverUse::CompileOnly,
        mock: MockUse::Real,
        windows: Some(&WindowsDlls {
            dlls: &[
                Soname {
                    name: c"nvrtc64_130_0.dll",
                    major: 13,
                },
                Soname {
                    name: c"nvrtc64_120_0.dll",
                    major: 12,
                },
                Soname {
                    name: c"nvrtc64_112_0.dll",
                    major: 11,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/cuda_nvrtc/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: Some("nvrtc-builtins64_"),
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "nvrtcResult",
    // NVRTC has no status for "library missing" or "function missing".
    errors: TypedErrors {
        no_library: StatusCode {
            name: "NVRTC_ERROR_INTERNAL_ERROR",
            value: 11,
        },
        absent: StatusCode {
            name: "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
            value: 7,
        },
    },
    crate_name: "stubs-nvrtc",
    header: "nvrtc.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "nvrtc.*|__nvrtc.*",
    extra_types: "nvrtcResult|nvrtcProgram",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[ErrorText {
        function: "nvrtcGetErrorString",
        text: TextKind::Description,
        abi: TextAbi::Returned,
    }],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-cuda-nvrtc-cu11==11.8.89",
            lib_dir: NVRTC_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cuda-nvrtc-cu12==12.9.86",
            lib_dir: NVRTC_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cuda-nvrtc==13.5.37",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "NVRTC (libnvrtc)",
        cmake_target: "nvrtc",
        toolkit_targets: &["nvrtc"],
        link_names: &[LinkName::Shared("nvrtc"), LinkName::Static("nvrtc_static")],
        compat_majors: &[12, 13],
    },
};

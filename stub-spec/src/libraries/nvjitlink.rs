//! nvJitLink, libnvJitLink (`nvJitLink.h`, CUDA 12.0 and later): the linker of NVRTC's `-dlto`
//! LTO-IR, PTX and CUBIN into a CUBIN. Its header binds each call, through a static inline
//! wrapper, to the ABI name of the header's own version (`nvJitLinkCreate` →
//! `__nvJitLinkCreate_13_5`); the libraries export every such name of their major up to their
//! own minor and, from 12.3, the plain names.

use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
    VersionedNames, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 12.x wheel (`nvidia-nvjitlink-cu12`) puts it.
const NVJITLINK_LIB: &CStr = c"nvidia/nvjitlink/lib";

/// nvJitLink.
pub const NVJITLINK: Library = Library {
    kind: LibraryKind::NvJitLink,
    real: &RealLibrary {
        name: "nvjitlink",
        sonames: &[
            Soname {
                name: c"libnvJitLink.so.13",
                major: 13,
            },
            Soname {
                name: c"libnvJitLink.so.12",
                major: 12,
            },
        ],
        env_path: c"CUDA_STUBS_NVJITLINK_PATH",
        wheel_dirs: &[CU13_LIB, NVJITLINK_LIB],
        version: VersionProbe::MajorMinor(c"nvJitLinkVersion"),
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        same_release_as: &[],
        // A linker: never loads the driver (capped only by one the process has loaded).
        driver: DriverUse::CompileOnly,
        mock: MockUse::Real,
        windows: Some(&WindowsDlls {
            dlls: &[
                Soname {
                    name: c"nvJitLink_130_0.dll",
                    major: 13,
                },
                Soname {
                    name: c"nvJitLink_120_0.dll",
                    major: 12,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/nvjitlink/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "nvJitLinkResult",
    // nvJitLink has no code for "library missing" or "function missing".
    errors: TypedErrors {
        // As the NVRTC stub: the library's "internal error" (the linker is not there).
        no_library: StatusCode {
            name: "NVJITLINK_ERROR_INTERNAL",
            value: 6,
        },
        // Literally its meaning. 13.x headers name it; 12.9's under `NEW_ERROR_CODES`.
        absent: StatusCode {
            name: "NVJITLINK_ERROR_OUTDATED_LIBRARY",
            value: 14,
        },
    },
    crate_name: "stubs-nvjitlink",
    header: "nvJitLink.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "nvJitLink.*|__nvJitLink.*",
    extra_types: "nvJitLinkResult|nvJitLinkHandle|nvJitLinkInputType",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: Some(VersionedNames { prefix: "__" }),
    proc_address: None,
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "nvidia-nvjitlink-cu12==12.9.86",
            lib_dir: NVJITLINK_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-nvjitlink==13.5.37",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "nvJitLink (libnvJitLink)",
        cmake_target: "nvjitlink",
        toolkit_targets: &["nvJitLink"],
        link_names: &[
            LinkName::Shared("nvJitLink"),
            LinkName::Static("nvJitLink_static"),
        ],
        compat_majors: &[],
    },
};

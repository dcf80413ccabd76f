//! cuBLASLt, libcublasLt (`cublasLt.h`, CUDA 11.8, 12.x, 13.x): the lightweight GEMM API cuBLAS
//! itself is built on, in the same wheels as cuBLAS. Its soname and its own major are CUDA's
//! (`libcublasLt.so.11` / `.12` / `.13`), and it links the runtime statically.

use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-cublas-cu11`, `-cu12`) put it, beside libcublas.
const CUBLAS_LIB: &CStr = c"nvidia/cublas/lib";

/// cuBLASLt.
pub const CUBLASLT: Library = Library {
    kind: LibraryKind::CublasLt,
    real: &RealLibrary {
        name: "cublaslt",
        // Verified in NVIDIA's cuBLAS wheels 11.11.3.6 (11.8), 12.9.1.4 (12.9), 13.5.1.27.
        sonames: &[
            Soname {
                name: c"libcublasLt.so.13",
                major: 13,
            },
            Soname {
                name: c"libcublasLt.so.12",
                major: 12,
            },
            Soname {
                name: c"libcublasLt.so.11",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_CUBLASLT_PATH",
        wheel_dirs: &[CU13_LIB, CUBLAS_LIB],
        // `cublasLtGetProperty(MAJOR_VERSION / MINOR_VERSION)`: 11.11, 12.9, 13.5; no handle,
        // no GPU.
        version: VersionProbe::Property {
            symbol: c"cublasLtGetProperty",
            releases: &[],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // Its runtime is linked in statically, but it must be the process's release (and a
        // bound cuBLAS has loaded its own libcublasLt, which the search finds first).
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // In the cuBLAS wheels (11.11.3.6, 12.9.1.4, 13.5.1.27), beside cuBLAS.
            dlls: &[
                Soname {
                    name: c"cublasLt64_13.dll",
                    major: 13,
                },
                Soname {
                    name: c"cublasLt64_12.dll",
                    major: 12,
                },
                Soname {
                    name: c"cublasLt64_11.dll",
                    major: 11,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/cublas/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "cublasStatus_t",
    // cuBLASLt returns cuBLAS's status type, which has no status for "library missing" or
    // "function missing": cuBLAS's choices.
    errors: TypedErrors {
        // "The cuBLAS library was not initialized": what the real `cublasLtCreate` answers
        // without a GPU too.
        no_library: StatusCode {
            name: "CUBLAS_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // As the runtime's and the driver's "not supported".
        absent: StatusCode {
            name: "CUBLAS_STATUS_NOT_SUPPORTED",
            value: 15,
        },
    },
    crate_name: "stubs-cublaslt",
    header: "cublasLt.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cublasLt.*",
    extra_types: "cublasStatus_t|cublasLtHandle_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[
        ErrorText {
            function: "cublasLtGetStatusName",
            text: TextKind::Name,
            abi: TextAbi::Returned,
        },
        ErrorText {
            function: "cublasLtGetStatusString",
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
            requirement: "nvidia-cublas-cu11==11.11.3.6",
            lib_dir: CUBLAS_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cublas-cu12==12.9.1.4",
            lib_dir: CUBLAS_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cublas==13.5.1.27",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "cuBLASLt (libcublasLt)",
        cmake_target: "cublaslt",
        toolkit_targets: &["cublasLt", "cublasLt_static"],
        link_names: &[
            LinkName::Shared("cublasLt"),
            LinkName::Static("cublasLt_static"),
        ],
        compat_majors: &[],
    },
};

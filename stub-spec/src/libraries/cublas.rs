//! cuBLAS, libcublas (`cublas_v2.h`, CUDA 11.8, 12.x, 13.x): NVIDIA's BLAS. Its soname and its
//! own major are CUDA's (`libcublas.so.11` / `.12` / `.13`), it needs `libcublasLt.so.<major>`
//! (`DT_NEEDED`, found beside it by RUNPATH `$ORIGIN` in the tested wheels; 13.10.0.20's has no
//! RUNPATH) and links the runtime statically.

use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-cublas-cu11`, `-cu12`) put it.
const CUBLAS_LIB: &CStr = c"nvidia/cublas/lib";

/// cuBLAS.
pub const CUBLAS: Library = Library {
    kind: LibraryKind::Cublas,
    real: &RealLibrary {
        name: "cublas",
        // Verified in NVIDIA's wheels 11.11.3.6 (11.8), 12.9.1.4 (12.9), 13.5.1.27.
        sonames: &[
            Soname {
                name: c"libcublas.so.13",
                major: 13,
            },
            Soname {
                name: c"libcublas.so.12",
                major: 12,
            },
            Soname {
                name: c"libcublas.so.11",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_CUBLAS_PATH",
        wheel_dirs: &[CU13_LIB, CUBLAS_LIB],
        // `cublasGetProperty(MAJOR_VERSION / MINOR_VERSION)`: 11.11, 12.9, 13.5; needs no
        // handle and no GPU (`cublasGetVersion` needs a handle).
        version: VersionProbe::Property {
            symbol: c"cublasGetProperty",
            releases: &[],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // Its runtime is linked in statically, but it must be the process's release.
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 11.11.3.6, 12.9.1.4, 13.5.1.27; each imports the
            // cuBLASLt DLL of its major, which its wheel puts beside it.
            dlls: &[
                Soname {
                    name: c"cublas64_13.dll",
                    major: 13,
                },
                Soname {
                    name: c"cublas64_12.dll",
                    major: 12,
                },
                Soname {
                    name: c"cublas64_11.dll",
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
    // cuBLAS has no status for "library missing" or "function missing".
    errors: TypedErrors {
        // "The cuBLAS library was not initialized": what the real library's `cublasCreate`
        // answers without a GPU too, so a program treats a missing cuBLAS as a machine
        // without CUDA.
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
    crate_name: "stubs-cublas",
    header: "cublas_v2.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cublas.*",
    extra_types: "cublasStatus_t|cublasHandle_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[
        ErrorText {
            function: "cublasGetStatusName",
            text: TextKind::Name,
            abi: TextAbi::Returned,
        },
        ErrorText {
            function: "cublasGetStatusString",
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
        stands_for: "cuBLAS (libcublas)",
        cmake_target: "cublas",
        toolkit_targets: &["cublas", "cublas_static"],
        link_names: &[
            LinkName::Shared("cublas"),
            LinkName::Static("cublas_static"),
        ],
        compat_majors: &[],
    },
};

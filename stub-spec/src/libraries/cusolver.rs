//! cuSOLVER, libcusolver (`cusolverDn.h`, `cusolverSp.h`, `cusolverRf.h`; CUDA 11.8, 12.x,
//! 13.x): dense and sparse solvers. Its soname is `libcusolver.so.11` in 11.x and 12.x and
//! `libcusolver.so.12` in 13.x, so its version says the release (cuSOLVER 11.4.2 and later 11.x
//! are CUDA 12.x). It needs the cuBLAS, cuBLASLt, cuSPARSE (and from 12.x nvJitLink) of its own
//! release (`DT_NEEDED`; 11.x's and 12.x's find them by RUNPATH in the wheel layout, 13.x's has
//! no RUNPATH and finds them beside it in `nvidia/cu13/lib`), and links the runtime statically.

use super::cublas::CUBLAS;
use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Release, Soname, StatusCode, TestWheel, TypedErrors, Unpack,
    VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-cusolver-cu11`, `-cu12`) put it.
const CUSOLVER_LIB: &CStr = c"nvidia/cusolver/lib";

/// cuSOLVER.
pub const CUSOLVER: Library = Library {
    kind: LibraryKind::Cusolver,
    real: &RealLibrary {
        name: "cusolver",
        // Verified in NVIDIA's wheels 11.4.1.48 (11.8), 11.7.5.82 (12.9), 12.4.1.2 (13.x).
        sonames: &[
            Soname {
                name: c"libcusolver.so.12",
                major: 13,
            },
            Soname {
                name: c"libcusolver.so.11",
                major: 0,
            },
        ],
        env_path: c"CUDA_STUBS_CUSOLVER_PATH",
        wheel_dirs: &[CU13_LIB, CUSOLVER_LIB],
        // `cusolverGetProperty`: each CUDA major's first cuSOLVER, from NVIDIA's wheels:
        // 11.0.0 (CUDA 11.0), 11.4.2.57 (12.0, the first `nvidia-cusolver-cu12`; 11.8's is
        // 11.4.1.48), 12.0.3.29 (13.0, `nvidia-cusolver`).
        version: VersionProbe::Property {
            symbol: c"cusolverGetProperty",
            releases: &[
                Release {
                    first: 11000,
                    major: 11,
                },
                Release {
                    first: 11402,
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
        // The runtime, and cuBLAS, whose soname in its `DT_NEEDED` says its release before
        // `dlopen` (`libcublas.so.13`).
        same_release_as: &[CUDART.real, CUBLAS.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 11.4.1.48, 11.7.5.82, 12.4.1.2: 11.x's and 12.x's share a
            // name, as their sonames do. Each imports the cuBLAS and cuBLASLt DLLs of its major,
            // 12.x's and 13.x's also `cusparse64_12.dll` (which in 12.x imports nvJitLink): in
            // 11.x's and 12.x's wheels each lies in its own wheel's folder.
            dlls: &[
                Soname {
                    name: c"cusolver64_12.dll",
                    major: 13,
                },
                Soname {
                    name: c"cusolver64_11.dll",
                    major: 0,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/cusolver/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "cusolverStatus_t",
    // cuSOLVER has no status for "library missing" or "function missing".
    errors: TypedErrors {
        // "The library was not initialized": what the real `cusolverDnCreate` answers without a
        // GPU too.
        no_library: StatusCode {
            name: "CUSOLVER_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // As the runtime's and the driver's "not supported".
        absent: StatusCode {
            name: "CUSOLVER_STATUS_NOT_SUPPORTED",
            value: 9,
        },
    },
    crate_name: "stubs-cusolver",
    header: "cusolverDn.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &["cusolverSp.h", "cusolverRf.h"],
    functions: "cusolver.*",
    extra_types: "cusolverStatus_t|cusolverDnHandle_t",
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
            requirement: "nvidia-cusolver-cu11==11.4.1.48",
            lib_dir: CUSOLVER_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cusolver-cu12==11.7.5.82",
            lib_dir: CUSOLVER_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cusolver==12.4.1.2",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "cuSOLVER (libcusolver)",
        cmake_target: "cusolver",
        toolkit_targets: &["cusolver", "cusolver_static"],
        link_names: &[
            LinkName::Shared("cusolver"),
            LinkName::Static("cusolver_static"),
        ],
        compat_majors: &[],
    },
};

//! cuSOLVERMg, libcusolverMg (`cusolverMg.h`, CUDA 11.8, 12.x, 13.x): cuSOLVER's multi-GPU
//! dense solvers in one process (deprecated in 13.x's header). It ships in cuSOLVER's wheels,
//! carries cuSOLVER's soname (`libcusolverMg.so.11` in 11.x and 12.x, `.12` in 13.x), has no
//! version function of its own, and needs the cuBLAS and cuBLASLt of its own release (12.x's
//! and 13.x's also cuSPARSE and nvJitLink: `DT_NEEDED`, found by RUNPATH in the 11.x and 12.x
//! wheel layout, beside it in `nvidia/cu13/lib`); the runtime is linked statically.

use super::cublas::CUBLAS;
use super::cudart::CUDART;
use super::cusolver::CUSOLVER;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
    WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-cusolver-cu11`, `-cu12`) put it, beside libcusolver.
const CUSOLVER_LIB: &CStr = c"nvidia/cusolver/lib";

/// cuSOLVERMg.
pub const CUSOLVERMG: Library = Library {
    kind: LibraryKind::CusolverMg,
    real: &RealLibrary {
        name: "cusolvermg",
        // Verified in NVIDIA's wheels 11.4.1.48 (11.8), 11.7.5.82 (12.9), 12.4.1.2 (13.x):
        // cuSOLVER's sonames, 11.x's and 12.x's shared.
        sonames: &[
            Soname {
                name: c"libcusolverMg.so.12",
                major: 13,
            },
            Soname {
                name: c"libcusolverMg.so.11",
                major: 0,
            },
        ],
        env_path: c"CUDA_STUBS_CUSOLVERMG_PATH",
        wheel_dirs: &[CU13_LIB, CUSOLVER_LIB],
        // No version function, and its soname is 11.x's and 12.x's alike: the release is the
        // one of the cuBLAS it loaded (`DT_NEEDED libcublas.so.<major>`), whose
        // `cublasGetProperty` `dlsym` finds through the cuSOLVERMg handle (a handle's lookup
        // searches its dependencies): 11.11, 12.9, 13.5 with the wheels above.
        version: VersionProbe::Property {
            symbol: c"cublasGetProperty",
            releases: &[],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // The runtime, cuBLAS (whose soname in its `DT_NEEDED` says its release before
        // `dlopen`: `libcublas.so.13`) and cuSOLVER, of which it is part.
        same_release_as: &[CUDART.real, CUBLAS.real, CUSOLVER.real],
        // Needs devices: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 11.4.1.48, 11.7.5.82, 12.4.1.2, beside cuSOLVER's DLL:
            // 11.x's and 12.x's share a name, as their sonames do, and the cuBLAS DLL each
            // imports (`cublas64_12.dll`; 13.x's `cublas64_13.dll` and the Visual C++ runtime)
            // says which before loading, as for cuSOLVER's. Once loaded the version probe finds
            // no `cublasGetProperty`: `GetProcAddress` searches the DLL's own exports only, not
            // its imports as `dlsym` does a handle's dependencies, so `cusolverMg64_11.dll`
            // binds with release 0 (unknown), `cusolverMg64_12.dll` with its name's 13.
            dlls: &[
                Soname {
                    name: c"cusolverMg64_12.dll",
                    major: 13,
                },
                Soname {
                    name: c"cusolverMg64_11.dll",
                    major: 0,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/cusolver/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            // 182, 187 and 105 MB, nearly all device code, and no call answers anything but
            // "no device" without a GPU: the stub is run without a DLL only, as cuDSS's.
            fetched: false,
            release_named: None,
        }),
    },
    status_type: "cusolverStatus_t",
    // cuSOLVER's codes and choices (cuSOLVERMg has no code for "library missing" or "function
    // missing" either).
    errors: TypedErrors {
        // "The library was not initialized".
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
    crate_name: "stubs-cusolvermg",
    header: "cusolverMg.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cusolverMg.*",
    extra_types: "cusolverStatus_t|cusolverMgHandle_t|cudaLibMgGrid_t|cudaLibMgMatrixDesc_t",
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
    // cuSOLVER's wheels: libcusolverMg and the headers; the libraries it needs come with
    // cuBLAS's, cuSPARSE's and nvJitLink's specs.
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-cusolver-cu11==11.4.1.48",
            lib_dir: CUSOLVER_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cusolver-cu12==11.7.5.82",
            lib_dir: CUSOLVER_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cusolver==12.4.1.2",
            lib_dir: CU13_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "cuSOLVERMg (libcusolverMg)",
        cmake_target: "cusolvermg",
        // FindCUDAToolkit has no cuSOLVERMg target: the link name is what the switch rewrites.
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("cusolverMg")],
        compat_majors: &[],
    },
};

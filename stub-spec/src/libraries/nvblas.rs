//! nvBLAS, libnvblas (`nvblas.h`, CUDA 11.8, 12.x, 13.x): BLAS level 3 (`?gemm`, `?symm`,
//! `?hemm`, `?syrk`, `?herk`, `?syr2k`, `?her2k`, `?trsm`, `?trmm`), each under its Fortran name
//! (`dgemm_`) and its plain one (`dgemm`), all arguments by pointer and `void` results, offloaded
//! to cuBLAS or passed to the CPU BLAS its configuration names (`NVBLAS_CONFIG_FILE`, else
//! `nvblas.conf` in the working directory: `NVBLAS_CPU_BLAS_LIB`). It ships in cuBLAS's wheels,
//! its soname is CUDA's major (`libnvblas.so.11`, `.12`, `.13`), it has no version function,
//! and it needs the cuBLAS of its own release (`DT_NEEDED libcublas.so.<major>`, `$ORIGIN`
//! RUNPATH).

use super::cublas::CUBLAS;
use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
    WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-cublas-cu11`, `-cu12`) put it, beside libcublas.
const CUBLAS_LIB: &CStr = c"nvidia/cublas/lib";

/// The 60 routines, each under both names, every one hand-written (`stubs/nvblas/src/lib.rs`):
/// a BLAS routine has no result to carry an error, so one the stub cannot call stops the
/// process with a line saying why instead of returning with its output untouched.
const ROUTINES: &[&str] = &[
    "sgemm_", "dgemm_", "cgemm_", "zgemm_", "sgemm", "dgemm", "cgemm", "zgemm", "ssyrk_", "dsyrk_",
    "csyrk_", "zsyrk_", "ssyrk", "dsyrk", "csyrk", "zsyrk", "cherk_", "zherk_", "cherk", "zherk",
    "strsm_", "dtrsm_", "ctrsm_", "ztrsm_", "strsm", "dtrsm", "ctrsm", "ztrsm", "ssymm_", "dsymm_",
    "csymm_", "zsymm_", "ssymm", "dsymm", "csymm", "zsymm", "chemm_", "zhemm_", "chemm", "zhemm",
    "ssyr2k_", "dsyr2k_", "csyr2k_", "zsyr2k_", "ssyr2k", "dsyr2k", "csyr2k", "zsyr2k", "cher2k_",
    "zher2k_", "cher2k", "zher2k", "strmm_", "dtrmm_", "ctrmm_", "ztrmm_", "strmm", "dtrmm",
    "ctrmm", "ztrmm",
];

/// nvBLAS.
pub const NVBLAS: Library = Library {
    kind: LibraryKind::NvBlas,
    real: &RealLibrary {
        name: "nvblas",
        // Verified in NVIDIA's wheels 11.11.3.6 (11.8), 12.9.1.4 (12.9), 13.5.1.27 (13.5).
        sonames: &[
            Soname {
                name: c"libnvblas.so.13",
                major: 13,
            },
            Soname {
                name: c"libnvblas.so.12",
                major: 12,
            },
            Soname {
                name: c"libnvblas.so.11",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_NVBLAS_PATH",
        wheel_dirs: &[CU13_LIB, CUBLAS_LIB],
        // No version function: the soname says the major.
        version: VersionProbe::Soname,
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // The runtime, and cuBLAS, whose soname in its `DT_NEEDED` says its release before
        // `dlopen` (`libcublas.so.13`).
        same_release_as: &[CUDART.real, CUBLAS.real],
        // Through cuBLAS, which loads the driver (without a GPU nvBLAS passes every call to the
        // CPU BLAS).
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 11.11.3.6, 12.9.1.4, 13.5.1.27, beside cuBLAS's DLL: the
            // name says the major, and each imports its major's cuBLAS DLL (the same folder).
            // Windows has no next definition of a name (a DLL's imports name their DLL): a
            // routine the stub cannot forward is not made, its output filled with NaN.
            dlls: &[
                Soname {
                    name: c"nvblas64_13.dll",
                    major: 13,
                },
                Soname {
                    name: c"nvblas64_12.dll",
                    major: 12,
                },
                Soname {
                    name: c"nvblas64_11.dll",
                    major: 11,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/cublas/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            // 0.3 MB each (cuBLAS's DLLs beside them are fetched for cuBLAS's stub).
            fetched: true,
            release_named: None,
        }),
    },
    // No nvBLAS routine returns a status. `nvblas.h` includes the runtime's `driver_types.h`:
    // its codes name the two cases in the status API's words; no export returns them.
    status_type: "cudaError_t",
    errors: TypedErrors {
        // The runtime's own "this is a stub" code.
        no_library: StatusCode {
            name: "cudaErrorStubLibrary",
            value: 34,
        },
        // The runtime's "not supported".
        absent: StatusCode {
            name: "cudaErrorNotSupported",
            value: 801,
        },
    },
    crate_name: "stubs-nvblas",
    header: "nvblas.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "[sdcz](gemm|symm|hemm|syrk|herk|syr2k|her2k|trsm|trmm)_?",
    extra_types: "cudaError_t|cuComplex|cuDoubleComplex",
    exports: ExportSource::Wheels,
    hand_written: ROUTINES,
    counts_negate_status: false,
    last_error: None,
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // cuBLAS's wheels: libnvblas and the headers; libcublas beside it comes with cuBLAS's
    // spec (the same wheel).
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-cublas-cu11==11.11.3.6",
            lib_dir: CUBLAS_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cublas-cu12==12.9.1.4",
            lib_dir: CUBLAS_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cublas==13.5.1.27",
            lib_dir: CU13_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "nvBLAS (libnvblas)",
        cmake_target: "nvblas",
        toolkit_targets: &["nvblas"],
        link_names: &[LinkName::Shared("nvblas")],
        compat_majors: &[],
    },
};

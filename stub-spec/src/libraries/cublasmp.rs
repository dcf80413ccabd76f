//! cuBLASMp, libcublasmp (`cublasmp.h`): NVIDIA's distributed dense BLAS (PBLAS-style, one
//! process per GPU, over NCCL), versioned on its own. One soname, `libcublasmp.so.0` (its
//! symbols carry the version node `libcublasmp.so.0`), for every CUDA major; NVIDIA's wheels
//! `nvidia-cublasmp-cu12` and `-cu13` 0.10.0.3695 both answer `cublasMpGetVersion` 1000 (0.10.0),
//! and their 71 exports and headers are the same. What tells them apart is what they link:
//! the runtime statically, and `DT_NEEDED libcublas.so.12` / `libcublasLt.so.12` (RPATH
//! `$ORIGIN/../../../cublas/lib`) or `libcublas.so.13` / `libcublasLt.so.13`
//! (`$ORIGIN/../../../cu13/lib`), beside `libnccl.so.2` (`$ORIGIN/../../../nccl/lib`; the wheels
//! require NCCL 2.29.2 or newer) and the driver, `libcuda.so.1`: the loaded file's `DT_NEEDED`
//! is its release ([`VersionProbe::NeededOwnVersion`]), and before `dlopen` the one-release rule
//! refuses a copy needing another major's cuBLAS than the process has. Without a driver
//! (`libcuda.so.1` in its `DT_NEEDED`, six entry points bound at load) NVIDIA's file cannot be
//! loaded at all: the search keeps `dlerror`'s text naming `libcuda.so.1`. No wheel for CUDA 11,
//! none for Windows (no `win_amd64` wheel at 0.10.0): Linux only.

use super::cublas::CUBLAS;
use super::cudart::CUDART;
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe,
};
use core::ffi::CStr;

/// Where the CUDA 12 wheel puts it: a folder of cuBLASMp's own per major, not `nvidia/cu12/lib`.
const CUBLASMP_CU12_LIB: &CStr = c"nvidia/cublasmp/cu12/lib";
/// Where the CUDA 13 wheel puts it.
const CUBLASMP_CU13_LIB: &CStr = c"nvidia/cublasmp/cu13/lib";

/// cuBLASMp.
pub const CUBLASMP: Library = Library {
    kind: LibraryKind::CublasMp,
    real: &RealLibrary {
        name: "cublasmp",
        // One soname for every major (0.10.0 in both wheels): major 0, its `DT_NEEDED` says
        // which.
        sonames: &[Soname {
            name: c"libcublasmp.so.0",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUBLASMP_PATH",
        wheel_dirs: &[CUBLASMP_CU13_LIB, CUBLASMP_CU12_LIB],
        // `cublasMpGetVersion` answers cuBLASMp's own 1000 in both builds (no GPU needed); the
        // CUDA major is that of the `libcublas.so.<major>` its file needs.
        version: VersionProbe::NeededOwnVersion {
            symbol: c"cublasMpGetVersion",
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // The runtime is linked in statically and cuBLAS is the major's: it shares streams and
        // device memory with the program's runtime and cuBLAS, so it must be the process's
        // release. cuBLAS's sonames are what its `DT_NEEDED` names (the runtime's never are);
        // NCCL's one soname says no release.
        same_release_as: &[CUDART.real, CUBLAS.real],
        // `DT_NEEDED libcuda.so.1`: the driver is loaded with it.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: None,
    },
    status_type: "cublasMpStatus_t",
    errors: TypedErrors {
        // "The cuBLASMp library was not initialized", as cuBLAS's choice: the real
        // `cublasMpCreate` answers 6 (`CUBLASMP_STATUS_INTERNAL_ERROR`) without a GPU, so a
        // missing library stays distinguishable from a machine without one.
        no_library: StatusCode {
            name: "CUBLASMP_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // "The functionality requested is not supported": a function the loaded version lacks.
        absent: StatusCode {
            name: "CUBLASMP_STATUS_NOT_SUPPORTED",
            value: 7,
        },
    },
    crate_name: "stubs-cublasmp",
    header: "cublasmp.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cublasMp.*",
    extra_types: "cublasMpStatus_t|cublasMpHandle_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // `const char *cublasMpGetStatusString(cublasMpStatus_t)`: the header's descriptions
    // (NVIDIA's own texts are shorter: "the library was not initialized").
    error_texts: &[ErrorText {
        function: "cublasMpGetStatusString",
        text: TextKind::Description,
        abi: TextAbi::Returned,
    }],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The library is nearly all of each wheel (53.6 of 53.8 MB, 20.2 of 20.4 MB unpacked):
    // read by range requests, with the header; its cuBLAS and NCCL come with their own specs'
    // wheels, which the layout puts where its RPATH looks.
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "nvidia-cublasmp-cu12==0.10.0.3695",
            lib_dir: CUBLASMP_CU12_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cublasmp-cu13==0.10.0.3695",
            lib_dir: CUBLASMP_CU13_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "cuBLASMp (libcublasmp)",
        cmake_target: "cublasmp",
        // FindCUDAToolkit has no cuBLASMp target, and the wheels ship no CMake package (no
        // `lib/cmake`): projects link `cublasmp` by name.
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("cublasmp")],
        compat_majors: &[],
    },
};

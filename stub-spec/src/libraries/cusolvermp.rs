//! cuSOLVERMp, libcusolverMp (`cusolverMp.h`): NVIDIA's distributed dense solvers
//! (ScaLAPACK-style, one process per GPU, over NCCL and cuBLASMp), versioned on its own. One
//! soname, `libcusolverMp.so.0`, for every CUDA major; NVIDIA's wheels `nvidia-cusolvermp-cu12`
//! and `-cu13` 0.9.1.9318.post1 carry the same header (`CUSOLVERMP_VER_*` 0.9.1), and the CUDA 13
//! build exports four more calls the header declares (`cusolverMpSetMathMode`,
//! `cusolverMpGetMathMode`, `cusolverMpSetEmulationStrategy`, `cusolverMpGetEmulationStrategy`:
//! absent from the CUDA 12 build). What tells the builds apart is what they link: `DT_NEEDED
//! libcudart.so.12`, `libcublas.so.12`, `libcusolver.so.11` or `libcudart.so.13`,
//! `libcublas.so.13`, `libcusolver.so.12`, beside `libcublasmp.so.0`, `libnccl.so.2` and the
//! driver, `libcuda.so.1` (RPATH: the 12.x wheels' `nvidia/<library>/lib` folders and
//! `nvidia/cublasmp/cu12/lib`, or `nvidia/cu13/lib` itself and `nvidia/cublasmp/cu13/lib`).
//! Without a driver NVIDIA's file cannot be loaded at all: the search keeps `dlerror`'s text
//! naming `libcuda.so.1`. No wheel for CUDA 11, none for Windows: Linux only.

use super::cublas::CUBLAS;
use super::cudart::CUDART;
use super::cusolver::CUSOLVER;
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
};
use core::ffi::CStr;

/// Where the CUDA 12 wheel puts it: CUDA 13's layout for CUDA 12 (`nvidia/cu12/lib`, as
/// cuDSS's CUDA 12 wheel), not cuSOLVER's `nvidia/cusolver/lib`.
const CU12_LIB: &CStr = c"nvidia/cu12/lib";

/// cuSOLVERMp.
pub const CUSOLVERMP: Library = Library {
    kind: LibraryKind::CusolverMp,
    real: &RealLibrary {
        name: "cusolvermp",
        // One soname for every major: major 0, its `DT_NEEDED` says which.
        sonames: &[Soname {
            name: c"libcusolverMp.so.0",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUSOLVERMP_PATH",
        wheel_dirs: &[super::CU13_LIB, CU12_LIB],
        // `cusolverMpGetVersion(handle, int *)` needs a handle, which `cusolverMpCreate` gives
        // only with a GPU (NULL: 1, `CUSOLVER_STATUS_NOT_INITIALIZED`): the version logged is
        // that of the cuBLASMp it needs (`DT_NEEDED libcublasmp.so.0`), whose
        // `cublasMpGetVersion` `dlsym` finds through the cuSOLVERMp handle (a handle's lookup
        // searches its dependencies); the CUDA major is that of the first anchor its file
        // needs, `libcudart.so.12` / `.13`.
        version: VersionProbe::NeededOwnVersion {
            symbol: c"cublasMpGetVersion",
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // The runtime, cuBLAS and cuSOLVER of its `DT_NEEDED`, whose sonames say their release
        // before `dlopen`.
        same_release_as: &[CUDART.real, CUBLAS.real, CUSOLVER.real],
        // `DT_NEEDED libcuda.so.1`: the driver is loaded with it.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: None,
    },
    status_type: "cusolverStatus_t",
    // cuSOLVER's codes and choices, as cuSOLVERMg's (cuSOLVERMp has no code for "library
    // missing" or "function missing" either). Without a GPU the real `cusolverMpCreate`
    // answers 7 (`CUSOLVER_STATUS_INTERNAL_ERROR`), not 1.
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
    crate_name: "stubs-cusolvermp",
    header: "cusolverMp.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cusolverMp.*",
    extra_types: "cusolverStatus_t|cusolverMpHandle_t",
    // The file also exports its own helpers (`formatValue`, `getf2_lvl1_driver`,
    // `printDeviceMatrix` …), which no header declares and no program calls: a stub stands for
    // the `cusolverMp` API only.
    exports: ExportSource::WheelsWithPrefix(&["cusolverMp"]),
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The library is nearly all of each wheel (27.2 of 27.3 MB, 18.2 of 18.2 MB unpacked): read
    // by range requests, with the header; what it needs comes with the other specs' wheels.
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "nvidia-cusolvermp-cu12==0.9.1.9318.post1",
            lib_dir: CU12_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cusolvermp-cu13==0.9.1.9318.post1",
            lib_dir: super::CU13_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "cuSOLVERMp (libcusolverMp)",
        cmake_target: "cusolvermp",
        // FindCUDAToolkit has no cuSOLVERMp target, and the wheels ship no CMake package:
        // projects link `cusolverMp` by name.
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("cusolverMp")],
        compat_majors: &[],
    },
};

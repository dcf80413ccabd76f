//! cuStateVec, libcustatevec (`custatevec.h`, `custatevecEx.h`, `custatevecEx_ext.h`): the
//! state-vector simulator of NVIDIA's cuQuantum SDK, versioned on its own. One soname,
//! `libcustatevec.so.1` (its symbols carry the version node `libcustatevec.so.0`), for every
//! CUDA major; NVIDIA's wheels `custatevec-cu12` and `-cu13` 1.15.0 both answer
//! `custatevecGetProperty` 1.15.0 and `custatevecGetVersion` 11500, and their 124 exports and
//! headers are the same. What tells them apart is what they link: the runtime statically, and
//! `DT_NEEDED libcublas.so.12` / `libcublasLt.so.12` (RUNPATH `$ORIGIN/../../nvidia/cublas/lib`)
//! or `libcublas.so.13` / `libcublasLt.so.13` (`$ORIGIN/../../nvidia/cu13/lib`): the loaded
//! file's `DT_NEEDED` is its release ([`VersionProbe::Needed`]), and before `dlopen` the
//! one-release rule refuses a copy needing another major's cuBLAS than the process has. No
//! wheel for CUDA 11 at this version (cuQuantum dropped it), none for Windows: Linux only.

use super::cublas::CUBLAS;
use super::cudart::CUDART;
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe,
};
use core::ffi::CStr;

/// Where both wheels put it: cuQuantum's top-level `cuquantum` package of a `site-packages`
/// (beside cuTensorNet and cuDensityMat), not under `nvidia/`.
const CUQUANTUM_LIB: &CStr = c"cuquantum/lib";

/// cuStateVec.
pub const CUSTATEVEC: Library = Library {
    kind: LibraryKind::Custatevec,
    real: &RealLibrary {
        name: "custatevec",
        // One soname for every major (1.15.0 in both wheels): major 0, its `DT_NEEDED` says
        // which.
        sonames: &[Soname {
            name: c"libcustatevec.so.1",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUSTATEVEC_PATH",
        wheel_dirs: &[CUQUANTUM_LIB],
        // `custatevecGetProperty` answers cuStateVec's own 1.15.0 in both builds; the CUDA
        // major is that of the `libcublas.so.<major>` its file needs.
        version: VersionProbe::Needed {
            property: c"custatevecGetProperty",
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // The runtime is linked in statically and cuBLAS is the major's: it shares streams and
        // device memory with the program's runtime and cuBLAS, so it must be the process's
        // release. cuBLAS's sonames are what its `DT_NEEDED` names (the runtime's never are).
        same_release_as: &[CUDART.real, CUBLAS.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: None,
    },
    status_type: "custatevecStatus_t",
    errors: TypedErrors {
        // "Dynamic loading of the shared library failed": literally the case. The real
        // `custatevecCreate` answers another code without a GPU, so a missing library stays
        // distinguishable from a machine without one.
        no_library: StatusCode {
            name: "CUSTATEVEC_STATUS_LOADING_LIBRARY_FAILED",
            value: 13,
        },
        // "API is not supported by the backend": a function the loaded version lacks.
        absent: StatusCode {
            name: "CUSTATEVEC_STATUS_NOT_SUPPORTED",
            value: 7,
        },
    },
    crate_name: "stubs-custatevec",
    header: "custatevec.h",
    header_version: HeaderVersion::MajorMinor,
    // The extended API (`custatevecEx*`, 45 exports): declared by the two headers beside it,
    // which include `custatevec.h`.
    interop_headers: &["custatevecEx.h", "custatevecEx_ext.h"],
    functions: "custatevec.*",
    extra_types: "custatevecStatus_t|custatevecHandle_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[
        ErrorText {
            function: "custatevecGetErrorName",
            text: TextKind::Name,
            abi: TextAbi::Returned,
        },
        ErrorText {
            function: "custatevecGetErrorString",
            text: TextKind::Description,
            abi: TextAbi::Returned,
        },
    ],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The library is nearly all of each wheel (120 of 120 MB, 69 of 69 MB unpacked): read by
    // range requests, with the headers, no wheel kept in the cache beside the tree.
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "custatevec-cu12==1.15.0",
            lib_dir: CUQUANTUM_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "custatevec-cu13==1.15.0",
            lib_dir: CUQUANTUM_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "cuStateVec (libcustatevec)",
        cmake_target: "custatevec",
        // FindCUDAToolkit has no cuQuantum target: projects link `custatevec` by name.
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("custatevec")],
        compat_majors: &[],
    },
};

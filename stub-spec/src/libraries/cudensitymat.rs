//! cuDensityMat, libcudensitymat (`cudensitymat.h`): the density-matrix and quantum-dynamics
//! library of NVIDIA's cuQuantum SDK, versioned on its own. One soname, `libcudensitymat.so.0`
//! (its symbols carry the version node `libcudensitymat.so.0`), for every CUDA major; NVIDIA's
//! wheels `cudensitymat-cu12` and `-cu13` 0.7.0 both answer `cudensitymatGetVersion` 700 and
//! have the same 111 exports and the same header. What tells them apart is what they link: the
//! runtime statically, cuTensorNet and cuTENSOR (`libcutensornet.so.2`, `libcutensor.so.2`:
//! every major's sonames) and the major's math libraries, `libcublas.so.12`,
//! `libcusolver.so.11`, `libnvJitLink.so.12` … (RUNPATH `$ORIGIN/../../nvidia/cublas/lib` …) or
//! `libcublas.so.13`, `libcusolver.so.12`, `libnvJitLink.so.13` (`$ORIGIN/../../nvidia/cu13/lib`):
//! the loaded file's `DT_NEEDED` is its release ([`VersionProbe::NeededReturned`]), and before
//! `dlopen` the one-release rule refuses a copy needing another major's cuBLAS than the process
//! has. No CUDA 11 or Windows wheel: Linux only.

use super::cublas::CUBLAS;
use super::cudart::CUDART;
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
};
use core::ffi::CStr;

/// Where both wheels put it: cuQuantum's top-level `cuquantum` package of a `site-packages`
/// (beside cuStateVec and cuTensorNet), not under `nvidia/`.
const CUQUANTUM_LIB: &CStr = c"cuquantum/lib";

/// cuDensityMat.
pub const CUDENSITYMAT: Library = Library {
    kind: LibraryKind::Cudensitymat,
    real: &RealLibrary {
        name: "cudensitymat",
        // One soname for every major (0.7.0 in both wheels): major 0, its `DT_NEEDED` says
        // which.
        sonames: &[Soname {
            name: c"libcudensitymat.so.0",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUDENSITYMAT_PATH",
        wheel_dirs: &[CUQUANTUM_LIB],
        // `size_t cudensitymatGetVersion()` answers cuDensityMat's own 700 in both builds; the
        // CUDA major is that of the `libcublas.so.<major>` its file needs.
        version: VersionProbe::NeededReturned {
            symbol: c"cudensitymatGetVersion",
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // The runtime is linked in statically and cuBLAS is the major's: it shares streams and
        // device memory with the program's runtime and cuBLAS, so it must be the process's
        // release. cuBLAS's sonames are what its `DT_NEEDED` names (the runtime's never are);
        // cuTensorNet's and cuTENSOR's are every major's and say none.
        same_release_as: &[CUDART.real, CUBLAS.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: None,
    },
    status_type: "cudensitymatStatus_t",
    errors: TypedErrors {
        // "The library handle was not initialized": cuTensorNet's, cuTENSOR's and cuBLAS's
        // choice (cuDensityMat has no code for a library that failed to load).
        no_library: StatusCode {
            name: "CUDENSITYMAT_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // "The operation is not supported": a function the loaded version lacks.
        absent: StatusCode {
            name: "CUDENSITYMAT_STATUS_NOT_SUPPORTED",
            value: 15,
        },
    },
    crate_name: "stubs-cudensitymat",
    header: "cudensitymat.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cudensitymat.*",
    extra_types: "cudensitymatStatus_t|cudensitymatHandle_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // No error-text function in 0.7.0.
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The library is nearly all of each wheel (80 of 80 MB, 42 of 42 MB unpacked): read by
    // range requests, with the header, not the distributed interfaces' sources beside them.
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "cudensitymat-cu12==0.7.0",
            lib_dir: CUQUANTUM_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "cudensitymat-cu13==0.7.0",
            lib_dir: CUQUANTUM_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "cuDensityMat (libcudensitymat)",
        cmake_target: "cudensitymat",
        // FindCUDAToolkit has no cuQuantum target: projects link `cudensitymat` by name.
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("cudensitymat")],
        compat_majors: &[],
    },
};

//! cuTensorNet, libcutensornet (`cutensornet.h`, `cutensornet/types.h`,
//! `cutensornet/typesDistributed.h`): the tensor-network library of NVIDIA's cuQuantum SDK,
//! versioned on its own. One soname, `libcutensornet.so.2` (its symbols carry the version node
//! `libcutensornet.so.0`), for every CUDA major; NVIDIA's wheels `cutensornet-cu12` and `-cu13`
//! 2.14.0 answer the same `cutensornetGetVersion` (21400) and have the same 163 exports and
//! headers. It needs cuTENSOR (`DT_NEEDED libcutensor.so.2`, RUNPATH
//! `$ORIGIN/../../cutensor/lib`: the `cutensor-cu<major>` wheel, which its own wheel requires)
//! and its major's cuBLAS and cuSOLVER (`libcublas.so.12`, `libcusolver.so.11` /
//! `libcublas.so.13`, `libcusolver.so.12`); the runtime is linked statically, and
//! `cutensornetGetCudartVersion` answers the one it was built with, which is how the stub learns
//! its release ([`VersionProbe::Returned`]). No CUDA 11 or Windows wheel: Linux only.

use super::cublas::CUBLAS;
use super::cudart::CUDART;
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe,
};
use core::ffi::CStr;

/// Where both wheels put it: cuQuantum's top-level `cuquantum` package of a `site-packages`
/// (beside cuStateVec and cuDensityMat).
const CUQUANTUM_LIB: &CStr = c"cuquantum/lib";

/// cuTensorNet.
pub const CUTENSORNET: Library = Library {
    kind: LibraryKind::Cutensornet,
    real: &RealLibrary {
        name: "cutensornet",
        // One soname for every major (2.14.0 in both wheels): major 0, the version function
        // says which release.
        sonames: &[Soname {
            name: c"libcutensornet.so.2",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUTENSORNET_PATH",
        wheel_dirs: &[CUQUANTUM_LIB],
        // `size_t cutensornetGetCudartVersion(void)`: the CUDA runtime the library was built
        // with, `1000 * major + 10 * minor` (12090 and 13040 in the two wheels); needs no handle
        // and no GPU.
        version: VersionProbe::Returned(c"cutensornetGetCudartVersion"),
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // Its runtime is linked in statically, its cuBLAS and cuSOLVER are the major's: the
        // `libcublas.so.<major>` in its `DT_NEEDED` refuses a copy of another release before
        // `dlopen`. Not cuTENSOR: `libcutensor.so.2` is every major's soname, which says no
        // release (the dynamic loader takes the copy its RUNPATH finds, the wheel beside it).
        same_release_as: &[CUDART.real, CUBLAS.real],
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: None,
    },
    status_type: "cutensornetStatus_t",
    errors: TypedErrors {
        // "The library handle was not initialized": cuTENSOR's and cuBLAS's choice.
        no_library: StatusCode {
            name: "CUTENSORNET_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // "The operation is not supported": a function the loaded version lacks.
        absent: StatusCode {
            name: "CUTENSORNET_STATUS_NOT_SUPPORTED",
            value: 15,
        },
    },
    crate_name: "stubs-cutensornet",
    header: "cutensornet.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cutensornet.*",
    extra_types: "cutensornetStatus_t|cutensornetHandle_t",
    exports: ExportSource::Wheels,
    // `const char *cutensornetGetLastError(void)`: the thread's last error text, not a code's,
    // so not an `error_texts` entry; the crate answers the search's summary without a library.
    hand_written: &["cutensornetGetLastError"],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[ErrorText {
        function: "cutensornetGetErrorString",
        text: TextKind::Name,
        abi: TextAbi::Returned,
    }],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // 3 MB wheels: the library (11 MB unpacked) and the headers, not the MPI interface's
    // source beside them.
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "cutensornet-cu12==2.14.0",
            lib_dir: CUQUANTUM_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "cutensornet-cu13==2.14.0",
            lib_dir: CUQUANTUM_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "cuTensorNet (libcutensornet)",
        cmake_target: "cutensornet",
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("cutensornet")],
        compat_majors: &[],
    },
};

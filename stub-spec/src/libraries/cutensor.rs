//! cuTENSOR 2, libcutensor (`cutensor.h`, `cutensor/types.h`): NVIDIA's tensor library,
//! versioned on its own. One soname, `libcutensor.so.2`, for every CUDA major; NVIDIA's wheels
//! are `cutensor-cu11` 2.2.0, `cutensor-cu12` and `-cu13` 2.8.1 (`cutensorGetVersion` 20200,
//! 20800, 20800: the same version in two majors), all in `cutensor/lib` of a `site-packages`.
//! The runtime is linked statically; `DT_NEEDED` has `libcublasLt.so.<major>` (found by RUNPATH
//! `$ORIGIN/../../nvidia/cublas/lib`, `nvidia/cu13/lib` for 13.x).
//! `cutensorGetCudartVersion` answers the runtime it was built with (11080, 12090, 13040), which
//! is how the stub learns its release ([`VersionProbe::Returned`]).
//! On Windows (NVIDIA's `win_amd64` wheels of the same versions): `cutensor/bin/cutensor.dll`,
//! one name for every major, importing the major's cuBLASLt DLL (`cublasLt64_12.dll`) from
//! another wheel's folder.

use super::cudart::CUDART;
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where every major's wheel (`cutensor-cu11`, `-cu12`, `-cu13`) puts it: a top-level
/// `cutensor` package of the `site-packages`, not under `nvidia/`.
const CUTENSOR_LIB: &CStr = c"cutensor/lib";

/// cuTENSOR.
pub const CUTENSOR: Library = Library {
    kind: LibraryKind::Cutensor,
    real: &RealLibrary {
        name: "cutensor",
        // One soname for every major (2.2.0 / 2.8.1 / 2.8.1): major 0, the version function
        // says which release.
        sonames: &[Soname {
            name: c"libcutensor.so.2",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUTENSOR_PATH",
        wheel_dirs: &[CUTENSOR_LIB],
        // `size_t cutensorGetCudartVersion(void)`: the CUDA runtime the library was built with,
        // `1000 * major + 10 * minor` (11080, 12090, 13040 in the three wheels); needs no
        // handle and no GPU. (`cutensorGetVersion` is cuTENSOR's own, 20800 in two majors.)
        version: VersionProbe::Returned(c"cutensorGetCudartVersion"),
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // Its runtime is linked in statically, its cuBLASLt is the major's: the process's
        // release.
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // One name for every major, as on Linux (NVIDIA's win_amd64 wheels 2.2.0, 2.8.1,
            // 2.8.1; each also holds `cutensorMg.dll`, which has no stub): the version says
            // which. Each imports its major's `cublasLt64_<major>.dll`, in the cuBLAS wheel's
            // folder (`nvidia/cublas/bin`, `nvidia/cu13/bin/x86_64`), which the loader preloads
            // (`needed_dirs`) and the one-release rule reads before loading.
            dlls: &[Soname {
                name: c"cutensor.dll",
                major: 0,
            }],
            wheel_dirs: &[c"cutensor/bin"],
            // Not part of the CUDA toolkit (a download of its own, whose folder the override
            // names): the wheels, conda's `Library\bin`, the safe DLL search.
            toolkit_dirs: &[],
            companion: None,
            lazy_dependency: None,
            // 123, 282 and 187 MB compressed: the whole of each wheel but `cutensorMg.dll`.
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "cutensorStatus_t",
    // cuTENSOR has no status for "library missing" or "function missing".
    errors: TypedErrors {
        // "The opaque data structure was not initialized": cuBLAS's choice for the same case;
        // the real `cutensorCreate` answers `CUTENSOR_STATUS_CUDA_ERROR` (18) without a GPU, so
        // a missing library stays distinguishable from a machine without CUDA.
        no_library: StatusCode {
            name: "CUTENSOR_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // "The operation is not supported": a function the loaded version lacks (2.2.0 has
        // no `cutensorCreateBlockSparseContraction`).
        absent: StatusCode {
            name: "CUTENSOR_STATUS_NOT_SUPPORTED",
            value: 15,
        },
    },
    crate_name: "stubs-cutensor",
    header: "cutensor.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cutensor.*",
    extra_types: "cutensorStatus_t|cutensorHandle_t",
    exports: ExportSource::Wheels,
    // Every function taking a compute descriptor (`cutensorComputeDescriptor_t`): the stub
    // exports stand-ins for `CUTENSOR_COMPUTE_DESC_*` (data, pointers into the real library),
    // which these translate before forwarding (`stubs/cutensor/src/adapters/`); codegen refuses
    // a function naming that type that is not listed here.
    hand_written: &[
        "cutensorCreateBlockSparseContraction",
        "cutensorCreateContraction",
        "cutensorCreateContractionTrinary",
        "cutensorCreateElementwiseBinary",
        "cutensorCreateElementwiseTrinary",
        "cutensorCreatePermutation",
        "cutensorCreateReduction",
    ],
    counts_negate_status: false,
    last_error: None,
    // `cutensorGetErrorString` answers the enumerator's name (`CUTENSOR_STATUS_NOT_INITIALIZED`).
    error_texts: &[ErrorText {
        function: "cutensorGetErrorString",
        text: TextKind::Name,
        abi: TextAbi::Returned,
    }],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The newest cuTENSOR of each major's wheel. Of each, the tests need `libcutensor.so.2`
    // and `include/` only (not `libcutensorMg.so.2`, `libcutensorMp.so.2`): read by range
    // requests, 137 / 300 / 206 MB of the 139 / 307 / 210 MB wheels (the library is nearly all
    // of it), and no wheel kept in the cache beside the unpacked tree.
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "cutensor-cu11==2.2.0",
            lib_dir: CUTENSOR_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 12,
            requirement: "cutensor-cu12==2.8.1",
            lib_dir: CUTENSOR_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "cutensor-cu13==2.8.1",
            lib_dir: CUTENSOR_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "cuTENSOR (libcutensor)",
        cmake_target: "cutensor",
        // FindCUDAToolkit has no cuTENSOR target: projects link `cutensor` by name.
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("cutensor")],
        compat_majors: &[],
    },
};

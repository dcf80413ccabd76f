//! NVIDIA's Perfworks, the profiler libraries of CUPTI's wheels: `libnvperf_host.so` (metric
//! configuration and evaluation, counter-data images: `nvperf_host.h`, `nvperf_cuda_host.h`)
//! and `libnvperf_target.so` (the device side: `nvperf_target.h`), CUDA 11.8, 12.x, 13.x.
//! Every call is `NVPA_Status NVPW_<name>(NVPW_<name>_Params *)`, a struct that begins with
//! `size_t structSize` and `void *pPriv`, which the library checks before reading the rest:
//! codegen's self-sized rule keeps a struct that only grew between majors forwarded, and its ABI
//! diff refuses a call whose struct changed otherwise.
//!
//! Two libraries, so two specs and two stubs: a program or tool links either or both by name
//! (`-lnvperf_host`, `-lnvperf_target`; Nsight's and CUPTI's samples link both), the two files
//! export different sets (11.8: 237 and 154 names, 13.4: 342 and 246; the host library also
//! exports the target's initialisation and counter-data calls, each library's copy its own
//! state), and each must be bound to its own file. Both are named the same in every major
//! (`libnvperf_host.so`, no version), so a copy of another release is told only once loaded:
//! `NVPW_QueryVersionNumber` answers CUPTI's release numbering (12.9's 2025.2.0, 13.4's
//! 2026.3.1), and 11.8's answers `NVPA_STATUS_INVALID_ARGUMENT` for the SDK API set (bound,
//! release unknown). CUPTI loads them itself (`dlopen("libnvperf_host.so")` from 12.x's profiler
//! host API on) and answers `CUPTI_ERROR_NOT_INITIALIZED` "could not dynamically load the
//! nvperf* libraries" without them: they belong with the CUPTI of their wheel, one release per
//! process with it and the runtime.

use super::cudart::CUDART;
use super::cupti::{CUPTI, CUPTI_LIB};
use super::{CU13_BIN, CU13_LIB};
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Release, Soname, StatusCode, TestWheel, TypedErrors, Unpack,
    VersionProbe, WindowsDlls,
};

/// `NVPW_QueryVersionNumber` asked for `NVPW_SDK_VERSION` (`nvperf_target.h` of 12.x and 13.x;
/// 11.8's header has no such API set): CUPTI's first release of each major, as CUPTI's DLL
/// names say it (2020.1.0 in CUDA 11.0, 2022.4.0 in 12.0, 2025.3.0 in 13.0).
const VERSION: VersionProbe = VersionProbe::QueryVersionNumber {
    symbol: c"NVPW_QueryVersionNumber",
    api_set: 0x1e12_8b6f_0014_23fc,
    releases: &[
        Release {
            first: 20200100,
            major: 11,
        },
        Release {
            first: 20220400,
            major: 12,
        },
        Release {
            first: 20250300,
            major: 13,
        },
    ],
};

/// The typed errors of both libraries, `nvperf_common.h`'s own words for the two situations.
const ERRORS: TypedErrors = TypedErrors {
    // "The NvPerf DLL/DSO could not be loaded during NVPW_Initialize*()": what NVIDIA's own
    // loader shim answers without the library, never what the loaded library answers for a
    // correct call (without a GPU NVPW_InitializeHost, NVPW_InitializeTarget and
    // NVPW_GetDeviceCount answer success, 0 devices).
    no_library: StatusCode {
        name: "NVPA_STATUS_NOT_LOADED",
        value: 4,
    },
    // "The function was not found in this version of the NvPerf DLL/DSO": literally a call the
    // loaded release lacks, or one whose params struct it lays out otherwise.
    absent: StatusCode {
        name: "NVPA_STATUS_FUNCTION_NOT_FOUND",
        value: 5,
    },
};

/// The CUPTI wheels of each major (`Unpack::LibraryAndHeaders`: the library's file and the
/// include folder, read by range requests; the same wheels as CUPTI's spec, so one release
/// per major with it).
const fn test_wheels(lib_dir_11_12: &'static core::ffi::CStr) -> [TestWheel; 3] {
    [
        TestWheel {
            major: 11,
            requirement: "nvidia-cuda-cupti-cu11==11.8.87",
            lib_dir: lib_dir_11_12,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cuda-cupti-cu12==12.9.79",
            lib_dir: lib_dir_11_12,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cuda-cupti==13.4.92",
            lib_dir: CU13_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ]
}

/// A Windows DLL of CUPTI's win_amd64 wheels (`nvperf_host.dll` 22.6 / 24.4 / 31.7 MB and
/// `nvperf_target.dll` 1.9 / 2.8 / 3.1 MB in 11.8.87, 12.9.79, 13.4.92): one name in every
/// major, beside CUPTI's DLL, the release told once loaded as on Linux; a toolkit's where it
/// keeps CUPTI's.
const fn windows(dlls: &'static [Soname]) -> WindowsDlls {
    WindowsDlls {
        dlls,
        wheel_dirs: &[CU13_BIN, c"nvidia/cuda_cupti/bin"],
        toolkit_dirs: &[c"extras/CUPTI/lib64", c"bin/x64", c"bin"],
        companion: None,
        lazy_dependency: None,
        // Read off the index once (range requests): without a device both answer (the host's
        // chip list, 0 devices), so the wine test runs the stubs against them.
        fetched: true,
        release_named: None,
    }
}

/// `nvperf_host.dll`.
const HOST_WINDOWS: WindowsDlls = windows(&[Soname {
    name: c"nvperf_host.dll",
    major: 0,
}]);

/// `nvperf_target.dll`.
const TARGET_WINDOWS: WindowsDlls = windows(&[Soname {
    name: c"nvperf_target.dll",
    major: 0,
}]);

/// Both libraries' test wheels.
const TEST_WHEELS: [TestWheel; 3] = test_wheels(CUPTI_LIB);

/// Perfworks' host library.
pub const NVPERF_HOST: Library = Library {
    kind: LibraryKind::NvperfHost,
    real: &RealLibrary {
        name: "nvperf_host",
        // The same unversioned soname in 11.8.87, 12.9.79 and 13.4.92 (readelf -d).
        sonames: &[Soname {
            name: c"libnvperf_host.so",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_NVPERF_HOST_PATH",
        wheel_dirs: &[CU13_LIB, CUPTI_LIB],
        version: VERSION,
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // The C libraries only in `DT_NEEDED`; CUPTI's release (and so the runtime's).
        same_release_as: &[CUDART.real, CUPTI.real],
        // Metric configuration and evaluation run on the host (NVPW_GetSupportedChipNames
        // answers its 28 – 39 chips without a driver): a device is the target library's.
        driver: DriverUse::CompileOnly,
        mock: MockUse::Real,
        windows: Some(&HOST_WINDOWS),
    },
    status_type: "NVPA_Status",
    errors: ERRORS,
    crate_name: "stubs-nvperf_host",
    header: "nvperf_host.h",
    header_version: HeaderVersion::MajorMinor,
    // The CUDA host calls (`NVPW_CUDA_MetricsEvaluator_*`, `NVPW_CUDA_RawMetricsConfig_*`), and
    // the target header: the host library exports the target's calls too
    // (`NVPW_InitializeTarget`, `NVPW_GetDeviceCount`, `NVPW_QueryVersionNumber`, `NVPW_Device_*`).
    interop_headers: &["nvperf_cuda_host.h", "nvperf_target.h"],
    functions: "NVPW_.*|NVPA_.*",
    extra_types: "NVPA_Status",
    // The Vulkan, OpenGL, EGL and DCGM calls are exported with no header in the wheel: opaque
    // forwarders whose fallback is the status code (every NVPW_ call returns NVPA_Status).
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // `NVPW_NVPAStatusToString` is an inline function of 12.x's and 13.x's `nvperf_common.h`,
    // no export: the header's own text in the program.
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    test_wheels: &TEST_WHEELS,
    packaging: Packaging {
        stands_for: "Perfworks host (libnvperf_host)",
        cmake_target: "nvperf_host",
        // FindCUDAToolkit's targets (CMake 3.27+: `CUDA::nvperf_host`, `_static`, `CUDA::nvperf_target`).
        toolkit_targets: &["nvperf_host", "nvperf_host_static"],
        link_names: &[
            LinkName::Shared("nvperf_host"),
            LinkName::Static("nvperf_host_static"),
        ],
        compat_majors: &[],
    },
};

/// Perfworks' target library.
pub const NVPERF_TARGET: Library = Library {
    kind: LibraryKind::NvperfTarget,
    real: &RealLibrary {
        name: "nvperf_target",
        sonames: &[Soname {
            name: c"libnvperf_target.so",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_NVPERF_TARGET_PATH",
        wheel_dirs: &[CU13_LIB, CUPTI_LIB],
        version: VERSION,
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        same_release_as: &[CUDART.real, CUPTI.real],
        // Profiles a device: loads the driver itself (NVPW_GetDeviceCount answers 0 devices
        // without one).
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&TARGET_WINDOWS),
    },
    status_type: "NVPA_Status",
    errors: ERRORS,
    crate_name: "stubs-nvperf_target",
    header: "nvperf_target.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "NVPW_.*|NVPA_.*",
    extra_types: "NVPA_Status",
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
    test_wheels: &TEST_WHEELS,
    packaging: Packaging {
        stands_for: "Perfworks target (libnvperf_target)",
        cmake_target: "nvperf_target",
        toolkit_targets: &["nvperf_target"], // CUDA::nvperf_target (CMake 3.27+)
        link_names: &[LinkName::Shared("nvperf_target")],
        compat_majors: &[],
    },
};

//! CUPTI, libcupti (`cupti.h` and the profiling headers beside it, CUDA 11.8, 12.x, 13.x):
//! NVIDIA's profiling and tracing interface. Its soname carries the CUDA major (11.x also the
//! minor: `libcupti.so.11.8`; `libcupti.so.12`, `.13` from 12.0, NVIDIA's release notes), so a
//! copy of another release is refused by its name before `dlopen`. The library reaches the
//! driver itself and traces the process's runtime: it must be the process's release.

use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB};
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Release, ReleaseNamed, Soname, StatusCode, TestWheel, TextAbi,
    TextKind, TypedErrors, Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-cuda-cupti-cu11`, `-cu12`) put it.
pub(super) const CUPTI_LIB: &CStr = c"nvidia/cuda_cupti/lib";

/// The code CUPTI answers for an unknown code or a NULL out-pointer in its text functions.
const INVALID_PARAMETER: StatusCode = StatusCode {
    name: "CUPTI_ERROR_INVALID_PARAMETER",
    value: 1,
};

/// CUPTI.
pub const CUPTI: Library = Library {
    kind: LibraryKind::Cupti,
    real: &RealLibrary {
        name: "cupti",
        // 12.x and 13.x: the major only (12.0's release notes: "SONAME of CUPTI library is
        // libcupti.so.12 instead of libcupti.so.12.0"); 11.x carried the toolkit's minor
        // (`libcupti.so.11.8` in `nvidia-cuda-cupti-cu11` 11.8.87, `.11.7` in 11.7.101; 11.0 –
        // 11.6 shipped only in toolkits, named the same way). Every 11.x name is listed so that a
        // copy the process already has is recognised (never a second CUPTI).
        sonames: &[
            Soname {
                name: c"libcupti.so.13",
                major: 13,
            },
            Soname {
                name: c"libcupti.so.12",
                major: 12,
            },
            Soname {
                name: c"libcupti.so.11.8",
                major: 11,
            },
            Soname {
                name: c"libcupti.so.11.7",
                major: 11,
            },
            Soname {
                name: c"libcupti.so.11.6",
                major: 11,
            },
            Soname {
                name: c"libcupti.so.11.5",
                major: 11,
            },
            Soname {
                name: c"libcupti.so.11.4",
                major: 11,
            },
            Soname {
                name: c"libcupti.so.11.3",
                major: 11,
            },
            Soname {
                name: c"libcupti.so.11.2",
                major: 11,
            },
            Soname {
                name: c"libcupti.so.11.1",
                major: 11,
            },
            Soname {
                name: c"libcupti.so.11.0",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_CUPTI_PATH",
        wheel_dirs: &[CU13_LIB, CUPTI_LIB],
        // `cuptiGetVersion(uint32_t *)` answers `CUPTI_API_VERSION`, CUPTI's own API version
        // (cupti_version.h's table): 13 is CUDA 11.0 and 18 11.8, 19 12.0 and 28 12.9 update 1;
        // from 13.0 `10000 * major + 100 * minor + update` of the toolkit (130401: 13.4 with
        // CUPTI update 1). CUPTI 13.x answers it only where it reaches a driver (without
        // `libcuda.so.1` every call, this one too, is CUPTI_ERROR_UNKNOWN): the soname's major
        // stands then.
        version: VersionProbe::OwnVersion {
            symbol: c"cuptiGetVersion",
            releases: &[
                Release {
                    first: 13,
                    major: 11,
                },
                Release {
                    first: 19,
                    major: 12,
                },
                Release {
                    first: 130000,
                    major: 13,
                },
            ],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // Every CUPTI links the runtime statically (`DT_NEEDED` is the C libraries only) and
        // `dlopen`s the driver itself; it traces the program's runtime and driver calls, so it
        // must be the process's release.
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels name the DLL after CUPTI's own release through 13.4
            // (`cupti64_2022.3.0.dll` in 11.8.87, `cupti64_2025.2.1.dll` in 12.9.79,
            // `cupti64_2026.3.1.dll` in 13.4.92), a new name every CUDA release, and from 13.5
            // after the major (`cupti64_13.dll` in 13.5.25). Each imports only the C and C++
            // runtimes and system DLLs: the CUDA runtime is linked statically.
            dlls: &[Soname {
                name: c"cupti64_13.dll",
                major: 13,
            }],
            wheel_dirs: &[CU13_BIN, c"nvidia/cuda_cupti/bin"],
            // A toolkit keeps CUPTI under `extras\CUPTI\lib64` (every Windows toolkit through
            // 13.x); `bin\x64` and `bin` hold the toolkit's other DLLs.
            toolkit_dirs: &[c"extras/CUPTI/lib64", c"bin/x64", c"bin"],
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: Some(&ReleaseNamed {
                prefix: "cupti64_",
                // CUPTI's first release of each major (the DLL names of NVIDIA's wheels and
                // toolkits): 2020.1.0 in CUDA 11.0, 2022.4.0 in 12.0 (2022.3.0 is 11.8's),
                // 2025.3.0 in 13.0 (2025.2.1 is 12.9 update 1's).
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
            }),
        }),
    },
    status_type: "CUptiResult",
    // CUPTI has no status for "library missing" or "function missing".
    errors: TypedErrors {
        // "CUPTI is unable to initialize its connection to the CUDA driver" (13.x adds: "or
        // could not dynamically load the nvperf* libraries"): what 11.8 and 12.9 answer
        // `cuptiActivityEnable` and `cuptiSubscribe` on a machine without a driver, so a
        // program treats a missing CUPTI as a machine without CUDA. (13.4 answers 999,
        // CUPTI_ERROR_UNKNOWN, there.)
        no_library: StatusCode {
            name: "CUPTI_ERROR_NOT_INITIALIZED",
            value: 15,
        },
        // "API is not implemented": literally a function the loaded CUPTI lacks (11.8 has no
        // range profiler, 13.x no `cuptiEnableNonOverlappingMode`), or one whose structures the
        // loaded major lays out otherwise.
        absent: StatusCode {
            name: "CUPTI_ERROR_API_NOT_IMPLEMENTED",
            value: 11,
        },
    },
    crate_name: "stubs-cupti",
    header: "cupti.h",
    header_version: HeaderVersion::MajorMinor,
    // The headers of libcupti's own exports that cupti.h does not include (13.x's includes the
    // event and metric APIs only through cupti_activity.h, which includes the OpenACC and OpenMP
    // ones only under `CUPTI_DIRECTIVE_SUPPORT`). Not cupti_checkpoint.h
    // (libcheckpoint.so), cupti_pcsampling_util.h (libpcsamplingutil.so) or nvperf_*.h
    // (libnvperf_host.so, libnvperf_target.so): other libraries of the wheel. The profiler
    // host, range profiler, PM sampling and SASS metrics APIs are 12.x's (12.5, 12.6): 11.8
    // reads empty shims of them.
    interop_headers: &[
        "cupti_target.h",
        "cupti_profiler_target.h",
        "cupti_pcsampling.h",
        "cupti_sass_metrics.h",
        "cupti_pmsampling.h",
        "cupti_profiler_host.h",
        "cupti_range_profiler.h",
        "Openacc/cupti_openacc.h",
        "Openmp/cupti_openmp.h",
    ],
    functions: "cupti.*",
    extra_types: "CUptiResult",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // `cuptiGetResultString` answers the enumerator's name (11.8, 12.9: `CUPTI_ERROR_NOT_INITIALIZED`),
    // `cuptiGetErrorMessage` (12.x) its description; both CUPTI_ERROR_INVALID_PARAMETER and
    // `<unknown>` written for a code CUPTI does not define.
    error_texts: &[
        ErrorText {
            function: "cuptiGetResultString",
            text: TextKind::Name,
            abi: TextAbi::OutParam {
                unknown: INVALID_PARAMETER,
            },
        },
        ErrorText {
            function: "cuptiGetErrorMessage",
            text: TextKind::Description,
            abi: TextAbi::OutParam {
                unknown: INVALID_PARAMETER,
            },
        },
    ],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The libcupti file and the include folder only (`Unpack::LibraryAndHeaders`: 2.3 of the
    // 10.8 – 13.1 MB of each wheel): the profiling host libraries beside it (libnvperf_host
    // 26 – 37 MB, libnvperf_target, libpcsamplingutil, libcheckpoint) are never loaded here.
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-cuda-cupti-cu11==11.8.87",
            lib_dir: CUPTI_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cuda-cupti-cu12==12.9.79",
            lib_dir: CUPTI_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cuda-cupti==13.4.92",
            lib_dir: CU13_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "CUPTI (libcupti)",
        cmake_target: "cupti",
        toolkit_targets: &["cupti", "cupti_static"],
        link_names: &[LinkName::Shared("cupti"), LinkName::Static("cupti_static")],
        compat_majors: &[],
    },
};

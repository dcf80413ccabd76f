//! cuFFTMp, libcufftMp (`cufftMp.h`, with the wheel's own `cufft.h`, `cufftXt.h`; CUDA 12.x and
//! 13.x): NVIDIA's multi-process FFTs over NVSHMEM. A program links it instead of libcufft: it
//! exports cuFFT's host API (not 13.x's `cufft_device.h` functions) and the `cufftMp*` calls.
//! Its soname takes cuFFT's numbers (`libcufftMp.so.11` in 12.x, `.12` in 13.x); it links the
//! runtime statically and needs NVSHMEM's host library (`DT_NEEDED libnvshmem_host.so.3`), which
//! its `RPATH $ORIGIN/../../../nvshmem/lib` finds in NVSHMEM's wheel folder of a
//! `site-packages`. No CUDA 11 build; no Windows build.

use super::cudart::CUDART;
use super::cufft::CUFFT;
use crate::{
    BesideFile, DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Release, Soname, StatusCode, TestWheel, TypedErrors, Unpack,
    VersionProbe, VersionedNames,
};
use core::ffi::CStr;

/// Where `nvidia-cufftmp-cu12` puts it.
const CUFFTMP_12_LIB: &CStr = c"nvidia/cufftmp/cu12/lib";

/// Where `nvidia-cufftmp-cu13` puts it (beside a `libcufftw.so.12` built over it).
const CUFFTMP_13_LIB: &CStr = c"nvidia/cufftmp/cu13/lib";

/// NVSHMEM's host library, where `nvidia-nvshmem-cu12` and `-cu13` put it: libcufftMp cannot
/// be loaded without it (its only `DT_NEEDED` beside the C runtime). NVSHMEM has no spec
/// (`docs/src/wheel-libraries.md`), so the tests take this file of its wheel beside cuFFTMp's.
const NVSHMEM_HOST: &CStr = c"nvidia/nvshmem/lib/libnvshmem_host.so.3";

/// cuFFTMp.
pub const CUFFTMP: Library = Library {
    kind: LibraryKind::CufftMp,
    real: &RealLibrary {
        name: "cufftmp",
        // Verified in NVIDIA's wheels 11.4.0.6.post1 (12.x) and 12.1.3.2 (13.x).
        sonames: &[
            Soname {
                name: c"libcufftMp.so.12",
                major: 13,
            },
            Soname {
                name: c"libcufftMp.so.11",
                major: 12,
            },
        ],
        env_path: c"CUDA_STUBS_CUFFTMP_PATH",
        wheel_dirs: &[CUFFTMP_13_LIB, CUFFTMP_12_LIB],
        // cuFFT's version function and numbers (`cufftGetVersion` 11400 and 12103 in the
        // wheels above; the header's `CUFFT_VERSION`, which `cufftMp.h` requires of its
        // `cufft.h`): cuFFT's table of each major's first release.
        version: VersionProbe::OwnVersion {
            symbol: c"cufftGetVersion",
            releases: &[
                Release {
                    first: 11000,
                    major: 12,
                },
                Release {
                    first: 12000,
                    major: 13,
                },
            ],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // Its runtime is static, but it must be the process's release; and the process must
        // not hold a libcufft of another major (the same API, the same release rule).
        same_release_as: &[CUDART.real, CUFFT.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        // NVIDIA publishes no win_amd64 wheel of cuFFTMp.
        windows: None,
    },
    status_type: "cufftResult",
    // cuFFT's codes and choices: cuFFTMp has no code for "library missing" or "function
    // missing" either. Without a GPU the real library answers 5 (CUFFT_INTERNAL_ERROR) to
    // `cufftCreate` and 1 (CUFFT_INVALID_PLAN) to `cufftMpAttachComm` on that handle, in both
    // majors: neither is one of these.
    errors: TypedErrors {
        // "The cuFFT library failed to initialize": what a missing library is.
        no_library: StatusCode {
            name: "CUFFT_SETUP_FAILED",
            value: 7,
        },
        // As the runtime's and the driver's "not supported".
        absent: StatusCode {
            name: "CUFFT_NOT_SUPPORTED",
            value: 16,
        },
    },
    crate_name: "stubs-cufftmp",
    // Includes the wheel's own `cufftXt.h`, `cudalibxt.h` and `cufft.h` (by `#include "…"`: the
    // siblings, whose `CUFFT_VERSION` it checks). C++ in two places (`nullptr` and non-static
    // `inline` helpers): read after its C prelude, `codegen/shim-include/c-prelude/cufftMp.h`.
    header: "cufftMp.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cufft.*|__cufft.*",
    extra_types: "cufftResult|cufftHandle|cufftType|cufftMpCommType|cufftReshapeHandle",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    // `cufftMp.h` binds `cufftMpMakeReshape` to `__cufftMpMakeReshape_11_4` (both majors) and
    // 12.x's `cufftXt.h` `cufftXtSetJITCallback` to `__cufftXtSetJITCallback_12_7`, each
    // through a static inline wrapper; the plain names are exported too.
    versioned_names: Some(VersionedNames { prefix: "__" }),
    proc_address: None,
    // The library is nearly its whole wheel (318 of 319 MB, 299 of 300 MB unpacked): reading it
    // saves little download but keeps no wheel in the cache; NVSHMEM's host library (191 MB of
    // a 281 MB wheel in 12.x, 49 of 182 MB in 13.x) is read off its wheel the same way.
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "nvidia-cufftmp-cu12==11.4.0.6.post1",
            lib_dir: CUFFTMP_12_LIB,
            unpack: Unpack::LibraryAndHeadersBeside(&[BesideFile {
                requirement: "nvidia-nvshmem-cu12==3.8.0",
                path: NVSHMEM_HOST,
            }]),
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cufftmp-cu13==12.1.3.2",
            lib_dir: CUFFTMP_13_LIB,
            unpack: Unpack::LibraryAndHeadersBeside(&[BesideFile {
                requirement: "nvidia-nvshmem-cu13==3.8.0",
                path: NVSHMEM_HOST,
            }]),
        },
    ],
    packaging: Packaging {
        stands_for: "cuFFTMp (libcufftMp)",
        cmake_target: "cufftmp",
        // FindCUDAToolkit has no cuFFTMp target (it ships in the HPC SDK and its own wheels):
        // the link name is what the switch rewrites.
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("cufftMp")],
        compat_majors: &[],
    },
};

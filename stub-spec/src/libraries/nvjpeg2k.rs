//! nvJPEG2000, libnvjpeg2k (`nvjpeg2k.h`): NVIDIA's GPU JPEG 2000 decoder and encoder, versioned
//! on its own. NVIDIA's wheels `nvidia-nvjpeg2k-cu11` 0.9.0.43, `-cu12` and `-cu13` 0.11.0.51
//! put `libnvjpeg2k.so.0` in `nvidia/nvjpeg2k/lib` for every major: one soname, and the same
//! version in two majors (`nvjpeg2kGetProperty`: 0.11.0 in both). Every build links the
//! runtime statically (`DT_NEEDED`: the C library, `librt`, `libpthread`, `libdl`, `libm`,
//! `libgcc_s`; RUNPATH `$ORIGIN`); `nvjpeg2kGetCudartProperty` answers the runtime it was built
//! with (11.8, 12.9, 13.x), which is how the stub learns its release.
//! On Windows (`win_amd64` wheels of the same versions): `nvidia/nvjpeg2k/bin/nvjpeg2k_0.dll`,
//! one name for every major.

use super::cudart::CUDART;
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
    WindowsDlls,
};
use core::ffi::CStr;

/// Where every major's wheel (`nvidia-nvjpeg2k-cu11`, `-cu12`, `-cu13`) puts it.
const NVJPEG2K_LIB: &CStr = c"nvidia/nvjpeg2k/lib";

/// nvJPEG2000.
pub const NVJPEG2K: Library = Library {
    kind: LibraryKind::NvJpeg2k,
    real: &RealLibrary {
        name: "nvjpeg2k",
        // One soname for every major (0.9.0.43 / 0.11.0.51 / 0.11.0.51): major 0, the runtime
        // version it reports says which.
        sonames: &[Soname {
            name: c"libnvjpeg2k.so.0",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_NVJPEG2K_PATH",
        wheel_dirs: &[NVJPEG2K_LIB],
        // `nvjpeg2kStatus_t nvjpeg2kGetCudartProperty(libraryPropertyType, int *)`: the CUDA
        // runtime nvJPEG2000 was built with, recorded as `1000 * major + 10 * minor`; needs no
        // handle and no GPU. (`nvjpeg2kGetProperty`, the same ABI, answers nvJPEG2000's own
        // version, 0.11.0 in two majors.)
        version: VersionProbe::Property {
            symbol: c"nvjpeg2kGetCudartProperty",
            releases: &[],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // It links the runtime statically and works on the program's device memory and
        // streams: the process's release. Nothing in its `DT_NEEDED` says it before `dlopen`;
        // its runtime version does once loaded (a copy of another release stays mapped, never
        // called).
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels of the same versions: one name for every major, as on
            // Linux; each links the runtime statically.
            dlls: &[Soname {
                name: c"nvjpeg2k_0.dll",
                major: 0,
            }],
            wheel_dirs: &[c"nvidia/nvjpeg2k/bin"],
            // Not part of the CUDA toolkit (a download of its own): the wheels, conda's
            // `Library\bin`, the safe DLL search.
            toolkit_dirs: &[],
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "nvjpeg2kStatus_t",
    // nvJPEG2000 has no code for "library missing" or "function missing".
    errors: TypedErrors {
        // "The library handle was not initialized": a missing library is told from a machine
        // without CUDA (the real handle creation's answer, which the test prints) by the status
        // export; nvJPEG's choice of 6 would read as a failed device task.
        no_library: StatusCode {
            name: "NVJPEG2K_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // "API is not supported by the backend": literally a call the loaded version cannot
        // make (0.11 dropped 0.9's `nvjpeg2kEncodeParamsSetQuality`).
        absent: StatusCode {
            name: "NVJPEG2K_STATUS_IMPLEMENTATION_NOT_SUPPORTED",
            value: 9,
        },
    },
    crate_name: "stubs-nvjpeg2k",
    header: "nvjpeg2k.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "nvjpeg2k.*",
    extra_types: "nvjpeg2kStatus_t|nvjpeg2kHandle_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // nvJPEG2000 has no error-text function.
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The newest of each major: whole wheels of 5.6, 9.3 and 4.3 MB (x86-64), the library, its
    // headers and a license.
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-nvjpeg2k-cu11==0.9.0.43",
            lib_dir: NVJPEG2K_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-nvjpeg2k-cu12==0.11.0.51",
            lib_dir: NVJPEG2K_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-nvjpeg2k-cu13==0.11.0.51",
            lib_dir: NVJPEG2K_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "nvJPEG2000 (libnvjpeg2k)",
        cmake_target: "nvjpeg2k",
        // FindCUDAToolkit has no nvJPEG2000 target (it ships apart from the toolkit; its own
        // CMake package names `nvjpeg2k` and `nvjpeg2k_static`).
        toolkit_targets: &[],
        link_names: &[
            LinkName::Shared("nvjpeg2k"),
            LinkName::Static("nvjpeg2k_static"),
        ],
        compat_majors: &[],
    },
};

//! nvTIFF, libnvtiff (`nvtiff.h`): NVIDIA's GPU TIFF decoder and encoder, versioned on its own.
//! NVIDIA's wheels `nvidia-nvtiff-cu12` and `-cu13` 0.8.0.82 put `libnvtiff.so.0` in
//! `nvidia/nvtiff/lib`: one soname, and the same version in both (`nvtiffGetProperty`: 0.8.0).
//! Every build links the runtime statically (`DT_NEEDED`: the C library, `librt`, `libpthread`,
//! `libdl`, `libm`, `libgcc_s`); it `dlopen`s its codecs itself when a TIFF needs them
//! (`libnvjpeg.so.<major>`, `libnvcomp.so.5`, `libnvjpeg2k.so.0`, by RUNPATH
//! `$ORIGIN/../../cu<major>/lib`, `$ORIGIN/../../nvjpeg/lib` …, answering
//! `NVTIFF_STATUS_NVJPEG_NOT_FOUND` & co. without them). No version function says its release:
//! the PTX of its device code does (ISA 8.8 in the cu12 build, 9.3 in the cu13 one,
//! [`VersionProbe::DeviceCode`]).
//! CUDA 11's `nvidia-nvtiff-cu11` 0.5.1.75 is another API (0.6 renamed the stream calls,
//! `nvtiffStreamCreate`/`Parse` → `nvtiffStreamOpen`, and removed `nvTiffEncode*`) without
//! `nvtiffGetProperty`, which the probe needs: not a test wheel, bound at version 0 (release
//! unknown) if found.
//! On Windows (`win_amd64` wheels of the same versions): `nvidia/nvtiff/bin/nvtiff_0.dll`, one
//! name for every major.

use super::cudart::CUDART;
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Release, Soname, StatusCode, TestWheel, TypedErrors, Unpack,
    VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where every major's wheel (`nvidia-nvtiff-cu11`, `-cu12`, `-cu13`) puts it.
const NVTIFF_LIB: &CStr = c"nvidia/nvtiff/lib";

/// nvTIFF.
pub const NVTIFF: Library = Library {
    kind: LibraryKind::NvTiff,
    real: &RealLibrary {
        name: "nvtiff",
        // One soname for every major (0.8.0.82 of cu12 and cu13): major 0, the device code
        // says which.
        sonames: &[Soname {
            name: c"libnvtiff.so.0",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_NVTIFF_PATH",
        wheel_dirs: &[NVTIFF_LIB],
        // `nvtiffGetProperty` answers nvTIFF's own version (0, 8, 0 in both majors), which
        // cannot say the release; the PTX its `nvcc` wrote can: ISA 8.8 in the cu12 build (CUDA
        // 12.9), 9.3 in the cu13 one (13.3); each major's first ISA is 7.0 (CUDA 11.0), 8.0
        // (12.0), 9.0 (13.0).
        version: VersionProbe::DeviceCode {
            property: c"nvtiffGetProperty",
            releases: &[
                Release {
                    first: 70,
                    major: 11,
                },
                Release {
                    first: 80,
                    major: 12,
                },
                Release {
                    first: 90,
                    major: 13,
                },
            ],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // It links the runtime statically and works on the program's device memory and
        // streams: the process's release. Nothing in its `DT_NEEDED` says it before `dlopen`;
        // its device code does once loaded (a copy of another release stays mapped, never
        // called).
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels of the same versions: one name for every major, as on
            // Linux; the device code, read from the PE file's `.nv_fatb`, says which.
            dlls: &[Soname {
                name: c"nvtiff_0.dll",
                major: 0,
            }],
            wheel_dirs: &[c"nvidia/nvtiff/bin"],
            // Not part of the CUDA toolkit (a download of its own): the wheels, conda's
            // `Library\bin`, the safe DLL search.
            toolkit_dirs: &[],
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "nvtiffStatus_t",
    // nvTIFF has no code for "library missing" or "function missing".
    errors: TypedErrors {
        // "The library handle was not initialized": nvJPEG2000's choice; a missing library is
        // told from a machine without CUDA (the real decoder creation's answer, which the test
        // prints) by the status export.
        no_library: StatusCode {
            name: "NVTIFF_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // nvTIFF has no "not supported" code for a call: "not supported by the nvTIFF
        // library" of a TIFF stream is the nearest, and never the answer to a correct call
        // on a supported file (its `NVTIFF_STATUS_INTERNAL_ERROR`, 8, is what the real
        // `nvtiffDecoderCreateSimple` answers without a GPU).
        absent: StatusCode {
            name: "NVTIFF_STATUS_TIFF_NOT_SUPPORTED",
            value: 4,
        },
    },
    crate_name: "stubs-nvtiff",
    header: "nvtiff.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "nvtiff.*",
    extra_types: "nvtiffStatus_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // nvTIFF has no error-text function.
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // 0.8.0.82 of both majors: whole wheels of 4.3 and 2.4 MB (x86-64), the library, its
    // headers and a license.
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "nvidia-nvtiff-cu12==0.8.0.82",
            lib_dir: NVTIFF_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-nvtiff-cu13==0.8.0.82",
            lib_dir: NVTIFF_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "nvTIFF (libnvtiff)",
        cmake_target: "nvtiff",
        // FindCUDAToolkit has no nvTIFF target (it ships apart from the toolkit; its own CMake
        // package names `nvtiff` and `nvtiff_static`).
        toolkit_targets: &[],
        link_names: &[
            LinkName::Shared("nvtiff"),
            LinkName::Static("nvtiff_static"),
        ],
        compat_majors: &[],
    },
};

//! nvJPEG, libnvjpeg (`nvjpeg.h`, CUDA 11.8, 12.x, 13.x): NVIDIA's GPU JPEG decoder and encoder.
//! Its soname says its major (`libnvjpeg.so.11` / `.12` / `.13`) and so does its version:
//! nvJPEG's own major is CUDA's (11.9, 12.4, 13.2 in NVIDIA's wheels), the runtime it was built
//! with is `nvjpegGetCudartProperty`'s (11.8, 12.9, 13.4). Every NVIDIA build links the runtime
//! statically (`DT_NEEDED`: the C library, `librt`, `libpthread`, `libdl`, `libm`,
//! `libgcc_s`); the device memory and streams a program hands it are its runtime's.

use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
    WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-nvjpeg-cu11`, `-cu12`) put it.
const NVJPEG_LIB: &CStr = c"nvidia/nvjpeg/lib";

/// nvJPEG.
pub const NVJPEG: Library = Library {
    kind: LibraryKind::NvJpeg,
    real: &RealLibrary {
        name: "nvjpeg",
        sonames: &[
            Soname {
                name: c"libnvjpeg.so.13",
                major: 13,
            },
            Soname {
                name: c"libnvjpeg.so.12",
                major: 12,
            },
            Soname {
                name: c"libnvjpeg.so.11",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_NVJPEG_PATH",
        wheel_dirs: &[CU13_LIB, NVJPEG_LIB],
        // `nvjpegStatus_t nvjpegGetCudartProperty(libraryPropertyType, int *)`: the CUDA runtime
        // nvJPEG was built with (11.8, 12.9 and 13.4 in the wheels 11.9.0.86, 12.4.0.76,
        // 13.2.3.58), recorded as `1000 * major + 10 * minor` like the other libraries' CUDA
        // versions; `nvjpegGetProperty`, the same ABI, answers nvJPEG's own (11.9, 12.4, 13.2),
        // whose major is the same.
        version: VersionProbe::Property {
            symbol: c"nvjpegGetCudartProperty",
            releases: &[],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // It links the runtime statically, and works on the program's device memory and
        // streams: the process's release (its soname says its major before `dlopen`).
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 11.9.0.86, 12.4.0.76, 13.2.3.58: the name says the
            // major, as the soname does; each links the runtime statically (it imports no CUDA
            // DLL).
            dlls: &[
                Soname {
                    name: c"nvjpeg64_13.dll",
                    major: 13,
                },
                Soname {
                    name: c"nvjpeg64_12.dll",
                    major: 12,
                },
                Soname {
                    name: c"nvjpeg64_11.dll",
                    major: 11,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/nvjpeg/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "nvjpegStatus_t",
    // nvJPEG has no code for "library missing" or "function missing".
    errors: TypedErrors {
        // What the real library answers when CUDA cannot be set up (no driver, no GPU:
        // `nvjpegCreateSimple`, `nvjpegCreateEx` and `nvjpegCreate` answer it in all three
        // wheels): a program treats a missing nvJPEG as it treats a machine without CUDA.
        no_library: StatusCode {
            name: "NVJPEG_STATUS_EXECUTION_FAILED",
            value: 6,
        },
        // "Implementation not supported": literally a call the loaded version cannot make
        // (13.x's `nvjpegEncoderParamsCopyHuffmanTables` is gone, 11.x lacks 12.x's
        // `nvjpegEncode`).
        absent: StatusCode {
            name: "NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED",
            value: 9,
        },
    },
    crate_name: "stubs-nvjpeg",
    header: "nvjpeg.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "nvjpeg.*",
    extra_types: "nvjpegStatus_t|nvjpegHandle_t|nvjpegDevAllocator_t|nvjpegPinnedAllocator_t|nvjpegDevAllocatorV2_t|nvjpegPinnedAllocatorV2_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // nvJPEG has no error-text function.
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // Whole wheels: 2.7, 5.3 and 4.1 MB (x86-64), the library and its header.
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-nvjpeg-cu11==11.9.0.86",
            lib_dir: NVJPEG_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-nvjpeg-cu12==12.4.0.76",
            lib_dir: NVJPEG_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-nvjpeg==13.2.3.58",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "nvJPEG (libnvjpeg)",
        cmake_target: "nvjpeg",
        toolkit_targets: &["nvjpeg", "nvjpeg_static"],
        link_names: &[
            LinkName::Shared("nvjpeg"),
            LinkName::Static("nvjpeg_static"),
        ],
        compat_majors: &[],
    },
};

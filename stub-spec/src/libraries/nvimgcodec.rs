//! nvImageCodec, libnvimgcodec (`nvimgcodec.h`): NVIDIA's image codec library (a C API over
//! codec extensions: nvJPEG, nvJPEG2000, nvTIFF, libjpeg-turbo, libtiff, OpenCV …), versioned on
//! its own. NVIDIA's wheels `nvidia-nvimgcodec-cu11` 0.6.1.37, `-cu12` and `-cu13` 0.9.0.20 put
//! `libnvimgcodec.so.0` in the package folder itself, `nvidia/nvimgcodec` (no `lib` folder),
//! beside `include/` and `extensions/`: one soname for every major, and the same version in two
//! (0.9.0). Every build links the runtime statically (`DT_NEEDED`: the C and C++ libraries;
//! RUNPATH `$ORIGIN` and the wheels of nvJPEG, nvJPEG2000, nvTIFF, nvCOMP, which its
//! extensions load); `nvimgcodecGetProperties` says the runtime it was built with
//! (`cudart_version` 11080, 12090, 13030). Its extensions (`extensions/lib*_ext.so.0.*`) are
//! plug-ins libnvimgcodec loads itself from its own folder: not stubbed.
//! On Windows (`win_amd64` wheels of the same versions): `nvidia/nvimgcodec/nvimgcodec_0.dll`,
//! one name for every major.

use super::cudart::CUDART;
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
    WindowsDlls,
};
use core::ffi::CStr;

/// Where every major's wheel (`nvidia-nvimgcodec-cu11`, `-cu12`, `-cu13`) puts it: the package
/// folder, beside `include`.
const NVIMGCODEC_DIR: &CStr = c"nvidia/nvimgcodec";

/// nvImageCodec.
pub const NVIMGCODEC: Library = Library {
    kind: LibraryKind::NvImgCodec,
    real: &RealLibrary {
        name: "nvimgcodec",
        // One soname for every major (0.6.1.37 / 0.9.0.20 / 0.9.0.20): major 0, the runtime
        // version it reports says which.
        sonames: &[Soname {
            name: c"libnvimgcodec.so.0",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_NVIMGCODEC_PATH",
        wheel_dirs: &[NVIMGCODEC_DIR],
        // `nvimgcodecStatus_t nvimgcodecGetProperties(nvimgcodecProperties_t *)`: a
        // self-describing struct (`struct_type` NVIMGCODEC_STRUCTURE_TYPE_PROPERTIES, 1 in 0.6
        // and 0.9; `struct_size`; `struct_next`), then `uint32_t version; uint32_t
        // cudart_version;`, the runtime it was built with; needs no device and no instance.
        version: VersionProbe::CudartInProperties {
            symbol: c"nvimgcodecGetProperties",
            struct_type: Some(1),
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // It links the runtime statically and works on the program's device memory and
        // streams: the process's release. Nothing in its `DT_NEEDED` says it before `dlopen`;
        // its runtime version does once loaded (a copy of another release stays mapped, never
        // called).
        same_release_as: &[CUDART.real],
        // Its GPU codecs need a device: its runtime loads the driver at the first call that
        // needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels of the same versions: one name for every major, in the
            // package folder as on Linux; each links the runtime statically.
            dlls: &[Soname {
                name: c"nvimgcodec_0.dll",
                major: 0,
            }],
            wheel_dirs: &[NVIMGCODEC_DIR],
            // Not part of the CUDA toolkit (a download of its own): the wheels, the safe DLL
            // search.
            toolkit_dirs: &[],
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "nvimgcodecStatus_t",
    // nvImageCodec has no code for "library missing" or "function missing".
    errors: TypedErrors {
        // "Not initialized": a missing library is told from the real library's answers on a
        // machine without CUDA (which the test prints) by the status export;
        // `NVIMGCODEC_STATUS_MISSED_DEPENDENCIES` is what the real library answers when an
        // extension's own library (nvJPEG …) is missing, which the program may test for.
        no_library: StatusCode {
            name: "NVIMGCODEC_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // "Implementation unsupported": literally a call the loaded version cannot make.
        absent: StatusCode {
            name: "NVIMGCODEC_STATUS_IMPLEMENTATION_UNSUPPORTED",
            value: 9,
        },
    },
    crate_name: "stubs-nvimgcodec",
    header: "nvimgcodec.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "nvimgcodec.*",
    extra_types: "nvimgcodecStatus_t|nvimgcodecProperties_t",
    // Its C API only: 0.6.1's file also defines 102 of the driver's entry points (`cuInit`,
    // `cuMemAlloc_v2` …: its own copies, which a stub exporting them would interpose on the
    // whole process) and the C++ runtime's `__cxa_init_primary_exception`.
    exports: ExportSource::WheelsWithPrefix(&["nvimgcodec"]),
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // nvImageCodec has no error-text function.
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The newest of each major. The tests need `libnvimgcodec.so.0` and `include/` only (not
    // the extensions nor the Python extension modules of the 28 / 32 / 25 MB wheels): read by
    // range requests.
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-nvimgcodec-cu11==0.6.1.37",
            lib_dir: NVIMGCODEC_DIR,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-nvimgcodec-cu12==0.9.0.20",
            lib_dir: NVIMGCODEC_DIR,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-nvimgcodec-cu13==0.9.0.20",
            lib_dir: NVIMGCODEC_DIR,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "nvImageCodec (libnvimgcodec)",
        cmake_target: "nvimgcodec",
        // FindCUDAToolkit has no nvImageCodec target (it ships apart from the toolkit).
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("nvimgcodec")],
        compat_majors: &[],
    },
};

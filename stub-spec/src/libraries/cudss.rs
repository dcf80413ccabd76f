//! cuDSS, libcudss (`cudss.h`, `cudss_data_types.h`): NVIDIA's direct sparse solver, versioned
//! on its own. NVIDIA's wheels `nvidia-cudss-cu12` and `-cu13` 1.0.0.35 put `libcudss.so.1` in
//! `nvidia/cu12/lib` and `nvidia/cu13/lib`: one soname for both majors, and
//! `cudssGetProperty` answers 1.0.0 in both, so neither says the release. Three things do:
//! `DT_NEEDED` names the major's cuBLAS and NVRTC (`libcublas.so.12`, `libnvrtc.so.12` /
//! `.13`, found by RUNPATH `$ORIGIN/../../cublas/lib`, `$ORIGIN/../../cuda_nvrtc/lib`, or
//! `$ORIGIN` in CUDA 13's shared folder), which the one-release rule reads before `dlopen`;
//! and the PTX of its device code (ISA 8.8 in the cu12 build, 9.4 in the cu13 one), which
//! says it once loaded ([`VersionProbe::DeviceCode`]). The runtime is linked statically.
//! No CUDA 11 build (cuDSS 0.x had `-cu11` wheels up to 0.3; none of 1.x).
//! On Windows (`win_amd64` wheels of the same version): `nvidia/cu12/bin/cudss64_1.dll`,
//! `nvidia/cu13/bin/cudss64_1.dll`, one name for both majors.

use super::CU13_LIB;
use super::cublas::CUBLAS;
use super::cudart::CUDART;
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
    WindowsDlls,
};
use core::ffi::CStr;

/// Where `nvidia-cudss-cu12` 0.7 and later puts it: CUDA 12's shared folder (not a
/// `nvidia/cudss` package of its own, as before 0.7).
const CU12_LIB: &CStr = c"nvidia/cu12/lib";

/// cuDSS.
pub const CUDSS: Library = Library {
    kind: LibraryKind::Cudss,
    real: &RealLibrary {
        name: "cudss",
        // One soname for both majors (1.0.0.35 of cu12 and cu13): major 0, the `DT_NEEDED`
        // cuBLAS and the device code say which. 0.x was `libcudss.so.0`, another ABI, not
        // searched: 1.0 dropped `CUDSS_CONFIG_USE_MATCHING` from `cudssConfigParam_t` (so
        // every later parameter is renumbered, 0.7.1.6 against 1.0.0.35) and moved the types
        // to `cudss_data_types.h`; the soname says so, and a program built against 1.x's
        // header needs 1.x.
        sonames: &[Soname {
            name: c"libcudss.so.1",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUDSS_PATH",
        wheel_dirs: &[CU13_LIB, CU12_LIB],
        // `cudssGetProperty` answers cuDSS's own version (1, 0, 0 in both majors), which cannot
        // say the release; the cuBLAS it needs can (`DT_NEEDED libcublas.so.12` / `.13`), on
        // x86-64 and aarch64 alike: the PTX of its device code (ISA 8.8 / 9.4 on x86-64) is
        // absent from the aarch64 builds.
        version: VersionProbe::Needed {
            property: c"cudssGetProperty",
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // It needs its major's cuBLAS (`DT_NEEDED libcublas.so.12` / `.13`), which says the
        // release before `dlopen`: a cu12 cuDSS in a process of CUDA 13 (its runtime or its
        // cuBLAS) is refused by that name; the runtime it links statically works on the
        // program's streams and device memory.
        same_release_as: &[CUDART.real, CUBLAS.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 1.0.0.35: `cudss64_1.dll` in `nvidia/cu12/bin` and
            // `nvidia/cu13/bin`, one name for both majors (the device code, read from the PE
            // file's `.nv_fatb`, says which), importing its major's cuBLAS DLL.
            dlls: &[Soname {
                name: c"cudss64_1.dll",
                major: 0,
            }],
            wheel_dirs: &[c"nvidia/cu13/bin", c"nvidia/cu12/bin"],
            // Not part of the CUDA toolkit (a download of its own, whose folder the override
            // names): the wheels, conda's `Library\bin`, the safe DLL search.
            toolkit_dirs: &[],
            companion: None,
            lazy_dependency: None,
            // 301 and 165 MB, nearly all device code: the stub is run without a DLL only.
            fetched: false,
            release_named: None,
        }),
    },
    status_type: "cudssStatus_t",
    // cuDSS has no status for "library missing" or "function missing".
    errors: TypedErrors {
        // "not initialized": cuBLAS's and cuSOLVER's choice for the same case; what the real
        // `cudssCreate` answers without a GPU is its own (the test prints it), so a missing
        // library and a machine without CUDA are told apart by the status export.
        no_library: StatusCode {
            name: "CUDSS_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // "not supported": a function the loaded version lacks.
        absent: StatusCode {
            name: "CUDSS_STATUS_NOT_SUPPORTED",
            value: 4,
        },
    },
    crate_name: "stubs-cudss",
    header: "cudss.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cudss.*",
    extra_types: "cudssStatus_t|cudssHandle_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // cuDSS has no error-text function.
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // 1.0.0.35 of both majors. The tests need `libcudss.so.1` and `include/` only (not the
    // communication and threading layers): read by range requests, no wheel kept in the cache
    // (the library is nearly all of the 220 / 161 MB).
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "nvidia-cudss-cu12==1.0.0.35",
            lib_dir: CU12_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cudss-cu13==1.0.0.35",
            lib_dir: CU13_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "cuDSS (libcudss)",
        cmake_target: "cudss",
        // FindCUDAToolkit has no cuDSS target (cuDSS ships apart from the toolkit; its own
        // CMake package names `cudss` and `cudss_static`).
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("cudss"), LinkName::Static("cudss_static")],
        compat_majors: &[],
    },
};

//! cuFFTW, libcufftw (`cufftw.h`, CUDA 11.8, 12.x, 13.x): FFTW 3's API (`fftw_*` double,
//! `fftwf_*` single precision) over cuFFT. It ships in cuFFT's wheels, carries cuFFT's soname
//! major (`libcufftw.so.10` in 11.x, `.11` in 12.x, `.12` in 13.x), has no version function of
//! its own, and needs the cuFFT of its own release: `DT_NEEDED libcufft.so.<same major>`, found
//! beside it (`$ORIGIN` RUNPATH, RPATH in 13.x), and every call goes through cuFFT
//! (`cufftXtMakePlanGuru64`, `cufftXtExec` …).

use super::cudart::CUDART;
use super::cufft::CUFFT;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
    WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-cufft-cu11`, `-cu12`) put it, beside libcufft.
const CUFFT_LIB: &CStr = c"nvidia/cufft/lib";

/// cuFFTW.
pub const CUFFTW: Library = Library {
    kind: LibraryKind::Cufftw,
    real: &RealLibrary {
        name: "cufftw",
        // Verified in NVIDIA's wheels 10.9.0.58 (11.8), 11.4.1.4 (12.9), 12.5.0.14 (13.5):
        // cuFFT's own soname majors.
        sonames: &[
            Soname {
                name: c"libcufftw.so.12",
                major: 13,
            },
            Soname {
                name: c"libcufftw.so.11",
                major: 12,
            },
            Soname {
                name: c"libcufftw.so.10",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_CUFFTW_PATH",
        wheel_dirs: &[CU13_LIB, CUFFT_LIB],
        // No version function (FFTW's `fftw_version` string is not exported): the soname says
        // the major, as NPP's image libraries'.
        version: VersionProbe::Soname,
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // The runtime, and cuFFT, whose soname in its `DT_NEEDED` says its release before
        // `dlopen` (`libcufft.so.12`): a cuFFTW beside a cuFFT of another major is refused.
        same_release_as: &[CUDART.real, CUFFT.real],
        // Through cuFFT, which loads the driver at its first call that needs a device.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 10.9.0.58, 11.4.1.4, 12.5.0.14, beside cuFFT's DLL: the
            // name says the major, and each imports its major's `cufft64_<n>.dll` (the same
            // folder).
            dlls: &[
                Soname {
                    name: c"cufftw64_12.dll",
                    major: 13,
                },
                Soname {
                    name: c"cufftw64_11.dll",
                    major: 12,
                },
                Soname {
                    name: c"cufftw64_10.dll",
                    major: 11,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/cufft/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            // 0.2 to 0.3 MB each (cuFFT's own DLL, fetched for cuFFT's stub, is the large one).
            fetched: true,
            release_named: None,
        }),
    },
    // No cuFFTW function returns a status: the planners return a plan (NULL when FFTW cannot
    // plan), `fftw_execute` and the others return nothing, `fftw_import_wisdom_from_file` 1 or
    // 0. The stub's fallbacks are those "failed" values (NULL, 0); the status type is cuFFT's
    // (`cufftw.h` includes `cufft.h`), whose codes name the case in the status API's words.
    status_type: "cufftResult",
    errors: TypedErrors {
        // cuFFT's choice: "the cuFFT library failed to initialize".
        no_library: StatusCode {
            name: "CUFFT_SETUP_FAILED",
            value: 7,
        },
        // cuFFT's choice: its "not supported".
        absent: StatusCode {
            name: "CUFFT_NOT_SUPPORTED",
            value: 16,
        },
    },
    crate_name: "stubs-cufftw",
    header: "cufftw.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "fftwf?_.*",
    extra_types: "cufftResult|fftw_plan|fftwf_plan|fftw_iodim|fftw_iodim64",
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
    // cuFFT's wheels: libcufftw and the headers off the index; libcufft beside it comes with
    // cuFFT's own spec (the same wheel).
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-cufft-cu11==10.9.0.58",
            lib_dir: CUFFT_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cufft-cu12==11.4.1.4",
            lib_dir: CUFFT_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cufft==12.5.0.14",
            lib_dir: CU13_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "cuFFTW (libcufftw)",
        cmake_target: "cufftw",
        // FindCUDAToolkit's `CUDA::cufftw` and `CUDA::cufftw_static` (no callbacks in FFTW's
        // API: the shared library serves both).
        toolkit_targets: &["cufftw", "cufftw_static"],
        link_names: &[
            LinkName::Shared("cufftw"),
            LinkName::Static("cufftw_static"),
        ],
        compat_majors: &[],
    },
};

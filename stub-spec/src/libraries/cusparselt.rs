//! cuSPARSELt, libcusparseLt (`cusparseLt.h`; 0.8.1 of CUDA 12, 0.10.0 of CUDA 13): structured
//! sparse (2:4) matrix multiplication. One soname, `libcusparseLt.so.0`, for every major, and
//! cuSPARSELt's own versions overlap across them (0.8.0 and 0.8.1 are published for CUDA 12 and
//! for CUDA 13), every NVIDIA build links the runtime statically (`DT_NEEDED` is the C and C++
//! libraries only) and its `.rodata` names no CUDA release: the CUDA compiler that built its
//! device code does ([`VersionProbe::DeviceCode`]). No CUDA 11 wheel (`nvidia-cusparselt-cu11`
//! does not exist); Linux x86-64 and aarch64, and Windows (`cusparseLt.dll`,
//! `cusparseLt_13.dll`).

use super::CU13_LIB;
use super::cudart::CUDART;
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Release, Soname, StatusCode, TestWheel, TextAbi, TextKind,
    TypedErrors, Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where `nvidia-cusparselt-cu12` (every version) and `-cu13` up to 0.8.x put it; `-cu13`
/// 0.10.0 puts it in `nvidia/cu13/lib`, with CUDA 13's other libraries.
const CUSPARSELT_LIB: &CStr = c"nvidia/cusparselt/lib";

/// cuSPARSELt.
pub const CUSPARSELT: Library = Library {
    kind: LibraryKind::CusparseLt,
    real: &RealLibrary {
        name: "cusparselt",
        // One soname for every major (NVIDIA's wheels cu12 0.8.1, cu13 0.8.0 and 0.10.0): major
        // 0, the file's device code says which.
        sonames: &[Soname {
            name: c"libcusparseLt.so.0",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUSPARSELT_PATH",
        wheel_dirs: &[CU13_LIB, CUSPARSELT_LIB],
        // `cusparseLtGetProperty` answers cuSPARSELt's own version (0, 8, 1 / 0, 10, 0), which
        // cannot say the release: cu12 has 0.6.2 – 0.8.1 and cu13 0.8.0 – 0.10.0 (cu13's 0.8.x
        // in `nvidia/cusparselt/lib`, cu12's folder). Nor can
        // its `DT_NEEDED` (no runtime), `cusparseLtGetVersion` (the same number, and it needs an
        // initialized handle, so a GPU) or its `.rodata` (no version string). The PTX its
        // `nvcc` wrote can: ISA 8.8 in cu12 0.8.1 (CUDA 12.9), 9.0 in cu13 0.8.0 (13.0), 9.2 in
        // cu13 0.10.0 (13.2); each major's first ISA is 7.0 (CUDA 11.0), 8.0 (12.0), 9.0 (13.0).
        version: VersionProbe::DeviceCode {
            property: c"cusparseLtGetProperty",
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
        // Every NVIDIA build links the runtime statically: no `DT_NEEDED` says its release
        // before `dlopen`, its device code does once it is loaded (a copy of another release
        // stays mapped, never called, as 11.8's cuRAND). cuSPARSELt works on the program's
        // streams and device memory, so it must be the process's release.
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 0.8.1 (`nvidia/cusparselt/bin/cusparseLt.dll`, as
            // `-cu13` 0.8.x names it too) and 0.10.0 (`nvidia/cu13/bin/x64/cusparseLt_13.dll`:
            // `x64`, not the `x86_64` of CUDA 13's own wheels). The name says the release in
            // 0.10.0 only; the device code says it in both, read from the PE file's `.nv_fatb`
            // section as from the ELF file's `.nv_fatbin`.
            dlls: &[
                Soname {
                    name: c"cusparseLt_13.dll",
                    major: 13,
                },
                Soname {
                    name: c"cusparseLt.dll",
                    major: 0,
                },
            ],
            wheel_dirs: &[c"nvidia/cu13/bin/x64", c"nvidia/cusparselt/bin"],
            // Not part of the CUDA toolkit (a download of its own, whose folder the override
            // names): the wheels, conda's `Library\bin`, the safe DLL search.
            toolkit_dirs: &[],
            companion: None,
            lazy_dependency: None,
            // 226 and 155 MB compressed: the whole of each wheel.
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "cusparseStatus_t",
    // cuSPARSELt answers cuSPARSE's codes (`cusparseStatus_t`, from `cusparse.h`, or 0.10's
    // `cusparseLt_cusparse_stub.h` without it), none for "library missing" or "function
    // missing".
    errors: TypedErrors {
        // "initialization error": what the real `cusparseLtInit` answers without a GPU (0.8.1
        // and 0.10.0 alike), so a program treats a missing cuSPARSELt as a machine without CUDA.
        no_library: StatusCode {
            name: "CUSPARSE_STATUS_NOT_INITIALIZED",
            value: 1,
        },
        // "operation not supported", as cuSPARSE's stub answers.
        absent: StatusCode {
            name: "CUSPARSE_STATUS_NOT_SUPPORTED",
            value: 10,
        },
    },
    crate_name: "stubs-cusparselt",
    header: "cusparseLt.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cusparseLt.*",
    extra_types: "cusparseStatus_t|cusparseLtHandle_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[
        ErrorText {
            function: "cusparseLtGetErrorName",
            text: TextKind::Name,
            abi: TextAbi::Returned,
        },
        ErrorText {
            function: "cusparseLtGetErrorString",
            text: TextKind::Description,
            abi: TextAbi::Returned,
        },
    ],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The newest of each major's wheel; NVIDIA publishes none for CUDA 11. Each wheel holds the
    // library, `cusparseLt.h` (0.10.0 also `cusparseLt_cusparse_stub.h`) and a license only, so
    // reading the library and headers alone (`Unpack::LibraryAndHeaders`) would save a few KB of
    // the 239 MB / 170 MB (x86-64; 236 / 220 MB aarch64): pip's whole wheel, cached.
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "nvidia-cusparselt-cu12==0.8.1",
            lib_dir: CUSPARSELT_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cusparselt-cu13==0.10.0",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "cuSPARSELt (libcusparseLt)",
        cmake_target: "cusparselt",
        // FindCUDAToolkit has no cuSPARSELt target (cuSPARSELt ships apart from the toolkit):
        // projects link `cusparseLt` by name or `find_library`, which the link names switch.
        toolkit_targets: &[],
        link_names: &[
            LinkName::Shared("cusparseLt"),
            LinkName::Static("cusparseLt_static"),
        ],
        compat_majors: &[],
    },
};

//! nvCOMP, libnvcomp (`nvcomp.h` and the `nvcomp/*.h` it includes): NVIDIA's GPU compression
//! library, versioned on its own; the stub stands for its C API (the batched low-level API,
//! `nvcompBatched<Format>…`, and `nvcompGetProperties` / `nvcompGetStatusString`), not its
//! C++ classes (`nvcompManager`, Itanium-mangled) nor its native Bitcomp API
//! (`nvcomp/native/bitcomp.h`, whose `bitcompResult_t` codes are not `nvcompStatus_t`).
//!
//! NVIDIA's wheels: `nvidia-nvcomp-cu11` 5.0.0.6 puts `libnvcomp.so.5` in `nvidia/nvcomp` (its
//! last CUDA 11 release); from 6.0 the C library moved to `nvidia-libnvcomp-cu12` and `-cu13`
//! (6.0.0.12: `libnvcomp.so.6` in `nvidia/libnvcomp/lib64`, headers in
//! `nvidia/libnvcomp/include`), while `nvidia-nvcomp-cu12` / `-cu13` 6.x keep only the Python
//! extension. The soname is nvCOMP's own major, not CUDA's: 6.0 renamed the temp-size calls
//! (`nvcompBatchedLZ4CompressGetTempSizeAsync` → `…GetTempSize` with a stream) and grew the
//! option structs, so `.5` and `.6` are two ABIs. Every build links the runtime statically
//! (`DT_NEEDED`: the C and C++ libraries only), so nothing says the release before `dlopen`;
//! `nvcompGetProperties` does once loaded (`cudart_version` 11080, 12090, 13040).
//! On Windows (`win_amd64` wheels of the same versions): `nvidia/nvcomp/nvcomp64_5.dll` (cu11),
//! `nvidia/libnvcomp/bin/nvcomp64_6.dll` (cu12, cu13).

use super::cudart::CUDART;
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where `nvidia-libnvcomp-cu12` / `-cu13` (6.x) put `libnvcomp.so.6`.
const LIBNVCOMP_LIB: &CStr = c"nvidia/libnvcomp/lib64";

/// Where `nvidia-nvcomp-cu11` (and the `-cu12` / `-cu13` wheels of 5.x) put `libnvcomp.so.5`:
/// the package folder itself, beside `include`.
const NVCOMP_DIR: &CStr = c"nvidia/nvcomp";

/// nvCOMP.
pub const NVCOMP: Library = Library {
    kind: LibraryKind::NvComp,
    real: &RealLibrary {
        name: "nvcomp",
        // nvCOMP's own majors. 6.x is published for CUDA 12 and 13 (major 0: its
        // `cudart_version` says which); 5.x's ABI is the stub's CUDA 11 one (5.0.0.6's
        // header), so `.5` is searched for CUDA 11 only: the CUDA 12 / 13 builds of 5.x
        // (`nvidia-nvcomp-cu12` 5.x) have 5.x's prototypes, which the stub's CUDA 12 / 13
        // declarations (6.0's) are not, and are refused by their soname before `dlopen`.
        // 4.x (`libnvcomp.so.4`) is not searched: no test wheel, another ABI.
        sonames: &[
            Soname {
                name: c"libnvcomp.so.6",
                major: 0,
            },
            Soname {
                name: c"libnvcomp.so.5",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_NVCOMP_PATH",
        wheel_dirs: &[LIBNVCOMP_LIB, NVCOMP_DIR],
        // `nvcompStatus_t nvcompGetProperties(nvcompProperties_t *)`: `{uint32_t version;
        // uint32_t cudart_version;}`, the runtime it was built with; needs no device.
        version: VersionProbe::CudartInProperties {
            symbol: c"nvcompGetProperties",
            struct_type: None,
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // It links the runtime statically and works on the program's device memory and
        // streams: the process's release, which its `cudart_version` says once loaded (a copy
        // of another release stays mapped, never called).
        same_release_as: &[CUDART.real],
        // Needs a device: its runtime loads the driver at the first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels of the same versions: nvCOMP's major in the name, as
            // on Linux; each links the runtime statically.
            dlls: &[
                Soname {
                    name: c"nvcomp64_6.dll",
                    major: 0,
                },
                Soname {
                    name: c"nvcomp64_5.dll",
                    major: 11,
                },
            ],
            wheel_dirs: &[c"nvidia/libnvcomp/bin", NVCOMP_DIR],
            // Not part of the CUDA toolkit (a download of its own): the wheels, conda's
            // `Library\bin`, the safe DLL search.
            toolkit_dirs: &[],
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "nvcompStatus_t",
    // nvCOMP has no code for "library missing" or "function missing".
    errors: TypedErrors {
        // "An internal library error occurred": never the answer to a correct call, and not
        // `nvcompErrorCudaError` (1000), which the real library answers for a call that needs
        // the device a machine without CUDA lacks (the test prints it): the status export
        // tells a missing nvCOMP from that.
        no_library: StatusCode {
            name: "nvcompErrorInternal",
            value: 10000,
        },
        // "The requested operation or configuration is not supported": literally a call the
        // loaded version cannot make (6.0 renamed 5.x's `…GetTempSizeAsync` calls).
        absent: StatusCode {
            name: "nvcompErrorNotSupported",
            value: 11,
        },
    },
    crate_name: "stubs-nvcomp",
    header: "nvcomp.h",
    header_version: HeaderVersion::MajorMinor,
    // The batched API, one header per format: 6.0's `nvcomp.h` includes them, 5.0's does not.
    interop_headers: &[
        "nvcomp/ans.h",
        "nvcomp/bitcomp.h",
        "nvcomp/cascaded.h",
        "nvcomp/crc32.h",
        "nvcomp/deflate.h",
        "nvcomp/gdeflate.h",
        "nvcomp/gzip.h",
        "nvcomp/lz4.h",
        "nvcomp/snappy.h",
        "nvcomp/zstd.h",
    ],
    functions: "nvcomp.*",
    extra_types: "nvcompStatus_t|nvcompProperties_t",
    // Its C API only: the files also define the C++ runtime's `__cxa_call_terminate` (linked
    // statically) and the native Bitcomp API (`bitcomp*`, `bitcompResult_t`).
    exports: ExportSource::WheelsWithPrefix(&["nvcomp"]),
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // 6.x's `const char *nvcompGetStatusString(nvcompStatus_t)` (5.x has none).
    error_texts: &[ErrorText {
        function: "nvcompGetStatusString",
        text: TextKind::Description,
        abi: TextAbi::Returned,
    }],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The newest of each major. The tests need the library and `include/` only (not
    // `nvlzcat`, `libnvcomp_cpu.so.6`, the CMake files nor cu11's Python extensions): read by
    // range requests (the library is most of the 20 / 44 / 30 MB wheels).
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-nvcomp-cu11==5.0.0.6",
            lib_dir: NVCOMP_DIR,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-libnvcomp-cu12==6.0.0.12",
            lib_dir: LIBNVCOMP_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-libnvcomp-cu13==6.0.0.12",
            lib_dir: LIBNVCOMP_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "nvCOMP (libnvcomp)",
        cmake_target: "nvcomp",
        // FindCUDAToolkit has no nvCOMP target (it ships apart from the toolkit; its own CMake
        // package names `nvcomp::nvcomp` and `nvcomp::nvcomp_static`).
        toolkit_targets: &[],
        link_names: &[
            LinkName::Shared("nvcomp"),
            LinkName::Static("nvcomp_static"),
        ],
        compat_majors: &[],
    },
};

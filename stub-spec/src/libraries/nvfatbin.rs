//! nvFatbin, libnvfatbin (`nvFatbin.h`, CUDA 12.4 and later): builds a fatbinary (the
//! container `cuModuleLoadData` and the runtime load) from PTX, CUBIN, LTO-IR, relocatable and,
//! from 13.1, Tile IR inputs, at run time. No CUDA 11 build exists. Like nvJitLink it is a host
//! tool: it links no CUDA library (`DT_NEEDED`: the C library, `libm`, `libdl`, `libpthread`),
//! needs no GPU and its soname says its major.

use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 12.x wheel (`nvidia-nvfatbin-cu12`) puts it.
const NVFATBIN_LIB: &CStr = c"nvidia/nvfatbin/lib";

/// nvFatbin.
pub const NVFATBIN: Library = Library {
    kind: LibraryKind::NvFatbin,
    real: &RealLibrary {
        name: "nvfatbin",
        sonames: &[
            Soname {
                name: c"libnvfatbin.so.13",
                major: 13,
            },
            Soname {
                name: c"libnvfatbin.so.12",
                major: 12,
            },
        ],
        env_path: c"CUDA_STUBS_NVFATBIN_PATH",
        wheel_dirs: &[CU13_LIB, NVFATBIN_LIB],
        // `nvFatbinResult nvFatbinVersion(unsigned int *major, unsigned int *minor)`: the
        // nvJitLink ABI, CUDA's own version (12.9 and 13.4 in NVIDIA's wheels 12.9.82, 13.4.92).
        version: VersionProbe::MajorMinor(c"nvFatbinVersion"),
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // A host tool as NVRTC and nvJitLink, under no release rule: it shares nothing with the
        // process's runtime (no `DT_NEEDED` on it, no device memory, no streams); its output is
        // bytes, which a driver of the same or a newer major loads.
        same_release_as: &[],
        // Writes fatbinaries: never loads the driver (capped only by one the process has
        // loaded).
        driver: DriverUse::CompileOnly,
        mock: MockUse::Real,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels 12.9.82 and 13.4.92, named as nvJitLink's and NVRTC's
            // DLLs are (`<name>_<major>0_0.dll`); like them it imports no CUDA DLL.
            dlls: &[
                Soname {
                    name: c"nvfatbin_130_0.dll",
                    major: 13,
                },
                Soname {
                    name: c"nvfatbin_120_0.dll",
                    major: 12,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/nvfatbin/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "nvFatbinResult",
    // nvFatbin has no code for "library missing" or "function missing".
    errors: TypedErrors {
        // As NVRTC's and nvJitLink's stubs: the library's "internal error" (the tool is not
        // there). No call answers it for a correct input.
        no_library: StatusCode {
            name: "NVFATBIN_ERROR_INTERNAL",
            value: 1,
        },
        // What nvFatbin answers a request it does not know ("unknown option"): the case of an
        // input kind the loaded version lacks (`nvFatbinAddTileIR`, 13.1+, on 12.x).
        absent: StatusCode {
            name: "NVFATBIN_ERROR_UNRECOGNIZED_OPTION",
            value: 8,
        },
    },
    crate_name: "stubs-nvfatbin",
    header: "nvFatbin.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "nvFatbin.*",
    extra_types: "nvFatbinResult|nvFatbinHandle",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    // `const char *nvFatbinGetErrorString(nvFatbinResult)`: NVIDIA's answers NULL for
    // `NVFATBIN_SUCCESS` (12.9 and 13.4); the stub's never does.
    error_texts: &[ErrorText {
        function: "nvFatbinGetErrorString",
        text: TextKind::Description,
        abi: TextAbi::Returned,
    }],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // Whole wheels: 1 MB and 0.6 MB (x86-64), the library and its header.
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "nvidia-nvfatbin-cu12==12.9.82",
            lib_dir: NVFATBIN_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-nvfatbin==13.4.92",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "nvFatbin (libnvfatbin)",
        cmake_target: "nvfatbin",
        // FindCUDAToolkit's names from CMake 3.30 (CUDA 12.4+).
        toolkit_targets: &["nvfatbin", "nvfatbin_static"],
        link_names: &[
            LinkName::Shared("nvfatbin"),
            LinkName::Static("nvfatbin_static"),
        ],
        compat_majors: &[],
    },
};

//! libNVVM (`nvvm.h`, CUDA 11.8, 12.x, 13.x): NVIDIA's compiler of NVVM IR (LLVM IR of its own
//! dialect) to PTX, which Numba and Julia's CUDA.jl load. One soname in every major,
//! `libnvvm.so.4`, and no version function that says the release: `nvvmVersion` answers 1.9 in
//! 11.8 and 2.0 in both 12.9 and 13.5 (`nvvmIRVersion` 1.9 / 3.1, then 2.0 / 3.2 in both). The
//! file's build string does (`Cuda compilation tools, release 12.9, V12.9.86` in `.rodata`,
//! [`VersionProbe::BuiltForMajorMinor`]). NVIDIA's wheels: 11.x and 12.x ship it in the
//! compiler's wheel (`nvidia-cuda-nvcc-cu11`, `-cu12`) as `nvidia/cuda_nvcc/nvvm/lib64/libnvvm.so`,
//! a file name that is not its soname, 13.x in a wheel of its own (`nvidia-nvvm`) as
//! `nvidia/cu13/lib/libnvvm.so.4`; it links only the C library.

use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB};
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x compiler wheels (`nvidia-cuda-nvcc-cu11`, `-cu12`) put it, as a CUDA
/// toolkit does (`$CUDA_HOME/nvvm/lib64`).
const NVVM_LIB64: &CStr = c"nvidia/cuda_nvcc/nvvm/lib64";

/// Where the 11.x and 12.x compiler wheels put its DLL, as a Windows toolkit does
/// (`%CUDA_PATH%\nvvm\bin`).
const NVVM_BIN: &CStr = c"nvidia/cuda_nvcc/nvvm/bin";

/// The file name 11.x's and 12.x's wheels give it: the development name, no soname.
const UNVERSIONED: &CStr = c"libnvvm.so";

/// libNVVM.
pub const NVVM: Library = Library {
    kind: LibraryKind::Nvvm,
    real: &RealLibrary {
        name: "nvvm",
        sonames: &[
            // Every major's soname (major 0: the build string says which).
            Soname {
                name: c"libnvvm.so.4",
                major: 0,
            },
            // Not a soname: the only name the 11.x and 12.x wheels' `nvvm/lib64` has, tried in
            // each folder after the soname; it says no major either.
            Soname {
                name: UNVERSIONED,
                major: 0,
            },
        ],
        env_path: c"CUDA_STUBS_NVVM_PATH",
        wheel_dirs: &[CU13_LIB, NVVM_LIB64],
        // `nvvmVersion(int *major, int *minor)` for the log; the release from the build string.
        version: VersionProbe::BuiltForMajorMinor {
            symbol: c"nvvmVersion",
            marker: c"Cuda compilation tools, release ",
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // Its PTX is for the process's driver and runtime: 13.5's (PTX ISA 9.x) does not load on
        // a CUDA 12 stack, and 11.8's cannot take 12.x's IR. A copy of another release than the
        // process's runtime is refused once its build string is read (its `DT_NEEDED` names
        // nothing of CUDA's).
        same_release_as: &[CUDART.real],
        // A compiler: never loads the driver.
        driver: DriverUse::CompileOnly,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels (nvidia-cuda-nvcc-cu11 11.8.89, -cu12 12.9.86,
            // nvidia-nvvm 13.5.37): one name in every major, as the soname; the build string
            // in its `.rdata` says the release, as in the ELF file's `.rodata`. It imports
            // only Windows' own DLLs.
            dlls: &[Soname {
                name: c"nvvm64_40_0.dll",
                major: 0,
            }],
            wheel_dirs: &[CU13_BIN, NVVM_BIN],
            // A toolkit's `nvvm\bin` (`x64` below it as 13.x's `bin\x64`, in case).
            toolkit_dirs: &[c"nvvm/bin/x64", c"nvvm/bin"],
            companion: None,
            lazy_dependency: None,
            // 18, 54 and 63 MB, read off the index once: it compiles without a GPU, so the wine
            // test compiles a kernel through the stub and through NVIDIA's DLL.
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "nvvmResult",
    errors: TypedErrors {
        // "Program creation failure": what a program's first call, `nvvmCreateProgram`, can
        // answer, and what no call of a loaded libNVVM answers for a well-formed call.
        no_library: StatusCode {
            name: "NVVM_ERROR_PROGRAM_CREATION_FAILURE",
            value: 2,
        },
        // "Invalid input": a function the loaded version lacks (`nvvmLLVMVersion` before 13.x,
        // `nvvmDisableConcurrentAPI` in 11.8).
        absent: StatusCode {
            name: "NVVM_ERROR_INVALID_INPUT",
            value: 4,
        },
    },
    crate_name: "stubs-nvvm",
    header: "nvvm.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "nvvm.*",
    extra_types: "nvvmResult|nvvmProgram",
    exports: ExportSource::Wheels,
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[ErrorText {
        function: "nvvmGetErrorString",
        text: TextKind::Name,
        abi: TextAbi::Returned,
    }],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // Only libNVVM and its header, by range requests: the compiler wheels' bulk (nvcc, ptxas,
    // cicc) is no test's.
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-cuda-nvcc-cu11==11.8.89",
            lib_dir: NVVM_LIB64,
            unpack: Unpack::LibraryNamed(UNVERSIONED),
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cuda-nvcc-cu12==12.9.86",
            lib_dir: NVVM_LIB64,
            unpack: Unpack::LibraryNamed(UNVERSIONED),
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-nvvm==13.5.37",
            lib_dir: CU13_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "libNVVM (libnvvm)",
        cmake_target: "nvvm",
        // CMake 3.25's FindCUDAToolkit has no libNVVM target: projects link `nvvm` by name.
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("nvvm")],
        compat_majors: &[],
    },
};

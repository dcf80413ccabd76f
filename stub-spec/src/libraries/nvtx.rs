//! NVTX, libnvToolsExt (`nvToolsExt.h`, `nvToolsExtCuda.h`, `nvToolsExtCudaRt.h`,
//! `nvToolsExtOpenCL.h`, `nvToolsExtSync.h`: NVTX version 2, CUDA 11.x and 12.0 – 12.8): NVIDIA's
//! annotation API (markers, ranges, names of threads, devices, streams), which does nothing
//! unless a tool (Nsight Systems, CUPTI) is injected through `NVTX_INJECTION64_PATH`.
//!
//! `libnvToolsExt.so.1` is NVTX's own library, not a CUDA one: the same soname and the same 65
//! exports, with the same prototypes, in `nvidia-nvtx-cu11` 11.8.86 and `nvidia-nvtx-cu12`
//! 12.8.90 (NVTX 2's ABI has been frozen since CUDA 10: version 3 is header-only and calls
//! this library never). It links no CUDA library (`DT_NEEDED`: the C and C++ runtimes,
//! `libdl`, `librt`), never loads the driver and answers the same with or without a GPU. Its
//! last release is CUDA 12.8's: from `nvidia-nvtx-cu12` 12.9.19 and in every `nvidia-nvtx` 13.x
//! (13.0.39 … 13.5.25) the wheels ship NVTX 3's headers and `libnvtx3interop.so.1` (another
//! library: NVTX 3's entry points for languages that cannot compile its C headers) instead, and
//! CUDA 13's toolkit has no `libnvToolsExt` either. A CUDA 13 program uses NVTX 3, which needs
//! no library, so there is nothing of 13.x to stub; a program linked with `-lnvToolsExt` runs
//! on the stub with any CUDA release, bound to the 11.x or 12.x file wherever one is.

use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-nvtx-cu11`, `-cu12` up to 12.8.90) put it.
const NVTX_LIB: &CStr = c"nvidia/nvtx/lib";

/// NVTX's answer of a push or pop that no tool tracks (`nvToolsExt.h`: `#define
/// NVTX_NO_PUSH_POP_TRACKING ((int)-2)`): what NVIDIA's library answers without an injected tool
/// (measured on 11.8.86 and 12.8.90), so what the stub answers without the library.
const NO_PUSH_POP_TRACKING: StatusCode = StatusCode {
    name: "NVTX_NO_PUSH_POP_TRACKING",
    value: -2,
};

/// NVTX (version 2's library).
pub const NVTX: Library = Library {
    kind: LibraryKind::Nvtx,
    real: &RealLibrary {
        name: "nvtx",
        // One soname in every release that has the library (11.8.86 and 12.8.90 checked), and
        // no CUDA major in it: major 0.
        sonames: &[Soname {
            name: c"libnvToolsExt.so.1",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_NVTX_PATH",
        wheel_dirs: &[NVTX_LIB],
        // NVTX has no version function and its soname no CUDA major: every copy is bound with
        // version 0 ("CUDA release unknown"), which is the truth: NVTX's release is its own,
        // and its ABI is one (`Gating::Exact` then lets `dlsym` decide each name, every major
        // having the same prototypes).
        version: VersionProbe::Soname,
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // Shares nothing with the process's CUDA release: no `DT_NEEDED` on a CUDA library,
        // no device memory or streams (it names them, as numbers, for the tool).
        same_release_as: &[],
        // Never loads the driver (a tool injected into it may: that is the tool's business).
        driver: DriverUse::CompileOnly,
        // Needs no device: bound as without the mock, so a program's ranges still reach an
        // injected tool.
        mock: MockUse::Real,
        // NVIDIA's `win_amd64` wheels of NVTX (11.8.86, 12.8.90) ship NVTX 3's headers only,
        // no DLL (`nvToolsExt64_1.dll` came with the toolkit's own NVTX installer, up to CUDA
        // 11.x): nothing to fetch or test a Windows stub against.
        windows: None,
    },
    // NVTX has no status type: its calls return nothing, a handle (NULL without a tool), a
    // range id (0 without a tool) or, for the pushes and pops, an `int` nesting level, which
    // NVIDIA's library answers `NVTX_NO_PUSH_POP_TRACKING` (-2) without a tool. That `int` is
    // the status type here, so those six calls answer -2 without a library too, as NVIDIA's
    // library answers without a tool; a 0 would read as "pushed, nesting level 0". Pointers and
    // range ids answer their zero, as NVIDIA's library does without a tool.
    status_type: "::core::ffi::c_int",
    errors: TypedErrors {
        no_library: NO_PUSH_POP_TRACKING,
        // No supported library lacks a name (one export table); were one absent, "not
        // tracked" is still what a push or pop has to say.
        absent: NO_PUSH_POP_TRACKING,
    },
    crate_name: "stubs-nvtx",
    header: "nvToolsExt.h",
    header_version: HeaderVersion::MajorMinor,
    // What declares the rest of the 65 exports: `nvtxNameCu*` (cuda.h's handles),
    // `nvtxNameCuda*` (the runtime's), `nvtxNameCl*` (OpenCL's: codegen's `CL/cl.h` shim) and
    // `nvtxDomainSyncUser*`.
    interop_headers: &[
        "nvToolsExtCuda.h",
        "nvToolsExtCudaRt.h",
        "nvToolsExtOpenCL.h",
        "nvToolsExtSync.h",
    ],
    functions: "nvtx.*",
    extra_types: "nvtxRangeId_t|nvtxDomainHandle_t|nvtxEventAttributes_t",
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
    // Whole wheels: 99 KB and 90 KB (x86-64), the library and its headers.
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-nvtx-cu11==11.8.86",
            lib_dir: NVTX_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-nvtx-cu12==12.8.90",
            lib_dir: NVTX_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "NVTX (libnvToolsExt)",
        cmake_target: "nvtx",
        // FindCUDAToolkit's `CUDA::nvToolsExt` (CMake 3.17 – 4.x, for toolkits before 12.9).
        toolkit_targets: &["nvToolsExt"],
        link_names: &[LinkName::Shared("nvToolsExt")],
        compat_majors: &[],
    },
};

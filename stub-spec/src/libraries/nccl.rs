//! NCCL, libnccl (`nccl.h`, and `nccl_device/host.h` from NCCL 2.28): NVIDIA's collective
//! communications library. One soname, `libnccl.so.2`, for every CUDA major, and the same NCCL
//! version in two of them (`nvidia-nccl-cu12` and `-cu13` are both 2.32.3): neither the soname
//! nor `ncclGetVersion` says which CUDA release a copy was built for, the library's version
//! string in its file does (`NCCL version 2.32.3+cuda13.4`, [`VersionProbe::BuiltFor`]).
//! Every NVIDIA build links the runtime statically (`DT_NEEDED` has no `libcudart`), so one
//! CUDA release per process ([`RealLibrary::same_release_as`]) is decided by that string.
//! NVIDIA ships NCCL for Linux only (x86-64 and aarch64; no Windows build, no `win_amd64`
//! wheel): no Windows stub.

use super::cudart::CUDART;
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe,
};
use core::ffi::CStr;

/// Where every major's wheel (`nvidia-nccl-cu11`, `-cu12`, `-cu13`) puts it: the CUDA 13 wheel
/// too (not `nvidia/cu13/lib`), so a `site-packages` holds one of them at a time.
const NCCL_LIB: &CStr = c"nvidia/nccl/lib";

/// NCCL.
pub const NCCL: Library = Library {
    kind: LibraryKind::Nccl,
    real: &RealLibrary {
        name: "nccl",
        // One soname for every major (NVIDIA's wheels 2.21.5 / 2.32.3 / 2.32.3): major 0, the
        // file's version string says which.
        sonames: &[Soname {
            name: c"libnccl.so.2",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_NCCL_PATH",
        wheel_dirs: &[NCCL_LIB],
        // `ncclGetVersion` answers `NCCL_VERSION_CODE`, `10000 * major + 100 * minor + patch`
        // from 2.9 (22105 for 2.21.5, 23203 for 2.32.3; `1000 * major + 100 * minor + patch`
        // before), the same in the CUDA 12 and 13 builds; the CUDA release is the `+cuda` of
        // NCCL's `VERSION_STRING` in `.rodata` (`+cuda11.0`, `+cuda12.9`, `+cuda13.4` in the
        // three wheels), recorded as `1000 * major + 10 * minor`.
        version: VersionProbe::BuiltFor {
            symbol: c"ncclGetVersion",
            marker: c"+cuda",
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // Every NVIDIA build links the runtime statically: no `DT_NEEDED` says its release
        // before `dlopen`, its file's version string does once it is loaded (a copy of another
        // release stays mapped, never called, as 11.8's cuRAND). NCCL shares streams and device
        // memory with the program's runtime, so it must be the process's release.
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: None,
    },
    status_type: "ncclResult_t",
    // NCCL has no status for "library missing" or "function missing".
    errors: TypedErrors {
        // What the real library answers when CUDA cannot be set up (no driver, no GPU:
        // `ncclCommInitRank`, `ncclCommInitAll`, `ncclMemAlloc` answer it in all three
        // wheels): a program treats a missing NCCL as it treats a machine without CUDA.
        no_library: StatusCode {
            name: "ncclUnhandledCudaError",
            value: 1,
        },
        // What NCCL answers a program built against a newer NCCL than the one loaded ("NCCL
        // library is too old. This application was compiled with NCCL version …"): the case of
        // a function the loaded version lacks (2.21.5 has no `ncclCommShrink`).
        absent: StatusCode {
            name: "ncclInvalidUsage",
            value: 5,
        },
    },
    crate_name: "stubs-nccl",
    header: "nccl.h",
    header_version: HeaderVersion::MajorMinor,
    // The device API's host functions (`ncclDevCommCreate`, `ncclTeamWorld` …), from 2.28; C
    // parses it (its C++ is behind `__cplusplus` or in headers it does not include). 2.21.5's
    // wheel lacks it: codegen reads an empty shim there.
    interop_headers: &["nccl_device/host.h"],
    functions: "p?nccl.*",
    extra_types: "ncclResult_t|ncclComm_t|ncclUniqueId|ncclConfig_t|ncclDataType_t|ncclRedOp_t",
    exports: ExportSource::Wheels,
    // `const char *ncclGetLastError(ncclComm_t)`: a string for a communicator, not for a code,
    // so not an `error_texts` entry; the crate answers the search's summary without a library.
    hand_written: &["ncclGetLastError", "pncclGetLastError"],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[
        ErrorText {
            function: "ncclGetErrorString",
            text: TextKind::Description,
            abi: TextAbi::Returned,
        },
        ErrorText {
            function: "pncclGetErrorString",
            text: TextKind::Description,
            abi: TextAbi::Returned,
        },
    ],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The newest NCCL of each major's wheel: cu11's last is 2.21.5 (x86-64 only: NVIDIA
    // publishes no aarch64 wheel of `nvidia-nccl-cu11`), cu12's and cu13's 2.32.3.
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-nccl-cu11==2.21.5",
            lib_dir: NCCL_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-nccl-cu12==2.32.3",
            lib_dir: NCCL_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-nccl-cu13==2.32.3",
            lib_dir: NCCL_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "NCCL (libnccl)",
        cmake_target: "nccl",
        // FindCUDAToolkit has no NCCL target (CMake 3.17 – 4.x): projects link `nccl` by
        // name or `find_library`, which the link names below switch.
        toolkit_targets: &[],
        link_names: &[LinkName::Shared("nccl"), LinkName::Static("nccl_static")],
        compat_majors: &[],
    },
};

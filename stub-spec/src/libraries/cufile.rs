//! cuFile, libcufile (`cufile.h`; GPUDirect Storage, CUDA 11.4 and later): reads and writes
//! between files and GPU memory, through the `nvidia-fs` kernel driver where the machine has
//! it, else in compatibility mode (POSIX I/O through a bounce buffer). One soname,
//! `libcufile.so.0`, in every major; its own version (`cuFileGetVersion`: 1.14 of CUDA 12.9, 1.19
//! of 13.x) says which. Its status is a struct returned by value, `CUfileError_t { CUfileOpError
//! err; CUresult cu_err; }`. It reaches the driver itself (`dlopen` of `libcuda.so.1`) and loads
//! its RDMA plugin, `libcufile_rdma.so.1`, itself from its folder: programs link libcufile only
//! (`cufile.h` is the wheels' one header), so the plugin has no stub. NVIDIA ships cuFile for
//! Linux only (x86-64 and aarch64; no Windows build): no Windows stub.

use super::CU13_LIB;
use super::cudart::CUDART;
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Release, Soname, StatusCode, TestWheel, TypedErrors, Unpack,
    VersionProbe,
};
use core::ffi::CStr;

/// Where the 12.x wheel (`nvidia-cufile-cu12`) puts it.
const CUFILE_LIB: &CStr = c"nvidia/cufile/lib";

/// cuFile.
pub const CUFILE: Library = Library {
    kind: LibraryKind::Cufile,
    real: &RealLibrary {
        name: "cufile",
        // One soname for every major (NVIDIA's wheels 1.14.1.1 and 1.19.1.55, and every CUDA
        // toolkit from 11.4): major 0, the version says which.
        sonames: &[Soname {
            name: c"libcufile.so.0",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUFILE_PATH",
        wheel_dirs: &[CU13_LIB, CUFILE_LIB],
        // `CUfileError_t cuFileGetVersion(int *)`: `1000 * major + 10 * minor` of cuFile (1140,
        // 1190 in the wheels). Each CUDA major's first cuFile, from NVIDIA's packages: 1.0.0 of
        // 11.4, 1.5.0 of 12.0, 1.15.0 of 13.0.
        version: VersionProbe::OwnVersionPairStatus {
            symbol: c"cuFileGetVersion",
            releases: &[
                Release {
                    first: 1000,
                    major: 11,
                },
                Release {
                    first: 1050,
                    major: 12,
                },
                Release {
                    first: 1150,
                    major: 13,
                },
            ],
        },
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        // NVIDIA builds and ships cuFile per CUDA major and it moves the program's device
        // memory: the process's release, told by its version once loaded (nothing in its
        // `DT_NEEDED` says it: it links no CUDA library).
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: None,
    },
    status_type: "CUfileError_t",
    // The codes go in `err`, `cu_err` 0 (`stub_loader::status_value`). cuFile has no code for
    // "library missing" or "function missing".
    errors: TypedErrors {
        // What every call that needs the driver open answers before `cuFileDriverOpen` succeeded
        // (`cuFileDriverClose` without an open, in both wheels): a program treats a missing
        // cuFile as GPUDirect Storage not set up.
        no_library: StatusCode {
            name: "CU_FILE_DRIVER_NOT_INITIALIZED",
            value: 5001,
        },
        // "GPUDirect Storage not supported on current platform": the loaded cuFile cannot make
        // the call (1.14 has no `cuFileReadv`, no statistics API).
        absent: StatusCode {
            name: "CU_FILE_PLATFORM_NOT_SUPPORTED",
            value: 5007,
        },
    },
    crate_name: "stubs-cufile",
    // It names `struct timespec` (`cuFileBatchIOGetStatus`'s timeout) without including
    // `<time.h>`: codegen's parse warns, the argument is a pointer either way.
    header: "cufile.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cuFile.*",
    extra_types: "CUfileError_t|CUfileOpError|CUfileHandle_t|CUfileDescr_t|CUfileDrvProps_t",
    exports: ExportSource::Wheels,
    hand_written: &[],
    // The `ssize_t` I/O calls (`cuFileRead`, `cuFileWrite`, 1.15's `cuFileReadv`,
    // `cuFileWritev`) answer the bytes transferred, or `-1` with `errno`, or a `CUfileOpError`
    // negated (`cufile.h`): without a library, or on a cuFile without them, the stub answers
    // its typed error negated (`-5001`, `-5007`), never 0 ("0 bytes").
    counts_negate_status: true,
    last_error: None,
    // `cufileop_status_error` is a static inline function of the header: nothing exported.
    error_texts: &[],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // Whole wheels: 1.2 and 1.5 MB (x86-64), the library, its RDMA plugin and the header.
    test_wheels: &[
        TestWheel {
            major: 12,
            requirement: "nvidia-cufile-cu12==1.14.1.1",
            lib_dir: CUFILE_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cufile==1.19.1.55",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "cuFile (libcufile)",
        cmake_target: "cufile",
        // FindCUDAToolkit's names (CMake 3.25+, CUDA 11.4+); not `cuFile_rdma`, the plugin.
        toolkit_targets: &["cuFile", "cuFile_static"],
        link_names: &[
            LinkName::Shared("cufile"),
            LinkName::Static("cufile_static"),
        ],
        compat_majors: &[],
    },
};

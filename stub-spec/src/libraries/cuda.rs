//! The CUDA driver API, libcuda (`cuda.h`, CUDA 11.8, 12.x, 13.x).

use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, ProcAddressSource, RealLibrary, Soname, StatusCode, TextAbi, TextKind,
    TypedErrors, VersionProbe, WindowsDlls,
};

/// What the driver's `cuGetErrorString` / `cuGetErrorName` return for a code they do not know or
/// a NULL out-pointer (cuda.h: "CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE").
const CUDA_ERROR_INVALID_VALUE: StatusCode = StatusCode {
    name: "CUDA_ERROR_INVALID_VALUE",
    value: 1,
};

/// The driver API.
pub const CUDA: Library = Library {
    kind: LibraryKind::Cuda,
    real: &RealLibrary {
        name: "cuda",
        // One soname for every major: the version comes from cuDriverGetVersion.
        sonames: &[Soname {
            name: c"libcuda.so.1",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUDA_PATH",
        // The driver ships with the system, never in a wheel.
        wheel_dirs: &[],
        version: VersionProbe::OneInt(c"cuDriverGetVersion"),
        // The driver keeps every entry point of older headers.
        gating: Gating::AtLeast,
        companion: None,
        lazy_dependency: None,
        same_release_as: &[],
        // The driver itself: its version is what caps the others.
        driver: DriverUse::OfTheDriver,
        mock: MockUse::Implements,
        windows: Some(&WindowsDlls {
            dlls: &[Soname {
                name: c"nvcuda.dll",
                major: 0,
            }],
            wheel_dirs: &[],
            toolkit_dirs: &[],
            companion: None,
            lazy_dependency: None,
            fetched: false,
            release_named: None,
        }),
    },
    status_type: "CUresult",
    errors: TypedErrors {
        // No driver installed.
        no_library: StatusCode {
            name: "CUDA_ERROR_STUB_LIBRARY",
            value: 34,
        },
        absent: StatusCode {
            name: "CUDA_ERROR_NOT_SUPPORTED",
            value: 801,
        },
    },
    crate_name: "stubs-cuda",
    header: "cuda.h",
    // cuda.h ships in the runtime's wheel.
    header_version: HeaderVersion::Full,
    interop_headers: &["cudaGL.h", "vdpau/vdpau.h", "cudaVDPAU.h", "cudaEGL.h"],
    functions: "cu.*|__cu.*",
    extra_types: "CUresult|CUuuid",
    // libcuda is in no wheel: the export list of driver 580.159.04, checked in.
    exports: ExportSource::List {
        path: "tests/data/libcuda-580.159.04-exports.txt",
        label: "libcuda 580",
    },
    hand_written: &[
        "cuGraphAddNode",
        "cuGraphAddNode_v2",
        "cuGraphExecNodeSetParams",
        "cuGraphNodeSetParams",
        // Device code newer than the driver is compiled to a CUBIN before the driver sees it
        // (`stubs-cuda/src/adapters/cu_module_load.rs`, `cu_library_load.rs`); a link with such
        // PTX is linked by nvJitLink (`cu_link.rs`).
        "cuLibraryLoadData",
        "cuLibraryLoadFromFile",
        "cuLinkAddData",
        "cuLinkAddData_v2",
        "cuLinkAddFile",
        "cuLinkAddFile_v2",
        "cuLinkComplete",
        "cuLinkCreate",
        "cuLinkCreate_v2",
        "cuLinkDestroy",
        "cuModuleLoad",
        "cuModuleLoadData",
        "cuModuleLoadDataEx",
        "cuModuleLoadFatBinary",
    ],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[
        ErrorText {
            function: "cuGetErrorName",
            text: TextKind::Name,
            abi: TextAbi::OutParam {
                unknown: CUDA_ERROR_INVALID_VALUE,
            },
        },
        ErrorText {
            function: "cuGetErrorString",
            text: TextKind::Description,
            abi: TextAbi::OutParam {
                unknown: CUDA_ERROR_INVALID_VALUE,
            },
        },
    ],
    abi12_hand_written: None,
    // Its adapters (stubs-cuda/src/adapters/) spell the older layouts by hand.
    // The graph-node adapters (`stubs-cuda/src/adapters/cu_graph_node_params.rs`) pass
    // CUgraphNodeParams as the caller laid it out, after checking a 12.x driver reads it alike:
    // no struct is translated, the tables give them the prototypes.
    adapter_structs: Some(&[]),
    // What the device-code adapters ask of the current context's device.
    adapter_calls: &[
        "cuCtxGetDevice",
        "cuDeviceGet",
        "cuDeviceGetAttribute",
        "cuDeviceGetCount",
    ],
    versioned_names: None,
    // Every entry point is exported under its ABI name (`cuMemAlloc_v2`) and asked for by base
    // name and version (`cuMemAlloc` at 3020), never bound to the legacy unsuffixed one.
    proc_address: Some(ProcAddressSource {
        getter: c"cuGetProcAddress",
        typedefs_header: "cudaTypedefs.h",
    }),
    test_wheels: &[],
    packaging: Packaging {
        stands_for: "the CUDA driver API (libcuda)",
        cmake_target: "cuda_driver",
        toolkit_targets: &["cuda_driver"],
        link_names: &[LinkName::Shared("cuda")],
        compat_majors: &[],
    },
};

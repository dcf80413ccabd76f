//! The CUDA runtime API, libcudart (`cuda_runtime_api.h`, CUDA 11.8, 12.x, 13.x).

use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, LastErrorReaders, Library,
    LibraryKind, LinkName, MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi,
    TextKind, TypedErrors, Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x runtime wheels (`nvidia-cuda-runtime-cu11`, `-cu12`) put it.
const RUNTIME_LIB: &CStr = c"nvidia/cuda_runtime/lib";

/// The CUDA runtime.
pub const CUDART: Library = Library {
    kind: LibraryKind::Cudart,
    real: &RealLibrary {
        name: "cudart",
        sonames: &[
            Soname {
                name: c"libcudart.so.13",
                major: 13,
            },
            Soname {
                name: c"libcudart.so.12",
                major: 12,
            },
            Soname {
                name: c"libcudart.so.11.0",
                major: 11,
            },
        ],
        env_path: c"CUDA_STUBS_CUDART_PATH",
        wheel_dirs: &[CU13_LIB, RUNTIME_LIB],
        version: VersionProbe::OneInt(c"cudaRuntimeGetVersion"),
        // Majors remove names (`cudaThreadSynchronize` is gone from 13.x).
        gating: Gating::Exact,
        companion: None,
        lazy_dependency: None,
        same_release_as: &[],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::Implements,
        windows: Some(&WindowsDlls {
            dlls: &[
                Soname {
                    name: c"cudart64_13.dll",
                    major: 13,
                },
                Soname {
                    name: c"cudart64_12.dll",
                    major: 12,
                },
                Soname {
                    name: c"cudart64_110.dll",
                    major: 11,
                },
            ],
            wheel_dirs: &[CU13_BIN, c"nvidia/cuda_runtime/bin"],
            toolkit_dirs: TOOLKIT_BIN,
            companion: None,
            lazy_dependency: None,
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "cudaError_t",
    errors: TypedErrors {
        // The runtime's own code for "this is a stub, the real library is missing".
        no_library: StatusCode {
            name: "cudaErrorStubLibrary",
            value: 34,
        },
        absent: StatusCode {
            name: "cudaErrorNotSupported",
            value: 801,
        },
    },
    crate_name: "stubs-cudart",
    header: "cuda_runtime_api.h",
    header_version: HeaderVersion::Full,
    interop_headers: &[
        "cuda_gl_interop.h",
        "cuda_vdpau_interop.h",
        "cuda_egl_interop.h",
    ],
    functions: "cuda.*|__cuda.*",
    extra_types: "uint3|dim3|cudaStream_t|cudaError_t",
    exports: ExportSource::Wheels,
    hand_written: &[
        // ABI adapters (stubs-cudart/src/adapters/): translate between CUDA majors. Those of
        // the names exported once per ABI are `abi12_hand_written` below (both versions).
        "cudaGetDeviceProperties_v2",
        "cudaGraphInstantiate",
        "cudaFuncGetAttributes",
        // What 12.x headers call for cudaStreamGetCaptureInfo: 13.x removed the name
        // (stubs-cudart/src/adapters/cuda_stream_get_capture_info.rs).
        "cudaStreamGetCaptureInfo_v2",
        "cudaStreamGetCaptureInfo_v2_ptsz",
        "cudaGraphExecUpdate",
        "cudaGetDriverEntryPoint",
        "cudaGetDriverEntryPoint_ptsz",
        "cudaGetTextureObjectTextureDesc",
        // nvcc's launch path, translated to cudaLaunchKernel on runtimes without it (11.x).
        "__cudaGetKernel",
        "__cudaLaunchKernel",
        "__cudaLaunchKernel_ptsz",
        // Device code newer than the driver becomes a CUBIN before the runtime sees it
        // (stubs-cudart/src/adapters/cuda_library_load.rs, cuda_register_fat_binary.rs).
        "__cudaRegisterFatBinary",
        "cudaLibraryLoadData",
        "cudaLibraryLoadFromFile",
    ],
    counts_negate_status: false,
    last_error: Some(LastErrorReaders {
        take: c"cudaGetLastError",
        peek: c"cudaPeekAtLastError",
    }),
    error_texts: &[
        ErrorText {
            function: "cudaGetErrorName",
            text: TextKind::Name,
            abi: TextAbi::Returned,
        },
        ErrorText {
            function: "cudaGetErrorString",
            text: TextKind::Description,
            abi: TextAbi::Returned,
        },
    ],
    // The names exported once per ABI, both versions hand-written, side by side in the
    // function's file under stubs-cudart/src/adapters/: the CUDA 13 version
    // (`name@@CUDA_STUBS_CUDART_13`, `NAME_abi13`) and the CUDA 12 one
    // (`name@CUDA_STUBS_CUDART_12`: 12.x prototypes, translated for a 13.x runtime,
    // `NAME_abi12`).
    abi12_hand_written: Some(&[
        "cudaGetDeviceProperties",
        "cudaChooseDevice",
        "cudaPointerGetAttributes",
        "cudaGraphAddDependencies",
        "cudaGraphRemoveDependencies",
        "cudaGraphGetEdges",
        "cudaGraphNodeGetDependencies",
        "cudaGraphNodeGetDependentNodes",
        "cudaMemAdvise",
        "cudaMemPrefetchAsync",
        "cudaMemPrefetchAsync_ptsz",
        "cudaStreamGetCaptureInfo",
        "cudaStreamGetCaptureInfo_ptsz",
        "cudaStreamUpdateCaptureDependencies",
        "cudaStreamUpdateCaptureDependencies_ptsz",
        "cudaCreateTextureObject",
        "cudaGetTextureObjectResourceDesc",
        "cudaGetTextureObjectResourceViewDesc",
        "cudaCreateSurfaceObject",
        "cudaGetSurfaceObjectResourceDesc",
        "cudaImportExternalMemory",
        "cudaExternalMemoryGetMappedBuffer",
        "cudaExternalMemoryGetMappedMipmappedArray",
        "cudaImportExternalSemaphore",
        "cudaSignalExternalSemaphoresAsync",
        "cudaSignalExternalSemaphoresAsync_ptsz",
        "cudaWaitExternalSemaphoresAsync",
        "cudaWaitExternalSemaphoresAsync_ptsz",
        "cudaGraphAddNode",
        "cudaGraphNodeSetParams",
        "cudaGraphExecNodeSetParams",
        "cudaMemcpyBatchAsync",
        "cudaMemcpyBatchAsync_ptsz",
        "cudaMemcpy3DBatchAsync",
        "cudaMemcpy3DBatchAsync_ptsz",
    ]),
    adapter_structs: Some(&[
        "cudaDeviceProp",
        "cudaFuncAttributes",
        "cudaPointerAttributes",
        // Texture and surface objects (cuda_create_texture_object.rs).
        "cudaResourceDesc",
        "cudaResourceViewDesc",
        "cudaTextureDesc",
        // External memory and semaphores (cuda_import_external_memory.rs).
        "cudaExternalMemoryHandleDesc",
        "cudaExternalMemoryBufferDesc",
        "cudaExternalMemoryMipmappedArrayDesc",
        "cudaExternalSemaphoreHandleDesc",
    ]),
    // 11.4+'s `cudaGraphInstantiateWithFlags`: the 11.x path of `cudaGraphInstantiate`.
    adapter_calls: &[
        "cudaGraphInstantiateWithFlags",
        // What the device-code adapters ask: the driver's version, the devices' architectures.
        "cudaDeviceGetAttribute",
        "cudaDriverGetVersion",
        "cudaGetDevice",
        "cudaGetDeviceCount",
    ],
    versioned_names: None,
    proc_address: None,
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-cuda-runtime-cu11==11.8.89",
            lib_dir: RUNTIME_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cuda-runtime-cu12==12.9.79",
            lib_dir: RUNTIME_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cuda-runtime==13.5.37",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "the CUDA runtime (libcudart)",
        cmake_target: "cudart",
        toolkit_targets: &["cudart", "cudart_static"],
        link_names: &[
            LinkName::Shared("cudart"),
            LinkName::Static("cudart_static"),
        ],
        compat_majors: &[12, 13],
    },
};

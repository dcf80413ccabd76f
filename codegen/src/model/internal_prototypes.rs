//! Prototypes of exported entry points that the library's own header does not declare: nvcc's
//! registration and launch hooks (crt/host_runtime.h, crt/device_functions.h of the 11.8 and
//! 13.x nvcc wheels) and
//! the profiler API (cuda_profiler_api.h, cudaProfiler.h; not shipped in the wheels); CUPTI's
//! NVTX entry points, which its user guide documents and no header declares.
//!
//! Enum and struct pointees that no longer exist in the newest headers are spelled as their
//! ABI equivalents (`c_uint`, `c_void`) so the declarations only need types the newest header
//! provides. Exports missing from this table and from every header are declared opaque.

use stub_model::LibraryKind;

/// One hand-written prototype.
pub struct InternalPrototype {
    /// The library that exports it.
    pub library: LibraryKind,
    /// Where the C declaration lives.
    pub source: &'static str,
    /// The declaration, as bindgen would spell it.
    pub rust: &'static str,
}

const HOST_RUNTIME: &str = "crt/host_runtime.h (nvcc 11.8)";
const DEVICE_FUNCTIONS_13: &str = "crt/device_functions.h (nvcc 13.x)";

/// The table.
pub const TABLE: &[InternalPrototype] = &[
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: HOST_RUNTIME,
        rust: "pub fn __cudaRegisterFatBinary(fatCubin: *mut ::core::ffi::c_void) -> *mut *mut ::core::ffi::c_void;",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: HOST_RUNTIME,
        rust: "pub fn __cudaRegisterFatBinaryEnd(fatCubinHandle: *mut *mut ::core::ffi::c_void);",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: HOST_RUNTIME,
        rust: "pub fn __cudaUnregisterFatBinary(fatCubinHandle: *mut *mut ::core::ffi::c_void);",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: HOST_RUNTIME,
        rust: "pub fn __cudaRegisterVar(fatCubinHandle: *mut *mut ::core::ffi::c_void, hostVar: *mut ::core::ffi::c_char, deviceAddress: *mut ::core::ffi::c_char, deviceName: *const ::core::ffi::c_char, ext: ::core::ffi::c_int, size: usize, constant: ::core::ffi::c_int, global: ::core::ffi::c_int);",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: HOST_RUNTIME,
        rust: "pub fn __cudaRegisterManagedVar(fatCubinHandle: *mut *mut ::core::ffi::c_void, hostVarPtrAddress: *mut *mut ::core::ffi::c_void, deviceAddress: *mut ::core::ffi::c_char, deviceName: *const ::core::ffi::c_char, ext: ::core::ffi::c_int, size: usize, constant: ::core::ffi::c_int, global: ::core::ffi::c_int);",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: HOST_RUNTIME,
        rust: "pub fn __cudaInitModule(fatCubinHandle: *mut *mut ::core::ffi::c_void) -> ::core::ffi::c_char;",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: HOST_RUNTIME,
        // hostVar is `const struct textureReference *` (a type removed in 12.0).
        rust: "pub fn __cudaRegisterTexture(fatCubinHandle: *mut *mut ::core::ffi::c_void, hostVar: *const ::core::ffi::c_void, deviceAddress: *mut *const ::core::ffi::c_void, deviceName: *const ::core::ffi::c_char, dim: ::core::ffi::c_int, norm: ::core::ffi::c_int, ext: ::core::ffi::c_int);",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: HOST_RUNTIME,
        // hostVar is `const struct surfaceReference *` (a type removed in 12.0).
        rust: "pub fn __cudaRegisterSurface(fatCubinHandle: *mut *mut ::core::ffi::c_void, hostVar: *const ::core::ffi::c_void, deviceAddress: *mut *const ::core::ffi::c_void, deviceName: *const ::core::ffi::c_char, dim: ::core::ffi::c_int, ext: ::core::ffi::c_int);",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: HOST_RUNTIME,
        rust: "pub fn __cudaRegisterFunction(fatCubinHandle: *mut *mut ::core::ffi::c_void, hostFun: *const ::core::ffi::c_char, deviceFun: *mut ::core::ffi::c_char, deviceName: *const ::core::ffi::c_char, thread_limit: ::core::ffi::c_int, tid: *mut uint3, bid: *mut uint3, bDim: *mut dim3, gDim: *mut dim3, wSize: *mut ::core::ffi::c_int);",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: HOST_RUNTIME,
        rust: "pub fn __cudaPopCallConfiguration(gridDim: *mut dim3, blockDim: *mut dim3, sharedMem: *mut usize, stream: *mut ::core::ffi::c_void) -> cudaError_t;",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: "crt/device_functions.h (nvcc 11.8)",
        rust: "pub fn __cudaPushCallConfiguration(gridDim: dim3, blockDim: dim3, sharedMem: usize, stream: cudaStream_t) -> ::core::ffi::c_uint;",
    },
    // nvcc 12.x/13.x's kernel launch: the host stub of `k<<<g, b, smem, s>>>(args)` calls
    // `__cudaGetKernel` once, then `__cudaLaunchKernel` (`_ptsz` with per-thread default stream).
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: DEVICE_FUNCTIONS_13,
        rust: "pub fn __cudaGetKernel(kernel: *mut cudaKernel_t, hostFun: *const ::core::ffi::c_void) -> cudaError_t;",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: DEVICE_FUNCTIONS_13,
        rust: "pub fn __cudaLaunchKernel(kernel: cudaKernel_t, gridDim: dim3, blockDim: dim3, args: *mut *mut ::core::ffi::c_void, sharedMem: usize, stream: cudaStream_t) -> cudaError_t;",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: DEVICE_FUNCTIONS_13,
        rust: "pub fn __cudaLaunchKernel_ptsz(kernel: cudaKernel_t, gridDim: dim3, blockDim: dim3, args: *mut *mut ::core::ffi::c_void, sharedMem: usize, stream: cudaStream_t) -> cudaError_t;",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: "cuda_profiler_api.h",
        // outputMode is `cudaOutputMode_t`, an enum removed in 12.0.
        rust: "pub fn cudaProfilerInitialize(configFile: *const ::core::ffi::c_char, outputFile: *const ::core::ffi::c_char, outputMode: ::core::ffi::c_uint) -> cudaError_t;",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: "cuda_profiler_api.h",
        rust: "pub fn cudaProfilerStart() -> cudaError_t;",
    },
    InternalPrototype {
        library: LibraryKind::Cudart,
        source: "cuda_profiler_api.h",
        rust: "pub fn cudaProfilerStop() -> cudaError_t;",
    },
    InternalPrototype {
        library: LibraryKind::Cuda,
        source: "cudaProfiler.h",
        // outputMode is `CUoutput_mode`, an enum removed in 12.0.
        rust: "pub fn cuProfilerInitialize(configFile: *const ::core::ffi::c_char, outputFile: *const ::core::ffi::c_char, outputMode: ::core::ffi::c_uint) -> CUresult;",
    },
    InternalPrototype {
        library: LibraryKind::Cuda,
        source: "cudaProfiler.h",
        rust: "pub fn cuProfilerStart() -> CUresult;",
    },
    InternalPrototype {
        library: LibraryKind::Cuda,
        source: "cudaProfiler.h",
        rust: "pub fn cuProfilerStop() -> CUresult;",
    },
    InternalPrototype {
        library: LibraryKind::Nccl,
        // Declared only under `#ifdef NCCL_OS_LINUX`, a macro no NCCL header defines (NCCL's
        // own build does); exported by every Linux NCCL from 2.28.
        source: "nccl.h 2.32 (NCCL_OS_LINUX)",
        rust: "pub fn ncclResetDebugInit();",
    },
    InternalPrototype {
        library: LibraryKind::Nccl,
        // Declared only under `#if defined(NCCL_OS_WINDOWS)`, yet exported by the Linux
        // library; the handle (`struct ncclGinOutboxHandle`, gin_win_stub.h, C++ only) is an
        // out-pointer the library fills, spelled `void *`.
        source: "nccl_device/host.h 2.32 (NCCL_OS_WINDOWS)",
        rust: "pub fn ncclGinOutboxCreateRequirement(nBlocks: ::core::ffi::c_int, size_log2: ::core::ffi::c_int, outHandle: *mut ::core::ffi::c_void, outReq: *mut ncclDevResourceRequirements_t) -> ncclResult_t;",
    },
    InternalPrototype {
        library: LibraryKind::Nccl,
        // As `ncclGinOutboxCreateRequirement`; `struct ncclGinInboxA2AHandle *` as `void *`.
        source: "nccl_device/host.h 2.32 (NCCL_OS_WINDOWS)",
        rust: "pub fn ncclGinInboxA2ACreateRequirement(peers: ncclTeam_t, nBlocks: ::core::ffi::c_int, size_log2: ::core::ffi::c_int, outHandle: *mut ::core::ffi::c_void, outReq: *mut ncclDevResourceRequirements_t) -> ncclResult_t;",
    },
    // NVTX's injection entry points, which NVTX calls in the library `NVTX_INJECTION64_PATH`
    // names (libcupti itself, for a program tracing NVTX with CUPTI): `int f(void *)`, nonzero
    // for success (NVTX's `NvtxInitializeInjectionNvtxFunc_t`, the CUPTI user guide's "NVTX"
    // section); no header of CUPTI declares them. Their fallback is 0, NVTX's "failed".
    InternalPrototype {
        library: LibraryKind::Cupti,
        source: CUPTI_GUIDE_NVTX,
        rust: "pub fn InitializeInjectionNvtx(getExportTable: *mut ::core::ffi::c_void) -> ::core::ffi::c_int;",
    },
    InternalPrototype {
        library: LibraryKind::Cupti,
        source: CUPTI_GUIDE_NVTX,
        rust: "pub fn InitializeInjectionNvtx2(getExportTable: *mut ::core::ffi::c_void) -> ::core::ffi::c_int;",
    },
    InternalPrototype {
        library: LibraryKind::Cupti,
        source: CUPTI_GUIDE_NVTX,
        // `nvtxExtModuleInfo_t *moduleInfo` (nvToolsExtPayload.h) as `void *`.
        rust: "pub fn InitializeInjectionNvtxExtension(moduleInfo: *mut ::core::ffi::c_void) -> ::core::ffi::c_int;",
    },
    // What a profiling library built on CUPTI calls from its own injection entry points (the
    // same section).
    InternalPrototype {
        library: LibraryKind::Cupti,
        source: CUPTI_GUIDE_NVTX,
        rust: "pub fn cuptiNvtxInitialize(pfnGetExportTable: *mut ::core::ffi::c_void) -> CUptiResult;",
    },
    InternalPrototype {
        library: LibraryKind::Cupti,
        source: CUPTI_GUIDE_NVTX,
        rust: "pub fn cuptiNvtxInitialize2(pfnGetExportTable: *mut ::core::ffi::c_void) -> CUptiResult;",
    },
    InternalPrototype {
        library: LibraryKind::Cupti,
        source: CUPTI_GUIDE_NVTX,
        rust: "pub fn cuptiNvtxExtensionInitialize(moduleInfo: *mut ::core::ffi::c_void) -> CUptiResult;",
    },
    InternalPrototype {
        library: LibraryKind::Cupti,
        source: CUPTI_GUIDE_NVTX,
        // `CUpti_NvtxExtPayloadAttr *` (a struct of CUPTI's NVTX payload parser, in no header
        // of the wheels) as `void *`: an out-pointer the library fills.
        rust: "pub fn cuptiActivityGetNvtxExtPayloadAttr(cuptiDomainId: u32, schemaId: u64, pPayloadAttributes: *mut ::core::ffi::c_void) -> CUptiResult;",
    },
    InternalPrototype {
        library: LibraryKind::Cupti,
        source: CUPTI_GUIDE_NVTX,
        // `const nvtxPayloadEntryTypeInfo_t *` (nvToolsExtPayload.h) as `const void *`: its
        // fallback is NULL.
        rust: "pub fn cuptiActivityGetNvtxExtPayloadEntryTypeInfo() -> *const ::core::ffi::c_void;",
    },
    // NVTX 2's export table, which its library hands an injected tool (`nvtx3/nvtxDetail/
    // nvtxTypes.h`'s `NvtxGetExportTableFunc_t`: `const void *f(uint32_t exportTableId)`, NULL
    // for an id it does not know); exported by libnvToolsExt.so.1, declared by no header of
    // version 2. Its fallback is NULL, "no such table".
    InternalPrototype {
        library: LibraryKind::Nvtx,
        source: "nvtx3/nvtxDetail/nvtxTypes.h (NvtxGetExportTableFunc_t)",
        rust: "pub fn nvtxGetExportTable(exportTableId: u32) -> *const ::core::ffi::c_void;",
    },
];

/// The CUPTI user guide's section on NVTX (docs.nvidia.com/cupti, CUDA 13.x): prototypes it
/// documents that no header of the CUPTI wheels declares.
const CUPTI_GUIDE_NVTX: &str = "CUPTI user guide 13.x, NVTX (no header)";

/// Libraries exporting each function under a second, profiling name, `<prefix><name>`: NCCL's
/// `pncclAllReduce` for `ncclAllReduce` (a profiler defines `ncclAllReduce` and calls
/// `pncclAllReduce`, as MPI's `PMPI_`). `nccl.h` declares both names of its own functions; the
/// device API's host functions (`nccl_device/host.h`) and those above are declared under their
/// plain name only, so an alias no header declares takes its function's prototype.
const PROFILING_ALIASES: &[(LibraryKind, &str)] = &[(LibraryKind::Nccl, "p")];

/// The function `name` is the profiling alias of (`pncclTeamWorld` → `ncclTeamWorld`), for a
/// library that has such aliases.
pub fn alias_of(library: LibraryKind, name: &str) -> Option<&str> {
    PROFILING_ALIASES
        .iter()
        .filter(|(l, _)| *l == library)
        .find_map(|(_, prefix)| name.strip_prefix(prefix))
}

fn entry(library: LibraryKind, name: &str) -> Option<&'static InternalPrototype> {
    TABLE.iter().find(|p| {
        p.library == library
            && p.rust
                .strip_prefix("pub fn ")
                .and_then(|r| r.split('(').next())
                == Some(name)
    })
}

/// Looks up `name` of `library`, parsed.
pub fn lookup(library: LibraryKind, name: &str) -> Option<syn::ForeignItemFn> {
    let e = entry(library, name)?;
    Some(syn::parse_str(e.rust).expect("internal prototype table entries parse"))
}

/// The header a table entry comes from.
pub fn source(library: LibraryKind, name: &str) -> Option<&'static str> {
    entry(library, name).map(|e| e.source)
}

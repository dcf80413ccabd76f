//! The stubbed libraries: which header declares them and which exports are hand-written.

pub use crate::versioned_names::VersionedNames;
use std::path::{Path, PathBuf};
use stub_model::LibraryKind;

/// One stubbed library.
#[derive(Debug, Clone, Copy)]
pub struct Library {
    /// Which library it is (the model's identity: name, status type, version nodes).
    pub kind: LibraryKind,
    /// The header that declares its API.
    pub header: &'static str,
    /// The stub crate directory, relative to the workspace root.
    pub crate_dir: &'static str,
    /// The `layout.json` key of the real library whose export table lists the stub's symbols
    /// (`scripts/fetch-cuda.py`); only the majors whose layout has it are read (nvJitLink: 12
    /// and 13). `None`: the driver, whose export list is checked in (no wheel ships libcuda).
    pub library_file: Option<&'static str>,
    /// How the library names one function's per-version ABI entry points, if it does
    /// (nvJitLink's `__nvJitLinkCreate_12_9`): such names share their function's prototype, and
    /// codegen writes `versioned_names.rs`, their binding to the plain name.
    pub versioned_names: Option<VersionedNames>,
    /// Interop headers declaring more of its exports (parsed against codegen's GL/EGL/VDPAU shims).
    pub interop_headers: &'static [&'static str],
    /// Functions to keep from the header (a bindgen allowlist regex).
    pub functions: &'static str,
    /// Types codegen's hand-written prototypes need beyond what the header's functions use.
    pub extra_types: &'static str,
    /// Exports the stub crate implements by hand (the lead extends this list here).
    pub hand_written: &'static [&'static str],
    /// `Some`: the library also exports CUDA 12's ABI, under ELF symbol versions, for the names
    /// whose 12.x and 13.x ABIs differ (`crate::abi_versions`); the list names the ones whose
    /// CUDA 12 version the stub crate implements by hand (the others are forwarded where the
    /// runtime has that ABI, refused elsewhere). `None`: one definition per name.
    pub abi12_hand_written: Option<&'static [&'static str]>,
}

impl Library {
    /// The `library = "..."` name the proc-macro takes; also the manifest's file stem.
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }
}

/// The CUDA runtime.
pub const CUDART: Library = Library {
    kind: LibraryKind::Cudart,
    header: "cuda_runtime_api.h",
    interop_headers: &[
        "cuda_gl_interop.h",
        "cuda_vdpau_interop.h",
        "cuda_egl_interop.h",
    ],
    crate_dir: "stubs-cudart",
    library_file: Some("cudart"),
    versioned_names: None,
    functions: "cuda.*|__cuda.*",
    extra_types: "uint3|dim3|cudaStream_t|cudaError_t",
    hand_written: &[
        "cudaGetErrorName",
        "cudaGetErrorString",
        // ABI adapters (stubs-cudart/src/adapters/): translate between CUDA majors.
        "cudaGetDeviceProperties",
        "cudaGetDeviceProperties_v2",
        "cudaGraphInstantiate",
        "cudaFuncGetAttributes",
        "cudaPointerGetAttributes",
        "cudaStreamGetCaptureInfo",
        "cudaStreamGetCaptureInfo_ptsz",
        // What 12.x headers call for cudaStreamGetCaptureInfo: 13.x removed the name
        // (stubs-cudart/src/adapters/abi12/cuda_stream_get_capture_info.rs).
        "cudaStreamGetCaptureInfo_v2",
        "cudaStreamGetCaptureInfo_v2_ptsz",
        "cudaMemAdvise",
        "cudaMemPrefetchAsync",
        "cudaMemPrefetchAsync_ptsz",
        "cudaGraphAddDependencies",
        "cudaGraphRemoveDependencies",
        "cudaGraphGetEdges",
        "cudaGraphNodeGetDependencies",
        "cudaGraphNodeGetDependentNodes",
        "cudaGraphAddNode",
        "cudaGraphExecUpdate",
        "cudaGetDriverEntryPoint",
        "cudaGetDriverEntryPoint_ptsz",
        "cudaChooseDevice",
        "cudaStreamUpdateCaptureDependencies",
        "cudaStreamUpdateCaptureDependencies_ptsz",
        "cudaCreateTextureObject",
        "cudaGetTextureObjectResourceDesc",
        "cudaGetTextureObjectTextureDesc",
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
        "cudaMemcpyBatchAsync",
        "cudaMemcpyBatchAsync_ptsz",
        "cudaMemcpy3DBatchAsync",
        "cudaMemcpy3DBatchAsync_ptsz",
        "cudaGraphNodeSetParams",
        "cudaGraphExecNodeSetParams",
        // nvcc's launch path, translated to cudaLaunchKernel on runtimes without it (11.x).
        "__cudaGetKernel",
        "__cudaLaunchKernel",
        "__cudaLaunchKernel_ptsz",
    ],
    // The CUDA 12 versions of the names exported once per ABI (`name@CUDA_STUBS_CUDART_12`):
    // 12.x prototypes, translated for a 13.x runtime (stubs-cudart/src/adapters/abi12/).
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
};

/// NVRTC.
pub const NVRTC: Library = Library {
    kind: LibraryKind::Nvrtc,
    header: "nvrtc.h",
    interop_headers: &[],
    crate_dir: "stubs-nvrtc",
    library_file: Some("nvrtc"),
    versioned_names: None,
    functions: "nvrtc.*|__nvrtc.*",
    extra_types: "nvrtcResult|nvrtcProgram",
    hand_written: &["nvrtcGetErrorString"],
    abi12_hand_written: None,
};

/// The driver API.
pub const CUDA: Library = Library {
    kind: LibraryKind::Cuda,
    header: "cuda.h",
    interop_headers: &["cudaGL.h", "vdpau/vdpau.h", "cudaVDPAU.h", "cudaEGL.h"],
    crate_dir: "stubs-cuda",
    library_file: None,
    versioned_names: None,
    functions: "cu.*|__cu.*",
    extra_types: "CUresult|CUuuid",
    hand_written: &[
        "cuGetErrorName",
        "cuGetErrorString",
        "cuGraphAddNode",
        "cuGraphAddNode_v2",
        "cuGraphExecNodeSetParams",
        "cuGraphNodeSetParams",
    ],
    abi12_hand_written: None,
};

/// nvJitLink (CUDA 12.0 and later): the linker of NVRTC's `-dlto` LTO-IR, PTX and CUBIN into a
/// CUBIN. Its header binds each call, through a static inline wrapper, to the ABI name of the
/// header's own version (`nvJitLinkCreate` → `__nvJitLinkCreate_13_5`); the libraries export
/// every such name of their major up to their own minor and, from 12.3, the plain names.
pub const NVJITLINK: Library = Library {
    kind: LibraryKind::NvJitLink,
    header: "nvJitLink.h",
    interop_headers: &[],
    crate_dir: "stubs-nvjitlink",
    library_file: Some("nvjitlink"),
    versioned_names: Some(VersionedNames { prefix: "__" }),
    functions: "nvJitLink.*|__nvJitLink.*",
    extra_types: "nvJitLinkResult|nvJitLinkHandle|nvJitLinkInputType",
    hand_written: &[],
    abi12_hand_written: None,
};

/// Where codegen writes a stub crate's Rust sources: `<crate_dir>/src/generated/`, apart from
/// the hand-written ones (the crate's `lib.rs` declares them in its `mod generated`).
pub fn generated_dir(root: &Path, crate_dir: &str) -> PathBuf {
    root.join(crate_dir).join("src").join("generated")
}

/// All four, in the order codegen writes them.
pub const ALL: [Library; 4] = [CUDART, NVRTC, CUDA, NVJITLINK];

//! cuDNN 9, libcudnn (`cudnn.h`, which includes `cudnn_version.h`, `cudnn_graph.h`,
//! `cudnn_ops.h`, `cudnn_cnn.h`, `cudnn_adv.h`; 9.27's also `cudnn_subquadratic_ops.h` and
//! `cudnn_gnn_ops.h`): NVIDIA's deep-learning primitives, versioned on its own. NVIDIA's wheels
//! are `nvidia-cudnn-cu11` 9.10.2.21 (cuDNN's last CUDA 11 build), `-cu12` and `-cu13`
//! 9.27.0.42, all in `nvidia/cudnn/lib` of a `site-packages`.
//!
//! **One soname, one version, two releases.** Every major ships the front library as
//! `libcudnn.so.9`, and the CUDA 12 and 13 wheels hold the same cuDNN (`cudnnGetVersion` 92700
//! in both); `cudnnGetCudartVersion` answers the runtime it was built with and linked statically
//! (11080, 12090, 13040 in the three wheels: [`VersionProbe::Returned`]), which is how the stub
//! learns its release and holds it to the process's.
//!
//! **The front library and its sub-libraries.** `libcudnn.so.9` (about 130 KB) is only a
//! dispatcher: each of its exports loads the sub-library that implements it (`cudnn_graph.h`'s
//! functions from `libcudnn_graph.so.9`, `cudnn_ops.h`'s from `libcudnn_ops.so.9`, `_cnn`,
//! `_adv`, and 9.27's `_ext` for the subquadratic and GNN operations) by its `$ORIGIN` RPATH
//! at its first call, and jumps there; the graph sub-library loads the engine libraries
//! (`_engines_precompiled`, `_engines_runtime_compiled`, `_heuristic`) itself. Without
//! `libcudnn_graph.so.9` every export, `cudnnGetVersion` included, prints "Invalid handle.
//! Cannot load symbol" and calls `abort()` (all three wheels); without another sub-library its
//! functions answer `CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE`. So the graph library is
//! the front library's [`RealLibrary::lazy_dependency`]: loaded before the stub calls anything,
//! a copy without it rejected. The stub stands for the front library only: programs load
//! `libcudnn.so.9` (PyTorch's `_load_global_deps` and its `libtorch_cuda.so`; cudnn-frontend,
//! header-only, calls the linked API or, with `NV_CUDNN_FRONTEND_USE_DYNAMIC_LOADING`, the
//! `cudnn_dlhandle` a program sets from `dlopen("libcudnn.so.9")`), and nothing calls a
//! sub-library by its own soname. Some builds do *link* them: cudnn-frontend's
//! `cmake/cuDNN.cmake` target `CUDNN::cudnn_all` links every sub-library after `cudnn`, and ONNX
//! Runtime's CUDA provider had all seven in its `DT_NEEDED` until microsoft/onnxruntime#23656
//! (2025); every symbol resolves to the front library, which comes first. Their link names
//! are therefore the stub's too ([`Packaging::link_names`]), so such a build records the stub
//! alone.
//!
//! On Windows (NVIDIA's `win_amd64` wheels of the same versions) the front DLL is
//! `cudnn64_9.dll` and its graph sub-library `cudnn_graph64_9.dll`, both in `nvidia/cudnn/bin`,
//! the same rule holding: the graph DLL is loaded from beside the candidate first.

use super::cudart::CUDART;
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// Where every major's wheel (`nvidia-cudnn-cu11`, `-cu12`, `-cu13`) puts it, with its
/// sub-libraries: the CUDA 13 wheel too (not `nvidia/cu13/lib`).
const CUDNN_LIB: &CStr = c"nvidia/cudnn/lib";

/// cuDNN.
pub const CUDNN: Library = Library {
    kind: LibraryKind::Cudnn,
    real: &RealLibrary {
        name: "cudnn",
        // One soname for every major (9.10.2.21 / 9.27.0.42 / 9.27.0.42): major 0, the version
        // function says which release.
        sonames: &[Soname {
            name: c"libcudnn.so.9",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_CUDNN_PATH",
        wheel_dirs: &[CUDNN_LIB],
        // `size_t cudnnGetCudartVersion(void)`: the CUDA runtime cuDNN was built with and links
        // statically, `1000 * major + 10 * minor` (11080, 12090, 13040 in the three wheels);
        // needs no handle and no GPU. (`cudnnGetVersion` is cuDNN's own, 92700 in two majors,
        // in the debug log.)
        version: VersionProbe::Returned(c"cudnnGetCudartVersion"),
        gating: Gating::Exact,
        companion: None,
        // Every export of the front library, the version function included, jumps into the
        // graph sub-library and aborts without it (see the module's documentation).
        lazy_dependency: Some(c"libcudnn_graph.so.9"),
        // Its runtime is linked in statically, but cuDNN works on the program's streams and
        // device memory, and its sub-libraries load the major's cuBLAS(Lt) and NVRTC by soname
        // (`libcublasLt.so.12`): the process's release.
        same_release_as: &[CUDART.real],
        // Needs a device: loads the driver itself at its first call that needs one.
        driver: DriverUse::Loads,
        mock: MockUse::NoLibrary,
        windows: Some(&WindowsDlls {
            // NVIDIA's win_amd64 wheels of the same versions: `cudnn64_9.dll` in every major
            // (the version says which), with its sub-libraries (`cudnn_graph64_9.dll`,
            // `cudnn_ops64_9.dll` ...) in `nvidia/cudnn/bin`, 13.x's too. It imports only
            // KERNEL32.dll: like the Linux one it loads its sub-libraries itself.
            dlls: &[Soname {
                name: c"cudnn64_9.dll",
                major: 0,
            }],
            wheel_dirs: &[c"nvidia/cudnn/bin"],
            // Not part of the CUDA toolkit (its installer's own folder, which the override
            // names): the wheels, conda's `Library\bin`, the safe DLL search.
            toolkit_dirs: &[],
            companion: None,
            // As on Linux: the front DLL cannot run without its graph sub-library.
            lazy_dependency: Some(c"cudnn_graph64_9.dll"),
            // The front and graph DLLs: 0.1 + 0.9, 0.1 + 40 and 0.1 + 48 MB compressed of the
            // 390, 743 and 436 MB wheels.
            fetched: true,
            release_named: None,
        }),
    },
    status_type: "cudnnStatus_t",
    // cuDNN has no status for "library missing"; for a function missing it aborts.
    errors: TypedErrors {
        // "cuDNN library not initialized": what the real `cudnnCreate` answers when CUDA cannot
        // be set up (no driver, no GPU: all three wheels, with "cudaGetDeviceCount(&count) !=
        // cudaSuccess" as the last error), defined by every cuDNN. A program treats a missing
        // cuDNN as cuDNN unusable on this machine. (`CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED`
        // would say it more literally, but only from 9.2, and no front library answers it.)
        no_library: StatusCode {
            name: "CUDNN_STATUS_NOT_INITIALIZED",
            value: 1001,
        },
        // A function the loaded version lacks (9.10.2 has no `cudnnCausalConv1dForward`): the
        // real front library aborts where its sub-library lacks a name; NVIDIA's cudnn-frontend
        // answers `CUDNN_STATUS_VERSION_MISMATCH` for a backend function the cuDNN it was built
        // with lacks (`populate_cuda_graph` before 9.5), the deprecated alias of this value.
        absent: StatusCode {
            name: "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH",
            value: 1002,
        },
    },
    crate_name: "stubs-cudnn",
    header: "cudnn.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "cudnn.*",
    extra_types: "cudnnStatus_t|cudnnHandle_t",
    exports: ExportSource::Wheels,
    // `void cudnnGetLastErrorString(char *message, size_t max_size)` writes into the caller's
    // buffer: without a library the stub writes the search's summary there.
    hand_written: &["cudnnGetLastErrorString"],
    counts_negate_status: false,
    last_error: None,
    // `cudnnGetErrorString` answers the enumerator's name (`CUDNN_STATUS_NOT_INITIALIZED`).
    error_texts: &[ErrorText {
        function: "cudnnGetErrorString",
        text: TextKind::Name,
        abi: TextAbi::Returned,
    }],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    // The newest cuDNN 9 of each major's wheel (cu12 and cu13 have 9.28 since; the issue pins
    // 9.27.0.42). Only the front library, its graph sub-library (the lazy dependency, without
    // which it cannot be called) and the headers are read off the index, 17, 59 and 67 MB of
    // the 397, 766 and 537 MB wheels (5, 117 and 136 MB unpacked); the other sub-libraries are
    // for a GPU. NVIDIA publishes no aarch64 `nvidia-cudnn-cu11`.
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-cudnn-cu11==9.10.2.21",
            lib_dir: CUDNN_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-cudnn-cu12==9.27.0.42",
            lib_dir: CUDNN_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-cudnn-cu13==9.27.0.42",
            lib_dir: CUDNN_LIB,
            unpack: Unpack::LibraryAndHeaders,
        },
    ],
    packaging: Packaging {
        stands_for: "cuDNN (libcudnn)",
        cmake_target: "cudnn",
        // FindCUDAToolkit has no cuDNN target (CMake 3.17 – 4.x): projects link `cudnn` by
        // name, `find_library`, or cudnn-frontend's `CUDNN::cudnn_all`, which also links every
        // sub-library (see the module's documentation); all of them name the stub. No static
        // name: cuDNN's static libraries are linked whole, engines included.
        toolkit_targets: &[],
        link_names: &[
            LinkName::Shared("cudnn"),
            LinkName::Shared("cudnn_graph"),
            LinkName::Shared("cudnn_ops"),
            LinkName::Shared("cudnn_cnn"),
            LinkName::Shared("cudnn_adv"),
            LinkName::Shared("cudnn_ext"),
            LinkName::Shared("cudnn_engines_runtime_compiled"),
            LinkName::Shared("cudnn_engines_precompiled"),
            LinkName::Shared("cudnn_heuristic"),
        ],
        compat_majors: &[],
    },
};

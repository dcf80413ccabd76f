//! NPP, NVIDIA 2D Performance Primitives (`npp.h`; CUDA 11.8, 12.x, 13.x): eleven libraries,
//! each stubbed by its own `libstubs_<name>.so` so that NVIDIA's link names map one to one
//! (`-lnppc -lnppial`, FindCUDAToolkit's `CUDA::nppc`, `CUDA::nppial` …): the core, `libnppc`
//! (`nppcore.h`), which every other one needs (`DT_NEEDED libnppc.so.<major>`), nine image
//! libraries (`nppi_*.h`) and the signal library, `libnpps` (`npps_*.h`). Each library's exports
//! are those of its header, checked against every wheel's export table (`nm -D
//! --defined-only`); `libnppist` also holds `nppi_linear_transforms.h`'s.
//!
//! What they share is written once, here: the wheels (one per major holds all eleven:
//! `nvidia-npp-cu11` 11.8.0.86, `-cu12` 12.4.1.87, `nvidia-npp` 13.2.0.58), a soname per
//! CUDA major (`libnppc.so.11`, `.12`, `.13`: the loader refuses another release's copy by its
//! name, before `dlopen`), the status type and typed errors, the packaging names. Each spec is
//! built by `npp_library!` from what differs: its name, headers and anchors.
//!
//! NPP 12.x deprecated and 13.0 removed the variants without a stream context
//! (`nppiAdd_8u_C1RSfs`; `nppiAdd_8u_C1RSfs_Ctx` stays): the stubs export every name of every
//! major, and a function the loaded major lacks is `NPP_NOT_IMPLEMENTED_ERROR`.

use super::cudart::CUDART;
use super::{CU13_BIN, CU13_LIB, TOOLKIT_BIN};
use crate::{
    DriverUse, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName, MockUse,
    Packaging, RealLibrary, Soname, StatusCode, TestWheel, TypedErrors, Unpack, VersionProbe,
    WindowsDlls,
};
use core::ffi::CStr;

/// Where the 11.x and 12.x wheels (`nvidia-npp-cu11`, `-cu12`) put them.
const NPP_LIB: &CStr = c"nvidia/npp/lib";

/// Where the 11.x and 12.x `win_amd64` wheels put the DLLs (one folder for all eleven, as on
/// Linux: each image and signal DLL's import of `nppc64_<major>.dll` is found beside it).
const NPP_BIN: &CStr = c"nvidia/npp/bin";

/// One of NPP's eleven libraries: its spec is [`NppLibrary::spec`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NppLibrary {
    /// `libnppc`, [`NPPC`].
    Nppc,
    /// `libnppial`, [`NPPIAL`].
    Nppial,
    /// `libnppicc`, [`NPPICC`].
    Nppicc,
    /// `libnppidei`, [`NPPIDEI`].
    Nppidei,
    /// `libnppif`, [`NPPIF`].
    Nppif,
    /// `libnppig`, [`NPPIG`].
    Nppig,
    /// `libnppim`, [`NPPIM`].
    Nppim,
    /// `libnppist`, [`NPPIST`].
    Nppist,
    /// `libnppisu`, [`NPPISU`].
    Nppisu,
    /// `libnppitc`, [`NPPITC`].
    Nppitc,
    /// `libnpps`, [`NPPS`].
    Npps,
}

impl NppLibrary {
    /// Its spec.
    pub const fn spec(self) -> &'static Library {
        match self {
            Self::Nppc => &NPPC,
            Self::Nppial => &NPPIAL,
            Self::Nppicc => &NPPICC,
            Self::Nppidei => &NPPIDEI,
            Self::Nppif => &NPPIF,
            Self::Nppig => &NPPIG,
            Self::Nppim => &NPPIM,
            Self::Nppist => &NPPIST,
            Self::Nppisu => &NPPISU,
            Self::Nppitc => &NPPITC,
            Self::Npps => &NPPS,
        }
    }
}

/// `s`, which ends in NUL, as a C string: a soname made with `concat!` cannot be a `c""`
/// literal.
const fn c_str(s: &'static str) -> &'static CStr {
    match CStr::from_bytes_with_nul(s.as_bytes()) {
        Ok(c) => c,
        Err(_) => panic!("a soname ends in NUL"),
    }
}

/// NPP has no status for "library missing" or "function missing"; the values are the same in
/// all three majors' `nppdefs.h` (unlike `NPP_NOT_SUPPORTED_MODE_ERROR`, -9999 in 11.x and
/// 12.x, -14 in 13.x).
const ERRORS: TypedErrors = TypedErrors {
    // What the real libraries answer when CUDA cannot run (no driver, no GPU: their kernels'
    // launch fails; `nppiSet_8u_C1R_Ctx`, `nppiAddC_8u_C1RSfs_Ctx` in all three wheels,
    // `nppiResize_8u_C1R_Ctx` in 13.2): a program treats a missing NPP as a machine without
    // CUDA. (`nppSetStream` answers -1027, `NPP_NOT_SUFFICIENT_COMPUTE_CAPABILITY`, there.)
    no_library: StatusCode {
        name: "NPP_CUDA_KERNEL_EXECUTION_ERROR",
        value: -1000,
    },
    // Literally the case of a function the loaded NPP lacks (13.x's of `nppiAdd_8u_C1RSfs`).
    absent: StatusCode {
        name: "NPP_NOT_IMPLEMENTED_ERROR",
        value: -3,
    },
};

/// Every library's wheels: one per major holds all eleven, and the headers. The libraries are
/// the bulk of a wheel (167 MB, 282 MB and 261 MB for x86-64; 166, 282 and 171 MB for aarch64),
/// and the tests need them all (the export tables; the calls), so reading only them and the
/// headers off the index saves no download, but keeps the wheels out of the cache.
const TEST_WHEELS: &[TestWheel] = &[
    TestWheel {
        major: 11,
        requirement: "nvidia-npp-cu11==11.8.0.86",
        lib_dir: NPP_LIB,
        unpack: Unpack::LibraryAndHeaders,
    },
    TestWheel {
        major: 12,
        requirement: "nvidia-npp-cu12==12.4.1.87",
        lib_dir: NPP_LIB,
        unpack: Unpack::LibraryAndHeaders,
    },
    TestWheel {
        major: 13,
        requirement: "nvidia-npp==13.2.0.58",
        lib_dir: CU13_LIB,
        unpack: Unpack::LibraryAndHeaders,
    },
];

/// The spec of one NPP library, `lib<name>`: what differs between them is given, the rest is
/// NPP's. `windows_fetched` ([`WindowsDlls::fetched`]): whether the wine tests run the DLL stub
/// against NVIDIA's DLL. Only the core and the smallest image library with a call that needs
/// no device (`nppitc`: 1.7 to 4.6 MB compressed) are fetched. Of the other nine, eight are 3
/// to 118 MB each (685 MB of the three majors' 695 with `nppisu`), for stubs that differ from
/// those two only in names, and `nppisu`'s only calls, `nppiMalloc_*`, need a device (13.2's
/// reads through NULL without one, linked normally too).
macro_rules! npp_library {
    (
        $(#[$doc:meta])*
        $spec:ident: $kind:ident {
            name: $name:literal,
            env_path: $env:literal,
            stands_for: $what:literal,
            header: $header:literal,
            interop_headers: $interop:expr,
            same_release_as: $anchors:expr,
            hand_written: $hand:expr,
            windows_fetched: $fetched:expr,
        }
    ) => {
        $(#[$doc])*
        pub const $spec: Library = Library {
            kind: LibraryKind::Npp(NppLibrary::$kind),
            real: &RealLibrary {
                name: $name,
                // Verified in the three wheels: `lib<name>.so.11`, `.12`, `.13`.
                sonames: &[
                    Soname {
                        name: c_str(concat!("lib", $name, ".so.13\0")),
                        major: 13,
                    },
                    Soname {
                        name: c_str(concat!("lib", $name, ".so.12\0")),
                        major: 12,
                    },
                    Soname {
                        name: c_str(concat!("lib", $name, ".so.11\0")),
                        major: 11,
                    },
                ],
                env_path: $env,
                wheel_dirs: &[CU13_LIB, NPP_LIB],
                version: VersionProbe::Soname,
                gating: Gating::Exact,
                companion: None,
                lazy_dependency: None,
                // Every library links the runtime statically (no `libcudart` in `DT_NEEDED`),
                // yet shares streams and device memory with the program's: one CUDA release
                // per process.
                same_release_as: $anchors,
                // Needs a device: loads the driver itself at its first call that needs one.
                driver: DriverUse::Loads,
                mock: MockUse::NoLibrary,
                // NVIDIA's win_amd64 wheels of the same versions: `<name>64_11.dll`, `_12`,
                // `_13`, each linking the runtime statically, as on Linux.
                windows: Some(&WindowsDlls {
                    dlls: &[
                        Soname {
                            name: c_str(concat!($name, "64_13.dll\0")),
                            major: 13,
                        },
                        Soname {
                            name: c_str(concat!($name, "64_12.dll\0")),
                            major: 12,
                        },
                        Soname {
                            name: c_str(concat!($name, "64_11.dll\0")),
                            major: 11,
                        },
                    ],
                    wheel_dirs: &[CU13_BIN, NPP_BIN],
                    toolkit_dirs: TOOLKIT_BIN,
                    companion: None,
                    lazy_dependency: None,
                    fetched: $fetched,
                    release_named: None,
                }),
            },
            status_type: "NppStatus",
            errors: ERRORS,
            crate_name: concat!("stubs-", $name),
            header: $header,
            header_version: HeaderVersion::MajorMinor,
            interop_headers: $interop,
            functions: "npp.*",
            extra_types: "NppStatus",
            exports: ExportSource::Wheels,
            hand_written: $hand,
            counts_negate_status: false,
            last_error: None,
            error_texts: &[],
            abi12_hand_written: None,
            adapter_structs: None,
            adapter_calls: &[],
            versioned_names: None,
            proc_address: None,
            test_wheels: TEST_WHEELS,
            packaging: Packaging {
                stands_for: concat!("NPP ", $what, " (lib", $name, ")"),
                cmake_target: $name,
                // FindCUDAToolkit's `CUDA::<name>` and `CUDA::<name>_static`: the same API.
                toolkit_targets: &[$name, concat!($name, "_static")],
                link_names: &[
                    LinkName::Shared($name),
                    LinkName::Static(concat!($name, "_static")),
                ],
                compat_majors: &[],
            },
        };
    };
}

/// The anchors of every NPP library but the core: the runtime, and `libnppc`, whose soname in
/// their `DT_NEEDED` (`libnppc.so.12`) says their release before `dlopen`, and whose copy the
/// process has mapped decides it. 13.x's libraries have no RUNPATH: the loader loads the
/// `libnppc.so.13` beside a candidate first.
const NPPC_ANCHORS: &[&RealLibrary] = &[CUDART.real, NPPC.real];

npp_library! {
    /// NPP's core, `libnppc` (`nppcore.h`): the library version, and in 11.x and 12.x the
    /// legacy stream and device queries (`nppSetStream`, `nppGetGpuName` …, which 13.x's
    /// header no longer declares; 13.x's file still exports them). Its stub writes two
    /// exports by hand: `nppGetLibVersion` and `nppGetGpuName` answer a pointer that is never
    /// NULL.
    NPPC: Nppc {
        name: "nppc",
        env_path: c"CUDA_STUBS_NPPC_PATH",
        stands_for: "core",
        header: "nppcore.h",
        interop_headers: &[],
        same_release_as: &[CUDART.real],
        hand_written: &["nppGetLibVersion", "nppGetGpuName"],
        windows_fetched: true,
    }
}

npp_library! {
    /// NPP image arithmetic and logical operations, `libnppial`
    /// (`nppi_arithmetic_and_logical_operations.h`).
    NPPIAL: Nppial {
        name: "nppial",
        env_path: c"CUDA_STUBS_NPPIAL_PATH",
        stands_for: "image arithmetic and logical operations",
        header: "nppi_arithmetic_and_logical_operations.h",
        interop_headers: &[],
        same_release_as: NPPC_ANCHORS,
        hand_written: &[],
        windows_fetched: false,
    }
}

npp_library! {
    /// NPP image color conversion, `libnppicc` (`nppi_color_conversion.h`).
    NPPICC: Nppicc {
        name: "nppicc",
        env_path: c"CUDA_STUBS_NPPICC_PATH",
        stands_for: "image color conversion",
        header: "nppi_color_conversion.h",
        interop_headers: &[],
        same_release_as: NPPC_ANCHORS,
        hand_written: &[],
        windows_fetched: false,
    }
}

npp_library! {
    /// NPP image data exchange and initialization, `libnppidei`
    /// (`nppi_data_exchange_and_initialization.h`).
    NPPIDEI: Nppidei {
        name: "nppidei",
        env_path: c"CUDA_STUBS_NPPIDEI_PATH",
        stands_for: "image data exchange and initialization",
        header: "nppi_data_exchange_and_initialization.h",
        interop_headers: &[],
        same_release_as: NPPC_ANCHORS,
        hand_written: &[],
        windows_fetched: false,
    }
}

npp_library! {
    /// NPP image filtering, `libnppif` (`nppi_filtering_functions.h`).
    NPPIF: Nppif {
        name: "nppif",
        env_path: c"CUDA_STUBS_NPPIF_PATH",
        stands_for: "image filtering",
        header: "nppi_filtering_functions.h",
        interop_headers: &[],
        same_release_as: NPPC_ANCHORS,
        hand_written: &[],
        windows_fetched: false,
    }
}

npp_library! {
    /// NPP image geometry transforms, `libnppig` (`nppi_geometry_transforms.h`).
    NPPIG: Nppig {
        name: "nppig",
        env_path: c"CUDA_STUBS_NPPIG_PATH",
        stands_for: "image geometry transforms",
        header: "nppi_geometry_transforms.h",
        interop_headers: &[],
        same_release_as: NPPC_ANCHORS,
        hand_written: &[],
        windows_fetched: false,
    }
}

npp_library! {
    /// NPP image morphological operations, `libnppim` (`nppi_morphological_operations.h`).
    NPPIM: Nppim {
        name: "nppim",
        env_path: c"CUDA_STUBS_NPPIM_PATH",
        stands_for: "image morphological operations",
        header: "nppi_morphological_operations.h",
        interop_headers: &[],
        same_release_as: NPPC_ANCHORS,
        hand_written: &[],
        windows_fetched: false,
    }
}

npp_library! {
    /// NPP image statistics, `libnppist` (`nppi_statistics_functions.h`), which also exports
    /// the linear transforms (`nppi_linear_transforms.h`: `nppiMagnitude_32fc32f_C1R_Ctx` …).
    NPPIST: Nppist {
        name: "nppist",
        env_path: c"CUDA_STUBS_NPPIST_PATH",
        stands_for: "image statistics",
        header: "nppi_statistics_functions.h",
        interop_headers: &["nppi_linear_transforms.h"],
        same_release_as: NPPC_ANCHORS,
        hand_written: &[],
        windows_fetched: false,
    }
}

npp_library! {
    /// NPP image memory support, `libnppisu` (`nppi_support_functions.h`: `nppiMalloc_*`,
    /// `nppiFree`).
    NPPISU: Nppisu {
        name: "nppisu",
        env_path: c"CUDA_STUBS_NPPISU_PATH",
        stands_for: "image memory support",
        header: "nppi_support_functions.h",
        interop_headers: &[],
        same_release_as: NPPC_ANCHORS,
        hand_written: &[],
        windows_fetched: false,
    }
}

npp_library! {
    /// NPP image threshold and compare operations, `libnppitc`
    /// (`nppi_threshold_and_compare_operations.h`).
    NPPITC: Nppitc {
        name: "nppitc",
        env_path: c"CUDA_STUBS_NPPITC_PATH",
        stands_for: "image threshold and compare operations",
        header: "nppi_threshold_and_compare_operations.h",
        interop_headers: &[],
        same_release_as: NPPC_ANCHORS,
        hand_written: &[],
        windows_fetched: true,
    }
}

npp_library! {
    /// NPP signal processing, `libnpps` (`npps.h`, which includes every `npps_*.h`).
    NPPS: Npps {
        name: "npps",
        env_path: c"CUDA_STUBS_NPPS_PATH",
        stands_for: "signal processing",
        header: "npps.h",
        interop_headers: &[],
        same_release_as: NPPC_ANCHORS,
        hand_written: &[],
        windows_fetched: false,
    }
}

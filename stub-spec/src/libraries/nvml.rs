//! NVML, libnvidia-ml (`nvml.h`, CUDA 11.8, 12.x, 13.x): the management library, which ships
//! with the driver as `libnvidia-ml.so.1`, like libcuda, and whose headers come in NVIDIA's
//! header-only `nvidia-nvml-dev` wheels.

use super::CU13_LIB;
use crate::{
    DriverUse, ErrorText, ExportSource, Gating, HeaderVersion, Library, LibraryKind, LinkName,
    MockUse, Packaging, RealLibrary, Soname, StatusCode, TestWheel, TextAbi, TextKind, TypedErrors,
    Unpack, VersionProbe, WindowsDlls,
};
use core::ffi::CStr;

/// The folder beside the 11.x and 12.x wheels' `include` (`nvidia-nvml-dev-cu11`, `-cu12`
/// ship `nvidia/nvml_dev/include/nvml.h` and no library).
const NVML_DEV_LIB: &CStr = c"nvidia/nvml_dev/lib";

/// NVML.
pub const NVML: Library = Library {
    kind: LibraryKind::Nvml,
    real: &RealLibrary {
        name: "nvml",
        // One soname for every driver (verified on driver 580.159.04).
        sonames: &[Soname {
            name: c"libnvidia-ml.so.1",
            major: 0,
        }],
        env_path: c"CUDA_STUBS_NVML_PATH",
        // The driver's library, never in a wheel.
        wheel_dirs: &[],
        // `nvmlSystemGetNVMLVersion` answers before `nvmlInit` (`13.580.159.04`: the CUDA major
        // the driver serves, then its branch); the stub never calls `nvmlInit` itself, which
        // would change the library's reference count under the program.
        version: VersionProbe::DottedString(c"nvmlSystemGetNVMLVersion"),
        // A newer driver keeps every entry point of older headers.
        gating: Gating::AtLeast,
        companion: None,
        lazy_dependency: None,
        // NVML serves every release: no anchor.
        same_release_as: &[],
        // Ships with the driver (its version is the driver's): no release of its own to cap.
        driver: DriverUse::OfTheDriver,
        mock: MockUse::Implements,
        // `nvml.dll`, which the driver installs in `System32` (the safe DLL search's place;
        // drivers before 2019 put it in `%ProgramFiles%\NVIDIA Corporation\NVSMI`, which no
        // place here searches: the override finds it there). The toolkit ships only its
        // import library, `nvml.lib`, and no wheel has it.
        windows: Some(&WindowsDlls {
            dlls: &[Soname {
                name: c"nvml.dll",
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
    status_type: "nvmlReturn_t",
    // NVML has codes for both cases: its own words for them.
    errors: TypedErrors {
        // "NVML Shared Library couldn't be found or loaded".
        no_library: StatusCode {
            name: "NVML_ERROR_LIBRARY_NOT_FOUND",
            value: 12,
        },
        // "Local version of NVML doesn't implement this function".
        absent: StatusCode {
            name: "NVML_ERROR_FUNCTION_NOT_FOUND",
            value: 13,
        },
    },
    crate_name: "stubs-nvml",
    header: "nvml.h",
    header_version: HeaderVersion::MajorMinor,
    interop_headers: &[],
    functions: "nvml.*",
    extra_types: "nvmlReturn_t|nvmlDevice_t",
    // libnvidia-ml is in no wheel: the export list of driver 580.159.04, checked in.
    exports: ExportSource::List {
        path: "tests/data/libnvidia-ml-580.159.04-exports.txt",
        label: "libnvidia-ml 580",
    },
    hand_written: &[],
    counts_negate_status: false,
    last_error: None,
    error_texts: &[ErrorText {
        function: "nvmlErrorString",
        text: TextKind::Description,
        abi: TextAbi::Returned,
    }],
    abi12_hand_written: None,
    adapter_structs: None,
    adapter_calls: &[],
    versioned_names: None,
    proc_address: None,
    test_wheels: &[
        TestWheel {
            major: 11,
            requirement: "nvidia-nvml-dev-cu11==11.8.86",
            lib_dir: NVML_DEV_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 12,
            requirement: "nvidia-nvml-dev-cu12==12.9.79",
            lib_dir: NVML_DEV_LIB,
            unpack: Unpack::Whole,
        },
        TestWheel {
            major: 13,
            requirement: "nvidia-nvml-dev==13.5.37",
            lib_dir: CU13_LIB,
            unpack: Unpack::Whole,
        },
    ],
    packaging: Packaging {
        stands_for: "NVML (libnvidia-ml)",
        cmake_target: "nvml",
        toolkit_targets: &["nvml"],
        link_names: &[LinkName::Shared("nvidia-ml")],
        // `libnvidia-ml.so.1` for programs that load NVML by name (pynvml's
        // `CDLL("libnvidia-ml.so.1")`) where the driver's is absent: the mock device, a CPU-only
        // machine. One soname for every release: the file holds CUDA 13's prototypes and the
        // checked-in driver's export list.
        compat_majors: &[13],
    },
};

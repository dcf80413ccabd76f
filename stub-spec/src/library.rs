//! The shape of one library's spec ([`Library`]); the four specs are in [`crate::libraries`].

use crate::{DriverUse, ErrorText, LastErrorReaders};
use crate::{LibraryKind, ReleaseNamed, VersionedNames};
use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use core::ffi::CStr;

/// The older CUDA major whose ABI a two-ABI library ([`Library::abi12_hand_written`] `Some`)
/// exports beside the newest one, under its own ELF version node, with a link-time stub crate
/// of its own ([`Library::link_stub_crate`]).
pub const OLDER_ABI: u32 = 12;

/// Everything about one stubbed library, each fact once. The stub crate reads [`Library::real`]
/// and [`Library::errors`] at compile time; codegen reads the rest (and writes
/// [`Library::test_wheels`] to `scripts/libraries.json` for `scripts/fetch-cuda.py`).
#[derive(Debug, Clone, Copy)]
pub struct Library {
    /// Which library this is.
    pub kind: LibraryKind,
    /// What the runtime needs to find, load and check the real library. A reference to a
    /// struct of its own so that a stub's `LibrarySpec { real: CUDART.real, .. }` links only this
    /// part: `&CUDART.real` would make the compiler emit the whole spec, codegen's lists too.
    pub real: &'static RealLibrary,
    /// The C status type whose functions get typed errors as fallback (`cudaError_t`); for an
    /// API without one whose `int` results have a "not done" value, the path bindgen writes for
    /// `int`, `::core::ffi::c_int` (NVTX: its pushes and pops answer
    /// `NVTX_NO_PUSH_POP_TRACKING` without a tool). Every other result's fallback is its zero.
    pub status_type: &'static str,
    /// The codes the stub returns when it cannot call the real function.
    pub errors: TypedErrors,
    /// The stub crate's cargo package name (`stubs-cublas`); its folder is
    /// [`Library::crate_dir`].
    pub crate_name: &'static str,
    /// The header that declares the API (found in the test wheels' include folders).
    pub header: &'static str,
    /// How the generated files' banner gives the header's version.
    pub header_version: HeaderVersion,
    /// More headers declaring its exports, read after [`Library::header`]: interop headers
    /// (parsed against codegen's GL/EGL/VDPAU shims), or an API's headers its main one does not
    /// include (nvCOMP 5.0's `nvcomp.h` declares `nvcompGetProperties` only, the batched API is
    /// `nvcomp/lz4.h` …).
    pub interop_headers: &'static [&'static str],
    /// Functions to keep from the headers: a bindgen allowlist regex.
    pub functions: &'static str,
    /// Types codegen's hand-written prototypes need beyond what the header's functions use
    /// (a bindgen allowlist regex).
    pub extra_types: &'static str,
    /// Where the list of names the stub exports comes from.
    pub exports: ExportSource,
    /// Exports the stub crate implements by hand (the macro declares them, the crate defines
    /// them), besides [`Library::abi12_hand_written`]'s ([`Library::is_hand_written`] asks
    /// both).
    pub hand_written: &'static [&'static str],
    /// Whether the functions returning `ssize_t` (`isize`) answer a count or, failing, one of
    /// the library's status codes negated (cuFile's `cuFileRead`: the bytes read, or
    /// `-CU_FILE_*`): refused, they answer the typed error negated
    /// ([`crate::RetKind::NegatedStatus`]: `-5001` with no cuFile) instead of the 0 of a plain
    /// integer, which a program would take for "nothing transferred".
    pub counts_negate_status: bool,
    /// The exports that describe a status code in words ([`ErrorText`]), implemented once for
    /// every library by the macro and `stub_loader::error_text`, never by the stub crate (so never
    /// in [`Library::hand_written`]); codegen writes the status table they read
    /// (`src/generated/status_texts.rs`) for a library that has any.
    pub error_texts: &'static [ErrorText],
    /// The API's per-thread last error, where it has one: its readers (the runtime's
    /// `cudaGetLastError` and `cudaPeekAtLastError`), which also answer the calls the stub, or a
    /// compatibility library, did not make. `None` for the APIs whose calls only return codes.
    pub last_error: Option<LastErrorReaders>,
    /// `Some`: the library also exports CUDA 12's ABI, under ELF symbol versions, for the names
    /// whose 12.x and 13.x ABIs differ; the list names the ones whose CUDA 12 version the stub
    /// crate implements by hand (the others are forwarded where the runtime has that ABI,
    /// refused elsewhere), each hand-written in its newest version too (not repeated in
    /// [`Library::hand_written`]). `None`: one definition per name.
    pub abi12_hand_written: Option<&'static [&'static str]>,
    /// `Some`: the crate has hand-written ABI adapters, and codegen writes their tables:
    /// `abi_fns.rs` (each major's prototypes of the entry points they call, as function-pointer
    /// types) and `abi_types.rs` (the older majors' layouts of the listed structs where they
    /// differ from the newest, and the newest sizes of every struct the adapters pass). The
    /// list names the structs the adapters translate between layouts; a struct whose layout
    /// differs but that the adapters pass unchanged (one spelled differently, or read alike)
    /// stays out, and `abi_fns.rs` documents it at each prototype that takes it.
    pub adapter_structs: Option<&'static [&'static str]>,
    /// Entry points the hand-written adapters call that are no hand-written export's sibling
    /// (codegen's `abi_fns.rs` types them with the rest): the runtime's
    /// `cudaGraphInstantiateWithFlags`. Empty for most libraries.
    pub adapter_calls: &'static [&'static str],
    /// How the library names one function's per-version ABI entry points, if it does.
    pub versioned_names: Option<VersionedNames>,
    /// `Some`: entry points are resolved through the library's own getter first; codegen writes
    /// `proc_address.rs`, the request of each ABI name.
    pub proc_address: Option<ProcAddressSource>,
    /// NVIDIA's pip wheels holding the real library and its headers, one per major, oldest
    /// first: what `scripts/fetch-cuda.py` unpacks for codegen and the tests. Empty when no
    /// wheel ships the library or its header (the driver: `cuda.h` ships in the runtime's
    /// wheel). For a library with a checked-in export list ([`ExportSource::List`]: it ships
    /// with the driver), header-only wheels (NVML's `nvidia-nvml-dev`).
    pub test_wheels: &'static [TestWheel],
    /// How the stub is named to build systems: the CMake package's targets, FindCUDAToolkit's
    /// targets the switch points at it, pkg-config's description. Codegen writes the packaging
    /// lists from it (`packaging/cmake/cuda-stubs-libraries.cmake`, the `.pc.in` files,
    /// `python/cuda_stubs/_libraries.py`).
    pub packaging: Packaging,
}

/// The stub crates kept at the workspace's top level ([`Library::crate_dir`]): the three the
/// product's design card names, and the runtime's link-time stub beside its own.
pub const TOP_LEVEL_CRATES: &[&str] = &[
    "stubs-cudart",
    "stubs-cudart-abi12",
    "stubs-nvrtc",
    "stubs-cuda",
];

/// The folder of the stub crate (or link-time stub crate) named `crate_name`, relative to the
/// workspace root: itself for [`TOP_LEVEL_CRATES`], `stubs/<name>` for the others.
pub fn crate_dir_of(crate_name: &str) -> String {
    if TOP_LEVEL_CRATES.contains(&crate_name) {
        return crate_name.to_owned();
    }
    let name = crate_name.strip_prefix("stubs-").unwrap_or(crate_name);
    format!("stubs/{name}")
}

impl Library {
    /// The link-time stub crate for callers built against [`OLDER_ABI`]'s headers, for a library
    /// exporting two ABIs: `stubs-cudart-abi12`, which builds `libstubs_cudart_abi12.so`
    /// (SONAME the main stub's, so programs linked to it run on the main stub). `None` for a
    /// library with one ABI.
    pub fn link_stub_crate(&self) -> Option<String> {
        self.abi12_hand_written
            .map(|_| format!("{}-abi{OLDER_ABI}", self.crate_name))
    }

    /// The stub crate's folder, relative to the workspace root: the crates of the runtime,
    /// NVRTC and the driver (and the runtime's link-time stub) at the top level, beside the
    /// crates that make the product, as the design card lays it out ([`TOP_LEVEL_CRATES`]);
    /// every other library's under `stubs/` (`stubs-cublas` in `stubs/cublas/`).
    pub fn crate_dir(&self) -> String {
        crate_dir_of(self.crate_name)
    }

    /// Whether the stub crate implements `name` by hand in the newest ABI: listed in
    /// [`Library::hand_written`] or [`Library::abi12_hand_written`] (whose names are hand-written
    /// in both versions).
    pub fn is_hand_written(&self, name: &str) -> bool {
        self.hand_written.contains(&name)
            || self
                .abi12_hand_written
                .is_some_and(|older| older.contains(&name))
    }

    /// The stub's file name, also its SONAME: `libstubs_<name>.so` (the stub crate's `[lib]`
    /// name is `stubs_<name>`; codegen checks it). Never a name starting like NVIDIA's.
    pub fn stub_file(&self) -> String {
        self.real.stub_file()
    }

    /// The link-time stub's file name, `libstubs_<name>_abi12.so` (SONAME: [`Library::stub_file`]),
    /// for a library exporting two ABIs; `None` for a library with one.
    pub fn link_stub_file(&self) -> Option<String> {
        self.abi12_hand_written
            .map(|_| format!("libstubs_{}_abi{OLDER_ABI}.so", self.name()))
    }

    /// The Windows stub's name, `stubs_<name>` (the crate's `[lib]` name): the DLL
    /// `stubs_<name>.dll`, its import libraries `stubs_<name>.lib` (MSVC) and
    /// `libstubs_<name>.dll.a` (MinGW), its `.def` file. `None` for a library without a Windows
    /// stub ([`RealLibrary::windows`]).
    pub fn windows_stub(&self) -> Option<String> {
        self.real.windows.map(|_| format!("stubs_{}", self.name()))
    }

    /// The import libraries' name of the Windows stub's [`OLDER_ABI`] view, `stubs_<name>_abi12`
    /// (`.lib`, `lib….dll.a`, `.def`: names whose prototype differs imported from their CUDA 12
    /// export of the one DLL), for a two-ABI library with a Windows stub; `None` otherwise. The
    /// Windows counterpart of [`Library::link_stub_file`].
    pub fn windows_link_stub(&self) -> Option<String> {
        self.windows_stub()
            .filter(|_| self.abi12_hand_written.is_some())
            .map(|stem| format!("{stem}_abi{OLDER_ABI}"))
    }

    /// The pkg-config module of the stub: `cuda-stubs-<name>` (a two-ABI library also has
    /// `cuda-stubs-<name>-<major>` for each of its ABIs).
    pub fn pkg_config_module(&self) -> String {
        format!("cuda-stubs-{}", self.name())
    }

    /// The CUDA majors whose headers' ABI a two-ABI library exports, oldest first:
    /// [`OLDER_ABI`] and its newest soname's major (`[12, 13]`: `libstubs_<name>.so`'s default
    /// is the last). Empty for a library with one ABI.
    pub fn abis(&self) -> alloc::vec::Vec<u32> {
        let newest = self.real.sonames.iter().map(|s| s.major).max();
        match (self.abi12_hand_written, newest) {
            (Some(_), Some(newest)) => alloc::vec![OLDER_ABI, newest],
            _ => alloc::vec::Vec::new(),
        }
    }

    /// The real library as the status API's documentation names it: the soname when there is
    /// one (`libcuda.so.1`), else the sonames' common stem (`libcudart`).
    pub fn real_label(&self) -> &'static str {
        let first = self.real.sonames.first().map(|s| s.name.to_bytes());
        let Some(Ok(first)) = first.map(core::str::from_utf8) else {
            return self.name();
        };
        if self.real.sonames.len() == 1 {
            return first;
        }
        first.split(".so").next().unwrap_or(first)
    }

    /// The `library = "..."` name the proc-macro takes; also the manifest's file stem and the
    /// `layout.json` key of the real library's path.
    pub const fn name(&self) -> &'static str {
        self.real.name
    }

    /// The soname of `major` (`libcudart.so.11.0` for 11), if the library has that major; else a
    /// soname of several majors (major 0: `libcurand.so.10`, `libcuda.so.1`, cuSPARSE's
    /// `libcusparse.so.12` of 12.x and 13.x).
    pub fn soname(&self, major: u32) -> Option<&'static CStr> {
        self.real
            .sonames
            .iter()
            .find(|s| s.major == major)
            .or_else(|| self.real.sonames.iter().find(|s| s.major == 0))
            .map(|s| s.name)
    }

    /// The Windows DLL of `major` (`cufft64_11.dll` for 12), as [`Library::soname`] gives the
    /// soname: that major's, else one of several majors (`curand64_10.dll`; cuSPARSE's
    /// `cusparse64_12.dll` of 12.x and 13.x); `None` without a Windows stub.
    pub fn windows_dll(&self, major: u32) -> Option<&'static CStr> {
        let dlls = self.real.windows?.dlls;
        dlls.iter()
            .find(|s| s.major == major)
            .or_else(|| dlls.iter().find(|s| s.major == 0))
            .map(|s| s.name)
    }
}

/// What the loader needs to know to find, load and version-check one real library.
#[derive(Debug, Clone, Copy)]
pub struct RealLibrary {
    /// Short name used in messages, the debug log and `library = "..."`: `cudart`, `nvrtc`,
    /// `cuda`, `nvjitlink`.
    pub name: &'static str,
    /// Candidate sonames, newest major first.
    pub sonames: &'static [Soname],
    /// Environment variable holding an absolute path to the library or to its directory
    /// (`CUDA_STUBS_<NAME>_PATH`).
    pub env_path: &'static CStr,
    /// Directories, relative to a `site-packages`, where NVIDIA's wheels put the library.
    pub wheel_dirs: &'static [&'static CStr],
    /// How to learn the version once loaded.
    pub version: VersionProbe,
    /// How the loaded major gates symbols.
    pub gating: Gating,
    /// A library the real one `dlopen`s by bare name from its own directory, preloaded from
    /// there when the real library was found by path (`libnvrtc-builtins.so.` + `13.0`: NVRTC
    /// 13.x has no `$ORIGIN` RUNPATH, so outside `LD_LIBRARY_PATH` it cannot find it alone).
    /// The version's `major.minor` is appended.
    pub companion: Option<&'static str>,
    /// A library the real one `dlopen`s itself at its first call (not in its `DT_NEEDED`) and
    /// cannot run without: cuDNN 9's front library `libcudnn.so.9` forwards every export,
    /// `cudnnGetVersion` included, into `libcudnn_graph.so.9`, found by its `$ORIGIN` RPATH,
    /// and calls `abort()` when that cannot be loaded. The loader loads it before it calls the
    /// candidate at all (its version probe included): the copy the process has under that
    /// soname, else the file beside the candidate, else the system loader's search; a candidate
    /// for which none loads is rejected, never called. `None`: everything the library needs is
    /// in its `DT_NEEDED`.
    pub lazy_dependency: Option<&'static CStr>,
    /// The libraries whose loaded copy fixes the CUDA release this one must come from (one
    /// CUDA release per process): for cuRAND, the runtime, which 13.5's `libcurand.so.10`
    /// needs (`DT_NEEDED libcudart.so.13`) and which 11.x/12.x's link statically. Before its
    /// search the stub reads which of their sonames the process has mapped, else which release
    /// the other libraries naming the same anchors have mapped (never having another stub
    /// search: a process with a static runtime gets no second one); a candidate of another
    /// major is rejected, before `dlopen` when its soname or `DT_NEEDED` says so, else by its
    /// version. An anchor's own stub takes the release of the libraries naming it that the
    /// process has mapped. Empty: no anchor (the runtime, NVRTC, nvJitLink and the driver).
    pub same_release_as: &'static [&'static RealLibrary],
    /// What the library has to do with the CUDA driver ([`DriverUse`]): whether the driver's
    /// CUDA version caps the release bound (a copy of a major the driver cannot run,
    /// [`crate::driver_runs`], is refused), and whether the library loads the driver itself, so
    /// that its stub may load it first to learn that version: the runtime and every library
    /// that needs a device ([`DriverUse::Loads`]), never a compiler ([`DriverUse::CompileOnly`]:
    /// NVRTC, nvJitLink, nvFatbin); the driver and NVML are of the driver
    /// ([`DriverUse::OfTheDriver`]).
    pub driver: DriverUse,
    /// What the stub binds under `CUDA_STUBS_MOCK`: the mock device, the real library, or
    /// nothing ([`MockUse`](crate::MockUse)).
    pub mock: crate::MockUse,
    /// How the library is named and found on Windows ([`WindowsDlls`]); `None`: no Windows
    /// stub (NCCL: NVIDIA ships no Windows build).
    pub windows: Option<&'static WindowsDlls>,
}

/// A real library on Windows, where the file name carries the major (`cudart64_12.dll`) and
/// there is no soname: what the Windows search (`stub-loader/src/os/windows/places.rs`) tries.
#[derive(Debug, Clone, Copy)]
pub struct WindowsDlls {
    /// The DLL names, newest major first, each with its CUDA major (`cudart64_13.dll` 13,
    /// `cudart64_12.dll` 12, `cudart64_110.dll` 11; the driver's `nvcuda.dll` 0).
    pub dlls: &'static [Soname],
    /// Folders, relative to a `site-packages`, where NVIDIA's `win_amd64` wheels put the DLLs
    /// (`nvidia/cu13/bin/x86_64` for 13.x, `nvidia/cuda_runtime/bin` for cu11/cu12); empty for
    /// a DLL no wheel ships (the driver's `nvcuda.dll` and `nvml.dll`).
    pub wheel_dirs: &'static [&'static CStr],
    /// Folders, relative to `%CUDA_PATH%`, of a toolkit installation: `bin\x64` (13.x), `bin`.
    pub toolkit_dirs: &'static [&'static CStr],
    /// A DLL the real one loads by bare name at run time, loaded first from the real DLL's own
    /// folder (`nvrtc-builtins64_` + `10 * major + minor` + `.dll`: NVRTC's `LoadLibrary` of it
    /// searches neither its own folder nor, from Python 3.8, `PATH`).
    pub companion: Option<&'static str>,
    /// The DLL the real one loads itself at its first call and cannot run without, beside it
    /// (cuDNN's `cudnn_graph64_9.dll`: [`RealLibrary::lazy_dependency`] on Windows); the
    /// loader loads it from the candidate's folder first, and `fetch-cuda.py` fetches it too.
    pub lazy_dependency: Option<&'static CStr>,
    /// Whether `scripts/fetch-cuda.py --arch win_amd64` reads NVIDIA's DLL of each test wheel
    /// off the index (`libraries.json`'s `"windows"`), for the wine tests to run the stub
    /// against (`tests/tests/windows_math.rs`). False where no wheel ships the DLL (the
    /// driver's), and where the DLLs are large and their stub differs from a fetched sibling's
    /// only in its names (NPP's image and signal libraries but `nppitc`: 685 MB compressed of
    /// the three majors' 695), or cannot be called without a device (`nppisu`): those stubs are
    /// run without a DLL only.
    pub fetched: bool,
    /// DLLs named after the library's own release rather than the CUDA major (CUPTI's
    /// `cupti64_2025.2.1.dll`): matched by pattern beside the names of [`WindowsDlls::dlls`],
    /// newest release first, in every folder the search lists and among the loaded modules.
    pub release_named: Option<&'static ReleaseNamed>,
}

impl RealLibrary {
    /// The file name and SONAME of this library's stub, `libstubs_<name>.so`
    /// ([`Library::stub_file`]): how another stub finds it loaded (`dlopen` with `RTLD_NOLOAD`
    /// matches a loaded object's SONAME).
    pub fn stub_file(&self) -> String {
        format!("libstubs_{}.so", self.name)
    }

    /// Its stub's status export, `cuda_stubs_<name>_status` (`cuda_stubs.h`).
    pub fn status_export(&self) -> String {
        format!("cuda_stubs_{}_status", self.name)
    }

    /// Its stub's driver status export, `cuda_stubs_<name>_driver_status` (`cuda_stubs.h`):
    /// the CUDA driver and how the bound release stands with it.
    pub fn driver_status_export(&self) -> String {
        format!("cuda_stubs_{}_driver_status", self.name)
    }
}

/// How a stub is named to build systems ([`Library::packaging`]); its file name is
/// [`Library::stub_file`], its pkg-config module [`Library::pkg_config_module`].
#[derive(Debug, Clone, Copy)]
pub struct Packaging {
    /// What the stub stands for, in its pkg-config `Description` and the CMake package's
    /// comments: `the CUDA runtime (libcudart)`, `NVRTC (libnvrtc)`.
    pub stands_for: &'static str,
    /// The CMake package's imported target, `cuda-stubs::<cmake_target>` (`cudart`,
    /// `cuda_driver`: FindCUDAToolkit's name of the driver).
    pub cmake_target: &'static str,
    /// FindCUDAToolkit's targets `CUDA::<name>` (and cache entries `CUDA_<name>_LIBRARY`) that
    /// `cuda_stubs_use_for_cuda_toolkit()` points at the stub (`cudart`, `cudart_static`).
    pub toolkit_targets: &'static [&'static str],
    /// NVIDIA's link names of the library (`-lcudart`, `-lcudart_static`): the link folder
    /// (`python -m cuda_stubs --linkdir`, `<prefix>/lib/cuda-stubs-link/abi<N>/`) holds a GNU
    /// ld linker script under each one's file name that names the stub, so that
    /// `-L<linkdir> -lcudart` records the stub in `DT_NEEDED`, and the CMake switch rewrites
    /// these names (bare, `-l`, or a full path to NVIDIA's file) to the stub.
    pub link_names: &'static [LinkName],
    /// The CUDA majors of the opt-in compatibility library under NVIDIA's own soname
    /// (`lib/cuda-stubs-compat/libcudart.so.12`, docs/src/compat.md): thin trampolines into the
    /// stub for binaries linked against NVIDIA's library of that major. Only where every name
    /// that major exports has the stub's prototype of it (one ABI, or the stub exports that
    /// major's version): the runtime (12.x and 13.x, the 35 changed names exported per ABI),
    /// NVRTC (12.9 and 13.x agree on every name both export); and NVML, whose one soname of
    /// every release (`libnvidia-ml.so.1`, [`Library::soname`]) programs load by name (pynvml),
    /// with the prototypes of the major given and the driver's checked-in export list. Empty for
    /// the others: one soname across majors (cuRAND, NCCL) or numbered their own way (cuBLAS,
    /// cuFFT), nothing to add.
    pub compat_majors: &'static [u32],
}

/// One of NVIDIA's link names of a library, as `-l<name>` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkName {
    /// A shared library's development name: `-lcublas` finds `libcublas.so`.
    Shared(&'static str),
    /// A static library whose job the stub does (`-lcudart_static`: `libcudart_static.a`): the
    /// same API, resolved at run time by the stub instead of being copied in. Never a static
    /// library whose API the stub cannot serve: not `cudadevrt` (device code, linked by the
    /// device linker), not `cufft_static` (cuFFT's callbacks need the static library), not
    /// `culibos` (helpers NVIDIA's other static libraries need).
    Static(&'static str),
}

impl LinkName {
    /// The `-l` name: `cublas`, `cudart_static`.
    pub const fn name(&self) -> &'static str {
        match self {
            LinkName::Shared(name) | LinkName::Static(name) => name,
        }
    }

    /// The file a linker looks for: `libcublas.so`, `libcudart_static.a`.
    pub fn file(&self) -> String {
        match self {
            LinkName::Shared(name) => format!("lib{name}.so"),
            LinkName::Static(name) => format!("lib{name}.a"),
        }
    }
}

/// One soname a real library is published under, and the CUDA major it belongs to.
#[derive(Debug, Clone, Copy)]
pub struct Soname {
    /// e.g. `libcudart.so.12`.
    pub name: &'static CStr,
    /// The CUDA major of that soname (11 for `libcudart.so.11.0` and `libnvrtc.so.11.2`). For the
    /// driver (`libcuda.so.1`), 0: its version comes only from `cuDriverGetVersion`.
    pub major: u32,
}

/// How the loaded library's version is learnt, after `dlopen`.
#[derive(Debug, Clone, Copy)]
pub enum VersionProbe {
    /// `cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)`, or `CUresult
    /// cuDriverGetVersion(int *driverVersion)`: one `int` out, status 0 on success, the version
    /// as `1000 * major + 10 * minor`.
    OneInt(&'static CStr),
    /// `nvrtcResult nvrtcVersion(int *major, int *minor)`, or `nvJitLinkResult
    /// nvJitLinkVersion(unsigned int *major, unsigned int *minor)` (the same ABI: an enum
    /// result, two pointers to 32-bit integers): status 0 on success.
    MajorMinor(&'static CStr),
    /// `int f(int *version)` giving the library's own version, not CUDA's (`curandGetVersion`:
    /// `1000 * major + 100 * minor + patch`, 10310 for cuRAND 10.3.10), status 0 on success;
    /// the CUDA major is the last of `releases` whose first version it reaches, and the
    /// loaded version is recorded as `1000 * that major` (the CUDA minor is not known).
    OwnVersion {
        /// The function.
        symbol: &'static CStr,
        /// Each CUDA major's first version of the library, oldest first.
        releases: &'static [Release],
    },
    /// [`VersionProbe::OwnVersion`] for a library whose status is a struct of two 32-bit codes
    /// returned by value, the library's own first (cuFile's `CUfileError_t cuFileGetVersion(int
    /// *version)`, `{CUfileOpError err; CUresult cu_err;}`; its version `1000 * major + 10 *
    /// minor`, 1140 for cuFile 1.14), success when both codes are 0; mapped to the CUDA major
    /// by `releases` as OwnVersion's.
    OwnVersionPairStatus {
        /// The function.
        symbol: &'static CStr,
        /// Each CUDA major's first version of the library, oldest first.
        releases: &'static [Release],
    },
    /// `int f(char *version, unsigned int length)` writing a dotted version whose first number
    /// is the CUDA major (`nvmlSystemGetNVMLVersion`: `13.580.159.04` on driver 580, before
    /// `nvmlInit`), status 0 on success; the version is recorded as `1000 * major`.
    DottedString(&'static CStr),
    /// `status f(libraryPropertyType type, int *value)` asked for `MAJOR_VERSION` (0),
    /// `MINOR_VERSION` (1) and `PATCH_LEVEL` (2), status 0 on success. With no `releases`
    /// (`cublasGetProperty`: cuBLAS's major is CUDA's, 12 and 9 for 12.9) the version is
    /// `1000 * major + 10 * minor`; with them (`cusparseGetProperty`: cuSPARSE 12.x is CUDA
    /// 12.x and 13.x), `1000 * major + 100 * minor + patch` is mapped to the CUDA major as
    /// [`VersionProbe::OwnVersion`]'s.
    Property {
        /// The function.
        symbol: &'static CStr,
        /// Each CUDA major's first version of the library, oldest first; empty when the
        /// library's major is CUDA's.
        releases: &'static [Release],
    },
    /// `int f(int *version)` giving the library's own version, which does not say the CUDA
    /// release it was built for (`ncclGetVersion`: 23203 for NCCL 2.32.3, the same number in
    /// NVIDIA's CUDA 12 and CUDA 13 builds), status 0 on success; the CUDA version is the
    /// `<marker><major>.<minor>` of the library's version string in the loaded file's `.rodata`
    /// (`NCCL version 2.32.3+cuda13.4`: marker `+cuda`), recorded as `1000 * major + 10 * minor`.
    /// A library whose file has no such string is recorded as version 0 (bound, CUDA release
    /// unknown).
    BuiltFor {
        /// The function giving the library's own version.
        symbol: &'static CStr,
        /// What precedes the CUDA `major.minor` in the file's version string.
        marker: &'static CStr,
    },
    /// `size_t f(void)` answering the CUDA runtime version the library was built with, as
    /// `1000 * major + 10 * minor` (`cutensorGetCudartVersion`: 12090 for cuTENSOR 2.8.1's CUDA
    /// 12 build; `cudnnGetCudartVersion`); 0 means no answer (recorded as no version).
    Returned(&'static CStr),
    /// The CUDA major a library linking the runtime statically was compiled with, where neither
    /// its soname, nor its own version, nor its `DT_NEEDED`, nor a string in its `.rodata` says
    /// it (cuSPARSELt: `libcusparseLt.so.0` in every major, 0.8.0 and 0.8.1 published for CUDA 12
    /// and for CUDA 13). The compiler says it: the PTX ISA version in the header of the first
    /// PTX entry of the file's `.nv_fatbin` (CUDA 12.9's `nvcc` writes 8.8, 13.0's 9.0, 13.2's
    /// 9.2), mapped to the CUDA major by `releases` (`first` is `10 * isa_major + isa_minor` of
    /// each major's first ISA: 7.0 → 11, 8.0 → 12, 9.0 → 13) and recorded as `1000 * major`. The
    /// library's own version, `status f(libraryPropertyType type, int *value)` asked for
    /// `MAJOR_VERSION`, `MINOR_VERSION` and `PATCH_LEVEL` (status 0 on success, a major of 0
    /// allowed), must answer (it is what the debug log shows). A file with no PTX is recorded as
    /// version 0 (bound, CUDA release unknown).
    DeviceCode {
        /// The library's `Property`-style function (`cusparseLtGetProperty`).
        property: &'static CStr,
        /// Each CUDA major's first PTX ISA version, `10 * major + minor`, oldest first.
        releases: &'static [Release],
    },
    /// The CUDA major a library versioned on its own, with one soname and the same version in
    /// every major, was linked against, said by its `DT_NEEDED` (a DLL's imports): the first of
    /// its anchors' sonames ([`RealLibrary::same_release_as`]) the loaded file names, recorded as
    /// `1000 * major` (cuStateVec 1.15.0: `libcustatevec.so.1` and `custatevecGetProperty` 1.15.0
    /// in the CUDA 12 and 13 wheels alike, the first needing `libcublas.so.12`, the second
    /// `libcublas.so.13`). The library's own version, `status f(libraryPropertyType type, int
    /// *value)` asked for `MAJOR_VERSION`, `MINOR_VERSION` and `PATCH_LEVEL` (status 0 on
    /// success), must answer (it is what the debug log shows). A file naming no anchor is
    /// recorded as version 0 (bound, CUDA release unknown).
    Needed {
        /// The library's `Property`-style function (`custatevecGetProperty`).
        property: &'static CStr,
    },
    /// [`VersionProbe::BuiltFor`] for a library whose own version is
    /// [`VersionProbe::MajorMinor`]'s `status f(int *major, int *minor)` (libNVVM's
    /// `nvvmVersion`: 1.9 in CUDA 11.8, 2.0 in 12.9 and 13.5, which says no CUDA release):
    /// the CUDA version is the `<marker><major>.<minor>` of the loaded file's `.rodata`
    /// (`Cuda compilation tools, release 12.9`), recorded as `1000 * major + 10 * minor`, 0
    /// when the file has none.
    BuiltForMajorMinor {
        /// The function giving the library's own version.
        symbol: &'static CStr,
        /// What precedes the CUDA `major.minor` in the file's build string.
        marker: &'static CStr,
    },
    /// [`VersionProbe::Needed`] for a library whose own version is `size_t f(void)`
    /// (`cudensitymatGetVersion`: `10000 * major + 100 * minor + patch`, 700 for cuDensityMat
    /// 0.7.0 in the CUDA 12 and 13 wheels alike), which must answer a positive number (it is what
    /// the debug log shows); the CUDA major is the first anchor soname its `DT_NEEDED` names
    /// (`libcublas.so.12` / `.13`), recorded as `1000 * major`, 0 when it names none.
    NeededReturned {
        /// The library's own version function.
        symbol: &'static CStr,
    },
    /// [`VersionProbe::Needed`] for a library whose own version is `status f(int *version)`
    /// (`cublasMpGetVersion`: `10000 * major + 100 * minor + patch`, 1000 for cuBLASMp 0.10.0
    /// in the CUDA 12 and 13 wheels alike), which must answer success and a positive number (it
    /// is what the debug log shows); the CUDA major is the first anchor soname its `DT_NEEDED`
    /// names (`libcublas.so.12` / `.13`), recorded as `1000 * major`, 0 when it names none. The
    /// function is looked up through the loaded library's handle, which also searches its
    /// dependencies: cuSOLVERMp's own `cusolverMpGetVersion` needs a handle that only a GPU
    /// gives, so its spec names the `cublasMpGetVersion` of the cuBLASMp it needs.
    NeededOwnVersion {
        /// The function giving the library's own version.
        symbol: &'static CStr,
    },
    /// `status f(T *properties)` filling a struct whose last two fields are `uint32_t`s: the
    /// library's own version and the CUDA runtime version it was built with
    /// (`1000 * major + 10 * minor`), status 0 on success; the version is the second. With
    /// `struct_type: None` the struct is those two fields (nvCOMP's
    /// `nvcompGetProperties(nvcompProperties_t *)`:
    /// `{version, cudart_version}`, 6000 and 12090 for nvCOMP 6.0.0's CUDA 12 build, 5000 and
    /// 11080 for 5.0.0's CUDA 11 one). With `Some(t)` NVIDIA's self-describing header precedes
    /// them, `{struct_type (a C enum), size_t struct_size, void *struct_next}`, which the probe
    /// fills with `t`, the struct's size and NULL (nvImageCodec's
    /// `nvimgcodecGetProperties(nvimgcodecProperties_t *)`: `NVIMGCODEC_STRUCTURE_TYPE_PROPERTIES`
    /// is 1 in 0.6 and 0.9, and another type is refused). The library's own version is only
    /// logged.
    CudartInProperties {
        /// The function.
        symbol: &'static CStr,
        /// The self-describing header's `struct_type` value, if the struct has that header.
        struct_type: Option<i32>,
    },
    /// No version function to ask: the CUDA major is the one of the spec's sonames that the file
    /// was found under (NPP's eleven libraries: `libnppial.so.12` is CUDA 12.x's; only `libnppc`
    /// has a version function, `nppGetLibVersion`, and its major is the soname's), recorded as
    /// `1000 * major`. A file under another name (an override naming `libnppc.so`) is recorded
    /// as version 0, as a library whose probe does not answer: bound, CUDA release unknown.
    Soname,
    /// NVIDIA's Perfworks (`libnvperf_host.so`, `libnvperf_target.so`: one soname in every
    /// major): `NVPA_Status f(NVPW_QueryVersionNumber_Params *)`, a struct of `size_t structSize`,
    /// `void *pPriv`, `uint64_t apiSet` (in) and six `uint32_t`s (out: the API set's version and
    /// the release's `relMajor`, `relMinor`, `relPatch`), asked for `api_set` (the header's
    /// `NVPW_SDK_VERSION`), status 0 on success. The release is CUPTI's own numbering
    /// (2025.2.0 in CUDA 12.9's wheel, 2026.3.1 in 13.4's: `10000 * relMajor + 100 * relMinor +
    /// relPatch`), mapped to the CUDA major by `releases` as [`VersionProbe::OwnVersion`]'s.
    /// A library that does not know the API set (11.8's answers `NVPA_STATUS_INVALID_ARGUMENT`)
    /// is recorded as version 0: bound, CUDA release unknown.
    QueryVersionNumber {
        /// The function (`NVPW_QueryVersionNumber`).
        symbol: &'static CStr,
        /// The API set asked for (`NVPW_SDK_VERSION`, `0x1e128b6f001423fc` in 12.x and 13.x).
        api_set: u64,
        /// Each CUDA major's first release, `10000 * year + 100 * minor + patch`, oldest first.
        releases: &'static [Release],
    },
}

/// The first version of a library ([`VersionProbe::OwnVersion`]), or the first PTX ISA version
/// ([`VersionProbe::DeviceCode`]), in one CUDA major.
#[derive(Debug, Clone, Copy)]
pub struct Release {
    /// The library's first version (its own numbering) in `major`.
    pub first: i32,
    /// The CUDA major.
    pub major: u32,
}

impl VersionProbe {
    /// The CUDA version (`1000 * major`) of a library reporting its own version `own` under
    /// [`VersionProbe::OwnVersion`] (or [`VersionProbe::Property`] with releases, or the PTX ISA
    /// version `10 * major + minor` of [`VersionProbe::DeviceCode`]); `None` when older than
    /// every release listed (or for the other probes, which report CUDA's version themselves).
    pub fn cuda_version_of(&self, own: i32) -> Option<i32> {
        let (VersionProbe::OwnVersion { releases, .. }
        | VersionProbe::OwnVersionPairStatus { releases, .. }
        | VersionProbe::Property { releases, .. }
        | VersionProbe::DeviceCode { releases, .. }
        | VersionProbe::QueryVersionNumber { releases, .. }) = self
        else {
            return None;
        };
        let release = releases.iter().rev().find(|r| own >= r.first)?;
        i32::try_from(release.major).ok().map(|m| m * 1000)
    }
}

/// How a symbol's declared majors gate its lookup in the loaded library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gating {
    /// The loaded major must be one of the symbol's majors (cudart, NVRTC: majors remove
    /// symbols, e.g. `cudaThreadSynchronize` is gone from 13.x).
    Exact,
    /// The loaded major must be at least the symbol's first major (the driver keeps every entry
    /// point of older headers; a newer driver serves every older runtime).
    AtLeast,
}

/// The two codes a stub returns, in the library's status type, when it cannot call the real
/// function.
#[derive(Debug, Clone, Copy)]
pub struct TypedErrors {
    /// When no real library was found.
    pub no_library: StatusCode,
    /// When the loaded library lacks the function (or has it with another ABI and no adapter
    /// exists).
    pub absent: StatusCode,
}

/// One enumerator of the library's status type. Codegen checks that the header defines `name`
/// with `value`.
#[derive(Debug, Clone, Copy)]
pub struct StatusCode {
    /// The C enumerator, e.g. `cudaErrorStubLibrary`.
    pub name: &'static str,
    /// Its value, as the header's enumerator has it: a C enum's `int` (NPP's errors are
    /// negative, `NPP_NOT_IMPLEMENTED_ERROR = -3`; bindgen spells the type `c_int` then, and
    /// `c_uint` for the enums with no negative value, `cudaError_t`), converted to the status
    /// type where a stub returns it.
    pub value: i32,
}

/// Where the names a stub exports come from.
#[derive(Debug, Clone, Copy)]
pub enum ExportSource {
    /// The dynamic symbol table of each major's real library from the test wheels (the
    /// `layout.json` key is the library's name); only the majors that have it are read.
    Wheels,
    /// A checked-in export list, when no wheel ships the library (the driver): the stub exports
    /// every name of the list and every name a header declares, each for the majors whose header
    /// declares it (else the newest).
    List {
        /// The list, relative to the workspace root: one name per line.
        path: &'static str,
        /// What the list is, in the generated docs and the ABI report (`libcuda 580`).
        label: &'static str,
    },
    /// [`ExportSource::Wheels`], keeping only the names that begin with one of the prefixes: for
    /// a library whose file also defines C entry points of other APIs, which a stub exporting
    /// them would interpose on the whole process (nvImageCodec 0.6.1's `libnvimgcodec.so.0`
    /// defines 102 of the driver's, `cuInit` …, its own copies; nvCOMP's and nvImageCodec's
    /// define the C++ runtime's `__cxa_call_terminate` / `__cxa_init_primary_exception`), or an
    /// API with a status type of its own the stub does not stand for (nvCOMP's native Bitcomp
    /// API, `bitcompResult_t`).
    WheelsWithPrefix(&'static [&'static str]),
}

impl ExportSource {
    /// Whether the names come from the test wheels' export tables ([`ExportSource::Wheels`],
    /// [`ExportSource::WheelsWithPrefix`]), not a checked-in list.
    pub const fn from_wheels(&self) -> bool {
        !matches!(self, ExportSource::List { .. })
    }

    /// Whether `name`, a C entry point ([`crate::is_c_entry_point`]) of a real library's
    /// export table, is one the stub stands for: every one, or those with one of
    /// [`ExportSource::WheelsWithPrefix`]'s prefixes.
    pub fn keeps(&self, name: &str) -> bool {
        match self {
            ExportSource::WheelsWithPrefix(prefixes) => {
                prefixes.iter().any(|p| name.starts_with(p))
            }
            _ => true,
        }
    }
}

/// Entry points resolved through the library's own getter, NVIDIA's way to get the entry point
/// of one ABI version of a function.
#[derive(Debug, Clone, Copy)]
pub struct ProcAddressSource {
    /// The getter, called with its CUDA 11.3 prototype: `CUresult cuGetProcAddress(const char
    /// *symbol, void **pfn, int cudaVersion, cuuint64_t flags)`.
    pub getter: &'static CStr,
    /// The header whose `PFN_<name>_v<version>` typedefs give each ABI name's CUDA version.
    pub typedefs_header: &'static str,
}

/// How the generated files' banner gives the header's version per major.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderVersion {
    /// In full (`12.9.79`): the header ships in the runtime's wheel, whose version the layout
    /// records.
    Full,
    /// `major.minor` (`12.9`): the library's own wheels have patch numbers of their own.
    MajorMinor,
}

/// One NVIDIA pip wheel holding the real library of one major and its headers.
#[derive(Debug, Clone, Copy)]
pub struct TestWheel {
    /// The CUDA major.
    pub major: u32,
    /// The pip requirement, pinned: `nvidia-cuda-runtime-cu12==12.9.79`.
    pub requirement: &'static str,
    /// The folder, in the unpacked tree (a `site-packages`), that holds the library under its
    /// soname of `major`: one of [`RealLibrary::wheel_dirs`]. The headers are in the
    /// [`TestWheel::package_dir`]'s `include` (NVIDIA's wheels are mostly
    /// `nvidia/<package>/{lib,include}`).
    pub lib_dir: &'static CStr,
    /// What of the wheel the tests need, and so what `scripts/fetch-cuda.py` fetches.
    pub unpack: Unpack,
}

/// What `scripts/fetch-cuda.py` takes of a test wheel ([`TestWheel::unpack`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unpack {
    /// The whole wheel, downloaded by pip and unpacked (its library folder, headers and
    /// everything else: the runtime's static library, cuBLAS's second library).
    Whole,
    /// Only the library's file under its soname and the package's `include` folder, read out of
    /// the wheel on the package index by HTTP range requests: for wheels whose bulk the tests
    /// never load (cuDNN's 540 MB of engine sub-libraries beside a 100 KB front library).
    LibraryAndHeaders,
    /// [`Unpack::LibraryAndHeaders`] for a wheel holding the library under a file name that is
    /// not its soname (`libnvvm.so`, soname `libnvvm.so.4`: how NVIDIA's `nvidia-cuda-nvcc-cu11`
    /// and `-cu12` ship libNVVM in `nvidia/cuda_nvcc/nvvm/lib64`): that file is unpacked and is
    /// the layout's path of the library.
    LibraryNamed(&'static CStr),
    /// [`Unpack::LibraryAndHeaders`] for a library that cannot be loaded without files of
    /// another wheel, one no spec stands for (cuFFTMp's `DT_NEEDED libnvshmem_host.so.3`, from
    /// NVSHMEM's wheel, which its RPATH `$ORIGIN/../../../nvshmem/lib` finds in a
    /// `site-packages`): each file is read off its wheel on the index the same way and unpacked
    /// at its path in the same tree, where the library's own search finds it.
    LibraryAndHeadersBeside(&'static [BesideFile]),
}

/// A file of another wheel that a test wheel's library needs beside it
/// ([`Unpack::LibraryAndHeadersBeside`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BesideFile {
    /// The wheel's pip requirement, pinned: `nvidia-nvshmem-cu12==3.8.0`.
    pub requirement: &'static str,
    /// The file's path in the wheel and in the unpacked tree:
    /// `nvidia/nvshmem/lib/libnvshmem_host.so.3`.
    pub path: &'static CStr,
}

impl TestWheel {
    /// The wheel's package folder, whose `include` holds the headers: [`TestWheel::lib_dir`]
    /// without its `/lib` (`nvidia/cu13/lib` → `nvidia/cu13`) or `/lib64` (nvCOMP 6's
    /// `nvidia/libnvcomp/lib64`, libNVVM's `nvidia/cuda_nvcc/nvvm/lib64`), else the library's
    /// folder itself (nvImageCodec's `nvidia/nvimgcodec` and nvCOMP 5's `nvidia/nvcomp` hold the
    /// library beside `include`).
    pub fn package_dir(&self) -> Option<&'static str> {
        let dir = self.lib_dir.to_str().ok()?;
        Some(
            dir.strip_suffix("/lib")
                .or_else(|| dir.strip_suffix("/lib64"))
                .unwrap_or(dir),
        )
    }

    /// The library's path in the unpacked tree, relative to it: [`TestWheel::lib_dir`] and the
    /// file name [`Unpack::LibraryNamed`] gives, else `soname`.
    pub fn library_file(&self, soname: &CStr) -> String {
        let name = match self.unpack {
            Unpack::LibraryNamed(file) => file,
            Unpack::Whole | Unpack::LibraryAndHeaders | Unpack::LibraryAndHeadersBeside(_) => {
                soname
            }
        };
        format!(
            "{}/{}",
            self.lib_dir.to_string_lossy(),
            name.to_string_lossy()
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::libraries::{ALL, CUDA, CUDART, CURAND, NVJITLINK};

    #[test]
    fn packaging_names() {
        assert_eq!(CUDART.stub_file(), "libstubs_cudart.so");
        assert_eq!(
            CUDART.link_stub_file().as_deref(),
            Some("libstubs_cudart_abi12.so")
        );
        assert_eq!(CUDART.abis(), [12, 13]);
        assert_eq!(CUDART.real_label(), "libcudart");
        assert_eq!(CUDA.real_label(), "libcuda.so.1");
        assert_eq!(NVJITLINK.pkg_config_module(), "cuda-stubs-nvjitlink");
        for library in ALL {
            assert_eq!(
                library.link_stub_file().is_some(),
                !library.abis().is_empty()
            );
            // FindCUDAToolkit has no target for NCCL: its link names are what is switched.
            assert!(
                !library.packaging.toolkit_targets.is_empty()
                    || !library.packaging.link_names.is_empty()
            );
        }
    }

    /// cuRAND's own versions map to CUDA majors at each major's first release: 10.3.0 (11.8)
    /// is 11, 10.3.1 (12.0) and 10.3.10 (12.9) are 12, 10.4.0 (13.0) and 10.4.5 (13.5) are 13;
    /// one older than 11.0's is none. The other probes report CUDA's version themselves.
    #[test]
    fn own_versions_map_to_cuda_majors() {
        let probe = CURAND.real.version;
        for (own, cuda) in [
            (10201, Some(11000)),
            (10300, Some(11000)),
            (10301, Some(12000)),
            (10310, Some(12000)),
            (10400, Some(13000)),
            (10405, Some(13000)),
            (10105, None),
        ] {
            assert_eq!(probe.cuda_version_of(own), cuda, "{own}");
        }
        assert_eq!(CUDART.real.version.cuda_version_of(12090), None);
        assert_eq!(
            CURAND.soname(12).map(|s| s.to_bytes()),
            Some(&b"libcurand.so.10"[..])
        );
        assert_eq!(CURAND.real.same_release_as[0].name, "cudart");
    }

    /// A test wheel's headers are in its package folder's `include`: `lib_dir` without `/lib`
    /// or `/lib64`, else the library's folder itself (nvCOMP 5's `nvidia/nvcomp`); a library whose
    /// file defines other APIs keeps only its own names (`ExportSource::WheelsWithPrefix`).
    #[test]
    fn package_dirs_and_own_exports() {
        use crate::libraries::{NVCOMP, NVIMGCODEC};
        let dirs: alloc::vec::Vec<_> = NVCOMP.test_wheels.iter().map(|w| w.package_dir()).collect();
        assert_eq!(
            dirs,
            [
                Some("nvidia/nvcomp"),
                Some("nvidia/libnvcomp"),
                Some("nvidia/libnvcomp")
            ]
        );
        assert_eq!(
            NVIMGCODEC.test_wheels[0].package_dir(),
            Some("nvidia/nvimgcodec")
        );
        assert_eq!(CURAND.test_wheels[0].package_dir(), Some("nvidia/curand"));
        assert!(NVCOMP.exports.keeps("nvcompGetProperties"));
        for foreign in ["bitcompCreatePlan", "__cxa_call_terminate"] {
            assert!(!NVCOMP.exports.keeps(foreign), "{foreign}");
        }
        assert!(!NVIMGCODEC.exports.keeps("cuInit"));
        assert!(NVIMGCODEC.exports.keeps("nvimgcodecGetProperties"));
        // Every C entry point of a plain `Wheels` library.
        assert!(CURAND.exports.keeps("curandCreateGenerator"));
        assert!(CURAND.exports.from_wheels() && NVCOMP.exports.from_wheels());
    }

    /// A DLL fetched for the wine tests is one a wheel ships, and of each test wheel's major
    /// (`WindowsDlls::fetched`: `fetch-cuda.py` looks for it in that wheel); each Windows spec
    /// names a DLL, or a release-named one's releases a major, for every major it has a test
    /// wheel of.
    #[test]
    fn fetched_dlls_are_in_wheels() {
        for library in ALL {
            let Some(windows) = library.real.windows else {
                continue;
            };
            assert!(
                !windows.fetched || !windows.wheel_dirs.is_empty(),
                "{}: fetched, but no wheel folder",
                library.name()
            );
            // A release-named DLL (CUPTI's) of a major its releases cover.
            let by_release = |major| {
                windows
                    .release_named
                    .is_some_and(|r| r.releases.iter().any(|r| r.major == major))
            };
            for wheel in library.test_wheels {
                assert!(
                    library.windows_dll(wheel.major).is_some() || by_release(wheel.major),
                    "{}: no DLL of {}",
                    library.name(),
                    wheel.major
                );
            }
        }
    }
}

//! The version a loaded library reports, through its spec's version function
//! ([`VersionProbe`]): `1000 * major + 10 * minor` of CUDA.

use crate::debug::line;
use crate::os::Handle;
use crate::spec::{RealLibrary, VersionProbe};
use alloc::format;
use core::ffi::{CStr, c_int};

/// The version the library reports through its spec's version function, if it answers.
pub(crate) fn reported_version(real: &RealLibrary, handle: &Handle) -> Option<i32> {
    match real.version {
        VersionProbe::OneInt(name) => {
            let f = handle.symbol(name)?;
            // SAFETY: cudaRuntimeGetVersion / cuDriverGetVersion: `int f(int *)`, all majors.
            let f: unsafe extern "C" fn(*mut c_int) -> c_int = unsafe { core::mem::transmute(f) };
            let mut v: c_int = 0;
            // SAFETY: a valid out-pointer.
            ((unsafe { f(&mut v) }) == 0 && v > 0).then_some(v)
        }
        VersionProbe::MajorMinor(name) => {
            let f = handle.symbol(name)?;
            // SAFETY: nvrtcVersion / nvJitLinkVersion: `int f(int *major, int *minor)` by ABI
            // (VersionProbe::MajorMinor).
            let f: unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int =
                unsafe { core::mem::transmute(f) };
            let (mut major, mut minor): (c_int, c_int) = (0, 0);
            // SAFETY: valid out-pointers.
            if (unsafe { f(&mut major, &mut minor) }) != 0 || major <= 0 {
                return None;
            }
            number(major, minor, 10, 0)
        }
        VersionProbe::Property { symbol, releases } => {
            let [major, minor, patch] = properties(handle, symbol)?;
            if major <= 0 {
                return None;
            }
            if releases.is_empty() {
                return number(major, minor, 10, 0);
            }
            let own = number(major, minor, 100, patch)?;
            let cuda = real.version.cuda_version_of(own);
            line(
                real.name,
                format_args!(
                    "{} {own}: CUDA {}",
                    symbol.to_string_lossy(),
                    cuda.map_or(0, |v| v / 1000)
                ),
            );
            Some(cuda.unwrap_or(own))
        }
        VersionProbe::DottedString(name) => {
            let f = handle.symbol(name)?;
            // SAFETY: nvmlSystemGetNVMLVersion: `nvmlReturn_t f(char *version, unsigned int
            // length)`, every driver (VersionProbe::DottedString).
            let f: unsafe extern "C" fn(*mut core::ffi::c_char, core::ffi::c_uint) -> c_int =
                unsafe { core::mem::transmute(f) };
            let mut text = [0u8; 96];
            let len = core::ffi::c_uint::try_from(text.len()).unwrap_or(0);
            // SAFETY: a writable buffer of `len` bytes.
            if unsafe { f(text.as_mut_ptr().cast(), len) } != 0 {
                return None;
            }
            let major: i32 = text
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .try_fold(0i32, |v, b| {
                    v.checked_mul(10)?.checked_add(i32::from(b - b'0'))
                })?;
            (major > 0).then(|| major.saturating_mul(1000))
        }
        VersionProbe::OwnVersion { symbol, .. }
        | VersionProbe::OwnVersionPairStatus { symbol, .. } => {
            let own = if let VersionProbe::OwnVersion { .. } = real.version {
                own_version(handle, symbol)?
            } else {
                own_version_pair_status(handle, symbol)?
            };
            let cuda = real.version.cuda_version_of(own);
            line(
                real.name,
                format_args!(
                    "{} {own}: CUDA {}",
                    symbol.to_string_lossy(),
                    cuda.map_or(0, |v| v / 1000)
                ),
            );
            // Older than every release listed: its own number (every such cuRAND's is below
            // 11000) makes it "too old".
            Some(cuda.unwrap_or(own))
        }
        // The caller takes the major of the soname the candidate was found under.
        VersionProbe::Soname => None,
        VersionProbe::BuiltFor { symbol, marker } => {
            let own = own_version(handle, symbol)?;
            let cuda = built_for(handle, marker);
            let name = symbol.to_string_lossy();
            match cuda {
                Some(v) => line(
                    real.name,
                    format_args!(
                        "{name} {own}: built for CUDA {}.{}",
                        v / 1000,
                        v % 1000 / 10
                    ),
                ),
                None => line(
                    real.name,
                    format_args!("{name} {own}: no CUDA release in its file"),
                ),
            }
            cuda
        }
        VersionProbe::BuiltForMajorMinor { symbol, marker } => {
            let f = handle.symbol(symbol)?;
            // SAFETY: nvvmVersion: `int f(int *major, int *minor)` by ABI, every version
            // (VersionProbe::BuiltForMajorMinor).
            let f: unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int =
                unsafe { core::mem::transmute(f) };
            let (mut major, mut minor): (c_int, c_int) = (0, 0);
            // SAFETY: valid out-pointers.
            if (unsafe { f(&mut major, &mut minor) }) != 0 || major <= 0 {
                return None;
            }
            let cuda = built_for(handle, marker);
            let name = symbol.to_string_lossy();
            match cuda {
                Some(v) => line(
                    real.name,
                    format_args!(
                        "{name} {major}.{minor}: built for CUDA {}.{}",
                        v / 1000,
                        v % 1000 / 10
                    ),
                ),
                None => line(
                    real.name,
                    format_args!("{name} {major}.{minor}: no CUDA release in its file"),
                ),
            }
            Some(cuda.unwrap_or(0))
        }
        VersionProbe::Returned(name) => {
            let f = handle.symbol(name)?;
            // SAFETY: `size_t f(void)` (`cutensorGetCudartVersion`, `cudnnGetCudartVersion`:
            // that prototype in every version, VersionProbe::Returned).
            let f: unsafe extern "C" fn() -> usize = unsafe { core::mem::transmute(f) };
            // SAFETY: no arguments.
            let v = i32::try_from(unsafe { f() }).ok()?;
            // The debug log says what the library answered (the version of the "bound" line,
            // or why a copy of another release was rejected).
            line(real.name, format_args!("{} {v}", name.to_string_lossy()));
            (v > 0).then_some(v)
        }
        VersionProbe::Needed { property } => {
            let [major, minor, patch] = properties(handle, property)?;
            let own = format!("{} {major}.{minor}.{patch}", property.to_string_lossy());
            Some(needed_release(real, handle, &own))
        }
        VersionProbe::NeededReturned { symbol } => {
            let f = handle.symbol(symbol)?;
            // SAFETY: `size_t f(void)` (`cudensitymatGetVersion`: that prototype in every
            // version, VersionProbe::NeededReturned).
            let f: unsafe extern "C" fn() -> usize = unsafe { core::mem::transmute(f) };
            // SAFETY: no arguments.
            let v = unsafe { f() };
            if v == 0 {
                return None;
            }
            let own = format!("{} {v}", symbol.to_string_lossy());
            Some(needed_release(real, handle, &own))
        }
        VersionProbe::NeededOwnVersion { symbol } => {
            let v = own_version(handle, symbol)?;
            let own = format!("{} {v}", symbol.to_string_lossy());
            Some(needed_release(real, handle, &own))
        }
        VersionProbe::CudartInProperties {
            symbol,
            struct_type,
        } => {
            let (own, cudart) = cudart_in_properties(handle, symbol, struct_type)?;
            // The debug log says what the library answered (the version of the "bound" line,
            // or why a copy of another release was rejected).
            line(
                real.name,
                format_args!(
                    "{} version {own}: built with CUDA {}.{}",
                    symbol.to_string_lossy(),
                    cudart / 1000,
                    cudart % 1000 / 10
                ),
            );
            i32::try_from(cudart).ok().filter(|v| *v > 0)
        }
        VersionProbe::QueryVersionNumber {
            symbol, api_set, ..
        } => {
            let Some(own) = query_version_number(handle, symbol, api_set) else {
                // 11.8's Perfworks does not know the API set: bound, release unknown.
                line(
                    real.name,
                    format_args!("{} does not answer: no release", symbol.to_string_lossy()),
                );
                return Some(0);
            };
            let cuda = real.version.cuda_version_of(own);
            line(
                real.name,
                format_args!(
                    "{} release {}.{}.{}: CUDA {}",
                    symbol.to_string_lossy(),
                    own / 10000,
                    own % 10000 / 100,
                    own % 100,
                    cuda.map_or(0, |v| v / 1000)
                ),
            );
            Some(cuda.unwrap_or(0))
        }
        VersionProbe::DeviceCode { property, .. } => {
            let [major, minor, patch] = properties(handle, property)?;
            let isa = crate::os::ptx_isa(handle.path()?);
            let cuda = isa.and_then(|(isa_major, isa_minor)| {
                let isa = i32::try_from(isa_major.checked_mul(10)?.checked_add(isa_minor)?).ok()?;
                real.version.cuda_version_of(isa)
            });
            let name = property.to_string_lossy();
            match (isa, cuda) {
                (Some((isa_major, isa_minor)), Some(v)) => line(
                    real.name,
                    format_args!(
                        "{name} {major}.{minor}.{patch}: PTX ISA {isa_major}.{isa_minor}: CUDA {}",
                        v / 1000
                    ),
                ),
                (Some((isa_major, isa_minor)), None) => line(
                    real.name,
                    format_args!(
                        "{name} {major}.{minor}.{patch}: PTX ISA {isa_major}.{isa_minor}: no CUDA release"
                    ),
                ),
                (None, _) => line(
                    real.name,
                    format_args!("{name} {major}.{minor}.{patch}: no PTX in its file"),
                ),
            }
            // Bound with version 0 (release unknown) when the file does not say.
            Some(cuda.unwrap_or(0))
        }
    }
}

/// `MAJOR_VERSION`, `MINOR_VERSION` and `PATCH_LEVEL` (0, 1, 2) from `status f(libraryPropertyType
/// type, int *value)` (`VersionProbe::Property`'s `symbol`, `VersionProbe::DeviceCode`'s
/// `property`, which may answer a major of 0: cuSPARSELt 0.10.0), if every call answers
/// success.
fn properties(handle: &Handle, symbol: &CStr) -> Option<[c_int; 3]> {
    let f = handle.symbol(symbol)?;
    // SAFETY: cublasGetProperty, cusparseGetProperty, cusparseLtGetProperty …: an enum and an
    // out-pointer, every major (the spec names a function of that prototype).
    let f: unsafe extern "C" fn(c_int, *mut c_int) -> c_int = unsafe { core::mem::transmute(f) };
    let mut parts: [c_int; 3] = [0; 3];
    for (kind, part) in (0..).zip(parts.iter_mut()) {
        // SAFETY: a valid out-pointer.
        if unsafe { f(kind, part) } != 0 {
            return None;
        }
    }
    Some(parts)
}

/// A library's own version from `status f(int *version)` (`curandGetVersion`, `ncclGetVersion`,
/// `cublasMpGetVersion`: that prototype in every major, `VersionProbe::OwnVersion`, `BuiltFor`
/// and `NeededOwnVersion`), if it answers success and a positive number.
fn own_version(handle: &Handle, symbol: &CStr) -> Option<c_int> {
    let f = handle.symbol(symbol)?;
    // SAFETY: the spec names a function of that prototype (above).
    let f: unsafe extern "C" fn(*mut c_int) -> c_int = unsafe { core::mem::transmute(f) };
    let mut own: c_int = 0;
    // SAFETY: a valid out-pointer.
    (unsafe { f(&mut own) } == 0 && own > 0).then_some(own)
}

/// The status [`VersionProbe::OwnVersionPairStatus`]'s function returns by value: two 32-bit
/// codes, the library's first (cuFile's `CUfileError_t {CUfileOpError err; CUresult cu_err;}`).
#[repr(C)]
#[derive(Clone, Copy)]
struct PairStatus {
    code: c_int,
    detail: c_int,
}

/// A library's own version from `{code, code} f(int *version)` (`cuFileGetVersion`), if it
/// answers success (both codes 0) and a positive number.
fn own_version_pair_status(handle: &Handle, symbol: &CStr) -> Option<c_int> {
    let f = handle.symbol(symbol)?;
    // SAFETY: the spec names a function of that prototype (VersionProbe::OwnVersionPairStatus).
    let f: unsafe extern "C" fn(*mut c_int) -> PairStatus = unsafe { core::mem::transmute(f) };
    let mut own: c_int = 0;
    // SAFETY: a valid out-pointer.
    let status = unsafe { f(&mut own) };
    (status.code == 0 && status.detail == 0 && own > 0).then_some(own)
}

/// The struct [`VersionProbe::CudartInProperties`]'s function fills without a self-describing
/// header (nvCOMP's `nvcompProperties_t`).
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Properties {
    version: u32,
    cudart_version: u32,
}

/// The struct [`VersionProbe::CudartInProperties`]'s function fills with NVIDIA's
/// self-describing header (nvImageCodec's `nvimgcodecProperties_t`): a C enum, `size_t`, a
/// pointer, then the two versions; 32 bytes on LP64 and LLP64 alike.
#[repr(C)]
struct SelfDescribingProperties {
    struct_type: c_int,
    struct_size: usize,
    struct_next: *mut core::ffi::c_void,
    properties: Properties,
}

/// The library's own version and its runtime's from `status f(T *properties)`
/// ([`VersionProbe::CudartInProperties`]), if it answers success.
fn cudart_in_properties(
    handle: &Handle,
    symbol: &CStr,
    struct_type: Option<i32>,
) -> Option<(u32, u32)> {
    let f = handle.symbol(symbol)?;
    let properties = match struct_type {
        None => {
            // SAFETY: `nvcompStatus_t nvcompGetProperties(nvcompProperties_t *)`, every
            // version (the spec names a function of that prototype).
            let f: unsafe extern "C" fn(*mut Properties) -> c_int =
                unsafe { core::mem::transmute(f) };
            let mut out = Properties::default();
            // SAFETY: a valid out-pointer to the struct's two fields.
            (unsafe { f(&mut out) } == 0).then_some(out)?
        }
        Some(struct_type) => {
            // SAFETY: `nvimgcodecStatus_t nvimgcodecGetProperties(nvimgcodecProperties_t *)`
            // (the spec names a function of that prototype).
            let f: unsafe extern "C" fn(*mut SelfDescribingProperties) -> c_int =
                unsafe { core::mem::transmute(f) };
            let mut out = SelfDescribingProperties {
                struct_type,
                struct_size: core::mem::size_of::<SelfDescribingProperties>(),
                struct_next: core::ptr::null_mut(),
                properties: Properties::default(),
            };
            // SAFETY: a valid out-pointer whose header says its type and size.
            (unsafe { f(&mut out) } == 0).then_some(out.properties)?
        }
    };
    Some((properties.version, properties.cudart_version))
}

/// `NVPW_QueryVersionNumber_Params` ([`VersionProbe::QueryVersionNumber`]): 48 bytes on LP64
/// and LLP64 alike, the same in every release that has the call.
#[repr(C)]
struct QueryVersionNumberParams {
    struct_size: usize,
    p_priv: *mut core::ffi::c_void,
    api_set: u64,
    major: u32,
    minor: u32,
    patch: u32,
    rel_major: u32,
    rel_minor: u32,
    rel_patch: u32,
}

/// The release (`10000 * relMajor + 100 * relMinor + relPatch`) Perfworks answers for
/// `api_set`, if it answers success and a plausible release (each part below 100 but the year).
fn query_version_number(handle: &Handle, symbol: &CStr, api_set: u64) -> Option<i32> {
    let f = handle.symbol(symbol)?;
    // SAFETY: `NVPA_Status NVPW_QueryVersionNumber(NVPW_QueryVersionNumber_Params *)`, every
    // release (the spec names a function of that prototype).
    let f: unsafe extern "C" fn(*mut QueryVersionNumberParams) -> c_int =
        unsafe { core::mem::transmute(f) };
    let mut p = QueryVersionNumberParams {
        struct_size: core::mem::size_of::<QueryVersionNumberParams>(),
        p_priv: core::ptr::null_mut(),
        api_set,
        major: 0,
        minor: 0,
        patch: 0,
        rel_major: 0,
        rel_minor: 0,
        rel_patch: 0,
    };
    // SAFETY: a valid params struct whose `structSize` is its size.
    if unsafe { f(&mut p) } != 0 || p.rel_major == 0 || p.rel_minor >= 100 || p.rel_patch >= 100 {
        return None;
    }
    let year = i32::try_from(p.rel_major).ok()?;
    let minor = i32::try_from(p.rel_minor).ok()?;
    let patch = i32::try_from(p.rel_patch).ok()?;
    year.checked_mul(10000)?.checked_add(minor * 100 + patch)
}

/// The CUDA version (`1000 * major + 10 * minor`) the loaded library's file says it was built
/// for ([`VersionProbe::BuiltFor`]): read from the file the dynamic loader mapped.
fn built_for(handle: &Handle, marker: &CStr) -> Option<i32> {
    let (major, minor) = crate::os::built_for(handle.path()?, marker.to_bytes())?;
    let version = i32::try_from(major).ok()?.checked_mul(1000)?;
    version.checked_add(i32::try_from(minor.min(99)).ok()? * 10)
}

/// The CUDA version (`1000 * major`) a library of [`VersionProbe::Needed`],
/// [`VersionProbe::NeededReturned`] or [`VersionProbe::NeededOwnVersion`] was linked for, by its
/// `DT_NEEDED`, logged after `own` (what its own version function answered); 0 (bound, release
/// unknown) when its file names no anchor.
fn needed_release(real: &RealLibrary, handle: &Handle, own: &str) -> i32 {
    let anchor = needed_anchor(real, handle);
    match anchor {
        Some((soname, cuda)) => line(
            real.name,
            format_args!("{own}: needs {}: CUDA {cuda}", soname.to_string_lossy()),
        ),
        None => line(
            real.name,
            format_args!("{own}: needs no CUDA library of a major"),
        ),
    }
    anchor.map_or(0, |(_, cuda)| cuda.saturating_mul(1000))
}

/// The first of `real`'s anchors' sonames (`RealLibrary::same_release_as`: `libcublas.so.13`)
/// the loaded file's `DT_NEEDED` (a DLL's imports) names, and that soname's CUDA major
/// ([`VersionProbe::Needed`]); `None` when it names none of a known major.
fn needed_anchor(real: &RealLibrary, handle: &Handle) -> Option<(&'static CStr, i32)> {
    let needed = crate::os::needed(handle.path()?)?;
    real.same_release_as.iter().find_map(|anchor| {
        crate::os::file_names(anchor)
            .iter()
            .filter(|s| s.major != 0)
            .find(|s| needed.iter().any(|n| n.as_slice() == s.name.to_bytes()))
            .and_then(|s| Some((s.name, i32::try_from(s.major).ok()?)))
    })
}

/// `major * 1000 + minor * minor_weight + patch`, the number a library reports (`12080`, or
/// NPP's own `12401`): `None` where a library answers numbers that overflow `int` (never a
/// panic in the search).
fn number(major: c_int, minor: c_int, minor_weight: i64, patch: c_int) -> Option<c_int> {
    let n = i64::from(major) * 1000 + i64::from(minor) * minor_weight + i64::from(patch);
    c_int::try_from(n).ok()
}

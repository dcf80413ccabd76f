//! Trying one candidate: the file's checks, `dlopen`, the stub marker and the version; and the
//! companion a bound library needs beside it.

use super::candidates::{Candidate, major_of_name};
use super::order::Origin;
use super::paths::{file_name, is_file, join, parent};
use super::reject::{MIN_VERSION, Reject};
use super::release::{self, ProcessRelease};
use crate::debug::line;
use crate::dynlib::Handle;
use crate::spec::{LibrarySpec, RealLibrary, VersionProbe};
use alloc::format;
use core::ffi::{CStr, c_int};

/// Name of the data symbol every cuda-stubs library exports. A `dlopen`ed candidate that has it
/// is a stub, not NVIDIA's library, and is rejected.
pub const STUB_MARKER: &CStr = c"cuda_stubs_marker";

/// Tries one candidate: `Ok` holds the handle and the version (`1000 * major + 10 * minor`,
/// from the library, else from its file name, else 0).
///
/// `release` is the process's CUDA release for a spec under the rule of one release per process
/// (`release.rs`): a candidate of another one is rejected (before `dlopen` where its name or,
/// for a spec with anchors, its file's `DT_NEEDED` says so, else by its version), except a copy
/// the process already has (never a second copy). A candidate file of a spec with anchors has
/// what it needs and the process lacks loaded from its own folder first.
pub(crate) fn try_candidate(
    spec: &LibrarySpec,
    c: &Candidate,
    release: Option<ProcessRelease>,
) -> Result<(Handle, i32), Reject> {
    let name_major = match c.name_major {
        0 => major_of_name(spec, file_name(c.target.to_bytes())),
        m => m,
    };
    let handle = os::open_candidate(spec, c, release, name_major)?;
    if handle.symbol(STUB_MARKER).is_some() {
        // A stub: keep it loaded (never dlclose) but never call it.
        return Err(Reject::IsStub);
    }
    let by_name = i32::try_from(name_major * 1000).unwrap_or(0);
    let version = reported_version(spec.real, &handle).unwrap_or(by_name);
    if version != 0 && version < MIN_VERSION {
        return Err(Reject::TooOld(version));
    }
    if c.origin != Origin::AlreadyLoaded {
        // Loaded, and never unloaded: a static-runtime cuRAND of another major stays mapped
        // but is never called.
        release::check_version(version, release)?;
    }
    Ok((handle, version))
}

/// Linux: checks a candidate file, then `dlopen`s it.
#[cfg(unix)]
mod os {
    use super::super::candidates::Candidate;
    use super::super::order::Origin;
    use super::super::reject::Reject;
    use super::super::release::{self, ProcessRelease};
    use crate::debug::errno;
    use crate::dynlib::Handle;
    use crate::elf::{self, HEAD_LEN, Ident};
    use crate::spec::LibrarySpec;
    use core::ffi::{CStr, c_int};

    /// The checks before `dlopen` (file, ELF class and machine, one CUDA release), then
    /// `dlopen` with `RTLD_LAZY | RTLD_LOCAL`.
    pub(super) fn open_candidate(
        spec: &LibrarySpec,
        c: &Candidate,
        release: Option<ProcessRelease>,
        name_major: u32,
    ) -> Result<Handle, Reject> {
        let lazy_local = libc::RTLD_LAZY | libc::RTLD_LOCAL;
        let anchored = !spec.real.same_release_as.is_empty();
        let flags = if c.origin == Origin::AlreadyLoaded {
            // Reopened by its path with RTLD_NOLOAD, which matches the loaded object without
            // touching the file system and never loads a second one. A loaded object is a
            // valid ELF of this machine already.
            lazy_local | libc::RTLD_NOLOAD
        } else {
            if !c.is_soname() {
                check_file(&c.target)?;
                if anchored {
                    release::prepare_file(spec, &c.target, release)?;
                }
            }
            lazy_local
        };
        if c.origin != Origin::AlreadyLoaded {
            // A soname that says its major (`libcufft.so.11`: 12.x; `libcudart.so.12`, for a
            // runtime binding after the math libraries) is checked before `dlopen`.
            release::check_version(i32::try_from(name_major * 1000).unwrap_or(0), release)?;
        }
        open(&c.target, flags)
    }

    /// `dlopen`; a file the dynamic loader cannot find is "not found", as one `stat` cannot
    /// find.
    pub(super) fn open(target: &CStr, flags: c_int) -> Result<Handle, Reject> {
        Handle::open(target, flags).map_err(|text| {
            if text.contains("No such file or directory") {
                Reject::NotFound
            } else {
                Reject::Dlopen(text)
            }
        })
    }

    /// `dlopen` of a companion or a needed library, found by path.
    pub(super) fn open_beside(file: &CStr) -> Result<Handle, Reject> {
        open(file, libc::RTLD_LAZY | libc::RTLD_LOCAL)
    }

    /// Checks a candidate file before `dlopen`, so that the debug log says precisely why it is
    /// skipped (dlopen's own message for these cases varies between glibc versions).
    fn check_file(path: &CStr) -> Result<(), Reject> {
        let Some(st) = crate::glibc::stat(path) else {
            return Err(match errno() {
                libc::ENOENT | libc::ENOTDIR => Reject::NotFound,
                e => Reject::CannotStat(e),
            });
        };
        if st.st_mode & libc::S_IFMT == libc::S_IFDIR {
            return Err(Reject::IsDirectory);
        }
        let mut head = [0u8; HEAD_LEN];
        let n = read_head(path, &mut head)?;
        match elf::identify(head.get(..n).unwrap_or_default()) {
            Ident::Ours => Ok(()),
            Ident::Empty => Err(Reject::Empty),
            Ident::NotElf => Err(Reject::NotElf),
            Ident::WrongClass(class) => Err(Reject::WrongClass(class)),
            Ident::WrongMachine(machine) => Err(Reject::WrongMachine(machine)),
        }
    }

    /// Reads up to `buf.len()` bytes from the start of the file.
    fn read_head(path: &CStr, buf: &mut [u8]) -> Result<usize, Reject> {
        // SAFETY: NUL-terminated path; the descriptor is closed below.
        let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
        if fd < 0 {
            return Err(Reject::CannotOpen(errno()));
        }
        let mut filled = 0;
        let result = loop {
            let Some(rest) = buf.get_mut(filled..) else {
                break Ok(filled);
            };
            if rest.is_empty() {
                break Ok(filled);
            }
            // SAFETY: rest is writable for its length.
            match unsafe { libc::read(fd, rest.as_mut_ptr().cast(), rest.len()) } {
                0 => break Ok(filled),
                n if n > 0 => filled += n.unsigned_abs(),
                _ if errno() == libc::EINTR => {}
                _ => break Err(Reject::CannotRead(errno())),
            }
        };
        // SAFETY: opened above.
        unsafe { libc::close(fd) };
        result
    }
}

/// Windows: checks a candidate file, then `LoadLibraryExW`s it (`loadlibrary.rs`).
#[cfg(windows)]
mod os {
    use super::super::candidates::Candidate;
    use super::super::order::Origin;
    use super::super::paths::{DIRECTORY, attributes};
    use super::super::reject::Reject;
    use super::super::release::ProcessRelease;
    use crate::debug::errno;
    use crate::dynlib::{Handle, MOD_NOT_FOUND};
    use crate::spec::LibrarySpec;
    use core::ffi::CStr;

    /// `ERROR_FILE_NOT_FOUND`, `ERROR_PATH_NOT_FOUND`.
    const NO_FILE: [i32; 2] = [2, 3];

    /// A DLL already loaded is referenced by name (`GetModuleHandleExW`, never a second copy);
    /// a path is checked (exists, not a folder) and loaded; a bare name goes through the safe
    /// DLL search.
    pub(super) fn open_candidate(
        _spec: &LibrarySpec,
        c: &Candidate,
        _release: Option<ProcessRelease>,
        _name_major: u32,
    ) -> Result<Handle, Reject> {
        if c.origin == Origin::AlreadyLoaded {
            return Handle::already_loaded(&c.target).ok_or(Reject::NotFound);
        }
        if !c.is_soname() {
            match attributes(&c.target) {
                None if NO_FILE.contains(&errno()) => return Err(Reject::NotFound),
                None => return Err(Reject::CannotStat(errno())),
                Some(a) if a & DIRECTORY != 0 => return Err(Reject::IsDirectory),
                Some(_) => {}
            }
        }
        open(&c.target, c.is_soname())
    }

    /// `LoadLibraryExW`. For a bare name `ERROR_MOD_NOT_FOUND` is "not found"; for a file
    /// that exists it means one of its own imports is missing, which the text says.
    fn open(target: &CStr, bare: bool) -> Result<Handle, Reject> {
        Handle::open(target, bare).map_err(|(code, text)| {
            if bare && code == MOD_NOT_FOUND {
                Reject::NotFound
            } else {
                Reject::Dlopen(text)
            }
        })
    }

    /// `LoadLibraryExW` of a companion found by path.
    pub(super) fn open_beside(file: &CStr) -> Result<Handle, Reject> {
        open(file, false)
    }
}

/// The version the library reports through its spec's version function, if it answers.
pub(super) fn reported_version(real: &RealLibrary, handle: &Handle) -> Option<i32> {
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
            ((unsafe { f(&mut major, &mut minor) }) == 0 && major > 0)
                .then_some(major * 1000 + minor * 10)
        }
        VersionProbe::Property { symbol, releases } => {
            let f = handle.symbol(symbol)?;
            // SAFETY: cublasGetProperty, cusparseGetProperty …: `status f(libraryPropertyType
            // type, int *value)`, an enum and an out-pointer, every major
            // (VersionProbe::Property).
            let f: unsafe extern "C" fn(c_int, *mut c_int) -> c_int =
                unsafe { core::mem::transmute(f) };
            let mut parts: [c_int; 3] = [0; 3];
            for (kind, part) in (0..).zip(parts.iter_mut()) {
                // SAFETY: a valid out-pointer; MAJOR_VERSION 0, MINOR_VERSION 1, PATCH_LEVEL 2.
                if unsafe { f(kind, part) } != 0 {
                    return None;
                }
            }
            let [major, minor, patch] = parts;
            if major <= 0 {
                return None;
            }
            if releases.is_empty() {
                return Some(major * 1000 + minor * 10);
            }
            let own = major * 1000 + minor * 100 + patch;
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
        VersionProbe::OwnVersion { symbol, .. } => {
            let f = handle.symbol(symbol)?;
            // SAFETY: curandGetVersion: `curandStatus_t f(int *version)`, all majors.
            let f: unsafe extern "C" fn(*mut c_int) -> c_int = unsafe { core::mem::transmute(f) };
            let mut own: c_int = 0;
            // SAFETY: a valid out-pointer.
            if unsafe { f(&mut own) } != 0 || own <= 0 {
                return None;
            }
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
        VersionProbe::BuiltFor { symbol, marker } => {
            let f = handle.symbol(symbol)?;
            // SAFETY: ncclGetVersion: `ncclResult_t f(int *version)`, every NCCL 2.x.
            let f: unsafe extern "C" fn(*mut c_int) -> c_int = unsafe { core::mem::transmute(f) };
            let mut own: c_int = 0;
            // SAFETY: a valid out-pointer.
            if unsafe { f(&mut own) } != 0 || own <= 0 {
                return None;
            }
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
    }
}

/// The CUDA version (`1000 * major + 10 * minor`) the loaded library's file says it was built
/// for ([`VersionProbe::BuiltFor`]): read from the file the dynamic loader mapped.
#[cfg(unix)]
fn built_for(handle: &Handle, marker: &CStr) -> Option<i32> {
    let (major, minor) = crate::elf_needed::built_for(handle.path()?, marker.to_bytes())?;
    let version = i32::try_from(major).ok()?.checked_mul(1000)?;
    version.checked_add(i32::try_from(minor.min(99)).ok()? * 10)
}

/// Windows: no library with this probe has a Windows stub (NVIDIA ships no NCCL for Windows).
#[cfg(windows)]
fn built_for(_handle: &Handle, _marker: &CStr) -> Option<i32> {
    None
}

/// Loads the spec's companion from the real library's directory, if there is one there; once
/// loaded, the real library's `dlopen` of its bare soname finds it (Windows: its `LoadLibrary`
/// of the bare DLL name finds the loaded module). `real` is the bound file.
pub(crate) fn preload_companion(spec: &LibrarySpec, real: &[u8], version: i32) {
    let (Some(name), Some(dir)) = (companion_name(spec, version), parent(real)) else {
        return;
    };
    let file = join(dir, name.as_bytes());
    if !is_file(&file) {
        return;
    }
    let shown = file.to_string_lossy();
    match os::open_beside(&file) {
        Ok(_) => line(spec.real.name, format_args!("preloaded {shown}")),
        Err(why) => line(spec.real.name, format_args!("preload {shown}: {why}")),
    }
}

/// The companion's file name for `version`: `libnvrtc-builtins.so.12.9`; on Windows
/// `nvrtc-builtins64_129.dll`.
fn companion_name(spec: &LibrarySpec, version: i32) -> Option<alloc::string::String> {
    let (major, minor) = (version / 1000, (version % 1000) / 10);
    #[cfg(windows)]
    {
        let prefix = spec.real.windows?.companion?;
        Some(format!("{prefix}{}.dll", major * 10 + minor))
    }
    #[cfg(unix)]
    {
        let prefix = spec.real.companion?;
        Some(format!("{prefix}{major}.{minor}"))
    }
}

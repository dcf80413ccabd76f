use crate::candidates::{
    Candidate, Origin, already_loaded, major_of_name, override_and_sonames, usual_places,
};
use crate::debug::line;
use crate::elf_check;
use crate::hooks::{Hook, HookConfig, TraceResult};
use crate::spec::{Gating, LibrarySpec, VersionProbe};
use core::ffi::{CStr, c_int, c_void};
use libloading::os::unix::{Library as DlHandle, RTLD_LAZY, RTLD_LOCAL};
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};

/// Oldest CUDA version the stubs serve (`1000 * major + 10 * minor`).
const MIN_VERSION: i32 = 11000;

/// Which majors have a symbol, as bit masks (bit `n` set = CUDA major `n`). Emitted by the
/// `cuda_stubs` macro from the generated declarations.
#[derive(Debug, Clone, Copy)]
pub struct SymbolGate {
    /// Majors whose library exports the symbol (driver: whose `cuda.h` declares it).
    pub majors: u32,
    /// Majors where the symbol has the ABI the stub exports. A major in `majors` but not here
    /// has the name with another prototype or struct layout: calling it would corrupt memory.
    pub abi: u32,
}

/// What the first call of a function finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// The real entry point, with the ABI the stub exports.
    Found(*mut c_void),
    /// No real library was found: the "library not found" error.
    NoLibrary,
    /// The loaded version lacks the symbol (by its majors, or `dlsym` failed): the "function
    /// absent" error.
    Absent,
    /// The loaded version has the name with another ABI and no adapter exists: refused with the
    /// "function absent" error, never called.
    NotTranslatable,
}

/// A real library once the search is over: bound, or not found with the reasons why.
#[derive(Debug)]
pub struct Loaded {
    handle: Option<DlHandle>,
    /// The file bound: the candidate's path, or for a bare soname the file the dynamic loader
    /// picked (`dladdr` of the version function).
    pub path: Option<CString>,
    /// How it was found.
    pub origin: Option<Origin>,
    /// `1000 * major + 10 * minor` from the version function, else from the soname; 0 unknown.
    pub version: i32,
    /// Every candidate tried and why it was rejected, in order.
    pub attempts: Vec<(String, String)>,
    /// One line for the status API and the `*GetErrorString` functions.
    pub summary: CString,
}

impl Loaded {
    /// True when a real library is bound.
    pub fn is_bound(&self) -> bool {
        self.handle.is_some()
    }

    /// The loaded CUDA major, 0 when unknown or not bound.
    pub fn major(&self) -> u32 {
        u32::try_from(self.version / 1000).unwrap_or(0)
    }

    fn symbol(&self, name: &CStr) -> Option<*mut c_void> {
        let handle = self.handle.as_ref()?;
        // SAFETY: the symbol is only read as an address here; the caller gives it its type.
        let sym = unsafe { handle.get::<*mut c_void>(name.to_bytes_with_nul()) }.ok()?;
        Some(*sym).filter(|p| !p.is_null())
    }
}

/// One real library: its spec, and what the search found (once).
#[derive(Debug)]
pub struct Library {
    spec: &'static LibrarySpec,
    state: OnceLock<Loaded>,
    hooks: OnceLock<HookConfig>,
    resolved: AtomicU32,
    missing: AtomicU32,
}

impl Library {
    /// A library not yet searched for. `const`, so it can be a `static` of the stub.
    pub const fn new(spec: &'static LibrarySpec) -> Self {
        Library {
            spec,
            state: OnceLock::new(),
            hooks: OnceLock::new(),
            resolved: AtomicU32::new(0),
            missing: AtomicU32::new(0),
        }
    }

    /// Searches for and loads the real library on the first call (thread-safe, once); later calls
    /// return the same result.
    pub fn loaded(&self) -> &Loaded {
        self.state.get_or_init(|| load(self.spec))
    }

    /// The address of `name` in the loaded library, without gating: for hand-written adapters,
    /// which call the loaded major's own prototype (they know it from
    /// [`Loaded::major`]). `None` when nothing is bound or the symbol is missing.
    pub fn raw_symbol(&self, name: &CStr) -> Option<*mut c_void> {
        self.loaded().symbol(name)
    }

    /// Number of functions resolved to the real library so far.
    pub fn resolved_count(&self) -> u32 {
        self.resolved.load(Ordering::Relaxed)
    }

    /// Number of functions found absent or refused so far.
    pub fn missing_count(&self) -> u32 {
        self.missing.load(Ordering::Relaxed)
    }

    /// Resolves `name` (see [`Library::resolve`]) and stores the real entry point, or
    /// `fallback` when it cannot be called, into `slot`; returns what it stored. Called once per
    /// function by the shared resolver on its first call; racing threads store the same value.
    ///
    /// When `CUDA_STUBS_TRACE` or `CUDA_STUBS_FAULT` selects the function, the slot gets the
    /// `hook`'s wrapper instead, and the hook the entry point the wrapper calls: only selected
    /// functions pay for tracing or fault injection.
    #[inline(never)]
    pub fn bind(
        &'static self,
        slot: &AtomicPtr<()>,
        name: &CStr,
        gate: SymbolGate,
        fallback: *mut (),
        hook: Option<(&'static Hook, *mut ())>,
    ) -> *mut () {
        let mut p = match self.resolve(name, gate) {
            Resolution::Found(p) => p.cast::<()>(),
            _ => fallback,
        };
        if let Some((hook, wrapper)) = hook {
            let hooks = self.hook_config();
            let text = name.to_string_lossy();
            if hooks.selects(&text) {
                hooks.arm(hook, &text, p);
                p = wrapper;
            }
        }
        slot.store(p, Ordering::Release);
        p
    }

    fn hook_config(&'static self) -> &'static HookConfig {
        self.hooks
            .get_or_init(|| HookConfig::from_env(self.spec.name))
    }

    /// For a wrapper, before the real call: the start time (ns) and the status to inject
    /// instead of calling, if any. Not inlined: the wrappers stay small.
    #[inline(never)]
    pub fn enter(&'static self, hook: &Hook) -> (u64, Option<i64>) {
        (
            crate::hooks::clock_ns(),
            crate::hooks::inject(hook, self.hook_config().seed()),
        )
    }

    /// For a wrapper, after the call: writes the trace line if the function is traced.
    #[inline(never)]
    pub fn record(&'static self, hook: &Hook, start_ns: u64, result: TraceResult) {
        crate::hooks::record(self.hook_config(), self.spec.name, hook, start_ns, result);
    }

    /// Looks up `name` in the real library, gated by the loaded major: a function the loaded
    /// version does not have is never looked up, one with another ABI is refused.
    pub fn resolve(&self, name: &CStr, gate: SymbolGate) -> Resolution {
        let loaded = self.loaded();
        if !loaded.is_bound() {
            return Resolution::NoLibrary;
        }
        let fname = name.to_string_lossy();
        let major = loaded.major();
        let result = match gate_decision(self.spec.gating, gate, major) {
            Some(r) => {
                line(
                    self.spec.name,
                    format_args!(
                        "{fname}: {} in CUDA {major} (symbol majors {}, exported ABI majors {})",
                        if r == Resolution::Absent {
                            "absent"
                        } else {
                            "ABI differs: refused"
                        },
                        majors_text(gate.majors),
                        majors_text(gate.abi),
                    ),
                );
                r
            }
            None => match self
                .via_proc_address(loaded, name)
                .or_else(|| loaded.symbol(name))
            {
                Some(p) => Resolution::Found(p),
                None => {
                    line(
                        self.spec.name,
                        format_args!("{fname}: symbol missing from the library"),
                    );
                    Resolution::Absent
                }
            },
        };
        let result = match result {
            Resolution::Absent => self.replacement(loaded, name).unwrap_or(result),
            other => other,
        };
        let counter = if matches!(result, Resolution::Found(_)) {
            &self.resolved
        } else {
            &self.missing
        };
        counter.fetch_add(1, Ordering::Relaxed);
        result
    }
}

impl Library {
    /// The entry point `cuGetProcAddress` gives for `name`'s ABI version, when the spec has a
    /// table entry for it and the driver answers.
    fn via_proc_address(&self, loaded: &Loaded, name: &CStr) -> Option<*mut c_void> {
        let table = self.spec.proc_address.as_ref()?;
        let i = table.entries.binary_search_by(|e| e.0.cmp(name)).ok()?;
        let (_, base, version, flags) = table.entries[i];
        let getter = loaded.symbol(table.getter)?;
        // SAFETY: cuGetProcAddress's unsuffixed export keeps the CUDA 11.3 four-argument ABI.
        let getter: unsafe extern "C" fn(
            *const core::ffi::c_char,
            *mut *mut c_void,
            c_int,
            u64,
        ) -> c_int = unsafe { core::mem::transmute(getter) };
        let mut p: *mut c_void = core::ptr::null_mut();
        // SAFETY: a valid name and out-pointer.
        let status = unsafe { getter(base.as_ptr(), &mut p, version, flags) };
        line(
            self.spec.name,
            format_args!(
                "{}: cuGetProcAddress({}, {version}, flags {flags}) = {status}",
                name.to_string_lossy(),
                base.to_string_lossy()
            ),
        );
        (status == 0 && !p.is_null()).then_some(p)
    }

    /// The same-prototype replacement of a function the loaded version removed, if the spec
    /// names one and the library has it.
    fn replacement(&self, loaded: &Loaded, name: &CStr) -> Option<Resolution> {
        let (_, with) = self
            .spec
            .replacements
            .iter()
            .find(|(removed, _)| *removed == name)?;
        let p = loaded.symbol(with)?;
        line(
            self.spec.name,
            format_args!(
                "{}: absent, bound to its replacement {}",
                name.to_string_lossy(),
                with.to_string_lossy()
            ),
        );
        Some(Resolution::Found(p))
    }
}

fn gate_decision(gating: Gating, gate: SymbolGate, major: u32) -> Option<Resolution> {
    if major == 0 || major >= 32 {
        return None; // unknown version: dlsym alone decides
    }
    let bit = 1u32 << major;
    match gating {
        Gating::Exact if gate.majors & bit == 0 => Some(Resolution::Absent),
        Gating::Exact if gate.abi & bit == 0 => Some(Resolution::NotTranslatable),
        Gating::AtLeast if gate.majors != 0 && major < gate.majors.trailing_zeros() => {
            Some(Resolution::Absent)
        }
        // A driver of a major whose headers declare the name with another struct layout
        // (CUlaunchConfig in 12.x vs 13.x) would read the caller's structs wrongly.
        Gating::AtLeast if gate.majors & bit != 0 && gate.abi & bit == 0 => {
            Some(Resolution::NotTranslatable)
        }
        _ => None,
    }
}

fn majors_text(mask: u32) -> String {
    let list: Vec<String> = (0..32)
        .filter(|m| mask & (1 << m) != 0)
        .map(|m| m.to_string())
        .collect();
    list.join(",")
}

/// Directory of the shared object this code is linked into (the stub), via `dladdr`.
fn own_dir() -> Option<PathBuf> {
    let mut info: libc::Dl_info = unsafe { core::mem::zeroed() };
    let addr = own_dir as *const c_void;
    // SAFETY: dladdr only reads the loader's tables for an address inside this object.
    if unsafe { libc::dladdr(addr, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr returned a NUL-terminated path owned by the dynamic loader.
    let path = unsafe { CStr::from_ptr(info.dli_fname) };
    use std::os::unix::ffi::OsStrExt;
    Path::new(std::ffi::OsStr::from_bytes(path.to_bytes()))
        .parent()
        .map(Path::to_path_buf)
}

fn path_of_symbol(addr: *mut c_void) -> Option<String> {
    let mut info: libc::Dl_info = unsafe { core::mem::zeroed() };
    // SAFETY: as in own_dir.
    if unsafe { libc::dladdr(addr, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: NUL-terminated string owned by the dynamic loader.
    Some(
        unsafe { CStr::from_ptr(info.dli_fname) }
            .to_string_lossy()
            .into_owned(),
    )
}

fn open(target: &Path, flags: c_int) -> Result<DlHandle, String> {
    // SAFETY: loading a library runs its initialisers; the candidates are CUDA libraries the
    // user installed, which is the whole point of the stub.
    unsafe { DlHandle::open(Some(target), flags) }.map_err(|e| {
        let text = e.to_string();
        if text.contains("No such file or directory") {
            "not found".into()
        } else {
            format!("dlopen: {text}")
        }
    })
}

/// The version the library reports, or what its file name says, or 0.
/// `path` is only looked up (with `dladdr`) for a bare soname; a path candidate is its own.
fn probe_version(
    spec: &LibrarySpec,
    handle: &DlHandle,
    name_major: u32,
    soname: bool,
) -> (i32, Option<String>) {
    let by_name = i32::try_from(name_major * 1000).unwrap_or(0);
    let (sym_name, reported) = match spec.version {
        VersionProbe::OneInt(name) => {
            let mut v: c_int = 0;
            // SAFETY: cudaRuntimeGetVersion / cuDriverGetVersion: `int f(int *)`, all majors.
            let r = unsafe {
                handle.get::<unsafe extern "C" fn(*mut c_int) -> c_int>(name.to_bytes_with_nul())
            }
            .ok()
            .map(|f| unsafe { f(&mut v) } == 0 && v > 0);
            (name, r.unwrap_or(false).then_some(v))
        }
        VersionProbe::MajorMinor(name) => {
            let (mut major, mut minor): (c_int, c_int) = (0, 0);
            // SAFETY: nvrtcVersion: `nvrtcResult nvrtcVersion(int *major, int *minor)`, all majors.
            let r = unsafe {
                handle.get::<unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int>(
                    name.to_bytes_with_nul(),
                )
            }
            .ok()
            .map(|f| unsafe { f(&mut major, &mut minor) } == 0 && major > 0);
            (
                name,
                r.unwrap_or(false).then_some(major * 1000 + minor * 10),
            )
        }
    };
    if !soname {
        return (reported.unwrap_or(by_name), None);
    }
    let path = unsafe { handle.get::<*mut c_void>(sym_name.to_bytes_with_nul()) }
        .ok()
        .and_then(|s| path_of_symbol(*s));
    (reported.unwrap_or(by_name), path)
}

/// Tries one candidate; `Ok` holds the handle, version and real path.
fn try_candidate(
    spec: &LibrarySpec,
    c: &Candidate,
    flags: c_int,
) -> Result<(DlHandle, i32, Option<String>), String> {
    // A loaded object is a valid ELF of this machine already.
    if !c.is_soname() && c.origin != Origin::AlreadyLoaded {
        elf_check::check(&c.target)?;
    }
    let handle = open(&c.target, flags)?;
    // SAFETY: only the presence of the marker is tested.
    if unsafe { handle.get::<*mut c_void>(crate::STUB_MARKER.to_bytes_with_nul()) }.is_ok() {
        // A stub: keep it loaded (never dlclose) but never call it.
        std::mem::forget(handle);
        return Err("is a cuda-stubs library, not NVIDIA's (would call itself)".into());
    }
    let name_major = if c.name_major != 0 {
        c.name_major
    } else {
        c.target.file_name().map_or(0, |n| major_of_name(spec, n))
    };
    let (version, path) = probe_version(spec, &handle, name_major, c.is_soname());
    if version != 0 && version < MIN_VERSION {
        std::mem::forget(handle);
        return Err(format!(
            "version {version} too old (need {MIN_VERSION} or newer)"
        ));
    }
    Ok((handle, version, path))
}

/// The first candidate of `list` that loads and passes the checks, with its handle, version
/// and path; every rejection is logged and recorded in `attempts`.
fn first_usable(
    spec: &LibrarySpec,
    list: &[Candidate],
    flags: c_int,
    attempts: &mut Vec<(String, String)>,
) -> Option<(Candidate, DlHandle, i32, Option<String>)> {
    for c in list {
        match try_candidate(spec, c, flags) {
            Ok((handle, version, path)) => return Some((c.clone(), handle, version, path)),
            Err(why) => {
                let what = format!("{} [{}]", c.target.display(), c.origin.as_str());
                line(spec.name, format_args!("try {what}: rejected: {why}"));
                attempts.push((what, why));
            }
        }
    }
    None
}

fn load(spec: &'static LibrarySpec) -> Loaded {
    let mut attempts: Vec<(String, String)> = Vec::new();
    // Step 1: a copy the process already has (reopened by its path with RTLD_NOLOAD, which
    // matches the loaded object without touching the file system).
    let loaded = already_loaded(spec);
    if loaded.is_empty() {
        line(spec.name, format_args!("no copy already loaded"));
    }
    let found = first_usable(
        spec,
        &loaded,
        RTLD_LAZY | RTLD_LOCAL | libc::RTLD_NOLOAD,
        &mut attempts,
    )
    .or_else(|| {
        let (early, env_rejects) = override_and_sonames(spec);
        for (what, why) in env_rejects {
            line(spec.name, format_args!("{what}: {why}"));
            attempts.push((what, why));
        }
        first_usable(spec, &early, RTLD_LAZY | RTLD_LOCAL, &mut attempts)
    })
    .or_else(|| {
        let usual = usual_places(spec, own_dir().as_deref());
        first_usable(spec, &usual, RTLD_LAZY | RTLD_LOCAL, &mut attempts)
    });
    if let Some((c, handle, version, path)) = found {
        if !c.is_soname() && c.origin != Origin::AlreadyLoaded {
            preload_companion(spec, &c.target, version);
        }
        let shown = path.unwrap_or_else(|| c.target.display().to_string());
        line(
            spec.name,
            format_args!("bound {shown} (version {version}) [{}]", c.origin.as_str()),
        );
        let summary = format!(
            "cuda-stubs: lib{} bound to {shown}, version {version}, found by {}",
            spec.name,
            c.origin.as_str()
        );
        return Loaded {
            handle: Some(handle),
            path: Some(to_cstring(shown)),
            origin: Some(c.origin),
            version,
            attempts,
            summary: to_cstring(summary),
        };
    }
    line(
        spec.name,
        format_args!("no library found: calls return the stub's \"library not found\" error"),
    );
    let tried: Vec<String> = attempts
        .iter()
        .filter(|(_, why)| why != "not found")
        .map(|(what, why)| format!("{what}: {why}"))
        .collect();
    let wheels = if spec.wheel_dirs.is_empty() {
        String::new()
    } else {
        format!("wheel layouts {}; ", spec.wheel_dirs.join(", "))
    };
    let sonames: Vec<_> = spec
        .sonames
        .iter()
        .map(|s| s.name.to_string_lossy())
        .collect();
    let summary = format!(
        "cuda-stubs: lib{} not found (searched {}; {}; {wheels}$CONDA_PREFIX/lib, \
         $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64){}{}",
        spec.name,
        sonames.join(", "),
        spec.env_path,
        if tried.is_empty() { "" } else { "; rejected: " },
        tried.join("; "),
    );
    Loaded {
        handle: None,
        path: None,
        origin: None,
        version: 0,
        attempts,
        summary: to_cstring(summary),
    }
}

/// Loads the spec's companion from the real library's directory, if there is one there; once
/// loaded, the real library's `dlopen` of its bare soname finds it.
fn preload_companion(spec: &LibrarySpec, real: &Path, version: i32) {
    let (Some(prefix), Some(dir)) = (spec.companion, real.parent()) else {
        return;
    };
    let file = dir.join(format!(
        "{prefix}{}.{}",
        version / 1000,
        (version % 1000) / 10
    ));
    if !file.is_file() {
        return;
    }
    match open(&file, RTLD_LAZY | RTLD_LOCAL) {
        Ok(handle) => {
            line(spec.name, format_args!("preloaded {}", file.display()));
            std::mem::forget(handle);
        }
        Err(why) => line(spec.name, format_args!("preload {}: {why}", file.display())),
    }
}

fn to_cstring(s: String) -> CString {
    CString::new(s.replace('\0', " ")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: SymbolGate = SymbolGate {
        majors: (1 << 11) | (1 << 12),
        abi: 1 << 12,
    };

    #[test]
    fn exact_gating_separates_absent_from_refused() {
        assert_eq!(
            gate_decision(Gating::Exact, M, 13),
            Some(Resolution::Absent)
        );
        assert_eq!(
            gate_decision(Gating::Exact, M, 11),
            Some(Resolution::NotTranslatable)
        );
        assert_eq!(gate_decision(Gating::Exact, M, 12), None);
        assert_eq!(gate_decision(Gating::Exact, M, 0), None);
    }

    #[test]
    fn driver_gating_refuses_a_driver_major_with_another_layout() {
        let g = SymbolGate {
            majors: 1 << 12 | 1 << 13,
            abi: 1 << 13,
        };
        assert_eq!(
            gate_decision(Gating::AtLeast, g, 12),
            Some(Resolution::NotTranslatable)
        );
        assert_eq!(gate_decision(Gating::AtLeast, g, 13), None);
        assert_eq!(gate_decision(Gating::AtLeast, g, 14), None);
    }

    #[test]
    fn driver_gating_is_a_minimum() {
        let g = SymbolGate {
            majors: 1 << 12 | 1 << 13,
            abi: 1 << 12 | 1 << 13,
        };
        assert_eq!(
            gate_decision(Gating::AtLeast, g, 11),
            Some(Resolution::Absent)
        );
        assert_eq!(gate_decision(Gating::AtLeast, g, 13), None);
        assert_eq!(gate_decision(Gating::AtLeast, g, 14), None);
    }
}

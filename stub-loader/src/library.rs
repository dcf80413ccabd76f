use crate::candidates::{
    Candidate, Origin, SEARCH, Step, file_name, is_file, join, major_of_name, parent,
    step_candidates,
};
use crate::debug::line;
use crate::dlopen::{Handle, object_path};
use crate::elf_check;
use crate::fn_table::{FnTable, RetKind};
use crate::hooks::{HookConfig, TraceResult};
use crate::once::Once;
use crate::spec::{Gating, LibrarySpec, VersionProbe};
use alloc::ffi::CString;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::ffi::{CStr, c_int, c_void};
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};

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
    handle: Option<Handle>,
    /// The file bound: the candidate's path, or for a bare soname the file the dynamic loader
    /// picked (its link map, `dlinfo`).
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
        self.handle.as_ref()?.symbol(name)
    }
}

/// One real library: its spec, its stub's function table, and what the search found (once).
#[derive(Debug)]
pub struct Library {
    spec: &'static LibrarySpec,
    table: &'static FnTable,
    state: Once<Loaded>,
    hooks: Once<HookConfig>,
    resolved: AtomicU32,
    missing: AtomicU32,
    /// Set by the first refusal: the last-error readers' slots hold their wrappers from then on.
    diverted: AtomicBool,
}

impl Library {
    /// A library not yet searched for. `const`, so it can be a `static` of the stub.
    pub const fn new(spec: &'static LibrarySpec, table: &'static FnTable) -> Self {
        Library {
            spec,
            table,
            state: Once::new(),
            hooks: Once::new(),
            resolved: AtomicU32::new(0),
            missing: AtomicU32::new(0),
            diverted: AtomicBool::new(false),
        }
    }

    /// Searches for and loads the real library on the first call (thread-safe, once); later calls
    /// return the same result.
    pub fn loaded(&self) -> &Loaded {
        self.state.get_or_init(|| load(self.spec))
    }

    /// The entry point of `name` as the generated stubs would bind it (through the spec's
    /// `cuGetProcAddress` table where it has one, else `dlsym` of the exact name), but without
    /// gating: for hand-written adapters ([`crate::RawFn`]), which call the loaded major's own
    /// prototype (they know it from [`Loaded::major`]) or checked that the call fits its layout.
    /// `None` when nothing is bound or neither lookup finds it.
    pub fn ungated_symbol(&self, name: &CStr) -> Option<*mut c_void> {
        let loaded = self.loaded();
        if !loaded.is_bound() {
            return None;
        }
        self.via_proc_address(loaded, name)
            .or_else(|| loaded.symbol(name))
    }

    /// Number of functions resolved to the real library so far.
    pub fn resolved_count(&self) -> u32 {
        self.resolved.load(Ordering::Relaxed)
    }

    /// Number of functions found absent or refused so far.
    pub fn missing_count(&self) -> u32 {
        self.missing.load(Ordering::Relaxed)
    }

    /// Binds function `index` of the table: resolves it (see [`Library::resolve`]), stores the
    /// real entry point, or the typed fallback when it cannot be called, into its slot, and
    /// returns what it stored. Called by the shared resolver on the function's first call;
    /// racing threads store the same value.
    ///
    /// When `CUDA_STUBS_TRACE` or `CUDA_STUBS_FAULT` selects the function, the slot is left at
    /// the first-call thunk and the traced entry is returned (now and on every later call):
    /// only selected functions pay for tracing or fault injection.
    #[inline(never)]
    pub fn bind_index(&'static self, index: u32) -> *mut () {
        let t = self.table;
        let i = index as usize;
        let (Some(meta), Some(slot)) = (t.meta.get(i), t.slots.get(i)) else {
            return t.absent; // not reachable: thunks carry their own index
        };
        if self.hooks.get().is_some_and(|h| h.armed(i).is_some()) {
            return t.traced;
        }
        let name = t.name(meta);
        let reader = self.reader_wrapper(name);
        let target = match self.resolve(name, meta.gate()) {
            Resolution::Found(p) => p.cast::<()>(),
            // A last-error reader the library cannot answer is answered by its wrapper.
            _ if let Some(wrapper) = reader => return divert(slot, wrapper),
            Resolution::NoLibrary => t.fallback(i, meta, true),
            Resolution::Absent | Resolution::NotTranslatable => t.fallback(i, meta, false),
        };
        if meta.traceable {
            let hooks = self.hook_config();
            let text = name.to_str().unwrap_or("");
            if hooks.selects(text) && hooks.arm(i, text, target) {
                return t.traced;
            }
        }
        // SeqCst with `note_refusal`'s flag: either this sees `diverted`, or the diversion's
        // store comes after this one; a reader never keeps its plain entry after a refusal.
        slot.store(target, Ordering::SeqCst);
        if let Some(wrapper) = reader
            && self.diverted.load(Ordering::SeqCst)
        {
            return divert(slot, wrapper);
        }
        target
    }

    /// Records a call this stub did not make (no library, function absent, ABI refused) as the
    /// calling thread's last error, when the spec has one ([`crate::LastError`]); the first
    /// time, switches the last-error readers to their wrappers. Called by every fallback and by
    /// adapters that refuse; a no-op for libraries without a last error (NVRTC, the driver).
    pub fn note_refusal(&self) {
        let Some(last) = &self.spec.last_error else {
            return;
        };
        let code = if self.loaded().is_bound() {
            last.absent
        } else {
            last.no_library
        };
        crate::last_error::set_last_refusal(code);
        if self.diverted.swap(true, Ordering::SeqCst) {
            return;
        }
        for (name, wrapper) in last.readers {
            let t = self.table;
            let found = t
                .meta
                .iter()
                .position(|m| t.name(m) == *name)
                .and_then(|i| t.slots.get(i));
            if let Some(slot) = found {
                slot.store(*wrapper as *mut (), Ordering::SeqCst);
            }
        }
    }

    /// What the last-error readers answer while no library is bound: the spec's `no_library`
    /// code (`cudaErrorStubLibrary`, 34), on every read and never cleared. NVIDIA's runtime
    /// without a usable driver answers each read with its own sticky error
    /// (`cudaErrorInsufficientDriver`, which `cudaGetLastError` never clears), so a program that
    /// polls `cudaGetLastError()` to decide whether CUDA works must see the missing library,
    /// never `cudaSuccess`, even when that poll is its first call. `None` once a library is bound
    /// (the refusals' own per-thread state applies then) and for libraries without a last error.
    pub fn unbound_last_error(&self) -> Option<u32> {
        let last = self.spec.last_error.as_ref()?;
        (!self.loaded().is_bound()).then_some(last.no_library)
    }

    /// The wrapper of `name` if it is a last-error reader.
    fn reader_wrapper(&self, name: &CStr) -> Option<*mut ()> {
        let last = self.spec.last_error.as_ref()?;
        last.readers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, w)| *w as *mut ())
    }

    fn hook_config(&self) -> &HookConfig {
        self.hooks
            .get_or_init(|| HookConfig::from_env(self.spec.real.name, self.table.meta.len()))
    }

    /// For the traced entry, before the call of function `index`: writes the start time (ns)
    /// to `*state` and returns the function to call, or writes the status to inject to `*state`
    /// and returns NULL.
    ///
    /// # Safety
    /// `state` is valid for writing.
    pub unsafe fn hook_enter(&self, index: u32, state: *mut u64) -> *mut () {
        let i = index as usize;
        let (Some(hooks), Some(meta)) = (self.hooks.get(), self.table.meta.get(i)) else {
            return self.table.absent; // not reachable: only armed functions get here
        };
        let Some(target) = hooks.armed(i) else {
            return self.table.absent;
        };
        let start = crate::hooks::clock_ns();
        let name = self.table.name(meta);
        if meta.ret == RetKind::Status {
            if let Some(code) = hooks.inject(i, name.to_bytes()) {
                let text = name.to_str().unwrap_or("");
                hooks.record(
                    self.spec.real.name,
                    text,
                    start,
                    TraceResult::Injected(code),
                );
                // SAFETY: by contract.
                unsafe { state.write(code as u64) };
                return core::ptr::null_mut();
            }
        }
        // SAFETY: by contract.
        unsafe { state.write(start) };
        target
    }

    /// For the traced entry, after the call of function `index` that started at `start_ns`
    /// and returned `raw` (the integer return register): writes the trace line if traced.
    pub fn hook_exit(&self, index: u32, start_ns: u64, raw: u64) {
        let i = index as usize;
        let (Some(hooks), Some(meta)) = (self.hooks.get(), self.table.meta.get(i)) else {
            return;
        };
        let name = self.table.name(meta).to_str().unwrap_or("");
        hooks.record(
            self.spec.real.name,
            name,
            start_ns,
            TraceResult::from_raw(meta.ret, raw),
        );
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
        let result = match gate_decision(self.spec.real.gating, gate, major) {
            Some(r) => {
                line(
                    self.spec.real.name,
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
                        self.spec.real.name,
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
        let entry = table.find(name)?;
        let base = CString::new(name.to_bytes().get(..usize::from(entry.base_len))?).ok()?;
        let (version, flags) = (i32::from(entry.version), u64::from(entry.flags));
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
            self.spec.real.name,
            format_args!(
                "{}: cuGetProcAddress({}, {version}, flags {flags}) = {status}",
                name.to_string_lossy(),
                base.to_string_lossy()
            ),
        );
        (status == 0 && !p.is_null()).then_some(p)
    }

    /// The same-prototype replacement of a function the loaded version removed, if the spec
    /// names one for the loaded major and the library has it.
    fn replacement(&self, loaded: &Loaded, name: &CStr) -> Option<Resolution> {
        let with = self
            .spec
            .replacements
            .iter()
            .find(|r| r.removed == name && r.on.contains(&loaded.major()))?
            .with;
        let p = loaded.symbol(with)?;
        line(
            self.spec.real.name,
            format_args!(
                "{}: absent, bound to its replacement {}",
                name.to_string_lossy(),
                with.to_string_lossy()
            ),
        );
        Some(Resolution::Found(p))
    }
}

/// Points a last-error reader's slot at its wrapper, and returns the wrapper.
fn divert(slot: &core::sync::atomic::AtomicPtr<()>, wrapper: *mut ()) -> *mut () {
    slot.store(wrapper, Ordering::SeqCst);
    wrapper
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
        // (CUdevResource in 12.x vs 13.x) would read the caller's structs wrongly.
        Gating::AtLeast if gate.majors & bit != 0 && gate.abi & bit == 0 => {
            Some(Resolution::NotTranslatable)
        }
        _ => None,
    }
}

fn majors_text(mask: u32) -> String {
    let list: Vec<String> = (0..32)
        .filter(|m| mask & (1 << m) != 0)
        .map(|m: u32| m.to_string())
        .collect();
    list.join(",")
}

/// Directory of the shared object this code is linked into (the stub), via `dladdr`, with `.`
/// and `..` components folded lexically: a stub loaded through a RUNPATH such as
/// `$ORIGIN/../cuda_stubs/lib` then reports, and searches from, a plain path. Lexically, not
/// with `realpath`: this runs on every first call that reaches the wheel step, and `realpath`
/// costs one `readlink` per path component.
fn own_dir() -> Option<Vec<u8>> {
    let path = object_path(own_dir as *const c_void)?;
    let dir = parent(path.to_bytes())?;
    Some(crate::candidates::fold_dots(dir))
}

fn open(target: &CStr, flags: c_int) -> Result<Handle, String> {
    Handle::open(target, flags).map_err(|text| {
        if text.contains("No such file or directory") {
            "not found".into()
        } else {
            format!("dlopen: {text}")
        }
    })
}

/// The version the library reports, or what its file name says, or 0.
/// `path` is only looked up (`dlinfo`) for a bare soname; a path candidate is its own.
fn probe_version(
    spec: &LibrarySpec,
    handle: &Handle,
    name_major: u32,
    soname: bool,
) -> (i32, Option<CString>) {
    let by_name = i32::try_from(name_major * 1000).unwrap_or(0);
    let reported = match spec.real.version {
        VersionProbe::OneInt(name) => {
            let mut v: c_int = 0;
            let r = handle.symbol(name).map(|f| {
                // SAFETY: cudaRuntimeGetVersion / cuDriverGetVersion: `int f(int *)`, all majors.
                let f: unsafe extern "C" fn(*mut c_int) -> c_int =
                    unsafe { core::mem::transmute(f) };
                // SAFETY: a valid out-pointer.
                (unsafe { f(&mut v) }) == 0 && v > 0
            });
            r.unwrap_or(false).then_some(v)
        }
        VersionProbe::MajorMinor(name) => {
            let (mut major, mut minor): (c_int, c_int) = (0, 0);
            let r = handle.symbol(name).map(|f| {
                // SAFETY: nvrtcVersion / nvJitLinkVersion: `int f(int *major, int *minor)` by ABI
                // (VersionProbe::MajorMinor).
                let f: unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int =
                    unsafe { core::mem::transmute(f) };
                // SAFETY: valid out-pointers.
                (unsafe { f(&mut major, &mut minor) }) == 0 && major > 0
            });
            r.unwrap_or(false).then_some(major * 1000 + minor * 10)
        }
    };
    if !soname {
        return (reported.unwrap_or(by_name), None);
    }
    (reported.unwrap_or(by_name), handle.path())
}

/// Tries one candidate; `Ok` holds the handle, version and real path.
fn try_candidate(
    spec: &LibrarySpec,
    c: &Candidate,
    flags: c_int,
) -> Result<(Handle, i32, Option<CString>), String> {
    // A loaded object is a valid ELF of this machine already.
    if !c.is_soname() && c.origin != Origin::AlreadyLoaded {
        elf_check::check(&c.target)?;
    }
    let handle = open(&c.target, flags)?;
    if handle.symbol(crate::STUB_MARKER).is_some() {
        // A stub: keep it loaded (never dlclose) but never call it.
        return Err("is a cuda-stubs library, not NVIDIA's (would call itself)".into());
    }
    let name_major = if c.name_major != 0 {
        c.name_major
    } else {
        major_of_name(spec, file_name(c.target.to_bytes()))
    };
    let (version, path) = probe_version(spec, &handle, name_major, c.is_soname());
    if version != 0 && version < MIN_VERSION {
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
) -> Option<(Candidate, Handle, i32, Option<CString>)> {
    for c in list {
        match try_candidate(spec, c, flags) {
            Ok((handle, version, path)) => return Some((c.clone(), handle, version, path)),
            Err(why) => {
                let what = format!("{} [{}]", c.display(), c.origin.as_str());
                line(spec.real.name, format_args!("try {what}: rejected: {why}"));
                attempts.push((what, why));
            }
        }
    }
    None
}

fn load(spec: &'static LibrarySpec) -> Loaded {
    let mut attempts: Vec<(String, String)> = Vec::new();
    let lazy_local = libc::RTLD_LAZY | libc::RTLD_LOCAL;
    let mut found = None;
    for step in SEARCH {
        // The stub's own folder (dladdr) only for the step that needs it, and only if reached.
        let stub_dir = if step == Step::PythonWheels {
            own_dir()
        } else {
            None
        };
        let (list, env_rejects) = step_candidates(spec, step, stub_dir.as_deref());
        for (what, why) in env_rejects {
            line(spec.real.name, format_args!("{what}: {why}"));
            attempts.push((what, why));
        }
        // A loaded copy is reopened by its path with RTLD_NOLOAD, which matches the loaded
        // object without touching the file system and never loads a second one.
        let flags = if step == Step::AlreadyLoaded {
            if list.is_empty() {
                line(spec.real.name, format_args!("no copy already loaded"));
            }
            lazy_local | libc::RTLD_NOLOAD
        } else {
            lazy_local
        };
        found = first_usable(spec, &list, flags, &mut attempts);
        if found.is_some() {
            break;
        }
    }
    if let Some((c, handle, version, path)) = found {
        if !c.is_soname() && c.origin != Origin::AlreadyLoaded {
            preload_companion(spec, c.target.to_bytes(), version);
        }
        let shown = path.unwrap_or_else(|| c.target.clone());
        let text = String::from_utf8_lossy(shown.to_bytes()).into_owned();
        line(
            spec.real.name,
            format_args!("bound {text} (version {version}) [{}]", c.origin.as_str()),
        );
        let summary = format!(
            "cuda-stubs: lib{} bound to {text}, version {version}, found by {}",
            spec.real.name,
            c.origin.as_str()
        );
        return Loaded {
            handle: Some(handle),
            path: Some(shown),
            origin: Some(c.origin),
            version,
            attempts,
            summary: to_cstring(summary),
        };
    }
    line(
        spec.real.name,
        format_args!("no library found: calls return the stub's \"library not found\" error"),
    );
    let tried: Vec<String> = attempts
        .iter()
        .filter(|(_, why)| why != "not found")
        .map(|(what, why)| format!("{what}: {why}"))
        .collect();
    let wheels = if spec.real.wheel_dirs.is_empty() {
        String::new()
    } else {
        let dirs: Vec<_> = spec
            .real
            .wheel_dirs
            .iter()
            .map(|d| d.to_string_lossy())
            .collect();
        format!("wheel layouts {}; ", dirs.join(", "))
    };
    let sonames: Vec<_> = spec
        .real
        .sonames
        .iter()
        .map(|s| s.name.to_string_lossy())
        .collect();
    let summary = format!(
        "cuda-stubs: lib{} not found (searched {}; {}; {wheels}$CONDA_PREFIX/lib, \
         $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64){}{}",
        spec.real.name,
        sonames.join(", "),
        spec.real.env_path.to_string_lossy(),
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
fn preload_companion(spec: &LibrarySpec, real: &[u8], version: i32) {
    let (Some(prefix), Some(dir)) = (spec.real.companion, parent(real)) else {
        return;
    };
    let name = format!("{prefix}{}.{}", version / 1000, (version % 1000) / 10);
    let file = join(dir, name.as_bytes());
    if !is_file(&file) {
        return;
    }
    let shown = file.to_string_lossy();
    match open(&file, libc::RTLD_LAZY | libc::RTLD_LOCAL) {
        Ok(_) => line(spec.real.name, format_args!("preloaded {shown}")),
        Err(why) => line(spec.real.name, format_args!("preload {shown}: {why}")),
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

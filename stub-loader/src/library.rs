//! One real library as its stub sees it ([`Library`]): searched once, then each function bound
//! on its first call (gated by the loaded major, through `cuGetProcAddress` or `dlsym`, or to a
//! same-prototype replacement), with the last-error readers and the tracing hooks that binding
//! decides on.

use crate::debug::{Lossy, line};
use crate::fn_table::FnTable;
use crate::gating::{Majors, Resolution, SymbolGate, gate_decision};
use crate::hooks::{HookConfig, TraceResult};
use crate::once::Once;
use crate::search::Loaded;
use crate::spec::LibrarySpec;
use alloc::ffi::CString;
use core::ffi::{CStr, c_int, c_void};
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use stub_spec::RetKind;

/// One real library: its spec, its stub's function table, and what the search found (once).
#[derive(Debug)]
pub struct Library {
    spec: &'static LibrarySpec,
    table: &'static FnTable,
    state: Once<Loaded>,
    /// What a call from inside the search sees ([`Library::loaded`]).
    searching: Loaded,
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
            searching: Loaded::searching(spec),
            hooks: Once::new(),
            resolved: AtomicU32::new(0),
            missing: AtomicU32::new(0),
            diverted: AtomicBool::new(false),
        }
    }

    /// The library's short name (`cudart`, `cublas`): the spec's.
    pub fn name(&self) -> &'static str {
        self.spec.real.name
    }

    /// Searches for and loads the real library on the first call (thread-safe, once); later calls
    /// return the same result. A call made from inside the search on its own thread (a library
    /// being loaded calls one of this stub's exports from its initialisers, through the global
    /// scope) sees no library, with a summary that says so: the search has no result yet, and
    /// waiting for it there would wait forever. Nothing it binds is kept ([`Library::bind_index`]).
    pub fn loaded(&self) -> &Loaded {
        match self.state.get() {
            Some(loaded) => loaded,
            None => self.search_once(),
        }
    }

    /// [`Library::loaded`] before the search is done: out of line, so that its callers (every
    /// adapter asks for the loaded major) inline only the check of the finished result.
    #[cold]
    #[inline(never)]
    fn search_once(&self) -> &Loaded {
        if let Some(loaded) = self.state.get_or_init(|| crate::search::find(self.spec)) {
            return loaded;
        }
        &self.searching
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

    /// The address of the data object `name` in the bound library (`dlsym`, searching for the
    /// library on the first call), `None` when nothing is bound or the library lacks it: for
    /// the stand-ins of its exported pointer constants ([`crate::StandIns`]).
    pub fn data_object(&self, name: &CStr) -> Option<*mut c_void> {
        let found = self.loaded().symbol(name);
        line(
            self.spec.real.name,
            format_args!(
                "{}: data object {}",
                Lossy(name.to_bytes()),
                if found.is_some() {
                    "found"
                } else {
                    "missing from the library (or none bound): refused"
                }
            ),
        );
        found
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
        // A call from inside this library's own search, on the searching thread (a library it
        // loads calls the stub from its initialisers): "no library" for this call, and nothing
        // kept in the slot, so that calls after the search bind what it found.
        if self.state.initializing_here() {
            return t.fallback(i, meta, true);
        }
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
        if meta.traceable
            && let Some(hooks) = self.hook_config()
        {
            // Nothing to match when neither variable is set: the name is not even read as text.
            if hooks.is_active() {
                let text = name.to_str().unwrap_or("");
                if hooks.selects(text) && hooks.arm(i, text, target) {
                    return t.traced;
                }
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
        self.note_failure(code);
    }

    /// Records `code`, a failure the stub answered without calling the library (a refusal, an
    /// injected fault), as the calling thread's last error, where the spec has one; the first
    /// time, switches the last-error readers to their wrappers.
    fn note_failure(&self, code: u32) {
        let Some(last) = &self.spec.last_error else {
            return;
        };
        // This failure is the thread's newest. The readers' wrappers let the library's own
        // error win over the stub's, so the library's older one is discarded here by its
        // clearing reader; a sticky error that reader keeps still wins, as on the real runtime.
        if let Some(take) = self.loaded().symbol(last.take) {
            // SAFETY: the clearing reader, `cudaError_t cudaGetLastError(void)` in every major.
            let take: unsafe extern "C" fn() -> u32 = unsafe { core::mem::transmute(take) };
            // SAFETY: no arguments.
            unsafe { take() };
        }
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

    /// `None` only inside its own reading of the environment, which calls no stub.
    fn hook_config(&self) -> Option<&HookConfig> {
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
        let start = crate::os::clock_ns();
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
                // A failure the real library would have recorded as the thread's last error
                // (cudaMalloc's out of memory), so the injected one is too.
                if let Ok(code) = u32::try_from(code)
                    && code != 0
                {
                    self.note_failure(code);
                }
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
        let result = self.lookup(name, gate);
        let counter = if matches!(result, Resolution::Found(_)) {
            &self.resolved
        } else {
            &self.missing
        };
        counter.fetch_add(1, Ordering::Relaxed);
        result
    }

    /// What the generated forwarder of `name` (`NAME::Forward::call`) reaches: the real entry
    /// point, or why it answers the typed fallback instead; the same gate as the first call's
    /// ([`Library::resolve`]). For hand-written exports that answer their own error for a call
    /// not made (cuDNN's and NCCL's last-error texts, the error-text functions): they ask this
    /// first. A name the stub does not declare is [`Resolution::Absent`].
    pub fn forward_resolution(&self, name: &CStr) -> Resolution {
        let t = self.table;
        match t.meta.iter().find(|meta| t.name(meta) == name) {
            Some(meta) => self.lookup(name, meta.gate()),
            None => Resolution::Absent,
        }
    }

    /// [`Library::resolve`] without counting.
    fn lookup(&self, name: &CStr, gate: SymbolGate) -> Resolution {
        let loaded = self.loaded();
        if !loaded.is_bound() {
            return Resolution::NoLibrary;
        }
        let fname = Lossy(name.to_bytes());
        let major = loaded.major();
        let mut decision = gate_decision(self.spec.real.gating, gate, major);
        if decision == Some(Resolution::NotTranslatable) && loaded.abi_major() != major {
            // The mock device under an older driver: a name its release has, with the
            // prototype of the ABI its entry points have (`Loaded::abi_major`).
            decision = gate_decision(self.spec.real.gating, gate, loaded.abi_major());
        }
        let result = match decision {
            Some(r) => {
                let what = match (r, major) {
                    (Resolution::Absent, _) => "absent",
                    (_, 0) => "ABI differs across majors and the version is unknown: refused",
                    _ => "ABI differs: refused",
                };
                line(
                    self.spec.real.name,
                    format_args!(
                        "{fname}: {what} in CUDA {major} (symbol majors {}, exported ABI majors {})",
                        Majors(gate.majors),
                        Majors(gate.abi),
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
        match result {
            Resolution::Absent => self.replacement(loaded, name).unwrap_or(result),
            other => other,
        }
    }
}

impl Library {
    /// What a library's "last error" text function (`ncclGetLastError`,
    /// `cutensornetGetLastError`: `const char *`) answers: the real function's text where the
    /// loaded library has `function` (`real` calls its slot, traced like any call) and it is not
    /// NULL; else the stub's: the search's summary with no library (a program printing its last
    /// error learns why there is none), `""` ("no error") with one. Never NULL.
    pub fn last_error_text(
        &self,
        function: &CStr,
        real: impl FnOnce() -> *const core::ffi::c_char,
    ) -> *const core::ffi::c_char {
        if let Resolution::Found(_) = self.forward_resolution(function) {
            let text = real();
            if !text.is_null() {
                return text;
            }
        }
        let loaded = self.loaded();
        if loaded.is_bound() {
            c"".as_ptr()
        } else {
            loaded.summary().as_ptr()
        }
    }

    /// The definition of `name` the program would reach without the stub: the next one after
    /// the stub in the process's search order (`dlsym(RTLD_NEXT)`; none on Windows), unless it
    /// lies in a file named like one of this library's sonames (a real copy the search refused
    /// stays refused: one CUDA release per process). For a library whose calls return nothing
    /// to carry an error and whose API other libraries implement too: nvBLAS's BLAS routines,
    /// where the next definition is the CPU BLAS the program links after it, the one nvBLAS
    /// itself hands what it does not offload. Logged under `CUDA_STUBS_DEBUG` either way.
    pub fn next_definition(&self, name: &CStr) -> Option<*mut c_void> {
        let fname = Lossy(name.to_bytes());
        let Some((f, file)) = crate::os::next_definition(name) else {
            line(
                self.spec.real.name,
                format_args!("{fname}: no other definition in the process"),
            );
            return None;
        };
        let base = file.rsplit(|&b| b == b'/').next().unwrap_or(&file);
        let ours = self.spec.real.sonames.iter().any(|s| {
            let soname = s.name.to_bytes();
            let stem = soname
                .windows(3)
                .position(|w| w == b".so")
                .map_or(soname, |i| &soname[..i]);
            base.strip_prefix(stem)
                .is_some_and(|rest| rest.first().is_none_or(|&c| c == b'.' || c == b'-'))
        });
        line(
            self.spec.real.name,
            format_args!(
                "{fname}: next definition in {}{}",
                Lossy(&file),
                if ours {
                    ": a copy of the library itself, not called"
                } else {
                    ", called"
                }
            ),
        );
        (!ours).then_some(f)
    }

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
                Lossy(name.to_bytes()),
                Lossy(base.to_bytes())
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
                Lossy(name.to_bytes()),
                Lossy(with.to_bytes())
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

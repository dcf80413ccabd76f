//! The one implementation of every stub's error-text exports (the spec's `error_texts`:
//! `cudaGetErrorString`, `cuGetErrorName`, `cublasGetStatusString`, `nvmlErrorString` …). The
//! macro emits each export as a call of [`ErrorTexts::returned`] or [`ErrorTexts::out_param`]
//! with the crate's status table (`src/generated/status_texts.rs`, written by codegen from the
//! headers), so no stub crate writes one by hand.
//!
//! The rule, for every library: the real function's answer when a library is bound, exports it
//! and answers a string; else the stub's own text — for the "library not found" code the places
//! searched, else the enumerator's name (name functions) or the header's description of it
//! (string functions, the name where the header documents none), else a text naming the code.
//! Never NULL: a program prints what it gets, and `printf("%s", NULL)` is undefined.

use crate::gating::Resolution;
use crate::library::Library;
use alloc::boxed::Box;
use alloc::ffi::CString;
use core::ffi::{CStr, c_char};
use core::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
pub use stub_spec::TextKind;

/// One enumerator of a library's status type, as codegen writes it from the headers of every
/// major (the newest's name where two majors name a value differently).
#[derive(Debug, Clone, Copy)]
pub struct StatusText {
    /// Its value.
    pub code: i64,
    /// Its C name (`cudaErrorMemoryAllocation`).
    pub name: &'static CStr,
    /// The header's documentation of it, one line, where it has some.
    pub description: Option<&'static CStr>,
}

/// What a stub's error-text exports share: its library, its status table (sorted by code) and
/// its "library not found" code.
pub struct ErrorTexts {
    /// The stub's real library.
    pub library: &'static Library,
    /// Every enumerator of the status type, sorted by code.
    pub table: &'static [StatusText],
    /// The spec's `errors.no_library` value: described by the places searched.
    pub no_library: i64,
}

impl ErrorTexts {
    /// The stub's own text for `code`, and whether the headers define the code.
    pub fn stub_text(&self, kind: TextKind, code: i64) -> (&'static CStr, bool) {
        let loaded = self.library.loaded();
        if kind == TextKind::Description && code == self.no_library && !loaded.is_bound() {
            return (loaded.summary(), true);
        }
        match self.table.binary_search_by_key(&code, |t| t.code) {
            Ok(i) => {
                let entry = &self.table[i];
                let text = match kind {
                    TextKind::Name => entry.name,
                    TextKind::Description => entry.description.unwrap_or(entry.name),
                };
                (text, true)
            }
            Err(_) => (unknown_text(self.library.name(), code), false),
        }
    }

    /// `const char *function(status code)`: the real function's answer where it has one that is
    /// not NULL (13.x's runtime without a driver answers NULL for its own codes), else the
    /// stub's text ([`ErrorTexts::stub_text`]).
    ///
    /// `real` calls the export's slot (traced, fault injection included), only once the loaded
    /// library is known to have `function`: otherwise the slot's refusal would count as a
    /// refused call (the runtime's last error) for what is an answer.
    pub fn returned(
        &self,
        function: &CStr,
        kind: TextKind,
        code: i64,
        real: impl FnOnce() -> *const c_char,
    ) -> *const c_char {
        if let Resolution::Found(_) = self.library.forward_resolution(function) {
            let text = real();
            if !text.is_null() {
                return text;
            }
        }
        self.stub_text(kind, code).0.as_ptr()
    }

    /// `status function(status code, const char **out)` (the driver's): the real function's
    /// answer where it succeeds with a text; where it fails or writes NULL, or no library has
    /// it, the stub's text is written and the status is `unknown` where the real function said
    /// so, else 0 for a code the headers define and `unknown` for another (the only two NVIDIA
    /// documents). A NULL `out` gets the real function's answer where it has one, else `unknown`,
    /// and nothing written.
    ///
    /// `real` calls the export's slot with `out`, as for [`ErrorTexts::returned`].
    ///
    /// # Safety
    /// `out` is NULL or points to writable storage for one pointer.
    pub unsafe fn out_param(
        &self,
        function: &CStr,
        kind: TextKind,
        unknown: i64,
        code: i64,
        out: *mut *const c_char,
        real: impl FnOnce() -> i64,
    ) -> i64 {
        let mut real_unknown = false;
        if let Resolution::Found(_) = self.library.forward_resolution(function) {
            let status = real();
            if out.is_null() {
                return status;
            }
            // SAFETY: out is non-NULL and, by contract, the caller's pointer storage.
            if status == 0 && !unsafe { *out }.is_null() {
                return status;
            }
            real_unknown = status == unknown;
        }
        if out.is_null() {
            return unknown;
        }
        let (text, known) = self.stub_text(kind, code);
        // SAFETY: out is non-NULL and, by contract, writable.
        unsafe { *out = text.as_ptr() };
        if known && !real_unknown { 0 } else { unknown }
    }
}

/// A code no header of the library defines, in text: interned (one stub, one library), so each
/// answer stays valid for the life of the process as NVIDIA's static strings do. At most
/// [`MAX_INTERNED`] codes get their own text, so a program sweeping every value cannot grow the
/// stub's memory without bound; later ones share one text.
fn unknown_text(library: &str, code: i64) -> &'static CStr {
    /// One interned text; nodes are leaked on purpose and never freed.
    struct Node {
        code: i64,
        text: CString,
        next: *mut Node,
    }
    const MAX_INTERNED: usize = 64;
    static HEAD: AtomicPtr<Node> = AtomicPtr::new(core::ptr::null_mut());
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    const SHARED: &CStr = c"unrecognized error code (cuda-stubs: not defined by the headers)";

    let mut node = HEAD.load(Ordering::Acquire);
    while !node.is_null() {
        // SAFETY: nodes are leaked, never freed or changed after they are published.
        let n = unsafe { &*node };
        if n.code == code {
            return n.text.as_c_str();
        }
        node = n.next;
    }
    if COUNT.fetch_add(1, Ordering::Relaxed) >= MAX_INTERNED {
        return SHARED;
    }
    let text = alloc::format!(
        "unrecognized error code {code} (cuda-stubs: not defined by the {library} headers)"
    );
    let Ok(text) = CString::new(text) else {
        return SHARED;
    };
    let node = Box::into_raw(Box::new(Node {
        code,
        text,
        next: core::ptr::null_mut(),
    }));
    // Two threads interning one code both publish a node: harmless, the list stays consistent.
    let mut head = HEAD.load(Ordering::Acquire);
    loop {
        // SAFETY: the node is ours until published.
        unsafe { (*node).next = head };
        match HEAD.compare_exchange_weak(head, node, Ordering::AcqRel, Ordering::Acquire) {
            // SAFETY: published nodes are never freed or changed.
            Ok(_) => return unsafe { (*node).text.as_c_str() },
            Err(now) => head = now,
        }
    }
}

//! A driver link (`cuLinkCreate` … `cuLinkDestroy`) given PTX newer than the driver: the driver's
//! linker JIT-compiles PTX inputs itself and answers 222 at `cuLinkAddData`/`cuLinkAddFile`, so
//! such an input (or a fat binary whose only code for the device is such PTX) is not handed to
//! it. It is kept, and at `cuLinkComplete` nvJitLink links every input of the link, in the order
//! they were added, into the CUBIN the caller gets; the driver never sees a CUBIN it did not
//! make otherwise.
//!
//! Every input of a link is copied while the link lives (a later input may be the one that needs
//! nvJitLink, and it links them all): a copy per `cuLinkAdd*`, freed at `cuLinkDestroy`. A link
//! with no input too new completes in the driver, as linked normally; the copies are then unused.
//!
//! What maps where: `CUjitInputType` (cuda.h) → `nvJitLinkInputType` (CUBIN, PTX, FATBINARY,
//! OBJECT, LIBRARY; NVVM as LTO-IR with `-lto`); `cuLinkCreate`'s JIT options as for a module
//! load ([`JitOptions`]: the architecture, max registers, optimization level, debug and line info,
//! verbose; the log buffers and wall time filled at `cuLinkComplete`). The options of one
//! `cuLinkAdd*` apply to that input in the driver; nvJitLink takes options per link only, so they
//! are not applied to a link nvJitLink makes.

use super::{Driver, Image, JitOptions, classify, failure_text, needs, usable_nvjitlink};
use super::{Input, nvjitlink};
use crate::debug::{Lossy, Millis, line};
use crate::os::{LOCK_INIT, Lock, clock_ns, lock, unlock};
use alloc::boxed::Box;
use alloc::ffi::CString;
use alloc::format;
use alloc::vec::Vec;
use core::cell::UnsafeCell;
use core::ffi::{CStr, c_uint, c_void};
use stub_spec::{PtxIsa, max_ptx_isa};

/// `CU_JIT_INPUT_CUBIN` … `CU_JIT_INPUT_NVVM` (cuda.h, `CUjitInputType`, every major).
const CU_JIT_INPUT_CUBIN: c_uint = 0;
const CU_JIT_INPUT_PTX: c_uint = 1;
const CU_JIT_INPUT_FATBINARY: c_uint = 2;
const CU_JIT_INPUT_OBJECT: c_uint = 3;
const CU_JIT_INPUT_LIBRARY: c_uint = 4;
const CU_JIT_INPUT_NVVM: c_uint = 5;

/// The largest input file read ([`read_input_file`]); a larger one is handed to the driver only.
const MAX_FILE: usize = 1 << 30;

/// One live link the stub knows of.
struct State {
    /// The driver's `CUlinkState`.
    key: usize,
    /// `cuLinkCreate`'s option keys, copied (cuda.h keeps only the values array valid for the
    /// link's life, where the driver writes the outputs).
    option_keys: Box<[c_uint]>,
    values: *mut *mut c_void,
    /// Every input so far, in order: nvJitLink's kind and a copy of the bytes.
    inputs: Vec<(Input, Box<[u8]>)>,
    /// The newest too-new PTX ISA among the inputs held back from the driver, and the
    /// architecture to link for: set once one is.
    held_back: Option<(PtxIsa, super::Arch)>,
    /// The CUBIN nvJitLink made, handed out by `cuLinkComplete`, valid until `cuLinkDestroy`
    /// (as the driver's is).
    cubin: Option<Box<[u8]>>,
}

impl State {
    fn options(&self) -> JitOptions {
        // SAFETY: the keys are ours and `values` the caller's array of as many, valid for the
        // link's life (cuLinkCreate's contract).
        unsafe {
            JitOptions::new(
                self.option_keys.as_ptr(),
                self.values,
                self.option_keys.len() as c_uint,
            )
        }
    }
}

struct Links {
    lock: UnsafeCell<Lock>,
    states: UnsafeCell<Vec<State>>,
}

// SAFETY: `states` is only touched with `lock` held; the raw pointers in it are the caller's,
// used only by the calls of the link they belong to.
unsafe impl Sync for Links {}

static LINKS: Links = Links {
    lock: UnsafeCell::new(LOCK_INIT),
    states: UnsafeCell::new(Vec::new()),
};

fn with<T>(f: impl FnOnce(&mut Vec<State>) -> T) -> T {
    // SAFETY: the lock is static and initialised; `states` is touched only while it is held,
    // and `f` neither reaches the registry again nor calls out of the stub.
    unsafe {
        lock(LINKS.lock.get());
        let value = f(&mut *LINKS.states.get());
        unlock(LINKS.lock.get());
        value
    }
}

/// Records a link the driver created (`cuLinkCreate` answered success), with its JIT options.
///
/// # Safety
/// `options` and `values` hold `count` elements when not NULL (cuLinkCreate's contract); the
/// values array stays valid until the link is destroyed.
pub unsafe fn created(
    state: *mut c_void,
    options: *const c_uint,
    values: *mut *mut c_void,
    count: c_uint,
) {
    if state.is_null() {
        return;
    }
    let option_keys: Box<[c_uint]> = if options.is_null() || values.is_null() {
        Box::new([])
    } else {
        // SAFETY: caller's contract.
        unsafe { core::slice::from_raw_parts(options, count as usize) }.into()
    };
    let values = if option_keys.is_empty() {
        core::ptr::null_mut()
    } else {
        values
    };
    with(|states| {
        states.retain(|s| s.key != state as usize);
        states.push(State {
            key: state as usize,
            option_keys,
            values,
            inputs: Vec::new(),
            held_back: None,
            cubin: None,
        });
    });
}

/// What `cuLinkAddData`/`cuLinkAddFile` does with an input.
#[derive(Debug, PartialEq, Eq)]
pub enum Added {
    /// Hand it to the driver, as linked normally.
    Forward,
    /// Held back for nvJitLink: answer success without calling the driver.
    HeldBack,
}

/// Decides what becomes of input `data` of kind `kind` (a `CUjitInputType`) added to link
/// `state` (see the module docs), and keeps its copy. `data` is as `cuLinkAddData` takes it
/// (PTX with its NUL). Unknown links and kinds are the driver's to answer.
pub fn add(
    entry: &str,
    state: *mut c_void,
    kind: c_uint,
    data: &[u8],
    driver: Driver<'_>,
) -> Added {
    let input = match kind {
        CU_JIT_INPUT_CUBIN => Input::Cubin,
        CU_JIT_INPUT_PTX => Input::Ptx,
        CU_JIT_INPUT_FATBINARY => Input::Fatbin,
        CU_JIT_INPUT_OBJECT => Input::Object,
        CU_JIT_INPUT_LIBRARY => Input::Library,
        CU_JIT_INPUT_NVVM => Input::Ltoir,
        _ => return Added::Forward,
    };
    let Some(options) = with(|states| {
        states
            .iter()
            .find(|s| s.key == state as usize)
            .map(State::options)
    }) else {
        return Added::Forward;
    };
    let image = match input {
        // SAFETY: PTX text the caller NUL-terminated within `data` (cuda.h); a fat binary of
        // `data`'s length. A PTX input without its NUL is the driver's to refuse.
        Input::Ptx if data.contains(&0) => unsafe { classify(data.as_ptr().cast()) },
        Input::Fatbin if data.len() >= 16 => unsafe { classify(data.as_ptr().cast()) },
        _ => Image::Other,
    };
    let mut decision = Added::Forward;
    let mut held = None;
    if let Some(limit) = max_ptx_isa(driver.cuda_version)
        && let Some((_, _, isa, arch)) = needs(image, limit, &driver, &options)
    {
        match usable_nvjitlink(isa) {
            Ok(_) => {
                line(
                    driver.library,
                    format_args!(
                        "{entry}: PTX {isa} > the driver's {limit}: held back, nvJitLink links the whole link for {arch} at cuLinkComplete"
                    ),
                );
                decision = Added::HeldBack;
                held = Some((isa, arch));
            }
            Err(why) => {
                let text = failure_text(entry, isa, limit, driver.cuda_version, &why);
                line(driver.library, format_args!("{text}"));
            }
        }
    }
    with(|states| {
        if let Some(s) = states.iter_mut().find(|s| s.key == state as usize) {
            s.inputs.push((input, data.into()));
            if let Some((isa, arch)) = held {
                s.held_back = Some(match s.held_back {
                    Some((was, _)) if was > isa => (was, arch),
                    _ => (isa, arch),
                });
            }
        }
    });
    decision
}

/// The bytes of a `cuLinkAddFile` input, with a NUL after PTX (as [`add`] takes it); `None`
/// when the file cannot be read or is larger than 1 GiB (the driver then reads it alone).
pub fn read_input_file(path: &CStr, kind: c_uint) -> Option<Vec<u8>> {
    let mut bytes = crate::os::read_file(path, MAX_FILE)?;
    if kind == CU_JIT_INPUT_PTX {
        bytes.push(0);
    }
    Some(bytes)
}

/// What `cuLinkComplete` answers.
#[derive(Debug)]
pub enum Completed {
    /// No input was held back: the driver completes the link.
    Forward,
    /// nvJitLink's CUBIN, valid until `cuLinkDestroy`.
    Cubin(*const c_void, usize),
    /// nvJitLink failed: `CUDA_ERROR_INVALID_PTX` (218, "PTX JIT compilation failed", what the
    /// driver answers for PTX its JIT cannot compile), nvJitLink's error log in the link's error
    /// log buffer.
    Failed,
}

/// Completes link `state` when an input was held back (see the module docs): links every input
/// with nvJitLink, fills the link's log buffers and wall time, and keeps the CUBIN.
pub fn complete(state: *mut c_void, driver: Driver<'_>) -> Completed {
    // The inputs are taken out for the link (nvJitLink is not called with the lock held) and
    // put back after, so a second cuLinkComplete links them again as the driver would.
    let Some((inputs, options, (isa, arch))) = with(|states| {
        let s = states.iter_mut().find(|s| s.key == state as usize)?;
        let held = s.held_back?;
        Some((core::mem::take(&mut s.inputs), s.options(), held))
    }) else {
        return Completed::Forward;
    };
    let arch_text = format!("{arch}");
    let mut flags = options.nvjitlink_flags(&arch_text);
    if inputs.iter().any(|(i, _)| *i == Input::Ltoir) {
        flags.extend(CString::new("-lto"));
    }
    let refs: Vec<&CStr> = flags.iter().map(CString::as_c_str).collect();
    let parts: Vec<(Input, &[u8])> = inputs.iter().map(|(i, b)| (*i, &b[..])).collect();
    let start = clock_ns();
    let linked = nvjitlink::compile(&parts, &refs);
    let ns = clock_ns().saturating_sub(start);
    let millis = ns as f32 / 1e6;
    let have = usable_nvjitlink(isa).unwrap_or(0);
    let (outcome, cubin) = match linked {
        Ok(linked) => {
            line(
                driver.library,
                format_args!(
                    "cuLinkComplete: PTX {isa} > the driver's CUDA {}.{}: {arch_text} CUBIN ({} bytes) of {} inputs by nvJitLink {}.{} in {} ms",
                    driver.cuda_version / 1000,
                    driver.cuda_version % 1000 / 10,
                    linked.cubin.len(),
                    inputs.len(),
                    have / 1000,
                    have % 1000 / 10,
                    Millis(ns)
                ),
            );
            options.report(&linked.info_log, b"", millis);
            let cubin: Box<[u8]> = linked.cubin.into_boxed_slice();
            (
                Completed::Cubin(cubin.as_ptr().cast(), cubin.len()),
                Some(cubin),
            )
        }
        Err(e) => {
            line(
                driver.library,
                format_args!(
                    "cuLinkComplete: nvJitLink failed to link {} inputs for {arch_text} ({} answered {}: {}): CUDA_ERROR_INVALID_PTX",
                    inputs.len(),
                    e.call,
                    e.code,
                    Lossy(&e.error_log)
                ),
            );
            options.report(b"", &e.error_log, millis);
            (Completed::Failed, None)
        }
    };
    with(|states| {
        if let Some(s) = states.iter_mut().find(|s| s.key == state as usize) {
            s.inputs = inputs;
            if cubin.is_some() {
                s.cubin = cubin;
            }
        }
    });
    outcome
}

/// Forgets link `state` (`cuLinkDestroy`): its copies and CUBIN are freed.
pub fn destroyed(state: *mut c_void) {
    let gone = with(|states| {
        states
            .iter()
            .position(|s| s.key == state as usize)
            .map(|i| states.swap_remove(i))
    });
    // Freed outside the lock.
    drop(gone);
}

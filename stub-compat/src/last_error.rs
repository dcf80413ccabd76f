//! The runtime's last error in a compatibility library (the spec's `last_error`:
//! `cudaGetLastError`, `cudaPeekAtLastError`). A refusal of this file (the stub lacks the name)
//! cannot reach the stub's own record of refusals, which lives in the stub; it is recorded in
//! this file's copy of the loader's per-thread record instead (`stub_loader::set_last_refusal`),
//! and from the first refusal on the two readers' slots take wrappers that merge it with what the
//! stub's readers answer (the real runtime's error, then the stub's): the stub's answer first,
//! then this file's. Until then the readers jump straight into the stub.

use crate::{Compat, Table};
use core::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

/// A library's last-error readers: their exports' indices, their wrappers, the stub's readers.
#[derive(Debug)]
pub struct LastError {
    /// The export index of the reader that returns and clears it (`cudaGetLastError`).
    pub take: u32,
    /// The export index of the reader that returns it (`cudaPeekAtLastError`).
    pub peek: u32,
    /// The wrappers of `take` and `peek`.
    wrappers: [Wrapper; 2],
    /// The stub's `take` and `peek`, once looked up (NULL: not yet; [`no_reader`]: the stub
    /// lacks it).
    stub_readers: [AtomicPtr<()>; 2],
    /// Whether the readers' slots hold their wrappers.
    diverted: AtomicBool,
}

/// A wrapper's address.
#[derive(Debug, Clone, Copy)]
struct Wrapper(*const ());

// SAFETY: the address of a function, never written.
unsafe impl Sync for Wrapper {}

impl LastError {
    /// The readers of library `L` at export indices `take` and `peek`.
    pub const fn new<L: Compat>(take: u32, peek: u32) -> LastError {
        LastError {
            take,
            peek,
            wrappers: [
                Wrapper(take_wrapper::<L> as *const ()),
                Wrapper(peek_wrapper::<L> as *const ()),
            ],
            stub_readers: [const { AtomicPtr::new(core::ptr::null_mut()) }; 2],
            diverted: AtomicBool::new(false),
        }
    }

    /// The wrapper of export `index` if it is a reader.
    fn wrapper_of(&self, index: u32) -> Option<*mut ()> {
        if index == self.take {
            Some(self.wrappers[0].0.cast_mut())
        } else if index == self.peek {
            Some(self.wrappers[1].0.cast_mut())
        } else {
            None
        }
    }
}

/// Records a refusal of `table` as the calling thread's last error, when the library has one;
/// the first time, switches the readers' slots to their wrappers.
pub(crate) fn note_refusal(table: &Table) {
    let Some(last) = &table.last_error else {
        return;
    };
    stub_loader::set_last_refusal(table.absent as u32);
    // SeqCst with `divert_bound`: either the binding of a reader sees `diverted`, or this
    // store comes after its own; a reader never keeps its plain entry after a refusal.
    if last.diverted.swap(true, Ordering::SeqCst) {
        return;
    }
    for index in [last.take, last.peek] {
        let slot = usize::try_from(index).ok().and_then(|i| table.slots.get(i));
        if let (Some(slot), Some(wrapper)) = (slot, last.wrapper_of(index)) {
            slot.store(wrapper, Ordering::SeqCst);
        }
    }
}

/// What export `index`'s slot must hold once `target` was stored in it: its wrapper when it is
/// a reader and a refusal has happened, else `target`.
pub(crate) fn divert_bound(table: &Table, index: u32, target: *mut ()) -> *mut () {
    let Some(last) = &table.last_error else {
        return target;
    };
    match last.wrapper_of(index) {
        Some(wrapper) if last.diverted.load(Ordering::SeqCst) => {
            if let Some(slot) = usize::try_from(index).ok().and_then(|i| table.slots.get(i)) {
                slot.store(wrapper, Ordering::SeqCst);
            }
            wrapper
        }
        _ => target,
    }
}

/// The stand-in of a reader the stub lacks: no error to add.
unsafe extern "C" fn no_reader() -> u32 {
    0
}

/// Calls the stub's reader `which` (0 `take`, 1 `peek`) of `table`, looked up once.
fn stub_reader(table: &Table, last: &LastError, which: usize) -> u32 {
    let cached = &last.stub_readers[which];
    let mut f = cached.load(Ordering::Acquire);
    if f.is_null() {
        let index = if which == 0 { last.take } else { last.peek };
        let name = usize::try_from(index).ok().and_then(|i| table.names.get(i));
        f = name
            .and_then(|name| table.stub.symbol(name, None))
            .unwrap_or(no_reader as *mut ());
        cached.store(f, Ordering::Release);
    }
    // SAFETY: `status f(void)` (the spec's readers), the stub's or `no_reader`.
    unsafe { core::mem::transmute::<*mut (), unsafe extern "C" fn() -> u32>(f)() }
}

/// `cudaGetLastError` once a refusal happened: the stub's answer (cleared there), else this
/// file's refusal (cleared); both are cleared.
unsafe extern "C" fn take_wrapper<L: Compat>() -> u32 {
    let table = L::table();
    let Some(last) = &table.last_error else {
        return 0;
    };
    let stub = stub_reader(table, last, 0);
    let ours = stub_loader::take_last_refusal();
    if stub != 0 { stub } else { ours }
}

/// `cudaPeekAtLastError` once a refusal happened: like [`take_wrapper`], clearing neither.
unsafe extern "C" fn peek_wrapper<L: Compat>() -> u32 {
    let table = L::table();
    let Some(last) = &table.last_error else {
        return 0;
    };
    let stub = stub_reader(table, last, 1);
    if stub != 0 {
        stub
    } else {
        stub_loader::peek_last_refusal()
    }
}

//! cuFile's I/O calls returning `ssize_t` (`cufile.h`): the byte count, or a negative code (`-1`
//! with `errno` set, or `-CU_FILE_*`, a `CUfileOpError` negated). Forwarded untouched when the
//! loaded cuFile has them; else the stub's typed error negated, `-5001` with no library, `-5007`
//! for a function the loaded cuFile lacks (the vector calls, cuFile 1.15+, on 1.14) — never the
//! generated fallback's 0, which reads as "0 bytes transferred".

use crate::types::{CUfileHandle_t, CUfileIOVec_t, off_t};
use crate::{LIBRARY, STATUS_ABSENT, STATUS_NO_LIBRARY, api};
use core::ffi::{CStr, c_uint, c_void};
use core::sync::atomic::{AtomicU8, Ordering};
use stub_loader::Resolution;

/// Not asked yet whether the call can be made.
const UNKNOWN: u8 = 0;
/// The loaded cuFile has the function.
const CALLABLE: u8 = 1;
/// No cuFile was found.
const NO_LIBRARY: u8 = 2;
/// The loaded cuFile lacks the function.
const ABSENT: u8 = 3;

/// What `function` answers instead of the real call, if it cannot be made: the typed error,
/// negated. Whether it can is asked once (the search, then `dlsym`) and kept in `state`, since
/// neither changes in a process; each refusal is recorded (`Library::note_refusal`).
fn refused(function: &CStr, state: &AtomicU8) -> Option<isize> {
    let mut known = state.load(Ordering::Relaxed);
    if known == UNKNOWN {
        // The forwarder's own gate: a cuFile of a major the declaration lacks is refused here,
        // as the forwarder would (its fallback's 0 would read as "0 bytes").
        known = match LIBRARY.forward_resolution(function) {
            Resolution::Found(_) => CALLABLE,
            Resolution::NoLibrary => NO_LIBRARY,
            Resolution::Absent | Resolution::NotTranslatable => ABSENT,
        };
        state.store(known, Ordering::Relaxed);
    }
    let code = match known {
        CALLABLE => return None,
        NO_LIBRARY => STATUS_NO_LIBRARY.err,
        _ => STATUS_ABSENT.err,
    };
    LIBRARY.note_refusal();
    Some(-isize::try_from(code).unwrap_or(isize::MAX))
}

/// `ssize_t cuFileRead(CUfileHandle_t fh, void *bufPtr_base, size_t size, off_t file_offset,
/// off_t bufPtr_offset)` (`cufile.h`, cuFile 1.0+): `size` bytes of the file at `file_offset`
/// into the registered or device buffer at `bufPtr_base + bufPtr_offset` (here `buf`,
/// `buf_offset`). The bytes read, or a negative code; `-5001` without a library.
///
/// # Safety
/// As the C API's: `fh` registered, the buffer valid for `size` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuFileRead(
    fh: CUfileHandle_t,
    buf: *mut c_void,
    size: usize,
    file_offset: off_t,
    buf_offset: off_t,
) -> isize {
    static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);
    refused(c"cuFileRead", &STATE).unwrap_or_else(|| {
        // SAFETY: forwarded contract.
        unsafe { api::cuFileRead::Forward::call(fh, buf, size, file_offset, buf_offset) }
    })
}

/// `ssize_t cuFileWrite(CUfileHandle_t fh, const void *bufPtr_base, size_t size, off_t
/// file_offset, off_t bufPtr_offset)` (`cufile.h`, cuFile 1.0+): the counterpart of
/// [`cuFileRead`]. The bytes written, or a negative code; `-5001` without a library.
///
/// # Safety
/// As the C API's: `fh` registered, the buffer valid for `size` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuFileWrite(
    fh: CUfileHandle_t,
    buf: *const c_void,
    size: usize,
    file_offset: off_t,
    buf_offset: off_t,
) -> isize {
    static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);
    refused(c"cuFileWrite", &STATE).unwrap_or_else(|| {
        // SAFETY: forwarded contract.
        unsafe { api::cuFileWrite::Forward::call(fh, buf, size, file_offset, buf_offset) }
    })
}

/// `ssize_t cuFileReadv(CUfileHandle_t fh, const CUfileIOVec_t *iov, size_t iovcnt, off_t
/// file_offset, unsigned flags)` (`cufile.h`, cuFile 1.15+, CUDA 13): a scattered read, as
/// `preadv`. The bytes read, or a negative code; `-5001` without a library, `-5007` on a cuFile
/// without it (1.14).
///
/// # Safety
/// As the C API's: `fh` registered, `iov` valid for `iovcnt` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuFileReadv(
    fh: CUfileHandle_t,
    iov: *const CUfileIOVec_t,
    iovcnt: usize,
    file_offset: off_t,
    flags: c_uint,
) -> isize {
    static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);
    refused(c"cuFileReadv", &STATE).unwrap_or_else(|| {
        // SAFETY: forwarded contract.
        unsafe { api::cuFileReadv::Forward::call(fh, iov, iovcnt, file_offset, flags) }
    })
}

/// `ssize_t cuFileWritev(CUfileHandle_t fh, const CUfileIOVec_t *iov, size_t iovcnt, off_t
/// file_offset, unsigned flags)` (`cufile.h`, cuFile 1.15+, CUDA 13): the counterpart of
/// [`cuFileReadv`], as `pwritev`.
///
/// # Safety
/// As the C API's: `fh` registered, `iov` valid for `iovcnt` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cuFileWritev(
    fh: CUfileHandle_t,
    iov: *const CUfileIOVec_t,
    iovcnt: usize,
    file_offset: off_t,
    flags: c_uint,
) -> isize {
    static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);
    refused(c"cuFileWritev", &STATE).unwrap_or_else(|| {
        // SAFETY: forwarded contract.
        unsafe { api::cuFileWritev::Forward::call(fh, iov, iovcnt, file_offset, flags) }
    })
}

//! The calling thread's "last error" of refusals: what a stub did not call, recorded so that a
//! runtime-API program sees it the way it sees a failed call of the real runtime
//! (`cudaPeekAtLastError` returns it, `cudaGetLastError` returns and clears it).
//!
//! One thread-local word (`sync::ThreadWord`: a `pthread_key_t`, on Windows a TLS index)
//! holding the code itself: nothing is allocated, no destructor is needed.

use crate::sync::ThreadWord;

static LAST: ThreadWord = ThreadWord::new();

/// Records `code` as the calling thread's last refusal (0 clears it).
pub fn set_last_refusal(code: u32) {
    LAST.set(code as usize);
}

/// The calling thread's last refusal code, 0 when none.
pub fn peek_last_refusal() -> u32 {
    LAST.get() as u32
}

/// The calling thread's last refusal code, cleared; 0 when none.
pub fn take_last_refusal() -> u32 {
    let code = peek_last_refusal();
    if code != 0 {
        set_last_refusal(0);
    }
    code
}

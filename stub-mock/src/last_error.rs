//! The runtime's per-thread last error (`cudaGetLastError`, `cudaPeekAtLastError`): every
//! failing runtime call sets it, the modelled ones (`runtime/`) and the unmodelled ones' refusals
//! (`unmodelled.rs`) alike. A leaf of its own, so that neither imports the other.

use crate::types::cudart::{cudaError_t, cudaSuccess};
use stub_loader::sync::ThreadWord;

/// The thread's last error (`cudaSuccess`, 0, until a call fails).
static LAST_ERROR: ThreadWord = ThreadWord::new();

/// Records `code` as the thread's last error.
pub fn set(code: cudaError_t) {
    LAST_ERROR.set(code as usize);
}

/// The thread's last error, left as it is.
pub fn peek() -> cudaError_t {
    LAST_ERROR.get() as cudaError_t
}

/// The thread's last error, reset to `cudaSuccess`.
pub fn take() -> cudaError_t {
    let last = peek();
    set(cudaSuccess);
    last
}

//! The per-thread default stream variants of the driver's modelled functions (`_ptds` for the
//! synchronous calls, `_ptsz` for those with a stream: code built with `--default-stream
//! per-thread`), which `build.rs` writes from the stub's generated declarations: each calls its
//! function, a NULL stream passed as `CU_STREAM_PER_THREAD`.

#![allow(non_snake_case, clippy::all)]

use crate::types::cuda::*;

include!(concat!(env!("OUT_DIR"), "/per_thread_cuda.rs"));

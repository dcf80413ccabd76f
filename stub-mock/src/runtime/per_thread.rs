//! The per-thread default stream variants of the runtime's modelled functions (`_ptds` for the
//! synchronous calls, `_ptsz` for those with a stream: code built with `--default-stream
//! per-thread`), which `build.rs` writes from the stub's generated declarations: each calls its
//! function, a NULL stream passed as `cudaStreamPerThread`.

#![allow(non_snake_case, clippy::all)]

use crate::types::cudart::*;

include!(concat!(env!("OUT_DIR"), "/per_thread_cudart.rs"));

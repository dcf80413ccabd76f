//! Stage 1, the inputs, read as they are: the specs ([`libraries`]), the unpacked NVIDIA wheels
//! (`scripts/fetch-cuda.py`'s `layout.json`, [`cache`]), their export tables ([`exports`]) and
//! their headers through bindgen ([`headers`]). Nothing here uses the later stages.

pub mod cache;
pub mod exports;
pub mod headers;
pub mod libraries;

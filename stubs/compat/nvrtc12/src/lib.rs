//! `libnvrtc.so.12` of the compatibility folder (`lib/cuda-stubs-compat/`, opt-in, on no
//! search path): for binaries linked against NVIDIA's `libnvrtc.so.12` that nobody can rebuild.
//! It carries NVIDIA's SONAME and version node, exports exactly what NVIDIA's library of CUDA 12
//! exports (the generated list), and forwards each call to `libstubs_nvrtc.so`, whose one
//! binding serves the process: the same real library for every compatibility file and every
//! program linked against the stub, translated where CUDA 12's prototype differs from the
//! bound major's (`stub-compat` says how).

#![cfg_attr(not(test), no_std)]

stub_loader::cdylib_runtime!();

// The name list codegen writes (`src/generated/`, its `mod.rs` too; never edited by hand).
mod generated;

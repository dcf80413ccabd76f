//! The runtime's device variables (`__device__`, `__constant__`) of nvcc-built programs: nvcc's
//! start-up code registers each with `__cudaRegisterVar` (crt/host_runtime.h), giving its host
//! shadow's address (the symbol a program names), its device name and size; each device's
//! storage and its initial value are the code's (`code/variables.rs`). The symbol calls
//! (`cudaMemcpyToSymbol`, `cudaMemcpyFromSymbol` and their `Async` forms,
//! `cudaGetSymbolAddress`, `cudaGetSymbolSize`; `cuda_runtime_api.h`, CUDA 13 ABI) copy to and
//! from the current device's storage as operations on a stream (`queue/ops.rs`). Managed
//! variables (`__managed__`) are not modelled.

// NVIDIA's parameter names (crt/host_runtime.h), as the prototypes in the docs spell them.
#![allow(non_snake_case)]

use crate::code::variables;
use crate::device::model::Model;
use crate::queue::graph;
use crate::queue::ops::{Extent, Op, Side};
use crate::runtime::{call, current};
use crate::types::cudart::*;
use core::ffi::{c_char, c_int, c_void};

/// `void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const
/// char *deviceName, int ext, size_t size, int constant, int global)`: variable `hostVar` of
/// `size` bytes.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __cudaRegisterVar(
    fatCubinHandle: *mut *mut c_void,
    hostVar: *mut c_char,
    _deviceAddress: *mut c_char,
    deviceName: *const c_char,
    _ext: c_int,
    size: usize,
    _constant: c_int,
    _global: c_int,
) {
    if hostVar.is_null() || deviceName.is_null() || size == 0 {
        return;
    }
    // SAFETY: non-NULL and NUL-terminated, nvcc's string.
    let name = unsafe { core::ffi::CStr::from_ptr(deviceName) }
        .to_string_lossy()
        .into_owned();
    variables::register(hostVar as usize, fatCubinHandle as usize, name, size);
}

/// A copy between `symbol`'s storage at `offset` and `other`, of `count` bytes: `to_symbol`
/// says which way; `kind` must point that way (or be `cudaMemcpyDefault`).
#[allow(non_upper_case_globals, clippy::too_many_arguments)] // The header's names.
fn copy(
    m: &Model,
    symbol: *const c_void,
    other: usize,
    count: usize,
    offset: usize,
    kind: cudaMemcpyKind,
    to_symbol: bool,
    (stream, sync): (usize, bool),
) -> cudaError_t {
    let (ptr, size) = match variables::storage(m, symbol, current) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let (from_device, to_device) = match (kind, to_symbol) {
        (cudaMemcpyHostToDevice, true) | (cudaMemcpyDeviceToHost, false) => (false, false),
        (cudaMemcpyDeviceToDevice, _) => (true, true),
        (cudaMemcpyDefault, _) => (m.is_device(other), m.is_device(other)),
        _ => return cudaErrorInvalidMemcpyDirection,
    };
    if offset.checked_add(count).is_none_or(|end| end > size) {
        return cudaErrorInvalidValue;
    }
    let at = Side::linear(ptr + offset, true);
    let op = if to_symbol {
        Op::Copy {
            dst: at,
            src: Side::linear(other, from_device),
            extent: Extent::linear(count),
        }
    } else {
        Op::Copy {
            dst: Side::linear(other, to_device),
            src: at,
            extent: Extent::linear(count),
        }
    };
    match graph::submit(m, stream, sync, op) {
        Ok(()) => cudaSuccess,
        Err(code) => code,
    }
}

/// The legacy default stream, on which the synchronous calls run.
const LEGACY: usize = 0;

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpyToSymbol(
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: cudaMemcpyKind,
) -> cudaError_t {
    call(|m| {
        copy(
            m,
            symbol,
            src as usize,
            count,
            offset,
            kind,
            true,
            (LEGACY, true),
        )
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpyToSymbolAsync(
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    let s = (stream as usize, false);
    call(|m| copy(m, symbol, src as usize, count, offset, kind, true, s))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpyFromSymbol(
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: cudaMemcpyKind,
) -> cudaError_t {
    call(|m| {
        copy(
            m,
            symbol,
            dst as usize,
            count,
            offset,
            kind,
            false,
            (LEGACY, true),
        )
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpyFromSymbolAsync(
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    let s = (stream as usize, false);
    call(|m| copy(m, symbol, dst as usize, count, offset, kind, false, s))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetSymbolAddress(
    ptr: *mut *mut c_void,
    symbol: *const c_void,
) -> cudaError_t {
    call(|m| {
        if ptr.is_null() {
            return cudaErrorInvalidValue;
        }
        match variables::storage(m, symbol, current) {
            Ok((p, _)) => {
                // SAFETY: non-NULL, the caller's pointer.
                unsafe { *ptr = p as *mut c_void };
                cudaSuccess
            }
            Err(e) => e,
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) -> cudaError_t {
    call(|_| {
        if size.is_null() {
            return cudaErrorInvalidValue;
        }
        match variables::size_of(symbol) {
            Some(s) => {
                // SAFETY: non-NULL, the caller's size_t.
                unsafe { *size = s };
                cudaSuccess
            }
            None => cudaErrorInvalidSymbol,
        }
    })
}

//! The runtime's device variables (`__device__`, `__constant__`) of nvcc-built programs: nvcc's
//! start-up code registers each with `__cudaRegisterVar` (crt/host_runtime.h), giving its host
//! shadow's address (the symbol a program names), its device name and size. Each device gets
//! its own storage on first use (device memory of the model, counted as such), holding the
//! variable's initial value, as the driver loads it: read from the CUBIN for the device in the
//! registering fat binary (its ELF symbol of the variable's device name, in the section that
//! holds its bytes; zeros for a variable without an initializer, and for code the mock cannot
//! read, PTX only or compressed: said in the debug log). The symbol calls
//! (`cudaMemcpyToSymbol`, `cudaMemcpyFromSymbol` and their `Async` forms,
//! `cudaGetSymbolAddress`, `cudaGetSymbolSize`; `cuda_runtime_api.h`, CUDA 13 ABI) copy to and
//! from the current device's storage as operations on a stream (`ops.rs`). Managed variables
//! (`__managed__`) are not modelled.

// NVIDIA's parameter names (crt/host_runtime.h), as the prototypes in the docs spell them.
#![allow(non_snake_case)]

use crate::graph;
use crate::model::{Kind, Model};
use crate::ops::{Extent, Op, Side};
use crate::runtime::{call, current};
use crate::types::cudart::*;
use alloc::collections::BTreeMap;
use core::ffi::{c_char, c_int, c_void};
use stub_loader::sync::{Mutex, MutexGuard};

#[derive(Debug, Clone)]
struct Var {
    /// The registering fat binary's handle.
    binary: usize,
    /// Its name in the device code.
    name: alloc::string::String,
    /// Bytes.
    size: usize,
}

#[derive(Debug, Default)]
struct Symbols {
    /// Registered variables by their host shadow's address.
    vars: BTreeMap<usize, Var>,
    /// Each variable's storage on each device: (shadow, device) → device pointer.
    storage: BTreeMap<(usize, usize), usize>,
}

static SYMBOLS: Mutex<Symbols> = Mutex::new(Symbols {
    vars: BTreeMap::new(),
    storage: BTreeMap::new(),
});

fn symbols() -> MutexGuard<'static, Symbols> {
    SYMBOLS.lock()
}

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
    let var = Var {
        binary: fatCubinHandle as usize,
        name,
        size,
    };
    symbols().vars.insert(hostVar as usize, var);
}

/// Forgets the variables of the fat binary `binary` (`__cudaUnregisterFatBinary`, at exit),
/// freeing their storage.
pub fn forget(m: Option<&Model>, binary: usize) {
    let freed: alloc::vec::Vec<usize> = {
        let mut s = symbols();
        let gone: alloc::vec::Vec<usize> = s
            .vars
            .iter()
            .filter(|(_, v)| v.binary == binary)
            .map(|(&h, _)| h)
            .collect();
        let mut freed = alloc::vec::Vec::new();
        for h in gone {
            s.vars.remove(&h);
            s.storage.retain(|&(shadow, _), &mut p| {
                let keep = shadow != h;
                if !keep {
                    freed.push(p);
                }
                keep
            });
        }
        freed
    };
    if let Some(m) = m {
        for p in freed {
            let _ = m.free(p, |k| k.device().is_some());
        }
    }
}

/// Variable `symbol`'s storage on the current device, made on first use: its pointer and size;
/// `cudaErrorInvalidSymbol` for an address no variable was registered at.
fn storage(m: &Model, symbol: *const c_void) -> Result<(usize, usize), cudaError_t> {
    let shadow = symbol as usize;
    let Some(var) = symbols().vars.get(&shadow).cloned() else {
        return Err(cudaErrorInvalidSymbol);
    };
    let d = current(m)?;
    if let Some(&p) = symbols().storage.get(&(shadow, d)) {
        return Ok((p, var.size));
    }
    let p = m
        .allocate(var.size, Kind::Device(d))
        .map_err(|_| cudaErrorMemoryAllocation)?;
    let sm = m.device(d as i64).map_or(0, |p| {
        p.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR") as u32 * 10
            + p.named("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR") as u32
    });
    match crate::launch::cubin_of(var.binary, sm).and_then(|c| initializer(c, &var)) {
        // SAFETY: the storage was just allocated with the variable's size.
        Some(bytes) => unsafe {
            core::ptr::copy_nonoverlapping(bytes.as_ptr(), p as *mut u8, bytes.len())
        },
        None => stub_loader::debug_line(
            "mock",
            format_args!(
                "{}: no sm_{sm} CUBIN with its initial value in its fat binary: zeros",
                var.name
            ),
        ),
    }
    let mut s = symbols();
    // Another thread may have made it meanwhile: theirs stays, this one is freed.
    match s.storage.get(&(shadow, d)) {
        Some(&theirs) => {
            drop(s);
            let _ = m.free(p, |k| k.device().is_some());
            Ok((theirs, var.size))
        }
        None => {
            s.storage.insert((shadow, d), p);
            Ok((p, var.size))
        }
    }
}

/// The initial bytes of `var` in the ELF file `cubin`: its symbol's bytes in the section that
/// holds it (zeros for one that holds none, `.nv.global`); `None` when the file or the symbol
/// cannot be read. At most the variable's size.
fn initializer<'a>(cubin: &'a [u8], var: &Var) -> Option<&'a [u8]> {
    use object::read::elf::ElfFile64;
    use object::{Object, ObjectSection, ObjectSymbol};
    static ZEROS: [u8; 0] = [];
    let file = ElfFile64::<object::Endianness>::parse(cubin).ok()?;
    let symbol = file.symbols().find(|s| s.name() == Ok(var.name.as_str()))?;
    let section = file.section_by_index(symbol.section_index()?).ok()?;
    let data = section.data().ok()?;
    if data.is_empty() {
        return Some(&ZEROS);
    }
    let at = usize::try_from(symbol.address().checked_sub(section.address())?).ok()?;
    let len = var.size.min(usize::try_from(symbol.size()).ok()?);
    data.get(at..at.checked_add(len)?)
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
    let (ptr, size) = match storage(m, symbol) {
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
        match storage(m, symbol) {
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
        match symbols().vars.get(&(symbol as usize)) {
            Some(v) => {
                // SAFETY: non-NULL, the caller's size_t.
                unsafe { *size = v.size };
                cudaSuccess
            }
            None => cudaErrorInvalidSymbol,
        }
    })
}

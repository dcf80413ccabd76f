//! The device variables (`__device__`, `__constant__`) of nvcc-built programs, as the runtime
//! registers them (`__cudaRegisterVar`, `runtime/symbols.rs`): each by its host shadow's address
//! (the symbol a program names), with its device name and size. Each device gets its own storage
//! on first use (device memory of the model, counted as such), holding the variable's initial
//! value, as the driver loads it: read from the CUBIN for the device in the registering fat
//! binary (`fatbins.rs`; its ELF symbol of the variable's device name, in the section that holds
//! its bytes; zeros for a variable without an initializer, and for code the mock cannot read,
//! PTX only or compressed: said in the debug log).

use crate::device::model::{Kind, Model};
use crate::types::cudart::{cudaError_t, cudaErrorInvalidSymbol, cudaErrorMemoryAllocation};
use alloc::collections::BTreeMap;
use alloc::string::String;
use core::ffi::c_void;
use stub_loader::sync::{Mutex, MutexGuard};

#[derive(Debug, Clone)]
struct Var {
    /// The registering fat binary's handle.
    binary: usize,
    /// Its name in the device code.
    name: String,
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

/// Records variable `shadow` (its host shadow's address) of the fat binary `binary`: `name` in
/// the device code, `size` bytes.
pub fn register(shadow: usize, binary: usize, name: String, size: usize) {
    symbols().vars.insert(shadow, Var { binary, name, size });
}

/// The size of the variable at `symbol`, `None` for an address no variable was registered at.
pub fn size_of(symbol: *const c_void) -> Option<usize> {
    symbols().vars.get(&(symbol as usize)).map(|v| v.size)
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

/// The storage on device `d` of the variable `name` of fat binary `binary`, if nvcc registered
/// one of that name: the kernel executor's view of it, the same storage the runtime's symbol
/// calls use.
pub fn device_storage(m: &Model, binary: usize, name: &str, d: usize) -> Option<usize> {
    let shadow = symbols()
        .vars
        .iter()
        .find(|(_, v)| v.binary == binary && v.name == name)
        .map(|(&s, _)| s)?;
    storage(m, shadow as *const c_void, |_| Ok(d))
        .ok()
        .map(|(p, _)| p)
}

/// Variable `symbol`'s storage on the current device (`current`, asked once the variable is
/// known: the runtime's, with its own refusals), made on first use: its pointer and size;
/// `cudaErrorInvalidSymbol` for an address no variable was registered at.
pub fn storage(
    m: &Model,
    symbol: *const c_void,
    current: impl FnOnce(&Model) -> Result<usize, cudaError_t>,
) -> Result<(usize, usize), cudaError_t> {
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
    let cubin = crate::code::fatbins::cubin_of(var.binary, sm).and_then(|c| initializer(c, &var));
    // Else the PTX's initializer (the code the kernel executor runs). It comes first where it
    // names other symbols (a table of device functions): in the CUBIN those are relocations,
    // zeros until a driver links them; in the executor's PTX, the functions' addresses.
    let program =
        crate::code::kernels::program(crate::code::kernels::Owner::Fatbin(var.binary), sm);
    let ptx_var = program
        .as_ref()
        .ok()
        .and_then(|prog| prog.variables().iter().find(|v| v.name == var.name));
    let ptx = ptx_var.map(|v| v.init.get(..v.init.len().min(var.size)).unwrap_or_default());
    let linked = ptx_var.is_some_and(|v| !v.init_symbols.is_empty());
    match if linked { ptx.or(cubin) } else { cubin.or(ptx) } {
        // SAFETY: the storage was just allocated with the variable's size.
        Some(bytes) => unsafe {
            core::ptr::copy_nonoverlapping(bytes.as_ptr(), p as *mut u8, bytes.len())
        },
        None => stub_loader::debug_line(
            "mock",
            format_args!(
                "{}: no sm_{sm} CUBIN or PTX with its initial value in its fat binary: zeros",
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

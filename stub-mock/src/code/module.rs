//! The driver's modules and their functions: a module is an image the driver would load
//! (`image.rs`), its kernels by name; a function is a handle for one kernel of a live module
//! (`cuModuleGetFunction`), which a launch names (`launch.rs`).

use crate::code::image::Kernel;
use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use stub_loader::sync::{Mutex, MutexGuard};

#[derive(Debug, Default)]
struct Modules {
    /// Live modules by handle: their kernels.
    modules: BTreeMap<usize, Vec<Kernel>>,
    /// Live functions by handle: module, kernel name.
    functions: BTreeMap<usize, (usize, String)>,
}

static MODULES: Mutex<Modules> = Mutex::new(Modules {
    modules: BTreeMap::new(),
    functions: BTreeMap::new(),
});

fn modules() -> MutexGuard<'static, Modules> {
    MODULES.lock()
}

/// Records a loaded module with `kernels`; its handle.
pub fn add(kernels: Vec<Kernel>) -> usize {
    let h = crate::device::handles::fresh();
    modules().modules.insert(h, kernels);
    h
}

/// Unloads `module` and its functions; `false` if it is none.
pub fn remove(module: usize) -> bool {
    let mut m = modules();
    if m.modules.remove(&module).is_none() {
        return false;
    }
    m.functions.retain(|&f, (owner, _)| {
        let keep = *owner != module;
        if !keep {
            crate::code::kernel_attributes::forget(false, f);
        }
        keep
    });
    // SAFETY: made by `handles::fresh`, removed above.
    unsafe { crate::device::handles::release(module) };
    true
}

/// The function `name` of `module`: `Ok(handle)`, `Err(false)` for no such module,
/// `Err(true)` for no such kernel in it.
pub fn function(module: usize, name: &str) -> Result<usize, bool> {
    let mut m = modules();
    let Some(kernels) = m.modules.get(&module) else {
        return Err(false);
    };
    if !kernels.iter().any(|k| k.name == name) {
        return Err(true);
    }
    if let Some((&h, _)) = m
        .functions
        .iter()
        .find(|(_, (owner, k))| *owner == module && k == name)
    {
        return Ok(h);
    }
    let h = crate::device::handles::fresh();
    m.functions.insert(h, (module, name.to_owned()));
    Ok(h)
}

/// The kernel name of a live function handle, and its parameters' sizes if its code says.
pub fn kernel_of(function: usize) -> Option<(String, Option<Vec<usize>>)> {
    let m = modules();
    let (module, name) = m.functions.get(&function)?;
    let params = m
        .modules
        .get(module)
        .and_then(|ks| ks.iter().find(|k| &k.name == name))
        .and_then(|k| k.params.clone());
    Some((name.clone(), params))
}

/// The kernel name of a live function handle and its resources, if its code says them
/// (`kernel_attributes.rs`); `None` for no live function.
pub fn attributes_of(
    function: usize,
) -> Option<(String, Option<crate::code::kernel_attributes::Attributes>)> {
    let m = modules();
    let (module, name) = m.functions.get(&function)?;
    let attributes = m
        .modules
        .get(module)
        .and_then(|ks| ks.iter().find(|k| &k.name == name))
        .and_then(|k| k.attributes);
    Some((name.clone(), attributes))
}

/// The module of a live function handle.
pub fn module_of(function: usize) -> Option<usize> {
    modules()
        .functions
        .get(&function)
        .map(|(module, _)| *module)
}

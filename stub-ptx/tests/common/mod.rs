//! A test device over host buffers: device pointers are the buffers' addresses, as in the mock.
#![allow(dead_code)]

use std::sync::Mutex;

use stub_ptx::{Device, Fault, Kernel, Launch, Program};

/// Buffers the kernel may touch, and variables by name.
#[derive(Default)]
pub struct TestDevice {
    bufs: Vec<Box<[u64]>>,
    symbols: Vec<(String, usize)>,
    /// Each vprintf: the format string and the argument buffer's first 16 bytes.
    pub printed: Mutex<Vec<(String, [u32; 4])>>,
    /// The conditional handles `cudaGraphSetConditional` may set (a graph launch's).
    pub handles: Vec<u64>,
    /// Each `cudaGraphSetConditional` of a known handle: the handle and the value.
    pub conditionals: Mutex<Vec<(u64, u32)>>,
    /// The malloc heap: blocks of [`HEAP_BLOCK`] bytes ([`TestDevice::heap`]), handed out in
    /// order; empty: no heap (`malloc` answers NULL).
    pub heap: Vec<u64>,
    /// How many heap blocks `malloc` handed out.
    pub heap_used: Mutex<usize>,
    /// The blocks `free` took back, in order.
    pub freed: Mutex<Vec<u64>>,
}

/// The bytes of a test heap block: a larger `malloc` answers NULL.
pub const HEAP_BLOCK: u64 = 64;

impl TestDevice {
    /// Allocates `bytes` (zeroed, 8-aligned) and returns its device address.
    pub fn alloc(&mut self, bytes: usize) -> u64 {
        let b = vec![0u64; bytes.div_ceil(8).max(1)].into_boxed_slice();
        let a = b.as_ptr() as u64;
        self.bufs.push(b);
        a
    }
    /// Allocates and fills a buffer from `data`'s bytes.
    pub fn upload<T: Copy>(&mut self, data: &[T]) -> u64 {
        let bytes = std::mem::size_of_val(data);
        let a = self.alloc(bytes);
        // SAFETY: the buffer holds at least `bytes` bytes.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr() as *const u8, a as *mut u8, bytes) };
        a
    }
    /// Reads `n` values of type T at `addr`.
    pub fn download<T: Copy + Default>(&self, addr: u64, n: usize) -> Vec<T> {
        assert!(self.global_ok(addr, (n * std::mem::size_of::<T>()) as u64));
        let mut out = vec![T::default(); n];
        // SAFETY: checked above.
        unsafe { std::ptr::copy_nonoverlapping(addr as *const T, out.as_mut_ptr(), n) };
        out
    }
    /// Gives the device a malloc heap of `blocks` blocks of [`HEAP_BLOCK`] bytes.
    pub fn heap(&mut self, blocks: usize) {
        self.heap = (0..blocks)
            .map(|_| self.alloc(HEAP_BLOCK as usize))
            .collect();
    }
    /// Allocates the module's `.global`/`.const` variables with their initializers.
    pub fn load_variables(&mut self, p: &Program) {
        for v in p.variables() {
            if matches!(
                v.space,
                stub_ptx::module::Space::Global | stub_ptx::module::Space::Const
            ) {
                let a = self.alloc(v.size() as usize);
                // SAFETY: the buffer holds the variable's size.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        v.init.as_ptr(),
                        a as *mut u8,
                        v.init.len().min(v.size() as usize),
                    )
                };
                self.symbols.push((v.name.clone(), self.bufs.len() - 1));
            }
        }
    }
}

impl Device for TestDevice {
    fn global_ok(&self, addr: u64, len: u64) -> bool {
        self.global_range(addr, len).is_some()
    }
    fn global_range(&self, addr: u64, len: u64) -> Option<(u64, u64)> {
        self.bufs.iter().find_map(|b| {
            let lo = b.as_ptr() as u64;
            let size = (b.len() * 8) as u64;
            (addr >= lo && addr.checked_add(len)? <= lo + size).then_some((lo, size))
        })
    }
    fn symbol(&self, name: &str) -> Option<u64> {
        self.symbols
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, i)| self.bufs[*i].as_ptr() as u64)
    }
    fn vprintf(&self, format: u64, args: u64) -> i32 {
        // SAFETY: the executor hands over a format in device memory and a live argument copy.
        let fmt = unsafe { std::ffi::CStr::from_ptr(format as *const std::ffi::c_char) };
        let mut a = [0u32; 4];
        unsafe { std::ptr::copy_nonoverlapping(args as *const u32, a.as_mut_ptr(), 4) };
        self.printed
            .lock()
            .unwrap()
            .push((fmt.to_string_lossy().into_owned(), a));
        7
    }
    fn malloc(&self, size: u64) -> u64 {
        let mut used = self.heap_used.lock().unwrap();
        match self.heap.get(*used) {
            Some(&b) if size <= HEAP_BLOCK => {
                *used += 1;
                b
            }
            _ => 0,
        }
    }
    fn free(&self, ptr: u64) -> bool {
        let mut freed = self.freed.lock().unwrap();
        let live = self.heap.contains(&ptr) && !freed.contains(&ptr);
        if live {
            freed.push(ptr);
        }
        live
    }
    fn set_conditional(&self, handle: u64, value: u32) -> bool {
        let known = self.handles.contains(&handle);
        if known {
            self.conditionals.lock().unwrap().push((handle, value));
        }
        known
    }
}

/// Packs parameter values (each given as its bytes) into the kernel's layout.
pub fn pack(kernel: &Kernel, args: &[&[u8]]) -> Vec<u8> {
    let mut buf = vec![0u8; kernel.param_size() as usize];
    assert_eq!(args.len(), kernel.param_layout().len());
    for (a, (off, size)) in args.iter().zip(kernel.param_layout()) {
        assert_eq!(a.len(), *size as usize);
        buf[*off as usize..(*off + *size) as usize].copy_from_slice(a);
    }
    buf
}

/// Runs `name` of `program` over `grid` × `block` with `dyn_shared` bytes.
pub fn launch(
    program: &Program,
    name: &str,
    dev: &TestDevice,
    grid: [u32; 3],
    block: [u32; 3],
    dyn_shared: u32,
    args: &[&[u8]],
) -> Result<(), Fault> {
    let k = program
        .kernel(name)
        .unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let params = pack(k, args);
    let mut l = Launch::new(grid, block, &params);
    l.dynamic_shared = dyn_shared;
    l.budget = Some(50_000_000);
    stub_ptx::run(k, &l, dev)
}

//! What the executor needs from its host: the device memory's bounds, module variables'
//! addresses, printf, the malloc heap ([`Device`]); and one launch's shape and limits ([`Launch`]).

/// The mock's device, as the executor sees it. Device pointers are host addresses: the executor
/// checks an access with [`Device::global_ok`] (or [`Device::global_range`]) and then reads or
/// writes through a raw pointer (atomically, as blocks may run on several threads).
pub trait Device: Sync {
    /// Whether `[addr, addr + len)` lies inside one live allocation the kernel may touch.
    fn global_ok(&self, addr: u64, len: u64) -> bool;
    /// The allocation `[base, base + size)` holding `[addr, addr + len)`, if any: the executor
    /// caches it per warp so that the next accesses inside it skip the lookup. The default asks
    /// [`Device::global_ok`] and answers just the accessed range.
    fn global_range(&self, addr: u64, len: u64) -> Option<(u64, u64)> {
        self.global_ok(addr, len).then_some((addr, len))
    }
    /// The address of a module-level `.global`/`.const` variable (the mock allocates and
    /// initializes them from [`crate::Program::variables`]), or `None`.
    fn symbol(&self, name: &str) -> Option<u64>;
    /// Device-side printf: the format string's address and the packed argument buffer's (the
    /// ABI of `vprintf(const char*, char*)`); returns what `vprintf` returns (characters
    /// printed, negative on error).
    fn vprintf(&self, format: u64, args: u64) -> i32;
    /// The device heap's `malloc(size)` (CUDA C++ Programming Guide, "Dynamic Global Memory
    /// Allocation and Operations"): the address of `size` bytes, 16-byte aligned, in memory
    /// that [`Device::global_ok`] accepts and that lives until [`Device::free`] or the
    /// context's end, across launches; 0 (NULL) when the heap (`cudaLimitMallocHeapSize`) has no
    /// room. Called by the block-running threads at once. The default has no heap: NULL.
    fn malloc(&self, size: u64) -> u64 {
        let _ = size;
        0
    }
    /// The device heap's `free(ptr)` of a non-NULL `ptr`: `false` when `ptr` is no live block
    /// of [`Device::malloc`] (the launch then ends with [`crate::Fault::IllegalAddress`]).
    fn free(&self, ptr: u64) -> bool {
        let _ = ptr;
        false
    }
    /// `cudaGraphSetConditional(handle, value)` (cuda_device_runtime_api.h, CUDA 12.3+), called
    /// by one thread of the kernel: sets the value of the conditional node's `handle` for the
    /// graph launch running the kernel. `false` when `handle` is none of that launch's (the
    /// kernel then ends with [`crate::Fault::Conditional`]); the default knows no graph.
    fn set_conditional(&self, handle: u64, value: u32) -> bool {
        let _ = (handle, value);
        false
    }
    /// The texture or surface object `handle` (`cudaTextureObject_t`, `cudaSurfaceObject_t`):
    /// its memory at mipmap `level` (0: the object's first level; a level past the last is
    /// `None`), format and sampling, for `tex`, `tld4`, `txq`, `suld`, `sust`, `suq`
    /// ([`crate::texture`]). The default knows no object: such instructions fault.
    fn texture(&self, handle: u64, level: u32) -> Option<crate::texture::TextureView> {
        let _ = (handle, level);
        None
    }
}

/// One launch: its shape, parameters and limits.
#[derive(Clone, Copy)]
pub struct Launch<'a> {
    /// Blocks per grid (x, y, z).
    pub grid: [u32; 3],
    /// Threads per block (x, y, z).
    pub block: [u32; 3],
    /// Dynamic shared memory bytes per block.
    pub dynamic_shared: u32,
    /// The packed parameter buffer ([`crate::Kernel::param_layout`]).
    pub params: &'a [u8],
    /// The device's multiprocessor count (`%nsmid`; `%smid` is the block's index modulo it).
    pub sm_count: u32,
    /// `%gridid`.
    pub grid_id: u64,
    /// Warp instructions a block may run before the launch ends with [`crate::Fault::Timeout`];
    /// `None`: no limit.
    pub budget: Option<u64>,
    /// Asked every 65536 warp instructions: `true` ends the launch with
    /// [`crate::Fault::Timeout`] (the mock's `CUDA_STUBS_MOCK_TIMEOUT` deadline).
    pub stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// `%globaltimer` in nanoseconds; `None`: the block's instruction count.
    pub globaltimer: Option<&'a (dyn Fn() -> u64 + Sync)>,
    /// Blocks per cluster (x, y, z), each dividing the grid's: [1, 1, 1] unless the launch
    /// named cluster dimensions. Clusters of more than one block run with
    /// [`crate::Prepared::run_cluster`] ([`crate::cluster`]).
    pub cluster: [u32; 3],
    /// Whether the launch named cluster dimensions (`%is_explicit_cluster`): a launch
    /// attribute or the kernel's `.reqnctapercluster`.
    pub explicit_cluster: bool,
}

impl<'a> Launch<'a> {
    /// A launch of `grid` blocks of `block` threads with `params`, one SM, no limits.
    pub fn new(grid: [u32; 3], block: [u32; 3], params: &'a [u8]) -> Self {
        Launch {
            grid,
            block,
            dynamic_shared: 0,
            params,
            sm_count: 1,
            grid_id: 1,
            budget: None,
            stop: None,
            globaltimer: None,
            cluster: [1, 1, 1],
            explicit_cluster: false,
        }
    }
}

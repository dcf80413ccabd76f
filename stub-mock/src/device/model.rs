//! The one device model the runtime, driver and NVML entry points share: the profile's devices,
//! their memory (host memory standing for device memory, with the accounting all three report),
//! and the allocations' ranges, which every copy and pointer query checks.
//!
//! Device pointers are the addresses of the host memory that stands for them: a copy is a
//! `memcpy`, and a host function registered in place of a kernel can read them.

use crate::device::profile::{DeviceProfile, Profile, ProfileError};
use alloc::alloc::{Layout, alloc_zeroed, dealloc};
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use stub_loader::sync::{Mutex, MutexGuard, Once, env_text};

/// What an allocation is: memory of a device, managed memory, page-locked host memory
/// (`cudaMallocHost`), or host memory of the caller's registered as page-locked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Device memory of the device with this index.
    Device(usize),
    /// Managed memory (`cudaMallocManaged`), counted against the device with this index; the
    /// host reads and writes it as it is (the mock's device memory is the host's).
    Managed(usize),
    /// Page-locked host memory (counts against no device).
    Host,
    /// The caller's host memory, registered (`cudaHostRegister`): never freed by the mock.
    Registered,
}

impl Kind {
    /// The device whose memory it is: device and managed memory.
    pub fn device(self) -> Option<usize> {
        match self {
            Kind::Device(d) | Kind::Managed(d) => Some(d),
            Kind::Host | Kind::Registered => None,
        }
    }
}

#[derive(Debug)]
struct Allocation {
    size: usize,
    /// `None`: registered memory, the caller's.
    layout: Option<Layout>,
    kind: Kind,
    /// Page-locked memory's flags as allocated or registered (`cudaHostAlloc`,
    /// `cudaHostRegister`, the driver's the same numbers).
    flags: u32,
}

#[derive(Debug, Default)]
struct Memory {
    /// By address.
    allocations: BTreeMap<usize, Allocation>,
    /// Bytes allocated on each device.
    used: Vec<u64>,
    /// Each device's sticky fault: the code every later call in its context answers (0:
    /// none).
    faults: Vec<u32>,
}

/// The model: the profile and the memory.
#[derive(Debug)]
pub struct Model {
    /// The profile it was made from.
    pub profile: Profile,
    memory: Mutex<Memory>,
}

/// Why an allocation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllocError {
    /// Past the device's memory, or the host has none left.
    OutOfMemory,
}

/// Why a pointer or range was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeError {
    /// Not the start of an allocation (free), or the range runs past its allocation.
    Invalid,
}

/// The allocation a pointer falls in: its start, size and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// Its first byte.
    pub start: usize,
    /// Bytes.
    pub size: usize,
    /// Device or host.
    pub kind: Kind,
    /// Page-locked memory's flags as allocated or registered.
    pub flags: u32,
}

/// The runtime the mock implements: the ABI of CUDA 13.5's headers (`types.rs`).
pub const RUNTIME_13: i32 = 13050;

/// The CUDA 12 release the mock's runtime is on a 12.x driver ([`Model::runtime_version`]).
pub const RUNTIME_12: i32 = 12090;

/// The alignment of every allocation: `cudaMalloc` promises 256 bytes.
const ALIGN: usize = 256;

/// The pitch a pitched allocation's rows are rounded up to, in bytes.
pub const PITCH_ALIGN: usize = 512;

static MODEL: Once<Result<Model, ProfileError>> = Once::new();

/// The process's model, made on first use from `CUDA_STUBS_MOCK`; the profile's error if it has
/// one (every entry point then answers its library's "not initialized").
pub fn model() -> Result<&'static Model, &'static ProfileError> {
    static LOADING: ProfileError = ProfileError(String::new());
    let made = MODEL.get_or_init(|| {
        let Some(value) = env_text(c"CUDA_STUBS_MOCK") else {
            return Err(ProfileError(
                "CUDA_STUBS_MOCK is not set: the mock has no profile".into(),
            ));
        };
        Profile::chosen(&value).map(Model::new)
    });
    // `None`: a call from inside the profile's own loading, which calls nothing of the mock.
    made.map_or(Err(&LOADING), Result::as_ref)
}

impl Model {
    /// A model of `profile`'s devices, no memory allocated.
    pub fn new(profile: Profile) -> Model {
        let used = vec![0; profile.devices.len()];
        Model {
            profile,
            memory: Mutex::new(Memory {
                allocations: BTreeMap::new(),
                faults: vec![0; used.len()],
                used,
            }),
        }
    }

    /// The device `index`, if the profile has it.
    pub fn device(&self, index: i64) -> Option<&DeviceProfile> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.profile.devices.get(i))
    }

    /// How many devices.
    pub fn count(&self) -> usize {
        self.profile.devices.len()
    }

    /// The runtime release the mock's runtime is under this profile's driver
    /// (`cudaRuntimeGetVersion`, and what the runtime stub records): the one the stubs bind
    /// there, the newest the driver runs (`stub_spec::driver_runs`): 13.5 (the ABI the mock
    /// implements) on a CUDA 13.x driver, 12.9 (whose prototypes are the stubs' CUDA 12 ABI) on
    /// a 12.x one, so that on a 12.x driver programs built against either major's headers run and
    /// what 13.x added is refused as a 12.x runtime refuses it (the stub's gating). The entry
    /// points stay 13.5's: the stubs translate for them
    /// (`stub_loader::Loaded::abi_major`). Older drivers run neither: 12.9, which the
    /// runtime face then refuses with `cudaErrorInsufficientDriver`.
    pub fn runtime_version(&self) -> i32 {
        if self.profile.cuda_version >= RUNTIME_13 - RUNTIME_13 % 1000 {
            RUNTIME_13
        } else {
            RUNTIME_12
        }
    }

    fn memory(&self) -> MutexGuard<'_, Memory> {
        self.memory.lock()
    }

    /// Allocates `size` bytes (zeroed) of `kind`; a size of 0 answers NULL, as the runtime does.
    pub fn allocate(&self, size: usize, kind: Kind) -> Result<usize, AllocError> {
        if size == 0 {
            return Ok(0);
        }
        let mut memory = self.memory();
        if let Some(d) = kind.device() {
            let total = self.profile.devices.get(d).map_or(0, |p| p.total_memory);
            let used = memory.used.get(d).copied().unwrap_or(u64::MAX);
            if (size as u64)
                .checked_add(used)
                .is_none_or(|after| after > total)
            {
                return Err(AllocError::OutOfMemory);
            }
        }
        let layout = Layout::from_size_align(size, ALIGN).map_err(|_| AllocError::OutOfMemory)?;
        // SAFETY: the layout's size is not zero.
        let ptr = unsafe { alloc_zeroed(layout) };
        if ptr.is_null() {
            return Err(AllocError::OutOfMemory);
        }
        let start = ptr as usize;
        if let Some(used) = kind.device().and_then(|d| memory.used.get_mut(d)) {
            *used += size as u64;
        }
        memory.allocations.insert(
            start,
            Allocation {
                size,
                layout: Some(layout),
                kind,
                flags: 0,
            },
        );
        Ok(start)
    }

    /// `size` bytes of page-locked host memory allocated with `flags`.
    pub fn allocate_host(&self, size: usize, flags: u32) -> Result<usize, AllocError> {
        let start = self.allocate(size, Kind::Host)?;
        if let Some(a) = self.memory().allocations.get_mut(&start) {
            a.flags = flags;
        }
        Ok(start)
    }

    /// Registers the caller's `size` bytes at `start` as page-locked host memory with `flags`;
    /// `false` when any of them is already known (registered or allocated), or for no bytes.
    pub fn register(&self, start: usize, size: usize, flags: u32) -> bool {
        let Some(end) = start.checked_add(size).filter(|_| start != 0 && size != 0) else {
            return false;
        };
        let mut memory = self.memory();
        let overlaps = memory
            .allocations
            .range(..end)
            .next_back()
            .is_some_and(|(&a, x)| a + x.size > start);
        if overlaps {
            return false;
        }
        memory.allocations.insert(
            start,
            Allocation {
                size,
                layout: None,
                kind: Kind::Registered,
                flags,
            },
        );
        true
    }

    /// Frees every allocation of device `d` (device and managed memory): a device reset.
    pub fn free_all(&self, d: usize) {
        let starts: Vec<usize> = {
            let memory = self.memory();
            memory
                .allocations
                .iter()
                .filter(|(_, a)| a.kind.device() == Some(d))
                .map(|(&s, _)| s)
                .collect()
        };
        for start in starts {
            let _ = self.free(start, |k| k.device() == Some(d));
        }
    }

    /// `rows` rows of `width` bytes on device `d`, each row's pitch rounded up to
    /// [`PITCH_ALIGN`] (`cudaMallocPitch`, `cudaMalloc3D`, `cuMemAllocPitch`): the allocation
    /// and its pitch.
    pub fn allocate_pitched(
        &self,
        width: usize,
        rows: usize,
        d: usize,
    ) -> Result<(usize, usize), AllocError> {
        let pitch = width
            .checked_next_multiple_of(PITCH_ALIGN)
            .ok_or(AllocError::OutOfMemory)?;
        let size = pitch.checked_mul(rows).ok_or(AllocError::OutOfMemory)?;
        Ok((self.allocate(size, Kind::Device(d))?, pitch))
    }

    /// Frees the allocation starting at `start` if it is of a kind `accept` takes; NULL is a
    /// no-op. `Err` for any other pointer (never freed twice).
    pub fn free(&self, start: usize, accept: impl Fn(Kind) -> bool) -> Result<(), RangeError> {
        if start == 0 {
            return Ok(());
        }
        let mut memory = self.memory();
        match memory.allocations.get(&start) {
            Some(a) if accept(a.kind) => {}
            _ => return Err(RangeError::Invalid),
        }
        let Some(a) = memory.allocations.remove(&start) else {
            return Err(RangeError::Invalid);
        };
        if let Some(used) = a.kind.device().and_then(|d| memory.used.get_mut(d)) {
            *used = used.saturating_sub(a.size as u64);
        }
        if let Some(layout) = a.layout {
            // SAFETY: allocated by `allocate` with this layout, removed from the map above.
            unsafe { dealloc(start as *mut u8, layout) };
        }
        Ok(())
    }

    /// Whether managed memory at `ptr` may be attached to a stream with `length` and `flags`
    /// (`cudaStreamAttachMemAsync`, `cuStreamAttachMemAsync`): `ptr` in a managed allocation,
    /// `length` zero or, from its start, its whole size ("If the memory was allocated with
    /// cudaMallocManaged, length must be either zero or the entire allocation's size"), `flags`
    /// one of `cudaMemAttachGlobal` (1), `…Host` (2), `…Single` (4).
    pub fn attachable(&self, ptr: usize, length: usize, flags: u32) -> bool {
        let whole = |f: &Found| length == 0 || (ptr == f.start && length == f.size);
        matches!(flags, 1 | 2 | 4)
            && self
                .find(ptr)
                .is_some_and(|f| matches!(f.kind, Kind::Managed(_)) && whole(&f))
    }

    /// The allocation holding `ptr`, if any.
    pub fn find(&self, ptr: usize) -> Option<Found> {
        let memory = self.memory();
        let (&start, a) = memory.allocations.range(..=ptr).next_back()?;
        (ptr - start < a.size).then_some(Found {
            start,
            size: a.size,
            kind: a.kind,
            flags: a.flags,
        })
    }

    /// Checks that `[ptr, ptr + len)` lies in one allocation of a device (device or managed
    /// memory): `Ok` with it.
    pub fn device_range(&self, ptr: usize, len: usize) -> Result<Found, RangeError> {
        match self.find(ptr) {
            Some(f)
                if f.kind.device().is_some()
                    && (ptr - f.start)
                        .checked_add(len)
                        .is_some_and(|end| end <= f.size) =>
            {
                Ok(f)
            }
            _ => Err(RangeError::Invalid),
        }
    }

    /// Whether `ptr` lies in a device allocation (device or managed memory).
    pub fn is_device(&self, ptr: usize) -> bool {
        self.find(ptr).is_some_and(|f| f.kind.device().is_some())
    }

    /// Device `d`'s sticky fault, if it had one ([`Model::fault`]).
    pub fn faulted(&self, d: usize) -> Option<u32> {
        self.memory().faults.get(d).copied().filter(|&c| c != 0)
    }

    /// Records a fault of device `d` (`code`: what a device reading freed memory reports): as
    /// on a GPU, the context is left in an inconsistent state and every later call in it
    /// answers the same code, for the life of the process (no reset clears it).
    pub fn fault(&self, d: usize, code: u32) {
        if let Some(f) = self.memory().faults.get_mut(d) {
            if *f == 0 {
                *f = code;
            }
        }
    }

    /// Bytes `(free, total)` of device `d`: `cudaMemGetInfo`, `cuMemGetInfo`,
    /// `nvmlDeviceGetMemoryInfo` all read this.
    pub fn mem_info(&self, d: usize) -> (u64, u64) {
        let total = self.profile.devices.get(d).map_or(0, |p| p.total_memory);
        let used = self.memory().used.get(d).copied().unwrap_or(0);
        (total.saturating_sub(used), total)
    }
}

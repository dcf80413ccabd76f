//! CUDA arrays, mipmapped arrays, and the texture and surface objects over them or over linear
//! memory: one registry both APIs share (`cudaArray_t` is `CUarray`, `cudaTextureObject_t` is
//! `CUtexObject`), kept where the kernel executor can read it (issue "Kernels run on the mock":
//! a `tex2D` or `surf2Dwrite` finds its object here by handle, and the element at `(x, y, z)`
//! at `base + z * slice + y * pitch + x * element`).
//!
//! An array's storage is device memory of its device (counted against it, as the board counts
//! it), laid out row by row: the real layout is opaque (block-linear on the board), so the mock
//! chooses the plain one; nothing outside the mock sees it but through copies, which address
//! elements. Its rows are padded to [`ROW_ALIGNMENT`] bytes, as a texture's pitch is on the
//! board (`CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT`: 32 on an H100/H200).
//!
//! A channel format is the runtime's `cudaChannelFormatDesc` (bits of x, y, z, w and the kind:
//! 0 signed, 1 unsigned, 2 float); the driver's `CUarray_format` and channel count map onto it
//! in its face.

use crate::device::handles;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use stub_loader::sync::{Mutex, MutexGuard};

/// Bytes a row of an array is padded to.
pub const ROW_ALIGNMENT: usize = 32;

/// A channel format: bits of each of the four components and their kind (`cudaChannelFormatKind`:
/// 0 signed, 1 unsigned, 2 float).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Format {
    /// Bits of x, y, z, w (0 for a component it lacks).
    pub bits: [i32; 4],
    /// `cudaChannelFormatKindSigned` (0), `…Unsigned` (1), `…Float` (2).
    pub kind: u32,
}

impl Format {
    /// Bytes of one element, if the format is one the board takes: 1 to 4 components, the
    /// present ones first, each 8, 16 or 32 bits (a float 16 or 32), all of one size.
    pub fn element(&self) -> Option<usize> {
        let present: Vec<i32> = self.bits.iter().copied().take_while(|&b| b != 0).collect();
        let first = *present.first()?;
        let valid = self.bits.iter().skip(present.len()).all(|&b| b == 0)
            && present.iter().all(|&b| b == first)
            && match self.kind {
                0 | 1 => matches!(first, 8 | 16 | 32),
                2 => matches!(first, 16 | 32),
                _ => false,
            };
        valid.then(|| present.len() * first as usize / 8)
    }
}

/// One CUDA array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Array {
    /// Its device's index.
    pub device: usize,
    /// Its elements' format.
    pub format: Format,
    /// Elements per row; rows (0 for a 1D array); slices (0 for 1D and 2D), as created.
    pub extent: [usize; 3],
    /// The creation flags (`cudaArraySurfaceLoadStore` 2, `…Layered` 1, …).
    pub flags: u32,
    /// Bytes of one element.
    pub element: usize,
    /// Its first byte: device memory of its device.
    pub base: usize,
    /// Bytes from a row to the next.
    pub pitch: usize,
    /// Bytes from a slice to the next.
    pub slice: usize,
    /// The mipmapped array it is a level of, 0 for none (freed with it, never alone).
    pub owner: usize,
}

impl Array {
    /// The array of `extent` elements of `format` on `device`, its storage at `base` (the
    /// caller allocates [`Array::bytes`] there); `None` for a format the board refuses.
    pub fn new(device: usize, format: Format, extent: [usize; 3], flags: u32) -> Option<Array> {
        let element = format.element()?;
        let pitch = extent[0]
            .checked_mul(element)?
            .checked_next_multiple_of(ROW_ALIGNMENT)?;
        let slice = pitch.checked_mul(extent[1].max(1))?;
        slice.checked_mul(extent[2].max(1))?;
        Some(Array {
            device,
            format,
            extent,
            flags,
            element,
            base: 0,
            pitch,
            slice,
            owner: 0,
        })
    }

    /// Bytes of its storage.
    pub fn bytes(&self) -> usize {
        self.slice.saturating_mul(self.extent[2].max(1))
    }

    /// Rows and slices it has (1 for a dimension it lacks).
    pub fn rows_slices(&self) -> (usize, usize) {
        (self.extent[1].max(1), self.extent[2].max(1))
    }

    /// The address of byte `x` of row `y` of slice `z`, when `width` bytes of `height` rows of
    /// `depth` slices from there lie inside the array (`None` past its extent): where a copy
    /// to or from it starts, rows [`Array::pitch`] and slices [`Array::slice`] apart.
    pub fn window(
        &self,
        (x, y, z): (usize, usize, usize),
        (width, height, depth): (usize, usize, usize),
    ) -> Option<usize> {
        let (rows, slices) = self.rows_slices();
        let fits = |at: usize, n: usize, max: usize| at.checked_add(n).is_some_and(|e| e <= max);
        (fits(x, width, self.extent[0] * self.element)
            && fits(y, height, rows)
            && fits(z, depth, slices))
        .then(|| self.base + z * self.slice + y * self.pitch + x)
    }
}

/// What a texture or surface object reads or writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Resource {
    /// A CUDA array.
    Array(usize),
    /// A mipmapped array.
    Mipmapped(usize),
    /// `bytes` of linear device memory at `ptr`, elements of `format`.
    Linear {
        ptr: usize,
        format: Format,
        bytes: usize,
    },
    /// `width` × `height` elements of `format` at `ptr`, rows `pitch` bytes apart.
    Pitch2D {
        ptr: usize,
        format: Format,
        width: usize,
        height: usize,
        pitch: usize,
    },
}

/// How a texture samples (`cudaTextureDesc`, `CUDA_TEXTURE_DESC`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sampling {
    /// Per dimension: wrap 0, clamp 1, mirror 2, border 3.
    pub address: [u32; 3],
    /// Point 0, linear 1.
    pub filter: u32,
    /// Element type 0, normalized float 1 (`cudaReadModeNormalizedFloat`).
    pub read_mode: u32,
    /// Whether coordinates are normalized to [0, 1).
    pub normalized: bool,
    /// Whether sRGB to linear conversion applies.
    pub srgb: bool,
    /// The border colour (address mode border).
    pub border: [f32; 4],
    /// Mipmaps: filter, level bias, level clamps.
    pub mipmap_filter: u32,
    pub mipmap_bias: f32,
    pub mipmap_clamp: [f32; 2],
    pub max_anisotropy: u32,
}

/// A texture object (`sampling` given) or a surface object (none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Object {
    /// What it reads or writes.
    pub resource: Resource,
    /// How a texture samples; `None` for a surface.
    pub sampling: Option<Sampling>,
    /// The resource view, if one was given.
    pub view: Option<View>,
}

/// A texture's view of its resource (`cudaResourceViewDesc`, `CUDA_RESOURCE_VIEW_DESC`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct View {
    /// `cudaResourceViewFormat` (`CUresourceViewFormat`: the same numbers).
    pub format: u32,
    /// Width, height, depth.
    pub extent: [usize; 3],
    /// First and last mipmap level.
    pub levels: [u32; 2],
    /// First and last layer.
    pub layers: [u32; 2],
}

#[derive(Debug, Default)]
struct Registry {
    arrays: BTreeMap<usize, Array>,
    /// Mipmapped arrays: their levels' arrays, largest first.
    mipmapped: BTreeMap<usize, Vec<usize>>,
    /// Texture and surface objects by handle.
    objects: BTreeMap<u64, Object>,
    /// The last object handle given (objects are numbered from 1, as the board's are small).
    last_object: u64,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    arrays: BTreeMap::new(),
    mipmapped: BTreeMap::new(),
    objects: BTreeMap::new(),
    last_object: 0,
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock()
}

/// Records `array` (its storage allocated at `array.base`); its handle.
pub fn add(array: Array) -> usize {
    let h = handles::fresh();
    registry().arrays.insert(h, array);
    h
}

/// The array `handle` names.
pub fn array(handle: usize) -> Option<Array> {
    registry().arrays.get(&handle).copied()
}

/// Forgets the array `handle` (not a mipmapped array's level): its storage's first byte, for
/// the caller to free; `None` for no such array.
pub fn remove(handle: usize) -> Option<usize> {
    let mut r = registry();
    if r.arrays.get(&handle)?.owner != 0 {
        return None;
    }
    let a = r.arrays.remove(&handle)?;
    // SAFETY: made by `handles::fresh` in `add`, removed above.
    unsafe { handles::release(handle) };
    Some(a.base)
}

/// Records a mipmapped array of the arrays `levels` (largest first, each already added); its
/// handle.
pub fn add_mipmapped(levels: Vec<usize>) -> usize {
    let h = handles::fresh();
    let mut r = registry();
    for l in &levels {
        if let Some(a) = r.arrays.get_mut(l) {
            a.owner = h;
        }
    }
    r.mipmapped.insert(h, levels);
    h
}

/// The array of level `level` of the mipmapped array `handle`.
pub fn level(handle: usize, level: usize) -> Option<usize> {
    registry().mipmapped.get(&handle)?.get(level).copied()
}

/// The levels of the mipmapped array `handle`.
pub fn levels(handle: usize) -> Option<Vec<usize>> {
    registry().mipmapped.get(&handle).cloned()
}

/// Forgets the mipmapped array `handle` and its levels: their storages' first bytes, for the
/// caller to free; `None` for no such mipmapped array.
pub fn remove_mipmapped(handle: usize) -> Option<Vec<usize>> {
    let mut r = registry();
    let levels = r.mipmapped.remove(&handle)?;
    let mut bases = Vec::new();
    for l in levels {
        if let Some(a) = r.arrays.remove(&l) {
            bases.push(a.base);
            // SAFETY: made by `handles::fresh` in `add`, removed above.
            unsafe { handles::release(l) };
        }
    }
    // SAFETY: made by `handles::fresh` in `add_mipmapped`, removed above.
    unsafe { handles::release(handle) };
    Some(bases)
}

/// Records a texture or surface object; its handle (never 0).
pub fn add_object(object: Object) -> u64 {
    let mut r = registry();
    r.last_object += 1;
    let h = r.last_object;
    r.objects.insert(h, object);
    h
}

/// The texture or surface object `handle` names.
pub fn object(handle: u64) -> Option<Object> {
    registry().objects.get(&handle).copied()
}

/// Forgets the object `handle`: `false` for none.
pub fn remove_object(handle: u64) -> bool {
    registry().objects.remove(&handle).is_some()
}

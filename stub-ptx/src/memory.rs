//! The memories a kernel reaches: the block's shared memory, the warp's local memory (its call
//! frames), the parameter buffer and device (global) memory through the [`Device`], with the
//! generic address space's windows.
//!
//! Generic addresses: as on the hardware, the shared, local and parameter state spaces appear
//! in the generic space as windows at fixed bases ([`SHARED_WINDOW`], [`LOCAL_WINDOW`],
//! [`PARAM_WINDOW`], each 4 GiB), above every user-space host address (x86-64 and AArch64 keep
//! those below 2^57), so that a generic address outside them is a device (host) pointer.

use core::cell::Cell;
use core::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering};

use crate::device::Device;
use crate::error::Fault;
use crate::ops::{AtomOp, FloatTy};

/// The generic address of shared memory offset 0.
pub const SHARED_WINDOW: u64 = 0x0200_0000_0000_0000;
/// The generic address of local memory offset 0.
pub const LOCAL_WINDOW: u64 = 0x0300_0000_0000_0000;
/// The generic address of kernel parameter offset 0.
pub const PARAM_WINDOW: u64 = 0x0400_0000_0000_0000;
/// Each window's size.
pub const WINDOW_SIZE: u64 = 1 << 32;

/// A resolved state space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Device memory, by host address.
    Global,
    /// Shared memory, by offset.
    Shared,
    /// Local memory, by offset in the warp's frames.
    Local,
    /// The parameter buffer, by offset.
    Param,
}

/// The state space and offset of generic address `a`.
pub fn classify(a: u64) -> (Space, u64) {
    if a.wrapping_sub(SHARED_WINDOW) < WINDOW_SIZE {
        (Space::Shared, a - SHARED_WINDOW)
    } else if a.wrapping_sub(LOCAL_WINDOW) < WINDOW_SIZE {
        (Space::Local, a - LOCAL_WINDOW)
    } else if a.wrapping_sub(PARAM_WINDOW) < WINDOW_SIZE {
        (Space::Param, a - PARAM_WINDOW)
    } else {
        (Space::Global, a)
    }
}

/// The memories one instruction of one warp reaches.
pub struct Mems<'x> {
    /// The block's shared memory.
    pub shared: &'x mut [u8],
    /// The shared memories of the block's cluster, by rank (address, length; length 0 for a
    /// block that ended), which shared::cluster addresses reach ([`crate::cluster`]); the
    /// running block's own entry is not used (`shared` is).
    pub peers: &'x [Cell<(usize, usize)>],
    /// The running block's rank in its cluster.
    pub rank: u32,
    /// The warp's local memory.
    pub local: &'x mut [u8],
    /// The parameter buffer.
    pub params: &'x [u8],
    /// The device.
    pub dev: &'x dyn Device,
    /// The warp's last global allocation hit, [lo, hi).
    pub cache: &'x mut (u64, u64),
    /// The instruction's line (for faults).
    pub line: u32,
}

// One fixed-size copy per width (a load or store of the host's), not a variable-length copy:
// shared and local accesses are the inner loops of tiled kernels.
#[inline]
fn read_le(s: &[u8], off: u64, w: u8) -> Option<u64> {
    let rest = s.get(usize::try_from(off).ok()?..)?;
    Some(match w {
        1 => u64::from(*rest.first()?),
        2 => u64::from(u16::from_le_bytes(*rest.first_chunk()?)),
        4 => u64::from(u32::from_le_bytes(*rest.first_chunk()?)),
        8 => u64::from_le_bytes(*rest.first_chunk()?),
        _ => return None,
    })
}

#[inline]
fn write_le(s: &mut [u8], off: u64, w: u8, v: u64) -> Option<()> {
    let rest = s.get_mut(usize::try_from(off).ok()?..)?;
    match w {
        1 => *rest.first_mut()? = v as u8,
        2 => *rest.first_chunk_mut()? = (v as u16).to_le_bytes(),
        4 => *rest.first_chunk_mut()? = (v as u32).to_le_bytes(),
        8 => *rest.first_chunk_mut()? = v.to_le_bytes(),
        _ => return None,
    }
    Some(())
}

/// The new value of an atomic `op` on `old` (`width` bytes) with operands `b`, `c`.
pub fn rmw(op: AtomOp, width: u8, old: u64, b: u64, c: u64) -> u64 {
    let m = if width >= 8 {
        u64::MAX
    } else {
        (1u64 << (width * 8)) - 1
    };
    let sx = |v: u64| -> i64 {
        let sh = 64 - u32::from(width) * 8;
        ((v << sh) as i64) >> sh
    };
    let (old, b, c) = (old & m, b & m, c & m);
    let v = match op {
        AtomOp::AddInt => old.wrapping_add(b),
        AtomOp::AddF32 => {
            u64::from((f32::from_bits(old as u32) + f32::from_bits(b as u32)).to_bits())
        }
        AtomOp::AddF64 => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
        AtomOp::AddF16 => u64::from(crate::num::add_f16(
            old as u16,
            b as u16,
            crate::num::Rnd::Rn,
            false,
            false,
        )),
        AtomOp::AddF16x2 => u64::from(crate::num::add_f16x2(
            old as u32,
            b as u32,
            crate::num::Rnd::Rn,
            false,
            false,
        )),
        AtomOp::AddBf16 => u64::from(crate::num::add_bf16(
            old as u16,
            b as u16,
            crate::num::Rnd::Rn,
            false,
            false,
        )),
        AtomOp::AddBf16x2 => u64::from(crate::num::add_bf16x2(
            old as u32,
            b as u32,
            crate::num::Rnd::Rn,
            false,
            false,
        )),
        AtomOp::MinU => old.min(b),
        AtomOp::MaxU => old.max(b),
        AtomOp::MinS => sx(old).min(sx(b)) as u64,
        AtomOp::MaxS => sx(old).max(sx(b)) as u64,
        AtomOp::Inc => {
            if old >= b {
                0
            } else {
                old + 1
            }
        }
        AtomOp::Dec => {
            if old == 0 || old > b {
                b
            } else {
                old - 1
            }
        }
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Exch => b,
        AtomOp::Cas => {
            if old == b {
                c
            } else {
                old
            }
        }
        AtomOp::MinF(t) | AtomOp::MaxF(t) => {
            use crate::num;
            let min = matches!(op, AtomOp::MinF(_));
            let (o16, b16, o32, b32) = (old as u16, b as u16, old as u32, b as u32);
            match (t, min) {
                (FloatTy::F32, true) => u64::from(
                    num::min_f32(f32::from_bits(o32), f32::from_bits(b32), false, false).to_bits(),
                ),
                (FloatTy::F32, false) => u64::from(
                    num::max_f32(f32::from_bits(o32), f32::from_bits(b32), false, false).to_bits(),
                ),
                (FloatTy::F64, true) => {
                    num::min_f64(f64::from_bits(old), f64::from_bits(b), false).to_bits()
                }
                (FloatTy::F64, false) => {
                    num::max_f64(f64::from_bits(old), f64::from_bits(b), false).to_bits()
                }
                (FloatTy::F16, true) => u64::from(num::min_f16(o16, b16, false, false)),
                (FloatTy::F16, false) => u64::from(num::max_f16(o16, b16, false, false)),
                (FloatTy::Bf16, true) => u64::from(num::min_bf16(o16, b16, false, false)),
                (FloatTy::Bf16, false) => u64::from(num::max_bf16(o16, b16, false, false)),
                (FloatTy::F16x2, true) => u64::from(num::min_f16x2(o32, b32, false, false)),
                (FloatTy::F16x2, false) => u64::from(num::max_f16x2(o32, b32, false, false)),
                (FloatTy::Bf16x2, true) => u64::from(num::min_bf16x2(o32, b32, false, false)),
                (FloatTy::Bf16x2, false) => u64::from(num::max_bf16x2(o32, b32, false, false)),
            }
        }
    };
    v & m
}

impl Mems<'_> {
    /// The shared memory that shared (shared::cluster) offset `off` lies in, and the offset in
    /// it: the block's own, or a peer's of its cluster ([`crate::cluster::split`]).
    #[inline]
    fn shared_at(&mut self, off: u64) -> Option<(&mut [u8], u64)> {
        match crate::cluster::split(off) {
            (None, o) => Some((&mut *self.shared, o)),
            (Some(r), o) if r == u64::from(self.rank) => Some((&mut *self.shared, o)),
            (Some(r), o) => {
                let (ptr, len) = self.peers.get(usize::try_from(r).ok()?)?.get();
                if len == 0 {
                    return None;
                }
                // SAFETY: the peer's shared memory (`Prepared::run_cluster`): a live buffer of
                // `len` bytes, kept until its cluster ends; the cluster's blocks run on this
                // thread one at a time, so no other reference to it is in use while this
                // block's instruction runs.
                Some((
                    unsafe { core::slice::from_raw_parts_mut(ptr as *mut u8, len) },
                    o,
                ))
            }
        }
    }

    fn illegal(&self, addr: u64, len: u64) -> Fault {
        Fault::IllegalAddress {
            addr,
            len: len as u32,
            line: self.line,
        }
    }

    /// Checks `[addr, addr + len)` of device memory.
    fn global(&mut self, addr: u64, len: u64) -> Result<(), Fault> {
        let end = addr
            .checked_add(len)
            .ok_or_else(|| self.illegal(addr, len))?;
        if addr >= self.cache.0 && end <= self.cache.1 {
            return Ok(());
        }
        match self.dev.global_range(addr, len) {
            Some((lo, size)) => {
                *self.cache = (lo, lo.saturating_add(size));
                Ok(())
            }
            None => Err(self.illegal(addr, len)),
        }
    }

    fn aligned(&self, space_addr: u64, generic: u64, w: u64) -> Result<(), Fault> {
        // Accesses' sizes are powers of two: a mask, not a division, on the hot path.
        let misaligned = if w.is_power_of_two() {
            space_addr & (w - 1) != 0
        } else {
            w > 1 && space_addr % w != 0
        };
        if misaligned {
            return Err(Fault::MisalignedAddress {
                addr: generic,
                line: self.line,
            });
        }
        Ok(())
    }

    /// Checks an access of `len` bytes aligned to `align` at `off` of `space` (`shown`: the
    /// address faults report).
    pub fn check(
        &mut self,
        space: Space,
        off: u64,
        len: u64,
        align: u64,
        shown: u64,
    ) -> Result<(), Fault> {
        self.aligned(off, shown, align)?;
        let ok = match space {
            Space::Global => return self.global(off, len),
            Space::Shared => self
                .shared_at(off)
                .is_some_and(|(s, o)| o.checked_add(len).is_some_and(|e| e <= s.len() as u64)),
            Space::Local => off
                .checked_add(len)
                .is_some_and(|e| e <= self.local.len() as u64),
            Space::Param => off
                .checked_add(len)
                .is_some_and(|e| e <= self.params.len() as u64),
        };
        if ok {
            Ok(())
        } else {
            Err(self.illegal(shown, len))
        }
    }

    /// Loads `w` bytes (1, 2, 4, 8) at `off` of `space`, already checked.
    #[inline]
    pub fn load(&mut self, space: Space, off: u64, w: u8, shown: u64) -> Result<u64, Fault> {
        let v = match space {
            Space::Global => {
                // SAFETY: `check` found [off, off + w) inside a live allocation of the device
                // (device pointers are host addresses) and aligned to `w`; blocks on other
                // threads access it only atomically too.
                unsafe {
                    match w {
                        1 => Some(u64::from(
                            AtomicU8::from_ptr(off as *mut u8).load(Ordering::Relaxed),
                        )),
                        2 => Some(u64::from(
                            AtomicU16::from_ptr(off as *mut u16).load(Ordering::Relaxed),
                        )),
                        4 => Some(u64::from(
                            AtomicU32::from_ptr(off as *mut u32).load(Ordering::Relaxed),
                        )),
                        8 => Some(AtomicU64::from_ptr(off as *mut u64).load(Ordering::Relaxed)),
                        _ => None,
                    }
                }
            }
            Space::Shared => self.shared_at(off).and_then(|(s, o)| read_le(s, o, w)),
            Space::Local => read_le(self.local, off, w),
            Space::Param => read_le(self.params, off, w),
        };
        v.ok_or_else(|| self.illegal(shown, u64::from(w)))
    }

    /// Stores the low `w` bytes of `v` at `off` of `space`, already checked.
    #[inline]
    pub fn store(
        &mut self,
        space: Space,
        off: u64,
        w: u8,
        v: u64,
        shown: u64,
    ) -> Result<(), Fault> {
        let ok = match space {
            Space::Global => {
                // SAFETY: as in `load`.
                unsafe {
                    match w {
                        1 => AtomicU8::from_ptr(off as *mut u8).store(v as u8, Ordering::Relaxed),
                        2 => {
                            AtomicU16::from_ptr(off as *mut u16).store(v as u16, Ordering::Relaxed)
                        }
                        4 => {
                            AtomicU32::from_ptr(off as *mut u32).store(v as u32, Ordering::Relaxed)
                        }
                        8 => AtomicU64::from_ptr(off as *mut u64).store(v, Ordering::Relaxed),
                        _ => return Err(self.illegal(shown, u64::from(w))),
                    }
                }
                Some(())
            }
            Space::Shared => self.shared_at(off).and_then(|(s, o)| write_le(s, o, w, v)),
            Space::Local => write_le(self.local, off, w, v),
            Space::Param => None,
        };
        ok.ok_or_else(|| self.illegal(shown, u64::from(w)))
    }

    /// An atomic read-modify-write (`op` with operands `b`, `c`); returns the old value. Global memory: a compare-and-swap
    /// loop on the host's atomics (blocks may run on several threads); shared: the block runs on
    /// one thread.
    pub fn atomic(
        &mut self,
        space: Space,
        off: u64,
        w: u8,
        (op, b, c): (AtomOp, u64, u64),
        shown: u64,
    ) -> Result<u64, Fault> {
        self.check(space, off, u64::from(w), u64::from(w), shown)?;
        match space {
            Space::Global => {
                macro_rules! cas {
                    ($t:ty, $ty:ty) => {{
                        // SAFETY: as in `load`.
                        let a = unsafe { <$t>::from_ptr(off as *mut $ty) };
                        let mut old = a.load(Ordering::Relaxed);
                        loop {
                            let new = rmw(op, w, u64::from(old), b, c) as $ty;
                            match a.compare_exchange_weak(
                                old,
                                new,
                                Ordering::SeqCst,
                                Ordering::Relaxed,
                            ) {
                                Ok(_) => break Ok(u64::from(old)),
                                Err(x) => old = x,
                            }
                        }
                    }};
                }
                match w {
                    2 => cas!(AtomicU16, u16),
                    4 => cas!(AtomicU32, u32),
                    8 => cas!(AtomicU64, u64),
                    _ => Err(self.illegal(shown, u64::from(w))),
                }
            }
            _ => {
                let old = self.load(space, off, w, shown)?;
                self.store(space, off, w, rmw(op, w, old, b, c), shown)?;
                Ok(old)
            }
        }
    }

    /// Reads a NUL-terminated string of at most `max` bytes at generic address `a` (for
    /// `__assertfail`); what cannot be read ends it.
    pub fn c_string(&mut self, a: u64, max: usize) -> alloc::string::String {
        let mut out = alloc::vec::Vec::new();
        let (space, off) = classify(a);
        for i in 0..max as u64 {
            let Some(o) = off.checked_add(i) else { break };
            if self.check(space, o, 1, 1, a).is_err() {
                break;
            }
            match self.load(space, o, 1, a) {
                Ok(0) | Err(_) => break,
                Ok(v) => out.push(v as u8),
            }
        }
        alloc::string::String::from_utf8_lossy(&out).into_owned()
    }
}

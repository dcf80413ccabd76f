//! Contexts: each device's primary context (the only kind the mock makes) and each thread's
//! current context, which the runtime's current device follows (`cudaSetDevice` makes the
//! device's primary context current, as the real runtime does; `cuCtxSetCurrent` moves the
//! runtime's current device with it).

use stub_loader::sync::{Mutex, ThreadWord};

/// The most devices a profile has (`profile.rs`' limit).
const MAX: usize = 64;

/// The primary contexts' identities: `CUcontext` of device `d` is the address of `PRIMARY[d]`.
static PRIMARY: [u8; MAX] = [0; MAX];

/// Each primary context's retain count (`cuDevicePrimaryCtxRetain` / `…Release`).
static RETAINS: Mutex<[u32; MAX]> = Mutex::new([0; MAX]);

/// The thread's current context: its device + 1, or 0 for none.
static CURRENT: ThreadWord = ThreadWord::new();

/// The primary context of device `d` as a handle.
pub fn primary(d: usize) -> usize {
    PRIMARY.as_ptr() as usize + d.min(MAX - 1)
}

/// The device of the context handle `ctx`, if it is one of the primary contexts.
pub fn device_of(ctx: usize) -> Option<usize> {
    let base = PRIMARY.as_ptr() as usize;
    (base..base + MAX).contains(&ctx).then(|| ctx - base)
}

/// The thread's current context's device.
pub fn current() -> Option<usize> {
    CURRENT.get().checked_sub(1)
}

/// Makes device `d`'s primary context current (`None`: no context).
pub fn set_current(d: Option<usize>) {
    CURRENT.set(d.map_or(0, |d| d + 1));
}

/// Retains device `d`'s primary context; its count after.
pub fn retain(d: usize) -> u32 {
    let mut r = RETAINS.lock();
    match r.get_mut(d) {
        Some(n) => {
            *n = n.saturating_add(1);
            *n
        }
        None => 0,
    }
}

/// Releases device `d`'s primary context; `false` if it was not retained.
pub fn release(d: usize) -> bool {
    let mut r = RETAINS.lock();
    match r.get_mut(d) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    }
}

/// Whether device `d`'s primary context is retained (active).
pub fn is_active(d: usize) -> bool {
    let r = RETAINS.lock();
    r.get(d).is_some_and(|&n| n > 0)
}

/// Peer access each device's context has enabled: `PEERS[d]`'s bit `p` for device `p`.
static PEERS: Mutex<[u64; MAX]> = Mutex::new([0; MAX]);

/// Enables (`enable`) or disables device `peer`'s access from device `d`'s context: `false`
/// when it already was (enabled twice, or disabled when not enabled).
pub fn set_peer(d: usize, peer: usize, enable: bool) -> bool {
    let mut peers = PEERS.lock();
    let (Some(mask), true) = (peers.get_mut(d), peer < MAX) else {
        return false;
    };
    let bit = 1u64 << peer;
    if (*mask & bit != 0) == enable {
        return false;
    }
    *mask ^= bit;
    true
}

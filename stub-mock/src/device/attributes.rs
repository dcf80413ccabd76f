//! Every `CUdevice_attribute` of `cuda.h` by name and number (`build.rs` writes them from the
//! driver stub's generated types): a profile names attributes as `cuda.h` does, the mock
//! answers them by number.

include!(concat!(env!("OUT_DIR"), "/attributes.rs"));

/// A peer-to-peer attribute of two distinct devices of the mock (`cudaDeviceP2PAttr`,
/// `CUdevice_P2PAttribute`: the same numbers), as `cudaDeviceCanAccessPeer` sees them, peers
/// of one host joined by one kind of link: performance rank (1) 0, access (2), native atomics
/// (3) and CUDA array access (4) supported, 1; only partial native atomics (5) 0. `None` for
/// another attribute.
pub fn p2p(attr: u32) -> Option<i32> {
    match attr {
        1 | 5 => Some(0),
        2..=4 => Some(1),
        _ => None,
    }
}

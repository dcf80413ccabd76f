//! A kernel launch issued on a stream, as both APIs' launches issue it: kept by the stream's
//! capture as a kernel node (with copies of its arguments when its code says their sizes), or
//! made now (`code::launch::run_kernel`).

use crate::code::kernels::Owner;
use crate::code::launch::{Launch, run_kernel};
use crate::device::model::Model;
use crate::queue::graph;
use crate::queue::ops::{Code, Op};
use alloc::borrow::ToOwned;
use core::ffi::c_void;

/// A checked launch of `kernel` on `stream`: kept by the stream's capture (a kernel node, with
/// copies of the arguments when `sizes` says theirs), or made now on `m`'s memory
/// ([`run_kernel`]); a capture's refusal (invalidated) is the answer.
///
/// # Safety
/// `params` is what the launch was given: NULL or the kernel's argument pointers; `sizes`, when
/// given, are the kernel's declared parameter sizes.
pub unsafe fn issue(
    m: &Model,
    stream: usize,
    (owner, kernel): (Owner, &str),
    (params, sizes): (*mut *mut c_void, Option<&[usize]>),
    at: &Launch,
) -> Result<(), Code> {
    // The arguments' bytes, when the code says their sizes: kept by a capture for its replays
    // (copied only then: a launch outside one makes none).
    let capturing = graph::is_capturing(stream);
    // The sizes from the kernel's PTX when the caller's image did not say them.
    let from_ptx = (capturing && sizes.is_none())
        .then(|| crate::code::execute::param_sizes(m, owner, kernel, at))
        .flatten();
    let args = sizes
        .or(from_ptx.as_deref())
        // A kernel of no parameters needs no pointers: NULL `params` is its whole list.
        .filter(|sizes| capturing && (sizes.is_empty() || !params.is_null()))
        .map(|sizes| {
            sizes
                .iter()
                .enumerate()
                .map(|(i, &size)| {
                    // SAFETY: `params[i]` points at argument `i`, of the size its code declares
                    // (the launch's contract).
                    unsafe { core::slice::from_raw_parts(*params.add(i) as *const u8, size) }
                        .to_vec()
                })
                .collect()
        });
    let op = Op::Kernel {
        owner,
        name: kernel.to_owned(),
        launch: *at,
        args,
    };
    match graph::capture(stream, op) {
        Ok(captured) => captured,
        Err(_) => {
            // SAFETY: forwarded contract.
            unsafe { run_kernel(m, owner, kernel, params, at) }
        }
    }
}

/// The operation of a kernel node built by hand (`cudaGraphAddKernelNode`,
/// `cuGraphAddKernelNode`, their `SetParams`): a checked launch of `kernel` that keeps copies
/// of its arguments, their sizes from the code (`sizes`, else the kernel's PTX), as a capture
/// keeps them; none when neither says them or `params` is NULL for a kernel of parameters.
///
/// # Safety
/// `params` is NULL or the kernel's argument pointers, as the node's parameters give them.
pub unsafe fn kernel_node(
    m: &Model,
    (owner, kernel): (Owner, &str),
    (params, sizes): (*mut *mut c_void, Option<&[usize]>),
    at: &Launch,
) -> Op {
    let from_ptx = sizes
        .is_none()
        .then(|| crate::code::execute::param_sizes(m, owner, kernel, at))
        .flatten();
    let args = sizes
        .or(from_ptx.as_deref())
        // A kernel of no parameters needs no pointers: NULL `params` is its whole list.
        .filter(|sizes| sizes.is_empty() || !params.is_null())
        .map(|sizes| {
            sizes
                .iter()
                .enumerate()
                .map(|(i, &size)| {
                    // SAFETY: `params[i]` points at argument `i`, of the size its code declares
                    // (the node parameters' contract).
                    unsafe { core::slice::from_raw_parts(*params.add(i) as *const u8, size) }
                        .to_vec()
                })
                .collect()
        });
    Op::Kernel {
        owner,
        name: kernel.to_owned(),
        launch: *at,
        args,
    }
}

//! A library's status value from one of its codes, whatever the status type's shape.

/// The value of status type `S` that stands for `code`, a spec's `StatusCode` value (the stubs'
/// typed errors, the C enumerator's `int`): `code` itself for a C enum (4 bytes in the bindings,
/// unsigned, `cudaError_t`, `nvrtcResult` …, or signed, NPP's `NppStatus`, whose errors are
/// negative), and for a status struct returned by value whose first field is the code
/// (cuFile's `CUfileError_t { CUfileOpError err; CUresult cu_err; }`, 8 bytes), the code with
/// the other field 0. Both come back in the integer return register on x86-64 and aarch64, the
/// code in its low 32 bits, which is also how the traced entry reads and injects a status.
/// `stub_library!` and the `cuda_stubs` macro's fallbacks evaluate it at compile time, where a
/// status type of another size fails the build.
///
/// # Safety
/// `S` is a 32-bit integer (signed or not: the code's bits are kept), or a `repr(C)` struct of
/// two 32-bit integers whose first is the code: every bit pattern is a value of it.
pub const unsafe fn status_value<S: Copy>(code: i32) -> S {
    let size = core::mem::size_of::<S>();
    assert!(
        size == 4 || size == 8,
        "a status type is a 32-bit code, or a struct of two with the code first"
    );
    let c = code.to_ne_bytes();
    let bytes = [c[0], c[1], c[2], c[3], 0, 0, 0, 0];
    // SAFETY: `bytes` holds at least `size_of::<S>()` bytes, the code first in native order;
    // every bit pattern is an `S` (the caller's contract).
    unsafe { core::ptr::read_unaligned(bytes.as_ptr().cast::<S>()) }
}

#[cfg(test)]
mod tests {
    use super::status_value;

    #[repr(C)]
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Pair {
        code: u32,
        detail: u32,
    }

    #[test]
    fn a_code_in_either_shape() {
        // SAFETY: integers and a repr(C) struct of two, the code first.
        unsafe {
            assert_eq!(status_value::<u32>(34), 34);
            assert_eq!(status_value::<i32>(7), 7);
            assert_eq!(status_value::<i32>(-3), -3);
            assert_eq!(
                status_value::<Pair>(5001),
                Pair {
                    code: 5001,
                    detail: 0
                }
            );
            // What the register holds on a little-endian machine: the code in the low half.
            assert_eq!(status_value::<u64>(5001), 5001);
        }
    }
}

//! Link-time stubs: files a program links against, never loads (the pattern of NVIDIA's
//! `lib64/stubs/libcuda.so`). A link-time stub has the runtime stub's SONAME and its exported
//! names and version nodes, but another version as each versioned name's default (`@@`): a link
//! against it records that version, while `DT_NEEDED` names the runtime stub, which the program
//! loads. `libstubs_cudart_abi12.so` (crate `stubs-cudart-abi12`) makes links record CUDA 12's
//! ABI for the names whose prototype differs between 12.x and 13.x headers.
//!
//! Its file name is not its SONAME, so the dynamic loader never finds it for a `DT_NEEDED`
//! entry, and it is linked `-z nodlopen`. Should it be loaded anyway (`LD_PRELOAD` of the wrong
//! file), every function returns the status the crate gives, the library's "stub" code.

/// The body of a link-time stub: `plain` names exported unversioned, `versioned` names under
/// `default` (`name@@NODE`) and each of `others` (`name@NODE`), all returning `status`.
/// codegen writes the invocation (`stubs-cudart-abi12/src/generated/exports.rs`).
#[macro_export]
macro_rules! link_stub {
    (
        status: $status:expr,
        default: $default:literal,
        others: [$($other:literal),* $(,)?],
        versioned: $versioned:tt,
        plain: [$($plain:ident),* $(,)?] $(,)?
    ) => {
        /// What a versioned name of this link-time stub runs, should it ever be called.
        extern "C" fn cuda_stubs_link_only() -> i32 {
            $status
        }
        $(
            /// Link-time only (see `stub_loader::link_stub!`).
            #[unsafe(no_mangle)]
            pub extern "C" fn $plain() -> i32 {
                $status
            }
        )*
        $crate::link_stub!(@node "@@", $default, $versioned);
        $( $crate::link_stub!(@node "@", $other, $versioned); )*
    };
    (@node $sep:literal, $node:literal, [$($v:ident),* $(,)?]) => {
        $(
            $crate::versioned_export!(
                concat!("__cuda_stubs_link_", $node, "_", stringify!($v)),
                concat!(stringify!($v), $sep, $node),
                stringify!($v),
                cuda_stubs_link_only
            );
        )*
    };
}

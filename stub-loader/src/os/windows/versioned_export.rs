//! Windows: a versioned name of the ELF stubs (see `os/linux/versioned_export.rs`) is a DLL
//! export of its own, since PE exports have no versions.

/// Windows: exports `$target` as `$windows`, a DLL export of its own (PE exports have no
/// versions): a naked tail jump named by `export_name`, in an anonymous scope so that each
/// invocation's function is its own item.
#[macro_export]
macro_rules! versioned_export {
    ($label:expr, $symbol:expr, $windows:expr, $target:path) => {
        const _: () = {
            /// A versioned export (see `stub_loader::versioned_export!`).
            #[unsafe(export_name = $windows)]
            #[unsafe(naked)]
            unsafe extern "C" fn export() {
        ::core::arch::naked_asm!("jmp {target}", target = sym $target)
            }
        };
    };
}

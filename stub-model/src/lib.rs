//! The declaration model of the `cuda_stubs` macro, one crate for everything that reads or
//! writes declarations: the macro (`stub-macros`) parses with it, codegen prints through it
//! ([`CudaAttr`]'s `ToTokens`), the tests read the generated `api.rs` with it.
//!
//! It holds the grammar (`#[cuda_stubs(library = "...", loader = .., real = .., ..)]` on an
//! `unsafe extern "C"` block whose functions each carry
//! `#[cuda(majors = [..], abi = [..], hand_written, opaque, version = N)]`; the block's paths are
//! [`BlockPaths`]), its parser and printer. The facts around it, the libraries' specs ([`libraries`],
//! [`LibraryKind`]), the return kinds ([`RetKind`]) and the majors' range and mask ([`majors`]),
//! are `stub-spec`'s, re-exported here: the runtime (`stub-loader`, `no_std`, without `syn`)
//! reads the same definitions from there.

mod cuda_attr;
mod declaration;

pub use cuda_attr::CudaAttr;
pub use declaration::{BlockPaths, StubBlock, StubFn, parse_block, parse_declarations, ret_kind};
pub use stub_spec::*;

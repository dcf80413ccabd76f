//! The declaration model of the `cuda_stubs` macro, one crate for everything that reads or
//! writes declarations: the macro (`stub-macros`) parses with it, codegen prints through it
//! ([`CudaAttr`]'s `ToTokens`), the tests read the generated `api.rs` with it.
//!
//! It holds the grammar (`#[cuda_stubs(library = "...")]` on an `unsafe extern "C"` block whose
//! functions each carry `#[cuda(majors = [..], abi = [..], hand_written, opaque, version = N)]`),
//! its parser and printer, and the facts around it: the libraries ([`LibraryKind`]), the return
//! kinds ([`RetKind`]) and the majors' range and mask ([`majors`]). The runtime (`stub-loader`,
//! `no_std`, without `syn`) mirrors the last two; this crate's tests check the mirrors agree.

mod cuda_attr;
mod declaration;
mod library_kind;
pub mod majors;
mod ret_kind;

pub use cuda_attr::CudaAttr;
pub use declaration::{StubBlock, StubFn, parse_block};
pub use library_kind::LibraryKind;
pub use ret_kind::RetKind;

//! The exports that describe a status code in words (`cudaGetErrorString`, `cublasGetStatusName`
//! …), as a spec lists them ([`crate::Library::error_texts`]). One implementation serves them all
//! (`stub_loader::error_text`), from a table of the status enum codegen writes from the headers
//! (`src/generated/status_texts.rs`): such an export answers a string whatever happens, never NULL.

use crate::StatusCode;

/// One error-text export of a library.
#[derive(Debug, Clone, Copy)]
pub struct ErrorText {
    /// The C function, as the header declares it.
    pub function: &'static str,
    /// What it answers: the enumerator's name or a description.
    pub text: TextKind,
    /// How it answers.
    pub abi: TextAbi,
}

/// What an error-text export describes a code with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// The enumerator's C name (`cudaErrorMemoryAllocation`).
    Name,
    /// A sentence (`out of memory`): the header's documentation of the enumerator where it has
    /// one, else its name.
    Description,
}

/// The C shape of an error-text export.
#[derive(Debug, Clone, Copy)]
pub enum TextAbi {
    /// `const char *f(status)`.
    Returned,
    /// `status f(status code, const char **out)` (the driver's `cuGetErrorString`): 0 and the
    /// text written for a code the headers define; `unknown` for another code (the text still
    /// written) or a NULL `out` (nothing written), as NVIDIA documents.
    OutParam {
        /// The status for an unknown code or a NULL out-pointer (`CUDA_ERROR_INVALID_VALUE`).
        unknown: StatusCode,
    },
}

//! Hand-written exports: the functions taking a compute descriptor (`cutensorComputeDescriptor_t
//! descCompute`, their last parameter in every cuTENSOR 2.x), which translate the stub's
//! stand-ins for `CUTENSOR_COMPUTE_DESC_*` into the loaded library's own descriptors before
//! forwarding.
//!
//! `cutensor/types.h` declares the descriptors as data, `extern const cutensorComputeDescriptor_t
//! CUTENSOR_COMPUTE_DESC_32F` …: pointers into NVIDIA's library, which a program reads and passes
//! back. A program linked against this stub reads the stub's exports instead
//! (`src/generated/data.rs`): each holds the address of one of the stub's own stand-ins
//! (`stub_loader::StandIns`), which no cuTENSOR knows. So every function the header gives a
//! `cutensorComputeDescriptor_t` is exported here (the spec's `hand_written`; codegen refuses a
//! function naming that type that is not) and calls the real function through its slot
//! (`crate::api::NAME::Forward`) with:
//! - for a stand-in, the loaded library's value of the same name (`dlsym` of
//!   `CUTENSOR_COMPUTE_DESC_32F` in it, read once);
//! - any other pointer as given: a descriptor the program made with the library itself, NULL
//!   (the library's own `CUTENSOR_STATUS_INVALID_VALUE`), garbage (the library's business, as
//!   when linked normally).
//!
//! A stand-in the loaded cuTENSOR lacks (`CUTENSOR_COMPUTE_DESC_8XINT8`, 2.4 and later, on
//! 2.2.0) is refused with `CUTENSOR_STATUS_NOT_SUPPORTED` (15, the stub's "absent" code: the
//! loaded version cannot do what was asked), nothing called and nothing written; with no
//! library, `CUTENSOR_STATUS_NOT_INITIALIZED` (1), as every call then.
//!
//! No function of cuTENSOR 2.2.0 – 2.8 returns a compute descriptor through a declared
//! prototype (no operation or plan attribute holds one); `cutensorCreateComputeDescriptor`,
//! `cutensorComputeDescriptorGetAttribute`, `…SetAttribute` and `cutensorDestroyComputeDescriptor`
//! are exported by every version but declared by no header, so the stub forwards them untouched
//! like every opaque export: a program declaring them itself must not hand them a stand-in.
//!
//! One file per function or family, named after it: `cutensor_create_contraction.rs` (plain,
//! trinary, block-sparse), `cutensor_create_elementwise.rs` (binary, trinary),
//! `cutensor_create_permutation.rs`, `cutensor_create_reduction.rs`.

use crate::types::{cutensorComputeDescriptor_t, cutensorStatus_t};

mod cutensor_create_contraction;
mod cutensor_create_elementwise;
mod cutensor_create_permutation;
mod cutensor_create_reduction;

/// cuTENSOR as the adapters see it: [`crate::LIBRARY`] and the spec's typed errors.
pub(crate) enum Cutensor {}

impl stub_loader::Adapted for Cutensor {
    fn library() -> &'static stub_loader::Library {
        &crate::LIBRARY
    }
    const ERRORS: stub_spec::TypedErrors = stub_spec::libraries::CUTENSOR.errors;
}

/// `descCompute` as the loaded library is to get it: a stand-in's real counterpart, any other
/// pointer as given; `Err` with the refusal (`CUTENSOR_STATUS_NOT_INITIALIZED` without a
/// library, `CUTENSOR_STATUS_NOT_SUPPORTED` when the loaded cuTENSOR lacks the descriptor).
fn compute_descriptor(
    desc: cutensorComputeDescriptor_t,
) -> Result<cutensorComputeDescriptor_t, cutensorStatus_t> {
    crate::generated::data::STAND_INS
        .to_real(desc)
        .ok_or_else(<Cutensor as stub_loader::Adapted>::refusal)
}

/// The export of `$name`, whose parameters are `$arg`s then `descCompute`: the real function
/// through its slot with `descCompute` translated ([`compute_descriptor`]), or the refusal.
macro_rules! with_compute_descriptor {
    ($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?)) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The cuTENSOR API contract of the function; `descCompute` is a descriptor of the
        /// library, one of the stub's `CUTENSOR_COMPUTE_DESC_*`, or NULL.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name(
            $($arg: $ty,)*
            descCompute: $crate::types::cutensorComputeDescriptor_t,
        ) -> $crate::types::cutensorStatus_t {
            match super::compute_descriptor(descCompute) {
                // SAFETY: the caller's arguments, forwarded with the library's own descriptor.
                Ok(desc) => unsafe { $crate::api::$name::Forward::call($($arg,)* desc) },
                Err(code) => code,
            }
        }
    };
}
use with_compute_descriptor;

//! The mock device (issue 37): with `CUDA_STUBS_MOCK` set, a stub binds what its spec's
//! `mock` says (`stub_spec::MockUse`) instead of searching: the runtime, the driver and NVML
//! bind cuda-stubs' `libcuda_stubs_mock.so` (`stub-mock`) from the stub's own folder, nothing
//! else; the math and framework libraries bind nothing (a real one would load a real runtime or
//! driver beside the mock's); the compilers search as always. The mock is never a search's
//! result: only the variable chooses it, and a secure-execution process ignores it as it
//! ignores every override.

use super::candidates::Candidate;
use super::driver_cap::DriverFit;
use super::loaded::{DriverOutcome, Loaded};
use super::markers::mock_status;
use super::order::Origin;
use super::paths::{join, parent};
use super::probe::try_candidate;
use super::reject::{Attempt, Reject, Tried};
use crate::debug::line;
use crate::env::trusted_var;
use crate::os::{MOCK_FILE, file_of_address};
use crate::spec::LibrarySpec;
use alloc::borrow::Cow;
use alloc::vec;
use core::ffi::{CStr, c_int};
use stub_spec::MockUse;

/// The variable, and the mock's answer to "is the profile usable" (`1`: yes).
const VARIABLE: &CStr = c"CUDA_STUBS_MOCK";
const READY: &CStr = c"cuda_stubs_mock_ready";

/// What `spec`'s stub binds under `CUDA_STUBS_MOCK`; `None`: the variable is unset (or the
/// process is secure), or the library is searched as always.
pub(crate) fn bind(spec: &'static LibrarySpec) -> Option<Loaded> {
    let value = trusted_var(VARIABLE)?;
    let lib = spec.real.name;
    let tried = || Tried::Variable {
        name: VARIABLE,
        value: value.to_vec(),
    };
    match spec.real.mock {
        MockUse::Real => None,
        MockUse::NoLibrary => {
            let reject = Reject::Mocked;
            line(lib, format_args!("{}: {reject}", tried()));
            let attempts = vec![Attempt {
                tried: tried(),
                reject,
            }];
            Some(Loaded::not_found(spec, attempts, None))
        }
        MockUse::Implements => Some(bind_mock(spec, value)),
    }
}

/// Binds the mock library beside the stub's own file (`value`: the variable's).
fn bind_mock(spec: &'static LibrarySpec, value: &[u8]) -> Loaded {
    let lib = spec.real.name;
    let own = file_of_address(bind_mock as fn(&'static LibrarySpec, &[u8]) -> Loaded as usize);
    let Some(dir) = own.as_deref().and_then(parent) else {
        // The stub linked into the program itself (no file of its own): nowhere to look.
        let reject = Reject::NotFound;
        line(
            lib,
            format_args!("the mock device: the stub's own folder is unknown"),
        );
        let attempts = vec![Attempt {
            tried: Tried::Variable {
                name: VARIABLE,
                value: value.to_vec(),
            },
            reject,
        }];
        return Loaded::not_found(spec, attempts, None);
    };
    let c = Candidate {
        origin: Origin::Mock,
        target: Cow::Owned(join(dir, MOCK_FILE)),
        name_major: 0,
    };
    let refused = |c: Candidate, reject: Reject| {
        line(
            lib,
            format_args!("try {}: rejected: {reject}", Tried::Candidate(c.clone())),
        );
        let attempts = vec![Attempt {
            tried: Tried::Candidate(c),
            reject,
        }];
        Loaded::not_found(spec, attempts, None)
    };
    // No release or driver cap: the mock is its own driver.
    let (handle, version) = match try_candidate(spec, &c, None, None) {
        Ok(bound) => bound,
        Err(reject) => return refused(c, reject),
    };
    let ready = handle.symbol(READY).map_or(0, |f| {
        // SAFETY: the mock's `int cuda_stubs_mock_ready(void)`.
        let f: unsafe extern "C" fn() -> c_int = unsafe { core::mem::transmute(f) };
        // SAFETY: no arguments; it never fails.
        unsafe { f() }
    });
    if ready != 1 {
        let why = mock_status(&handle).unwrap_or_else(|| "the mock device has no profile".into());
        return refused(c, Reject::MockProfile(why));
    }
    line(
        lib,
        format_args!(
            "bound {} (version {version}) [{}]",
            c.target.to_string_lossy(),
            Origin::Mock.as_str()
        ),
    );
    line(
        lib,
        format_args!("{}", mock_status(&handle).unwrap_or_default()),
    );
    let outcome = DriverOutcome {
        driver: None,
        fit: DriverFit::OfTheDriver,
    };
    Loaded::bound(spec, handle, c, version, vec![], outcome)
}

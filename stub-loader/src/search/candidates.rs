//! What a place of the search lists ([`Candidate`], [`Listed`]). Each system's places are
//! `os/linux/places.rs` and `os/windows/places.rs`; the listings they share, `listing.rs`.

use super::order::Origin;
use crate::os::has_dir;
use alloc::borrow::Cow;
use alloc::string::String;
use core::ffi::CStr;

/// One thing to try: a soname handed to `dlopen` as is, or a file path.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Where it was found.
    pub origin: Origin,
    /// A bare soname (`libcudart.so.12`, the spec's own string) or an absolute path.
    pub target: Cow<'static, CStr>,
    /// The CUDA major its file name says, 0 when the name says none.
    pub name_major: u32,
}

impl Candidate {
    /// True when `target` is a bare soname (Windows: a bare DLL name), searched by the
    /// dynamic loader.
    pub fn is_soname(&self) -> bool {
        !has_dir(self.target.to_bytes())
    }

    /// The target as text, for messages.
    pub fn display(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.target.to_bytes())
    }
}

/// What a place lists: a candidate, or an environment value it ignores (a relative override).
#[derive(Debug)]
pub(crate) enum Listed {
    /// Try this.
    Try(Candidate),
    /// The variable `name` holds `value`, which is not an absolute path: nothing to try.
    Relative {
        /// The variable.
        name: &'static CStr,
        /// Its value.
        value: &'static [u8],
    },
}

//! How a library names one function's per-version ABI entry points, if it does.

/// The naming rule `{prefix}{function}_{major}_{minor}`, e.g. `__` + `nvJitLinkCreate` +
/// `_12_9`: nvJitLink.h (12.0 and later) binds each call, through a static inline wrapper, to
/// the ABI name of the header's own version, and the library exports every such name of its
/// major up to its own minor (and, from 12.3, the plain names). Such names share their
/// function's prototype; codegen writes `versioned_names.rs`, their binding to the plain name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VersionedNames {
    /// What precedes the function's plain name.
    pub prefix: &'static str,
}

impl VersionedNames {
    /// `__nvJitLinkCreate_12_9` → `("nvJitLinkCreate", 12, 9)`; `None` for any other name.
    pub fn split<'a>(&self, name: &'a str) -> Option<(&'a str, u32, u32)> {
        let rest = name.strip_prefix(self.prefix)?;
        let (rest, minor) = rest.rsplit_once('_')?;
        let (function, major) = rest.rsplit_once('_')?;
        let number = |s: &str| {
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u32>().ok())
                .flatten()
        };
        Some((function, number(major)?, number(minor)?))
    }

    /// The function `name` is one of the names of: its plain name (`name` itself when it is not
    /// a versioned name).
    pub fn function<'a>(&self, name: &'a str) -> &'a str {
        self.split(name).map_or(name, |(f, _, _)| f)
    }
}

//! DLL names that carry the library's own release instead of the CUDA major: CUPTI's
//! `cupti64_2025.2.1.dll` (CUDA 12.9), which changes with every CUDA release, so no list of
//! names in a spec finds the next one ([`crate::WindowsDlls::release_named`]).

use crate::library::Release;

/// A DLL named `<prefix><year>.<minor>.<patch>.dll` after the library's own release (CUPTI's
/// `cupti64_2022.3.0.dll` in CUDA 11.8, `cupti64_2025.2.1.dll` in 12.9, `cupti64_2026.3.1.dll`
/// in 13.4), matched by that pattern in each folder of the search and among the process's
/// loaded modules; the CUDA major comes from [`ReleaseNamed::releases`] before the DLL is loaded,
/// as a soname's major does.
#[derive(Debug, Clone, Copy)]
pub struct ReleaseNamed {
    /// The name before the release, ASCII, compared without case as Windows compares file
    /// names: `cupti64_`.
    pub prefix: &'static str,
    /// The first release of each CUDA major, oldest first, numbered
    /// `10000 * year + 100 * minor + patch` (`2022.4.0`, CUDA 12.0's: 20220400). A release
    /// newer than the last listed is that major's, as for [`crate::VersionProbe::OwnVersion`].
    pub releases: &'static [Release],
}

impl ReleaseNamed {
    /// The release a file name says (`cupti64_2025.2.1.dll` → 20250201), `None` for a name of
    /// another form (`cupti64_13.dll`, `cupti64_2025.2.dll`, another library's).
    pub fn release_of(&self, name: &[u8]) -> Option<i32> {
        let prefix = self.prefix.as_bytes();
        if name.len() < prefix.len() || !name[..prefix.len()].eq_ignore_ascii_case(prefix) {
            return None;
        }
        let rest = &name[prefix.len()..];
        let dot_dll = rest.len().checked_sub(4)?;
        if !rest[dot_dll..].eq_ignore_ascii_case(b".dll") {
            return None;
        }
        let mut parts = rest[..dot_dll].split(|b| *b == b'.');
        let mut number = |width: i32, limit: i32| -> Option<i32> {
            let digits = parts.next()?;
            if digits.is_empty() || digits.len() > 4 || !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let n = digits
                .iter()
                .fold(0i32, |n, d| n * 10 + i32::from(d - b'0'));
            (n < limit).then_some(n * width)
        };
        let release = number(10000, 10000)? + number(100, 100)? + number(1, 100)?;
        parts.next().is_none().then_some(release)
    }

    /// The CUDA major of a release ([`ReleaseNamed::release_of`]), `None` when older than every
    /// release listed.
    pub fn major_of(&self, release: i32) -> Option<u32> {
        self.releases
            .iter()
            .rev()
            .find(|r| release >= r.first)
            .map(|r| r.major)
    }

    /// The CUDA major a file name says, `0` when it is not of this form or older than every
    /// release listed.
    pub fn major_of_name(&self, name: &[u8]) -> u32 {
        self.release_of(name)
            .and_then(|r| self.major_of(r))
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::libraries::CUPTI;

    fn cupti() -> &'static ReleaseNamed {
        CUPTI
            .real
            .windows
            .and_then(|w| w.release_named)
            .expect("CUPTI's DLL is named after its release")
    }

    /// The DLL names of NVIDIA's win_amd64 wheels (nvidia-cuda-cupti-cu11 11.7.101, 11.8.87;
    /// -cu12 12.0.90, 12.8.90, 12.9.79; nvidia-cuda-cupti 13.0.48, 13.4.92) say their major.
    #[test]
    fn each_wheel_dll_name_says_its_major() {
        let names: [(&[u8], i32, u32); 7] = [
            (b"cupti64_2022.2.1.dll", 20220201, 11),
            (b"cupti64_2022.3.0.dll", 20220300, 11),
            (b"cupti64_2022.4.0.dll", 20220400, 12),
            (b"cupti64_2025.1.1.dll", 20250101, 12),
            (b"CUPTI64_2025.2.1.DLL", 20250201, 12),
            (b"cupti64_2025.3.0.dll", 20250300, 13),
            (b"cupti64_2026.3.1.dll", 20260301, 13),
        ];
        for (name, release, major) in names {
            assert_eq!(cupti().release_of(name), Some(release));
            assert_eq!(cupti().major_of_name(name), major);
        }
    }

    /// Names of another form say nothing: 13.5's fixed `cupti64_13.dll` (a listed DLL name),
    /// two parts, four parts, an empty or non-digit part, another library, no `.dll`.
    #[test]
    fn other_names_say_nothing() {
        for name in [
            &b"cupti64_13.dll"[..],
            b"cupti64_2025.2.dll",
            b"cupti64_2025.2.1.0.dll",
            b"cupti64_2025..1.dll",
            b"cupti64_2025.x.1.dll",
            b"cupti64_2025.2.100.dll",
            b"cupti64_.dll",
            b"nvperf_host.dll",
            b"cupti64_2025.2.1",
            b"cupti64_99999.2.1.dll",
        ] {
            assert_eq!(cupti().release_of(name), None, "{:?}", name);
            assert_eq!(cupti().major_of_name(name), 0);
        }
        // CUDA 10.x's `cupti64_2019.1.0.dll` is older than every listed release.
        assert_eq!(cupti().major_of_name(b"cupti64_2019.1.0.dll"), 0);
    }
}

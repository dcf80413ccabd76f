//! Why a candidate was not bound ([`Reject`]), and what the search tried ([`Attempt`]); the
//! process's CUDA release ([`ProcessRelease`]) that a candidate of another is rejected for, and
//! why a release is beyond the driver ([`BeyondDriverText`]).

use super::candidates::Candidate;
use crate::debug::Lossy;
use crate::os::{LOAD_CALL, OWN_ELF, errno_text};
use alloc::string::String;
use alloc::vec::Vec;
use core::ffi::CStr;
use core::fmt;

/// Oldest CUDA version the stubs serve (`1000 * major + 10 * minor`): a library reporting an
/// older one is rejected ([`Reject::TooOld`]).
pub(crate) const MIN_VERSION: i32 = 11000;

/// The CUDA release the process has: an anchor's real library it has loaded (`release.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessRelease {
    /// The loaded anchor's soname (`libcudart.so.12`).
    pub soname: &'static CStr,
    /// Its CUDA major.
    pub major: u32,
}

/// Why a candidate was skipped: the reasons the book's "Where the real library is searched"
/// (`docs/src/search-order.md`) lists. Its text (`Display`) is what the debug log and the "not found" summary say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reject {
    /// No such file; for a soname, the dynamic loader found none.
    NotFound,
    /// `stat` failed otherwise (the `errno`).
    CannotStat(i32),
    /// A directory.
    IsDirectory,
    /// `open` failed (the `errno`).
    CannotOpen(i32),
    /// `read` failed (the `errno`).
    CannotRead(i32),
    /// An empty file.
    Empty,
    /// Not an ELF file (or shorter than an ELF header).
    NotElf,
    /// ELF of another class (`EI_CLASS`).
    WrongClass(u8),
    /// ELF of another machine (`e_machine`).
    WrongMachine(u16),
    /// `dlopen` failed: its `dlerror` text (Windows: `LoadLibraryExW`'s error and its text).
    Dlopen(String),
    /// A cuda-stubs library (it exports [`crate::STUB_MARKER`]): binding it would call itself.
    IsStub,
    /// One of cuda-stubs' compatibility libraries (`lib/cuda-stubs-compat/libcudart.so.12` …:
    /// NVIDIA's soname, forwarding to the stub; it exports [`crate::COMPAT_MARKER`]), of this
    /// CUDA major: never the real library, whatever its soname says.
    IsCompat(i32),
    /// It reports a version older than the oldest the stubs serve.
    TooOld(i32),
    /// The library it loads itself at its first call and cannot run without
    /// (`RealLibrary::lazy_dependency`: cuDNN's `libcudnn_graph.so.9`) loads neither from the
    /// process, nor beside it, nor through the system's search: calling it would abort the
    /// process.
    LacksDependency {
        /// The dependency's soname.
        name: &'static CStr,
        /// The load error's text (the last place tried).
        error: String,
    },
    /// The process has another file loaded under its lazy dependency's soname than the one
    /// beside it (one a candidate rejected earlier left loaded): its `dlopen` would get that
    /// copy, of another release or version.
    ForeignDependency {
        /// The dependency's soname.
        name: &'static CStr,
        /// The loaded copy's path.
        loaded: String,
    },
    /// An environment override that is not an absolute path: ignored.
    NotAbsolute,
    /// Under the mock device (`CUDA_STUBS_MOCK`), a library that would load a real runtime or
    /// driver beside the mock's (`stub_spec::MockUse::NoLibrary`): nothing is bound.
    Mocked,
    /// The mock device's profile cannot be used: the mock's own words (`cuda_stubs_mock_status`).
    MockProfile(String),
    /// Of another CUDA release than the process has (one CUDA release per process): CUDA
    /// `major`, known from the runtime it `needs` (its `DT_NEEDED`, before `dlopen`) or, when
    /// `None`, from its version.
    OtherRelease {
        /// The candidate's CUDA major.
        major: u32,
        /// The anchor soname its `DT_NEEDED` names, if that is how its major is known.
        needs: Option<&'static CStr>,
        /// What the process has.
        process: ProcessRelease,
    },
    /// Of a CUDA major the process's driver cannot run (`stub_spec::driver_runs`: a driver of
    /// CUDA 12.4 runs 12.x and 11.x, not 13.x), so its calls would only answer "insufficient
    /// driver"; known from its name, from the CUDA library its `DT_NEEDED` names (`needs`,
    /// before `dlopen`), or from its version once loaded. The driver caps the process's release
    /// (`driver_cap.rs`).
    BeyondDriver {
        /// The candidate's CUDA major.
        major: u32,
        /// The CUDA library its `DT_NEEDED` names, if that is how its major is known.
        needs: Option<&'static CStr>,
        /// The CUDA version the driver runs (`cuDriverGetVersion`: 12040).
        driver: i32,
    },
}

/// `CUDA 13 needs a driver ≥ 580 (CUDA 13.0); this driver runs CUDA 12.4`: why a release is
/// beyond the driver, for [`Reject::BeyondDriver`] and the status's warnings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BeyondDriverText {
    /// The release's CUDA major.
    pub(crate) major: u32,
    /// The CUDA version the driver runs.
    pub(crate) driver: i32,
}

impl fmt::Display for BeyondDriverText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CUDA {}", self.major)?;
        self.needs(f)
    }
}

impl BeyondDriverText {
    /// The text after the release's name: ` needs a driver ≥ 580 (CUDA 13.0); this driver runs
    /// CUDA 12.4` (a major the table does not list yet: ` needs a driver of CUDA 14.0 or newer`).
    fn needs(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let need = stub_spec::driver_minimum(self.major);
        let (major, minor) = (need.cuda_version / 1000, need.cuda_version % 1000 / 10);
        match need.branch {
            0 => write!(f, " needs a driver of CUDA {major}.{minor} or newer")?,
            branch => write!(
                f,
                " needs a driver \u{2265} {branch} (CUDA {major}.{minor})"
            )?,
        }
        write!(
            f,
            "; this driver runs CUDA {}.{}",
            self.driver / 1000,
            self.driver % 1000 / 10
        )
    }
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reject::NotFound => f.write_str("not found"),
            Reject::Mocked => f.write_str(
                "the mock device stands for the runtime, the driver and NVML: this library would \
                 load a real one beside it, so none is bound",
            ),
            Reject::MockProfile(why) => f.write_str(why),
            Reject::CannotStat(e) => write!(f, "cannot stat ({})", errno_text(*e)),
            Reject::IsDirectory => f.write_str("is a directory"),
            Reject::CannotOpen(e) => write!(f, "cannot open ({})", errno_text(*e)),
            Reject::CannotRead(e) => write!(f, "cannot read ({})", errno_text(*e)),
            Reject::Empty => f.write_str("empty file"),
            Reject::NotElf => f.write_str("not an ELF file"),
            // Only a system whose files are ELF checks them: it has a class and a machine.
            Reject::WrongClass(c) => match OWN_ELF {
                Some((class, _)) => write!(f, "wrong ELF class {c} (this process is {class})"),
                None => write!(f, "wrong ELF class {c}"),
            },
            Reject::WrongMachine(m) => match OWN_ELF {
                Some((_, machine)) => write!(
                    f,
                    "wrong machine (e_machine {m}, this process is {machine})"
                ),
                None => write!(f, "wrong machine (e_machine {m})"),
            },
            Reject::Dlopen(text) => write!(f, "{LOAD_CALL}: {text}"),
            Reject::IsStub => {
                f.write_str("is a cuda-stubs library, not NVIDIA's (would call itself)")
            }
            Reject::IsCompat(major) => write!(
                f,
                "is cuda-stubs' compatibility library of CUDA {major} (it forwards to the stub), \
                 not NVIDIA's"
            ),
            Reject::TooOld(v) => write!(f, "version {v} too old (need {MIN_VERSION} or newer)"),
            Reject::LacksDependency { name, error } => write!(
                f,
                "cannot load {}, which it loads at its first call and aborts without \
                 ({LOAD_CALL}: {error})",
                Lossy(name.to_bytes())
            ),
            Reject::ForeignDependency { name, loaded } => write!(
                f,
                "the process has another {} loaded ({loaded}), which it would use instead of \
                 its own",
                Lossy(name.to_bytes())
            ),
            Reject::NotAbsolute => f.write_str("not an absolute path (ignored)"),
            Reject::OtherRelease {
                major,
                needs,
                process,
            } => {
                write!(f, "CUDA {major}")?;
                if let Some(needs) = needs {
                    write!(f, " (needs {})", Lossy(needs.to_bytes()))?;
                }
                write!(
                    f,
                    ", but the process has CUDA {} ({}): one CUDA release per process",
                    process.major,
                    Lossy(process.soname.to_bytes())
                )
            }
            Reject::BeyondDriver {
                major,
                needs,
                driver,
            } => {
                write!(f, "CUDA {major}")?;
                if let Some(needs) = needs {
                    write!(f, " (needs {})", Lossy(needs.to_bytes()))?;
                }
                BeyondDriverText {
                    major: *major,
                    driver: *driver,
                }
                .needs(f)
            }
        }
    }
}

/// What the search tried and did not bind.
#[derive(Debug, Clone)]
pub enum Tried {
    /// A candidate, which was dlopen'ed or checked.
    Candidate(Candidate),
    /// An environment variable's value, ignored before anything was tried.
    Variable {
        /// The variable (`CUDA_STUBS_NVRTC_PATH`).
        name: &'static CStr,
        /// Its value.
        value: Vec<u8>,
    },
}

impl fmt::Display for Tried {
    /// `target [origin]` for a candidate, `NAME=value` for a variable.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tried::Candidate(c) => {
                write!(f, "{} [{}]", Lossy(c.target.to_bytes()), c.origin.as_str())
            }
            Tried::Variable { name, value } => {
                write!(f, "{}={}", Lossy(name.to_bytes()), Lossy(value))
            }
        }
    }
}

/// One thing the search tried, and why it was skipped.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// What was tried.
    pub tried: Tried,
    /// Why it was skipped.
    pub reject: Reject,
}

impl fmt::Display for Attempt {
    /// `what: why`, as the "not found" summary lists it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.tried, self.reject)
    }
}

//! The one-line summary of a search, for the status API and the "library not found" error
//! strings: what was bound, or every place of the system's `SEARCH` and why each candidate
//! found there was skipped.

use super::driver::Driver;
use super::driver_cap::DriverFit;
use super::order::Origin;
use super::reject::{Attempt, BeyondDriverText, Reject};
use crate::os::{PYTHON_ENVS, SEARCH, file_names, release_named, wheel_dirs};
use crate::spec::LibrarySpec;
use alloc::ffi::CString;
use alloc::format;
use alloc::string::String;
use core::ffi::CStr;
use core::fmt::Write;
use stub_spec::DriverUse;

/// `cuda-stubs: libnvrtc bound to PATH, version 13050, found by dynamic loader search`, and
/// for a release beyond the driver its warning ([`beyond`]).
pub(crate) fn bound(
    spec: &LibrarySpec,
    path: &CStr,
    version: i32,
    origin: Origin,
    driver: Option<Driver>,
    fit: DriverFit,
) -> CString {
    let mut text = format!(
        "cuda-stubs: lib{} bound to {}, version {version}, found by {}",
        spec.real.name,
        path.to_string_lossy(),
        origin.as_str()
    );
    if let Some(warning) = driver.and_then(|d| beyond(spec, d, fit, version)) {
        let _ = write!(text, "; {warning}");
    }
    to_cstring(text)
}

/// `cuda-stubs: libcudart bound to PATH, version 13050, found by CUDA_STUBS_MOCK (…): mock
/// (profile h200 ×1, driver 580.126.09, CUDA 13.0)`: the mock device, with its own status.
pub(crate) fn mock(spec: &LibrarySpec, path: &CStr, version: i32, status: Option<&str>) -> CString {
    to_cstring(format!(
        "cuda-stubs: lib{} bound to {}, version {version}, found by {}: {}",
        spec.real.name,
        path.to_string_lossy(),
        Origin::Mock.as_str(),
        status.unwrap_or("mock")
    ))
}

/// The warning for a copy bound beyond the driver: `warning: CUDA 13 needs a driver ≥ 580
/// (CUDA 13.0); this driver runs CUDA 12.4: bound because …`; `None` for any other fit.
pub(crate) fn beyond(
    spec: &LibrarySpec,
    driver: Driver,
    fit: DriverFit,
    version: i32,
) -> Option<String> {
    let why = match fit {
        DriverFit::OverrideBeyond => format!(
            "bound because the environment override ({}) names it",
            spec.real.env_path.to_string_lossy()
        ),
        DriverFit::LoadedBeyond => {
            "bound because the process already has it (a second copy is never loaded)".into()
        }
        DriverFit::CompilerBeyond => format!(
            "bound because nothing the driver runs is present and lib{} needs no driver (its \
             PTX needs a newer driver, which the driver stub reconciles by compiling PTX to \
             CUBIN)",
            spec.real.name
        ),
        _ => return None,
    };
    let text = BeyondDriverText {
        major: u32::try_from(version / 1000).unwrap_or(0),
        driver: driver.cuda_version,
    };
    Some(format!("warning: {text}: {why}"))
}

/// The driver's line of the status (`cuda_stubs_<name>_driver_status`): the driver and how the
/// bound release stands with it.
pub(crate) fn driver(
    spec: &LibrarySpec,
    driver: Option<Driver>,
    fit: DriverFit,
    version: i32,
    origin: Option<Origin>,
) -> CString {
    let lib = spec.real.name;
    let shown = |d: Driver| {
        format!(
            "the driver ({}, CUDA {}.{})",
            d.path.to_string_lossy(),
            d.cuda_version / 1000,
            d.cuda_version % 1000 / 10
        )
    };
    let text = match (fit, driver) {
        _ if origin == Some(Origin::Mock) => {
            format!(
                "cuda-stubs: lib{lib} is the mock device's (CUDA_STUBS_MOCK): its driver is the mock's"
            )
        }
        (DriverFit::OfTheDriver, _) => {
            format!("cuda-stubs: lib{lib} is of the driver: no CUDA release of its own to cap")
        }
        (DriverFit::NotBound, Some(d)) => format!(
            "cuda-stubs: lib{lib}: nothing bound that {} runs (the status message says why)",
            shown(d)
        ),
        (DriverFit::NotBound, None) => {
            format!("cuda-stubs: lib{lib}: nothing bound, no driver known")
        }
        (_, None) => match spec.real.driver {
            DriverUse::CompileOnly => format!(
                "cuda-stubs: lib{lib}: no driver loaded (lib{lib} loads none itself): the \
                 release is not capped"
            ),
            _ if origin == Some(Origin::AlreadyLoaded) => format!(
                "cuda-stubs: lib{lib}: the process had it loaded, and no driver: the release \
                 is not capped"
            ),
            _ => format!("cuda-stubs: lib{lib}: no driver found: the release is not capped"),
        },
        (DriverFit::Runs, Some(d)) => format!(
            "cuda-stubs: lib{lib}: CUDA {} is the newest release found that {} runs",
            version / 1000,
            shown(d)
        ),
        (DriverFit::ReleaseUnknown, Some(d)) => format!(
            "cuda-stubs: lib{lib}: the bound copy does not say its CUDA release: not checked \
             against {}",
            shown(d)
        ),
        (_, Some(d)) => format!(
            "cuda-stubs: lib{lib}: {}",
            beyond(spec, d, fit, version).unwrap_or_default()
        ),
    };
    to_cstring(text)
}

/// `cuda-stubs: libcudart is being searched for on this thread: a call from inside the search
/// (the initialisation of a library it loads) is not made`.
pub(crate) fn in_search(spec: &LibrarySpec) -> CString {
    to_cstring(format!(
        "cuda-stubs: lib{} is being searched for on this thread: a call from inside the search \
         (the initialisation of a library it loads) is not made",
        spec.real.name
    ))
}

/// `cuda-stubs: libnvrtc not found (searched SONAMES: PLACE; PLACE …); rejected: WHAT: WHY; …`:
/// the places in `SEARCH` order, each named as the debug log and the status name it, then
/// every candidate skipped for a reason other than "not found".
pub(crate) fn not_found(spec: &LibrarySpec, attempts: &[Attempt]) -> CString {
    let real = spec.real;
    if let Some(a) = attempts.iter().find(|a| a.reject == Reject::Mocked) {
        // Nothing was searched: the variable decided.
        return to_cstring(format!(
            "cuda-stubs: lib{} not loaded ({}): {}",
            real.name, a.tried, a.reject
        ));
    }
    let mut text = format!("cuda-stubs: lib{} not found (searched ", real.name);
    for (i, s) in file_names(real).iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        let _ = write!(text, "{sep}{}", s.name.to_string_lossy());
    }
    if let Some(named) = release_named(real) {
        let sep = if file_names(real).is_empty() {
            ""
        } else {
            ", "
        };
        let _ = write!(text, "{sep}{}<release>.dll", named.prefix);
    }
    let mut sep = ": ";
    for origin in SEARCH {
        let wheels = || join(wheel_dirs(real).iter().map(|d| d.to_string_lossy()));
        let detail = match origin {
            // No wheel ships this library (the driver): nothing was looked at there.
            Origin::BesideStub | Origin::PythonEnv if wheel_dirs(real).is_empty() => continue,
            Origin::EnvOverride => Some(real.env_path.to_string_lossy().into()),
            Origin::BesideStub => Some(wheels()),
            Origin::PythonEnv => Some(PYTHON_ENVS.into()),
            Origin::AlreadyLoaded
            | Origin::CondaLib
            | Origin::LoaderSearch
            | Origin::CudaHome
            | Origin::SystemCuda
            | Origin::Mock => None,
        };
        let _ = write!(text, "{sep}{}", origin.as_str());
        if let Some(detail) = detail {
            let _ = write!(text, " ({detail})");
        }
        sep = "; ";
    }
    text.push(')');
    let mut sep = "; rejected: ";
    for a in attempts.iter().filter(|a| a.reject != Reject::NotFound) {
        let _ = write!(text, "{sep}{a}");
        sep = "; ";
    }
    to_cstring(text)
}

fn join<'a>(items: impl Iterator<Item = alloc::borrow::Cow<'a, str>>) -> String {
    let mut out = String::new();
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&item);
    }
    out
}

fn to_cstring(s: String) -> CString {
    CString::new(s.replace('\0', " ")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::candidates::Candidate;
    use crate::search::reject::Tried;
    use alloc::borrow::Cow;
    use alloc::vec;

    fn spec(lib: &'static stub_spec::Library) -> LibrarySpec {
        LibrarySpec {
            real: lib.real,
            replacements: &[],
            proc_address: None,
            last_error: None,
        }
    }

    /// Every place of SEARCH, in order, with what it looked at.
    #[test]
    fn not_found_lists_every_place_in_order() {
        let text = not_found(&spec(&stub_spec::libraries::NVRTC), &[]);
        assert_eq!(
            text.to_str().unwrap(),
            "cuda-stubs: libnvrtc not found (searched libnvrtc.so.13, libnvrtc.so.12, \
             libnvrtc.so.11.2: already loaded (RTLD_NOLOAD); environment override \
             (CUDA_STUBS_NVRTC_PATH); wheel layout beside the stub (nvidia/cu13/lib, \
             nvidia/cuda_nvrtc/lib); wheel layout in the Python environment ($VIRTUAL_ENV, \
             $CONDA_PREFIX site-packages); $CONDA_PREFIX/lib; dynamic loader search; \
             $CUDA_HOME/$CUDA_PATH lib64; /usr/local/cuda/lib64)"
        );
    }

    /// The driver has no wheel: no wheel places. Rejections other than "not found" follow.
    #[test]
    fn not_found_lists_the_rejections() {
        let tried = |target: &'static CStr, reject| Attempt {
            tried: Tried::Candidate(Candidate {
                origin: Origin::LoaderSearch,
                target: Cow::Borrowed(target),
                name_major: 0,
            }),
            reject,
        };
        let attempts = vec![
            tried(c"libcuda.so.1", Reject::NotFound),
            tried(c"/x/libcuda.so.1", Reject::IsStub),
            Attempt {
                tried: Tried::Variable {
                    name: c"CUDA_STUBS_CUDA_PATH",
                    value: b"rel".to_vec(),
                },
                reject: Reject::NotAbsolute,
            },
        ];
        let text = not_found(&spec(&stub_spec::libraries::CUDA), &attempts);
        assert_eq!(
            text.to_str().unwrap(),
            "cuda-stubs: libcuda not found (searched libcuda.so.1: already loaded \
             (RTLD_NOLOAD); environment override (CUDA_STUBS_CUDA_PATH); $CONDA_PREFIX/lib; \
             dynamic loader search; $CUDA_HOME/$CUDA_PATH lib64; /usr/local/cuda/lib64); \
             rejected: /x/libcuda.so.1 [dynamic loader search]: is a cuda-stubs library, not \
             NVIDIA's (would call itself); CUDA_STUBS_CUDA_PATH=rel: not an absolute path \
             (ignored)"
        );
    }

    const DRIVER_12_4: Driver = Driver {
        cuda_version: 12040,
        path: c"/usr/lib/libcuda.so.1",
    };

    /// A runtime refused for the driver: its reason in the summary, the brief's words.
    #[test]
    fn not_found_says_the_driver_refused_it() {
        let attempts = vec![
            Attempt {
                tried: Tried::Candidate(Candidate {
                    origin: Origin::LoaderSearch,
                    target: Cow::Borrowed(c"libcudart.so.13"),
                    name_major: 13,
                }),
                reject: Reject::BeyondDriver {
                    major: 13,
                    needs: None,
                    driver: 12040,
                },
            },
            Attempt {
                tried: Tried::Candidate(Candidate {
                    origin: Origin::BesideStub,
                    target: Cow::Borrowed(c"/w/nvidia/cu13/lib/libcurand.so.10"),
                    name_major: 0,
                }),
                reject: Reject::BeyondDriver {
                    major: 13,
                    needs: Some(c"libcudart.so.13"),
                    driver: 12040,
                },
            },
        ];
        let text = not_found(&spec(&stub_spec::libraries::CUDART), &attempts);
        let rejected = text.to_str().unwrap().split("; rejected: ").nth(1).unwrap();
        assert_eq!(
            rejected,
            "libcudart.so.13 [dynamic loader search]: CUDA 13 needs a driver \u{2265} 580 (CUDA \
             13.0); this driver runs CUDA 12.4; /w/nvidia/cu13/lib/libcurand.so.10 [wheel layout \
             beside the stub]: CUDA 13 (needs libcudart.so.13) needs a driver \u{2265} 580 (CUDA \
             13.0); this driver runs CUDA 12.4"
        );
    }

    /// An override beyond the driver binds, and its summary and driver line warn.
    #[test]
    fn an_override_beyond_the_driver_warns() {
        let spec = spec(&stub_spec::libraries::CUDART);
        let text = bound(
            &spec,
            c"/o/libcudart.so.13",
            13050,
            Origin::EnvOverride,
            Some(DRIVER_12_4),
            DriverFit::OverrideBeyond,
        );
        assert_eq!(
            text.to_str().unwrap(),
            "cuda-stubs: libcudart bound to /o/libcudart.so.13, version 13050, found by \
             environment override; warning: CUDA 13 needs a driver \u{2265} 580 (CUDA 13.0); \
             this driver runs CUDA 12.4: bound because the environment override \
             (CUDA_STUBS_CUDART_PATH) names it"
        );
        let line = driver(
            &spec,
            Some(DRIVER_12_4),
            DriverFit::OverrideBeyond,
            13050,
            Some(Origin::EnvOverride),
        );
        assert!(
            line.to_str()
                .unwrap()
                .starts_with("cuda-stubs: libcudart: warning: CUDA 13 needs a driver"),
            "{line:?}"
        );
        // Within the driver: no warning, the summary is today's.
        let text = bound(
            &spec,
            c"/o/libcudart.so.12",
            12090,
            Origin::EnvOverride,
            Some(DRIVER_12_4),
            DriverFit::Runs,
        );
        assert!(!text.to_str().unwrap().contains("warning"), "{text:?}");
    }

    /// The driver's line says the release is the newest the driver runs, or why it cannot.
    #[test]
    fn the_driver_line_says_how_the_release_stands() {
        let cudart = spec(&stub_spec::libraries::CUDART);
        let nvrtc = spec(&stub_spec::libraries::NVRTC);
        let searched = Some(Origin::LoaderSearch);
        let text = |t: CString| t.into_string().unwrap();
        assert_eq!(
            text(driver(
                &cudart,
                Some(DRIVER_12_4),
                DriverFit::Runs,
                12090,
                searched
            )),
            "cuda-stubs: libcudart: CUDA 12 is the newest release found that the driver \
             (/usr/lib/libcuda.so.1, CUDA 12.4) runs"
        );
        assert_eq!(
            text(driver(&nvrtc, None, DriverFit::Unknown, 13050, searched)),
            "cuda-stubs: libnvrtc: no driver loaded (libnvrtc loads none itself): the release \
             is not capped"
        );
        assert_eq!(
            text(driver(&cudart, None, DriverFit::Unknown, 13050, searched)),
            "cuda-stubs: libcudart: no driver found: the release is not capped"
        );
        assert!(
            text(driver(
                &nvrtc,
                Some(DRIVER_12_4),
                DriverFit::CompilerBeyond,
                13050,
                searched
            ))
            .ends_with("bound because nothing the driver runs is present and libnvrtc needs no driver (its PTX needs a newer driver, which the driver stub reconciles by compiling PTX to CUBIN)")
        );
    }
}

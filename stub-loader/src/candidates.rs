use crate::secure::trusted_var;
use crate::spec::LibrarySpec;
use std::ffi::{CStr, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Where a candidate came from, in search order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Already loaded in the process (`dlopen(soname, RTLD_NOLOAD)`).
    AlreadyLoaded,
    /// The `CUDA_STUBS_*_PATH` override.
    EnvOverride,
    /// The soname through the dynamic loader's search (LD_LIBRARY_PATH, ldconfig).
    LoaderSearch,
    /// An NVIDIA wheel layout beside the stub's own file.
    BesideStub,
    /// An NVIDIA wheel layout in `$VIRTUAL_ENV` or `$CONDA_PREFIX` site-packages.
    PythonEnv,
    /// `$CONDA_PREFIX/lib`.
    CondaLib,
    /// `$CUDA_HOME/lib64` or `$CUDA_PATH/lib64`.
    CudaHome,
    /// `/usr/local/cuda/lib64`.
    SystemCuda,
}

impl Origin {
    /// Short text for the debug log and the status API.
    pub fn as_str(self) -> &'static str {
        self.as_cstr().to_str().unwrap_or("")
    }

    /// [`Origin::as_str`] as a C string, for the status API.
    pub fn as_cstr(self) -> &'static CStr {
        match self {
            Origin::AlreadyLoaded => c"already loaded (RTLD_NOLOAD)",
            Origin::EnvOverride => c"environment override",
            Origin::LoaderSearch => c"dynamic loader search",
            Origin::BesideStub => c"wheel layout beside the stub",
            Origin::PythonEnv => c"wheel layout in the Python environment",
            Origin::CondaLib => c"$CONDA_PREFIX/lib",
            Origin::CudaHome => c"$CUDA_HOME/$CUDA_PATH lib64",
            Origin::SystemCuda => c"/usr/local/cuda/lib64",
        }
    }
}

/// One thing to try: a soname handed to `dlopen` as is, or a file path.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// How it was found.
    pub origin: Origin,
    /// A bare soname (`libcudart.so.12`) or an absolute path.
    pub target: PathBuf,
    /// The CUDA major its file name says, 0 when the name says none.
    pub name_major: u32,
}

impl Candidate {
    /// True when `target` is a bare soname, searched by the dynamic loader.
    pub fn is_soname(&self) -> bool {
        self.target
            .parent()
            .is_none_or(|p| p.as_os_str().is_empty())
    }
}

/// The CUDA major a file name says, from the spec's sonames (`libcudart.so.12.9.79` → 12).
pub(crate) fn major_of_name(spec: &LibrarySpec, file_name: &OsStr) -> u32 {
    let name = file_name.as_bytes();
    spec.sonames
        .iter()
        .find(|s| {
            let soname = s.name.to_bytes();
            name.starts_with(soname) && matches!(name.get(soname.len()), None | Some(b'.'))
        })
        .map_or(0, |s| s.major)
}

fn soname_path(name: &CStr) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(name.to_bytes()))
}

/// The candidates of steps 2 to 4 (step 1, NOLOAD, works on sonames and is done separately).
/// `stub_dir` is the directory of the stub's own file. Returns rejections of environment values
/// too (a relative override), as `(value, reason)`.
pub(crate) fn search_list(
    spec: &LibrarySpec,
    stub_dir: Option<&Path>,
) -> (Vec<Candidate>, Vec<(String, String)>) {
    let mut out = Vec::new();
    let mut rejected = Vec::new();
    let in_dir = |out: &mut Vec<Candidate>, dir: &Path, origin: Origin| {
        for s in spec.sonames {
            out.push(Candidate {
                origin,
                target: dir.join(soname_path(s.name)),
                name_major: s.major,
            });
        }
    };

    if let Some(value) = trusted_var(spec.env_path) {
        let path = PathBuf::from(&value);
        if !path.is_absolute() {
            rejected.push((
                format!("{}={}", spec.env_path, path.display()),
                "not an absolute path (ignored)".into(),
            ));
        } else if path.is_dir() {
            in_dir(&mut out, &path, Origin::EnvOverride);
        } else {
            let name_major = path.file_name().map_or(0, |n| major_of_name(spec, n));
            out.push(Candidate {
                origin: Origin::EnvOverride,
                target: path,
                name_major,
            });
        }
    }

    for s in spec.sonames {
        out.push(Candidate {
            origin: Origin::LoaderSearch,
            target: soname_path(s.name),
            name_major: s.major,
        });
    }

    // A wheel that bundles the stub sits in site-packages/<pkg>[/lib]; NVIDIA's wheels are
    // siblings under site-packages/nvidia, so look a few levels up.
    if let Some(dir) = stub_dir {
        for ancestor in dir.ancestors().take(4) {
            for wheel in spec.wheel_dirs {
                in_dir(&mut out, &ancestor.join(wheel), Origin::BesideStub);
            }
        }
    }
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Some(prefix) = trusted_var(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
        {
            for site in site_packages(&prefix) {
                for wheel in spec.wheel_dirs {
                    in_dir(&mut out, &site.join(wheel), Origin::PythonEnv);
                }
            }
        }
    }
    if let Some(prefix) = trusted_var("CONDA_PREFIX")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
    {
        in_dir(&mut out, &prefix.join("lib"), Origin::CondaLib);
    }
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(home) = trusted_var(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
        {
            in_dir(&mut out, &home.join("lib64"), Origin::CudaHome);
        }
    }
    in_dir(
        &mut out,
        Path::new("/usr/local/cuda/lib64"),
        Origin::SystemCuda,
    );
    (out, rejected)
}

/// `<prefix>/lib/python3.*/site-packages`, sorted so that the search is deterministic.
fn site_packages(prefix: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(prefix.join("lib"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().as_bytes().starts_with(b"python3"))
        .map(|e| e.path().join("site-packages"))
        .filter(|p| p.is_dir())
        .collect();
    found.sort();
    found
}

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

/// Step 1: libraries the process already has whose file name is one of the spec's sonames (or
/// a versioned file of one, `libcudart.so.12.9.79`), from `dl_iterate_phdr`: no system call,
/// unlike `dlopen(soname, RTLD_NOLOAD)`, which makes glibc search the file system first.
pub(crate) fn already_loaded(spec: &LibrarySpec) -> Vec<Candidate> {
    let mut paths: Vec<Vec<u8>> = Vec::new();
    unsafe extern "C" fn each(
        info: *mut libc::dl_phdr_info,
        _size: usize,
        data: *mut libc::c_void,
    ) -> libc::c_int {
        // SAFETY: dl_iterate_phdr passes a valid info and our Vec as data.
        let (info, paths) = unsafe { (&*info, &mut *data.cast::<Vec<Vec<u8>>>()) };
        if !info.dlpi_name.is_null() {
            // SAFETY: NUL-terminated name owned by the dynamic loader.
            let name = unsafe { CStr::from_ptr(info.dlpi_name) }.to_bytes();
            if !name.is_empty() {
                paths.push(name.to_vec());
            }
        }
        0
    }
    // SAFETY: the callback only reads the loader's tables and pushes into `paths`.
    unsafe { libc::dl_iterate_phdr(Some(each), (&raw mut paths).cast()) };
    // Byte-level file names: std's Path component parsing is most of this step's cost.
    let mut out: Vec<Candidate> = paths
        .into_iter()
        .filter_map(|p| {
            let file = p.rsplit(|b| *b == b'/').next()?;
            let name_major = major_of_name(spec, OsStr::from_bytes(file));
            let exact = spec.sonames.iter().any(|s| s.name.to_bytes() == file);
            (name_major != 0 || exact).then(|| Candidate {
                origin: Origin::AlreadyLoaded,
                target: PathBuf::from(OsStr::from_bytes(&p)),
                name_major,
            })
        })
        .collect();
    // Newest major first, like every other step.
    out.sort_by_key(|c| std::cmp::Reverse(c.name_major));
    out
}

/// Steps 2 and 3: the environment override and the sonames through the loader's search.
/// Returns rejections of environment values too (a relative override), as `(value, reason)`.
pub(crate) fn override_and_sonames(spec: &LibrarySpec) -> (Vec<Candidate>, Vec<(String, String)>) {
    let mut out = Vec::new();
    let mut rejected = Vec::new();
    if let Some(value) = trusted_var(spec.env_path) {
        let path = PathBuf::from(&value);
        if !path.is_absolute() {
            rejected.push((
                format!("{}={}", spec.env_path, path.display()),
                "not an absolute path (ignored)".into(),
            ));
        } else if path.is_dir() {
            in_dir(spec, &mut out, &path, Origin::EnvOverride);
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
    (out, rejected)
}

fn in_dir(spec: &LibrarySpec, out: &mut Vec<Candidate>, dir: &Path, origin: Origin) {
    for s in spec.sonames {
        out.push(Candidate {
            origin,
            target: dir.join(soname_path(s.name)),
            name_major: s.major,
        });
    }
}

/// Step 4, built only when steps 1 to 3 found nothing: the places users have the libraries.
/// `stub_dir` is the directory of the stub's own file.
pub(crate) fn usual_places(spec: &LibrarySpec, stub_dir: Option<&Path>) -> Vec<Candidate> {
    let mut out = Vec::new();
    // A wheel that bundles the stub sits in site-packages/<pkg>[/lib]; NVIDIA's wheels are
    // siblings under site-packages/nvidia, so look a few levels up.
    if let Some(dir) = stub_dir {
        for ancestor in dir.ancestors().take(4) {
            for wheel in spec.wheel_dirs {
                in_dir(spec, &mut out, &ancestor.join(wheel), Origin::BesideStub);
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
                    in_dir(spec, &mut out, &site.join(wheel), Origin::PythonEnv);
                }
            }
        }
    }
    if let Some(prefix) = trusted_var("CONDA_PREFIX")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
    {
        in_dir(spec, &mut out, &prefix.join("lib"), Origin::CondaLib);
    }
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(home) = trusted_var(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
        {
            in_dir(spec, &mut out, &home.join("lib64"), Origin::CudaHome);
        }
    }
    in_dir(
        spec,
        &mut out,
        Path::new("/usr/local/cuda/lib64"),
        Origin::SystemCuda,
    );
    out
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

use crate::secure::trusted_var;
use crate::spec::LibrarySpec;
use alloc::borrow::Cow;
use alloc::borrow::ToOwned;
use alloc::ffi::CString;
use alloc::string::String;
use alloc::vec::Vec;
use core::ffi::CStr;

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
    pub target: CString,
    /// The CUDA major its file name says, 0 when the name says none.
    pub name_major: u32,
}

impl Candidate {
    /// True when `target` is a bare soname, searched by the dynamic loader.
    pub fn is_soname(&self) -> bool {
        !self.target.to_bytes().contains(&b'/')
    }

    /// The target as text, for messages.
    pub fn display(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.target.to_bytes())
    }
}

/// The last component of a path.
pub(crate) fn file_name(path: &[u8]) -> &[u8] {
    path.rsplit(|b| *b == b'/').next().unwrap_or(path)
}

/// The directory part of a path (`/a/b` → `/a`, `/a` → `/`), `None` for a bare name or `/`.
pub(crate) fn parent(path: &[u8]) -> Option<&[u8]> {
    let path = trim_slashes(path);
    if path == b"/" {
        return None;
    }
    let i = path.iter().rposition(|b| *b == b'/')?;
    Some(if i == 0 {
        b"/"
    } else {
        trim_slashes(path.get(..i)?)
    })
}

fn trim_slashes(mut path: &[u8]) -> &[u8] {
    while path.len() > 1 && path.ends_with(b"/") {
        path = path.get(..path.len() - 1).unwrap_or_default();
    }
    path
}

/// `dir/name`, as a C string (an interior NUL, impossible from C strings, gives an empty one).
pub(crate) fn join(dir: &[u8], name: &[u8]) -> CString {
    let mut v = Vec::with_capacity(dir.len() + name.len() + 1);
    v.extend_from_slice(dir);
    if !dir.ends_with(b"/") {
        v.push(b'/');
    }
    v.extend_from_slice(name);
    CString::new(v).unwrap_or_default()
}

/// `stat(2)` says directory (following symbolic links).
pub(crate) fn is_dir(path: &CStr) -> bool {
    file_type(path) == Some(libc::S_IFDIR)
}

/// `stat(2)` says regular file (following symbolic links).
pub(crate) fn is_file(path: &CStr) -> bool {
    file_type(path) == Some(libc::S_IFREG)
}

fn file_type(path: &CStr) -> Option<libc::mode_t> {
    // SAFETY: stat is plain data; path is NUL-terminated.
    let mut st: libc::stat = unsafe { core::mem::zeroed() };
    // SAFETY: as above.
    (unsafe { libc::stat(path.as_ptr(), &mut st) } == 0).then_some(st.st_mode & libc::S_IFMT)
}

/// The CUDA major a file name says, from the spec's sonames (`libcudart.so.12.9.79` → 12).
pub(crate) fn major_of_name(spec: &LibrarySpec, name: &[u8]) -> u32 {
    spec.sonames
        .iter()
        .find(|s| {
            let soname = s.name.to_bytes();
            name.starts_with(soname) && matches!(name.get(soname.len()), None | Some(b'.'))
        })
        .map_or(0, |s| s.major)
}

/// Step 1: libraries the process already has whose file name is one of the spec's sonames (or
/// a versioned file of one, `libcudart.so.12.9.79`), from `dl_iterate_phdr`: no system call,
/// unlike `dlopen(soname, RTLD_NOLOAD)`, which makes glibc search the file system first.
pub(crate) fn already_loaded(spec: &LibrarySpec) -> Vec<Candidate> {
    let mut paths: Vec<CString> = Vec::new();
    unsafe extern "C" fn each(
        info: *mut libc::dl_phdr_info,
        _size: usize,
        data: *mut libc::c_void,
    ) -> libc::c_int {
        // SAFETY: dl_iterate_phdr passes a valid info and our Vec as data.
        let (info, paths) = unsafe { (&*info, &mut *data.cast::<Vec<CString>>()) };
        if !info.dlpi_name.is_null() {
            // SAFETY: NUL-terminated name owned by the dynamic loader.
            let name = unsafe { CStr::from_ptr(info.dlpi_name) };
            if !name.is_empty() {
                paths.push(name.to_owned());
            }
        }
        0
    }
    // SAFETY: the callback only reads the loader's tables and pushes into `paths`.
    unsafe { libc::dl_iterate_phdr(Some(each), (&raw mut paths).cast()) };
    let mut out: Vec<Candidate> = paths
        .into_iter()
        .filter_map(|p| {
            let file = file_name(p.to_bytes());
            let name_major = major_of_name(spec, file);
            let exact = spec.sonames.iter().any(|s| s.name.to_bytes() == file);
            (name_major != 0 || exact).then_some(Candidate {
                origin: Origin::AlreadyLoaded,
                target: p,
                name_major,
            })
        })
        .collect();
    // Newest major first, like every other step.
    out.sort_by_key(|c| core::cmp::Reverse(c.name_major));
    out
}

/// Steps 2 and 3: the environment override and the sonames through the loader's search.
/// Returns rejections of environment values too (a relative override), as `(value, reason)`.
pub(crate) fn override_and_sonames(spec: &LibrarySpec) -> (Vec<Candidate>, Vec<(String, String)>) {
    let mut out = Vec::new();
    let mut rejected = Vec::new();
    if let Some(value) = trusted_var(spec.env_path) {
        let path = CString::new(value).unwrap_or_default();
        if !value.starts_with(b"/") {
            rejected.push((
                alloc::format!(
                    "{}={}",
                    spec.env_path.to_string_lossy(),
                    String::from_utf8_lossy(value)
                ),
                "not an absolute path (ignored)".into(),
            ));
        } else if is_dir(&path) {
            in_dir(spec, &mut out, value, Origin::EnvOverride);
        } else {
            out.push(Candidate {
                origin: Origin::EnvOverride,
                name_major: major_of_name(spec, file_name(value)),
                target: path,
            });
        }
    }
    for s in spec.sonames {
        out.push(Candidate {
            origin: Origin::LoaderSearch,
            target: s.name.to_owned(),
            name_major: s.major,
        });
    }
    (out, rejected)
}

fn in_dir(spec: &LibrarySpec, out: &mut Vec<Candidate>, dir: &[u8], origin: Origin) {
    for s in spec.sonames {
        out.push(Candidate {
            origin,
            target: join(dir, s.name.to_bytes()),
            name_major: s.major,
        });
    }
}

/// An absolute path from the environment.
fn absolute_var(name: &CStr) -> Option<&'static [u8]> {
    trusted_var(name).filter(|p| p.starts_with(b"/"))
}

/// Step 4, built only when steps 1 to 3 found nothing: the places users have the libraries.
/// `stub_dir` is the directory of the stub's own file.
pub(crate) fn usual_places(spec: &LibrarySpec, stub_dir: Option<&[u8]>) -> Vec<Candidate> {
    let mut out = Vec::new();
    // A wheel that bundles the stub sits in site-packages/<pkg>[/lib]; NVIDIA's wheels are
    // siblings under site-packages/nvidia, so look a few levels up.
    let mut ancestor = stub_dir;
    for _ in 0..4 {
        let Some(dir) = ancestor else { break };
        for wheel in spec.wheel_dirs {
            in_dir(
                spec,
                &mut out,
                join(dir, wheel.to_bytes()).to_bytes(),
                Origin::BesideStub,
            );
        }
        ancestor = parent(dir);
    }
    for var in [c"VIRTUAL_ENV", c"CONDA_PREFIX"] {
        if let Some(prefix) = absolute_var(var) {
            for site in site_packages(prefix) {
                for wheel in spec.wheel_dirs {
                    let dir = join(site.to_bytes(), wheel.to_bytes());
                    in_dir(spec, &mut out, dir.to_bytes(), Origin::PythonEnv);
                }
            }
        }
    }
    if let Some(prefix) = absolute_var(c"CONDA_PREFIX") {
        in_dir(
            spec,
            &mut out,
            join(prefix, b"lib").to_bytes(),
            Origin::CondaLib,
        );
    }
    for var in [c"CUDA_HOME", c"CUDA_PATH"] {
        if let Some(home) = absolute_var(var) {
            in_dir(
                spec,
                &mut out,
                join(home, b"lib64").to_bytes(),
                Origin::CudaHome,
            );
        }
    }
    in_dir(spec, &mut out, b"/usr/local/cuda/lib64", Origin::SystemCuda);
    out
}

/// `<prefix>/lib/python3.*/site-packages`, sorted so that the search is deterministic.
fn site_packages(prefix: &[u8]) -> Vec<CString> {
    let lib = join(prefix, b"lib");
    let mut found = Vec::new();
    // SAFETY: a NUL-terminated path; the stream is closed below.
    let dir = unsafe { libc::opendir(lib.as_ptr()) };
    if dir.is_null() {
        return found;
    }
    loop {
        // SAFETY: an open stream; the entry is valid until the next readdir.
        let entry = unsafe { libc::readdir(dir) };
        if entry.is_null() {
            break;
        }
        // SAFETY: d_name is NUL-terminated.
        let name = unsafe { CStr::from_ptr((*entry).d_name.as_ptr()) }.to_bytes();
        if name.starts_with(b"python3") {
            let site = join(join(lib.to_bytes(), name).to_bytes(), b"site-packages");
            if is_dir(&site) {
                found.push(site);
            }
        }
    }
    // SAFETY: opened above.
    unsafe { libc::closedir(dir) };
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_and_join_like_std() {
        assert_eq!(parent(b"/a/b/c"), Some(&b"/a/b"[..]));
        assert_eq!(parent(b"/a/b/"), Some(&b"/a"[..]));
        assert_eq!(parent(b"/a"), Some(&b"/"[..]));
        assert_eq!(parent(b"/"), None);
        assert_eq!(parent(b"libcudart.so.12"), None);
        assert_eq!(
            file_name(b"/x/libcudart.so.12.9.79"),
            b"libcudart.so.12.9.79"
        );
        assert_eq!(join(b"/x", b"y").to_bytes(), b"/x/y");
        assert_eq!(join(b"/x/", b"y").to_bytes(), b"/x/y");
    }
}

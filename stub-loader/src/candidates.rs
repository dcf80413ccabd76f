use crate::secure::trusted_var;
use crate::spec::LibrarySpec;
use alloc::borrow::Cow;
use alloc::borrow::ToOwned;
use alloc::ffi::CString;
use alloc::string::String;
use alloc::vec::Vec;
use core::ffi::CStr;

/// The search, in order: the first step with a usable candidate wins, and a later step's
/// candidates are not even listed (nothing of it touches the file system). README's "Where the
/// real library is searched" is this list.
///
/// Why this order (the order of NVIDIA's `cuda.pathfinder`): a copy already in the process is
/// the one every other library there uses, so a second copy (another major, another patch
/// level) is never loaded; the override is the user's explicit choice; NVIDIA's wheels of the
/// stub's own Python environment come before the dynamic loader's search, so that an extension
/// making the first CUDA call before `import torch` binds the wheel copy torch will load, not
/// an older toolkit on `LD_LIBRARY_PATH`; the toolkit folders, which the loader's search does
/// not cover by default, come last.
pub(crate) const SEARCH: [Step; 5] = [
    Step::AlreadyLoaded,
    Step::EnvOverride,
    Step::PythonWheels,
    Step::LoaderSearch,
    Step::Toolkit,
];

/// One step of [`SEARCH`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// 1. Objects the process has loaded whose `DT_SONAME` is one of the spec's sonames.
    AlreadyLoaded,
    /// 2. The `CUDA_STUBS_*_PATH` override.
    EnvOverride,
    /// 3. NVIDIA's wheel layouts in the site-packages holding the stub's file, then in `$VIRTUAL_ENV` /
    ///    `$CONDA_PREFIX` site-packages, then `$CONDA_PREFIX/lib`.
    PythonWheels,
    /// 4. The sonames, newest major first, through the dynamic loader.
    LoaderSearch,
    /// 5. `$CUDA_HOME/lib64`, `$CUDA_PATH/lib64`, `/usr/local/cuda/lib64`.
    Toolkit,
}

/// Where a candidate came from (a step of the loader's search list, `candidates::SEARCH`, and,
/// within it, which place).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Already loaded in the process (recognised by its `DT_SONAME`, reopened `RTLD_NOLOAD`).
    AlreadyLoaded,
    /// The `CUDA_STUBS_*_PATH` override.
    EnvOverride,
    /// An NVIDIA wheel layout in the site-packages that holds the stub's own file.
    BesideStub,
    /// An NVIDIA wheel layout in `$VIRTUAL_ENV` or `$CONDA_PREFIX` site-packages.
    PythonEnv,
    /// `$CONDA_PREFIX/lib`.
    CondaLib,
    /// The soname through the dynamic loader's search (LD_LIBRARY_PATH, ldconfig).
    LoaderSearch,
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
            Origin::BesideStub => c"wheel layout beside the stub",
            Origin::PythonEnv => c"wheel layout in the Python environment",
            Origin::CondaLib => c"$CONDA_PREFIX/lib",
            Origin::LoaderSearch => c"dynamic loader search",
            Origin::CudaHome => c"$CUDA_HOME/$CUDA_PATH lib64",
            Origin::SystemCuda => c"/usr/local/cuda/lib64",
        }
    }
}

/// The candidates of one step, and rejections of environment values met while listing them
/// (a relative override), as `(value, reason)`. `stub_dir` is the directory of the stub's file.
pub(crate) fn step_candidates(
    spec: &LibrarySpec,
    step: Step,
    stub_dir: Option<&[u8]>,
) -> (Vec<Candidate>, Vec<(String, String)>) {
    match step {
        Step::AlreadyLoaded => (already_loaded(spec), Vec::new()),
        Step::EnvOverride => env_override(spec),
        Step::PythonWheels => (python_wheels(spec, stub_dir), Vec::new()),
        Step::LoaderSearch => (loader_search(spec), Vec::new()),
        Step::Toolkit => (toolkit(spec), Vec::new()),
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
    crate::glibc::stat(path).map(|st| st.st_mode & libc::S_IFMT)
}

/// The CUDA major a file name says, from the spec's sonames (`libcudart.so.12.9.79` → 12).
pub(crate) fn major_of_name(spec: &LibrarySpec, name: &[u8]) -> u32 {
    spec.real
        .sonames
        .iter()
        .find(|s| {
            let soname = s.name.to_bytes();
            name.starts_with(soname) && matches!(name.get(soname.len()), None | Some(b'.'))
        })
        .map_or(0, |s| s.major)
}

/// Step 1: objects the process already has whose `DT_SONAME` is one of the spec's sonames,
/// whatever their file name (`.../libcudart.so`, `libcudart.so.12.9.79`), newest major first.
/// From `dl_iterate_phdr` and the objects' own dynamic sections: no system call, unlike
/// `dlopen(soname, RTLD_NOLOAD)`, which makes glibc search the file system first. An object
/// with no readable `DT_SONAME` is matched by its file name instead.
pub(crate) fn already_loaded(spec: &LibrarySpec) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    // Matched in place, allocating only for a match: a Python process with PyTorch has
    // hundreds of objects, and this runs on every stub's first call.
    each_loaded_object(&mut |path, soname| {
        let name_major = match soname {
            Some(soname) => match spec
                .real
                .sonames
                .iter()
                .find(|s| s.name.to_bytes() == soname)
            {
                Some(s) => s.major,
                None => return,
            },
            None => {
                let file = file_name(path.to_bytes());
                let exact = spec.real.sonames.iter().any(|s| s.name.to_bytes() == file);
                let major = major_of_name(spec, file);
                if major == 0 && !exact {
                    return;
                }
                major
            }
        };
        out.push(Candidate {
            origin: Origin::AlreadyLoaded,
            target: path.to_owned(),
            name_major,
        });
    });
    // Newest major first, like every other step.
    out.sort_by_key(|c| core::cmp::Reverse(c.name_major));
    out
}

/// Calls `visit(path, DT_SONAME)` for every object the process has loaded but the main program
/// (whose empty name gives no path to reopen), under the dynamic loader's lock.
fn each_loaded_object(visit: &mut dyn FnMut(&CStr, Option<&[u8]>)) {
    unsafe extern "C" fn each(
        info: *mut libc::dl_phdr_info,
        _size: usize,
        data: *mut libc::c_void,
    ) -> libc::c_int {
        // SAFETY: dl_iterate_phdr passes a valid info and our visitor as data.
        let (info, visit) = unsafe {
            (
                &*info,
                &mut *data.cast::<&mut dyn FnMut(&CStr, Option<&[u8]>)>(),
            )
        };
        if info.dlpi_name.is_null() {
            return 0;
        }
        // SAFETY: NUL-terminated name owned by the dynamic loader.
        let name = unsafe { CStr::from_ptr(info.dlpi_name) };
        if !name.is_empty() {
            // SAFETY: the loader's own description of a mapped object, read under its lock.
            visit(name, unsafe { dt_soname(info) });
        }
        0
    }
    let mut visit = visit;
    // SAFETY: the callback only reads the loader's tables and calls `visit`.
    unsafe { libc::dl_iterate_phdr(Some(each), (&raw mut visit).cast()) };
}

/// `ElfW(Dyn)`: a tag and a value, each one machine word.
#[repr(C)]
#[derive(Clone, Copy)]
struct Dyn {
    tag: isize,
    val: usize,
}

const DT_NULL: isize = 0;
const DT_STRTAB: isize = 5;
const DT_STRSZ: isize = 10;
const DT_SONAME: isize = 14;

/// The `DT_SONAME` string of a loaded object, read from its `PT_DYNAMIC` segment and string
/// table in memory; `None` when it has none or anything lies outside its loaded segments.
///
/// # Safety
/// `info` describes an object mapped in this process (as `dl_iterate_phdr` gives it).
unsafe fn dt_soname(info: &libc::dl_phdr_info) -> Option<&'static [u8]> {
    if info.dlpi_phdr.is_null() {
        return None;
    }
    // SAFETY: the loader's program headers of a mapped object.
    let phdrs =
        unsafe { core::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum)) };
    let base = info.dlpi_addr as usize;
    // Whether [addr, addr + len) lies in one of the object's PT_LOAD segments (mapped, readable).
    let mapped = |addr: usize, len: usize| {
        phdrs.iter().any(|p| {
            let start = base.wrapping_add(p.p_vaddr as usize);
            p.p_type == libc::PT_LOAD
                && addr >= start
                && addr
                    .checked_add(len)
                    .is_some_and(|end| end <= start.wrapping_add(p.p_memsz as usize))
        })
    };
    let dynamic = phdrs.iter().find(|p| p.p_type == libc::PT_DYNAMIC)?;
    let count = dynamic.p_memsz as usize / core::mem::size_of::<Dyn>();
    let first = base.wrapping_add(dynamic.p_vaddr as usize);
    if !mapped(first, count * core::mem::size_of::<Dyn>()) {
        return None;
    }
    let (mut strtab, mut strsz, mut soname) = (None, None, None);
    for i in 0..count {
        // SAFETY: inside the PT_DYNAMIC segment, checked mapped above.
        let d = unsafe { (first as *const Dyn).add(i).read_unaligned() };
        match d.tag {
            DT_NULL => break,
            DT_STRTAB => strtab = Some(d.val),
            DT_STRSZ => strsz = Some(d.val),
            DT_SONAME => soname = Some(d.val),
            _ => {}
        }
        if strtab.is_some() && strsz.is_some() && soname.is_some() {
            break;
        }
    }
    let (strtab, strsz, offset) = (strtab?, strsz?, soname?);
    // glibc rewrites DT_STRTAB in place to an address when it relocates the object, except where
    // the dynamic section is read-only (the vDSO, some linkers' layouts), where it stays an
    // offset from the load base: whichever of the two lies in a loaded segment is the table.
    let table = if mapped(strtab, strsz) {
        strtab
    } else if mapped(base.wrapping_add(strtab), strsz) {
        base.wrapping_add(strtab)
    } else {
        return None;
    };
    let len = strsz.checked_sub(offset)?;
    // SAFETY: inside the string table, checked mapped above; it lives as long as the object,
    // and the bytes are copied before dl_iterate_phdr returns.
    let bytes = unsafe { core::slice::from_raw_parts((table + offset) as *const u8, len) };
    let end = bytes.iter().position(|b| *b == 0)?;
    bytes.get(..end)
}

/// Step 2: the environment override, a file or a directory searched by soname. Also returns
/// a rejected value (relative), as `(value, reason)`.
fn env_override(spec: &LibrarySpec) -> (Vec<Candidate>, Vec<(String, String)>) {
    let mut out = Vec::new();
    let mut rejected = Vec::new();
    if let Some(value) = trusted_var(spec.real.env_path) {
        let path = CString::new(value).unwrap_or_default();
        if !value.starts_with(b"/") {
            rejected.push((
                alloc::format!(
                    "{}={}",
                    spec.real.env_path.to_string_lossy(),
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
    (out, rejected)
}

/// Step 4: the sonames, newest major first, each through the dynamic loader's whole search.
fn loader_search(spec: &LibrarySpec) -> Vec<Candidate> {
    spec.real
        .sonames
        .iter()
        .map(|s| Candidate {
            origin: Origin::LoaderSearch,
            target: s.name.to_owned(),
            name_major: s.major,
        })
        .collect()
}

fn in_dir(spec: &LibrarySpec, out: &mut Vec<Candidate>, dir: &[u8], origin: Origin) {
    for s in spec.real.sonames {
        out.push(Candidate {
            origin,
            target: join(dir, s.name.to_bytes()),
            name_major: s.major,
        });
    }
}

/// [`in_dir`] for a wheel layout folder, only when it exists: this step runs before the
/// loader's search on every first call, so a program outside any Python environment pays one
/// `stat` per folder rather than one failed open per soname.
fn in_wheel_dir(spec: &LibrarySpec, out: &mut Vec<Candidate>, dir: &CStr, origin: Origin) {
    if is_dir(dir) {
        in_dir(spec, out, dir.to_bytes(), origin);
    }
}

/// An absolute path from the environment.
fn absolute_var(name: &CStr) -> Option<&'static [u8]> {
    trusted_var(name).filter(|p| p.starts_with(b"/"))
}

/// Step 3: NVIDIA's wheels in the stub's own Python environment. `stub_dir` is the directory
/// of the stub's own file.
fn python_wheels(spec: &LibrarySpec, stub_dir: Option<&[u8]>) -> Vec<Candidate> {
    let mut out = Vec::new();
    // A wheel that bundles the stub puts it under site-packages/<pkg>/…; NVIDIA's wheels are
    // its siblings under site-packages/nvidia. The stub's own site-packages (found from its
    // path, without a system call) finds its environment even when it is not activated (no
    // $VIRTUAL_ENV: `venv/bin/python app.py`); a stub outside any site-packages pays nothing.
    if let Some(site) = stub_dir.and_then(enclosing_site_packages) {
        for wheel in spec.real.wheel_dirs {
            in_wheel_dir(
                spec,
                &mut out,
                &join(site, wheel.to_bytes()),
                Origin::BesideStub,
            );
        }
    }
    for var in [c"VIRTUAL_ENV", c"CONDA_PREFIX"] {
        if let Some(prefix) = absolute_var(var) {
            for site in site_packages(prefix) {
                for wheel in spec.real.wheel_dirs {
                    let dir = join(site.to_bytes(), wheel.to_bytes());
                    in_wheel_dir(spec, &mut out, &dir, Origin::PythonEnv);
                }
            }
        }
    }
    // conda's cuda-cudart / cuda-nvrtc packages: the conda environment's own copy.
    if let Some(prefix) = absolute_var(c"CONDA_PREFIX") {
        in_dir(
            spec,
            &mut out,
            join(prefix, b"lib").to_bytes(),
            Origin::CondaLib,
        );
    }
    out
}

/// An absolute path with its `.` and `..` components folded (`/a/b/../c/./d` → `/a/c/d`),
/// without touching the file system; a relative path is returned unchanged.
pub(crate) fn fold_dots(path: &[u8]) -> Vec<u8> {
    if !path.starts_with(b"/") {
        return path.to_vec();
    }
    let mut parts: Vec<&[u8]> = Vec::new();
    for part in path.split(|b| *b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    let mut out = Vec::with_capacity(path.len());
    for part in &parts {
        out.push(b'/');
        out.extend_from_slice(part);
    }
    if out.is_empty() {
        out.push(b'/');
    }
    out
}

/// The nearest folder named `site-packages` (pip, venv, conda) or `dist-packages` (Debian's
/// Python) that holds `dir`, read from the path alone.
fn enclosing_site_packages(dir: &[u8]) -> Option<&[u8]> {
    let mut ancestor = Some(dir);
    while let Some(d) = ancestor {
        if matches!(file_name(d), b"site-packages" | b"dist-packages") {
            return Some(d);
        }
        ancestor = parent(d);
    }
    None
}

/// Step 5: CUDA toolkit folders the dynamic loader does not search by default.
fn toolkit(spec: &LibrarySpec) -> Vec<Candidate> {
    let mut out = Vec::new();
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

    #[test]
    fn dots_fold_lexically() {
        assert_eq!(fold_dots(b"/a/b/../c/./d"), b"/a/c/d".to_vec());
        assert_eq!(
            fold_dots(b"/site-packages/x/../cuda_stubs/lib"),
            b"/site-packages/cuda_stubs/lib".to_vec()
        );
        assert_eq!(fold_dots(b"/.."), b"/".to_vec());
        assert_eq!(fold_dots(b"rel/../x"), b"rel/../x".to_vec());
    }

    #[test]
    fn site_packages_is_found_from_the_path() {
        assert_eq!(
            enclosing_site_packages(b"/v/lib/python3.12/site-packages/cuda_stubs/lib"),
            Some(&b"/v/lib/python3.12/site-packages"[..])
        );
        assert_eq!(
            enclosing_site_packages(b"/usr/lib/python3/dist-packages/x"),
            Some(&b"/usr/lib/python3/dist-packages"[..])
        );
        assert_eq!(enclosing_site_packages(b"/work/target/release"), None);
    }

    use super::*;

    /// The sonames read from memory are the real ones: libc's (relocated dynamic section) and
    /// the vDSO's (read-only dynamic section, `DT_STRTAB` left an offset).
    #[test]
    fn dt_soname_of_loaded_objects() {
        let mut objects: Vec<(Vec<u8>, Option<Vec<u8>>)> = Vec::new();
        each_loaded_object(&mut |path, soname| {
            objects.push((path.to_bytes().to_vec(), soname.map(<[u8]>::to_vec)));
        });
        let soname_of = |file: &[u8]| {
            objects
                .iter()
                .find(|(path, _)| file_name(path) == file)
                .and_then(|(_, soname)| soname.clone())
        };
        assert_eq!(soname_of(b"libc.so.6").as_deref(), Some(&b"libc.so.6"[..]));
        assert_eq!(
            soname_of(b"linux-vdso.so.1").as_deref(),
            Some(&b"linux-vdso.so.1"[..])
        );
    }

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

//! The three ways a program reaches a stub, built from `tests/c/topology_calls.c` and
//! `tests/c/topology_main.c`:
//!
//! - [`Topology::Direct`]: executable → stubs (the executable links the three stubs);
//! - [`Topology::Library`]: executable → `libmid.so` → stubs (the usual shape of a CMake
//!   project or a native library: the executable never names a stub);
//! - [`Topology::Dlopen`]: the executable `dlopen`s `libmid.so`, which needs the stubs (a Python
//!   extension, a plugin).
//!
//! Each is built plainly and with `-Wl,-z,now` in the consumer's link.

use crate::{compile_c, stubs_dir, temp_dir};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How the program reaches the stubs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    /// Executable → stubs.
    Direct,
    /// Executable → `libmid.so` → stubs.
    Library,
    /// Executable `dlopen`s `libmid.so` → stubs.
    Dlopen,
}

impl Topology {
    /// All three.
    pub const ALL: [Topology; 3] = [Topology::Direct, Topology::Library, Topology::Dlopen];
}

/// One built variant: the executable and its arguments.
#[derive(Debug, Clone)]
pub struct TopologyProgram {
    /// The executable.
    pub exe: PathBuf,
    /// Its arguments (`linked`, or `dlopen <libmid.so>`).
    pub args: Vec<OsString>,
}

fn arg(prefix: &str, path: &Path) -> OsString {
    let mut a = OsString::from(prefix);
    a.push(path);
    a
}

fn build(topology: Topology, bind_now: bool) -> TopologyProgram {
    let stubs = stubs_dir();
    let now: &[&OsStr] = if bind_now {
        &["-Wl,-z,now".as_ref()]
    } else {
        &[]
    };
    let stub_libs: [&OsStr; 3] = [
        "-lstubs_cudart".as_ref(),
        "-lstubs_nvrtc".as_ref(),
        "-lstubs_cuda".as_ref(),
    ];
    let (l_stubs, r_stubs) = (arg("-L", stubs), arg("-Wl,-rpath,", stubs));
    let tag = format!("{topology:?}{}", if bind_now { "-now" } else { "" }).to_lowercase();
    let main = Path::new("c/topology_main.c");
    let calls = Path::new("c/topology_calls.c");
    if topology == Topology::Direct {
        let mut link: Vec<&OsStr> = vec![&l_stubs];
        link.extend(stub_libs);
        link.push(&r_stubs);
        link.extend(now);
        let exe = compile_c(&format!("topology-{tag}"), &[main, calls], &link);
        return TopologyProgram {
            exe,
            args: vec!["linked".into()],
        };
    }
    // libmid.so: links the stubs; the stubs' own DT_NEEDED must bring in libc before them.
    let dir = temp_dir(&format!("libmid-{tag}"));
    let mut link: Vec<&OsStr> = vec!["-shared".as_ref(), "-fPIC".as_ref(), &l_stubs];
    link.extend(stub_libs);
    link.push(&r_stubs);
    link.extend(now);
    let built = compile_c(&format!("libmid-{tag}.so"), &[calls], &link);
    let mid = dir.join("libmid.so");
    std::fs::copy(&built, &mid).expect("copy libmid.so");
    if topology == Topology::Library {
        let (l_mid, r_mid) = (arg("-L", &dir), arg("-Wl,-rpath,", &dir));
        let mut link: Vec<&OsStr> = vec![&l_mid, "-lmid".as_ref(), &r_mid];
        link.extend(now);
        let exe = compile_c(&format!("topology-{tag}"), &[main], &link);
        TopologyProgram {
            exe,
            args: vec!["linked".into()],
        }
    } else {
        let mut link: Vec<&OsStr> = vec!["-DNO_LINKED_CALLS".as_ref(), "-ldl".as_ref()];
        link.extend(now);
        let exe = compile_c(&format!("topology-{tag}"), &[main], &link);
        TopologyProgram {
            exe,
            args: vec!["dlopen".into(), mid.into_os_string()],
        }
    }
}

/// The program of `topology`, linked with `-Wl,-z,now` when `bind_now`; built once per test
/// process.
pub fn topology_program(topology: Topology, bind_now: bool) -> TopologyProgram {
    static BUILT: OnceLock<Vec<(Topology, bool, TopologyProgram)>> = OnceLock::new();
    let all = BUILT.get_or_init(|| {
        let mut v = Vec::new();
        for t in Topology::ALL {
            for now in [false, true] {
                v.push((t, now, build(t, now)));
            }
        }
        v
    });
    all.iter()
        .find(|(t, now, _)| *t == topology && *now == bind_now)
        .map(|(_, _, p)| p.clone())
        .expect("every variant is built")
}

//! nvJitLink through `libstubs_nvjitlink.so`, on NVIDIA's real libnvJitLink 12.9 and 13.5 (the
//! wheels; nvJitLink needs no GPU) and on none.
//!
//! `tests/c/nvjitlink_link.c` is compiled against each real `nvJitLink.h` — 12.9's, 13.5's, and
//! 13.5's with `-DNVJITLINK_NO_INLINE` — and linked only against the stub, so its calls arrive
//! under the names each header binds (`__nvJitLinkCreate_12_9`, `__nvJitLinkCreate_13_5`,
//! `nvJitLinkCreate`). Its inputs come from real NVRTC of each major through the NVRTC stub
//! (`tests/c/nvrtc_dlto.c`: LTO-IR with `-dlto`, and PTX), and every link must give a real
//! CUBIN (ELF, `e_machine` EM_CUDA = 190). Every program runs on both majors: a name of the
//! other major is bound to the loaded library's plain name (the debug log says so), and what
//! the loaded nvJitLink lacks (`nvJitLinkGetLinkedLTOIRSize` on 12.x) is the stub's typed
//! error, `NVJITLINK_ERROR_OUTDATED_LIBRARY` (14); no library at all gives
//! `NVJITLINK_ERROR_INTERNAL` (6) from every function. A mock with nvJitLink 12.0 – 12.2's
//! export shape (per-version names only) shows the rule there.

use object::{Object, ObjectSymbol};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::decls::{RetKind, declared};
use stubs_tests::{Outcome, Scenario, compile_c, cuda_layout, mock, stub, stubs_dir, temp_dir};
use stubs_tests::{dynamic, nvrtc_inputs};

const LOADER: &str = "dynamic loader search";
/// The stub's codes: no library, function absent from the loaded nvJitLink.
const NO_LIBRARY: i32 = 6;
const ABSENT: i32 = 14;

/// One build of `nvjitlink_link.c`: against which header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Header {
    /// 12.9's `nvJitLink.h`: every call bound to `__nvJitLink*_12_9`.
    V12,
    /// 13.5's: `__nvJitLink*_13_5`.
    V13,
    /// 13.5's with `-DNVJITLINK_NO_INLINE`: the plain names.
    V13Plain,
}

impl Header {
    fn major(self) -> u32 {
        match self {
            Header::V12 => 12,
            Header::V13 | Header::V13Plain => 13,
        }
    }

    /// The suffix the header gives every ABI name but `nvJitLinkVersion`.
    fn abi_suffix(self) -> &'static str {
        match self {
            Header::V12 => "_12_9",
            Header::V13 => "_13_5",
            Header::V13Plain => "",
        }
    }

    /// The ABI name of function `f` (`nvJitLinkCreate`) in this build.
    fn abi_name(self, f: &str) -> String {
        match self.abi_suffix() {
            "" => f.to_owned(),
            suffix => format!("__{f}{suffix}"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Header::V12 => "nvjitlink-h12",
            Header::V13 => "nvjitlink-h13",
            Header::V13Plain => "nvjitlink-h13-plain",
        }
    }
}

/// The program built against `header`, once per test process.
fn program(header: Header) -> &'static Path {
    static BUILT: [OnceLock<PathBuf>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let slot = &BUILT[header as usize];
    slot.get_or_init(|| {
        let dir = stubs_dir();
        let mut args: Vec<OsString> = stubs_tests::cuda_include_args(header.major());
        args.push(format!("-DHEADER_MAJOR={}", header.major()).into());
        if header == Header::V13Plain {
            args.push("-DNVJITLINK_NO_INLINE".into());
        }
        args.push(format!("-L{}", dir.display()).into());
        args.push("-lstubs_nvjitlink".into());
        args.push(format!("-Wl,-rpath,{}", dir.display()).into());
        args.push("-ldl".into());
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
        compile_c(header.name(), &[Path::new("c/nvjitlink_link.c")], &refs)
    })
}

/// The real libnvJitLink of `major` and its folder.
fn real(major: u32) -> (PathBuf, PathBuf) {
    let file = cuda_layout(major)
        .nvjitlink
        .unwrap_or_else(|| panic!("the CUDA {major} layout has no nvjitlink"));
    let dir = file.parent().expect("has a folder").to_path_buf();
    (file, dir)
}

/// `file` is a CUBIN of `reported` bytes: a 64-bit ELF for EM_CUDA (190).
fn assert_cubin(file: &Path, reported: &str, run: &Outcome) {
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}\n{run}", file.display()));
    assert_eq!(bytes.len().to_string(), reported, "{run}");
    assert_eq!(&bytes[..4], b"\x7fELF", "{run}");
    assert_eq!(bytes[4], 2, "ELFCLASS64: {run}");
    assert_eq!(
        u16::from_le_bytes([bytes[18], bytes[19]]),
        190,
        "e_machine EM_CUDA: {run}"
    );
}

/// The `out=` values of every `nvJitLinkGetLinkedCubinSize rc=0` line, in order.
fn cubin_sizes(run: &Outcome) -> Vec<&str> {
    run.stdout
        .lines()
        .filter_map(|l| l.strip_prefix("nvJitLinkGetLinkedCubinSize rc=0 out="))
        .collect()
}

/// Undefined dynamic symbols of `file`.
fn imports(file: &Path) -> Vec<String> {
    let data = std::fs::read(file).expect("read program");
    let elf = object::File::parse(&*data).expect("parse program");
    elf.dynamic_symbols()
        .filter(|s| s.is_undefined())
        .filter_map(|s| s.name().ok().map(str::to_owned))
        .collect()
}

/// Each build calls the ABI names its header binds, and needs the stub, never NVIDIA's library.
#[test]
fn programs_call_their_headers_abi_names_through_the_stub_only() {
    for header in [Header::V12, Header::V13, Header::V13Plain] {
        let exe = program(header);
        let imports = imports(exe);
        for f in [
            "nvJitLinkCreate",
            "nvJitLinkAddData",
            "nvJitLinkGetLinkedCubin",
        ] {
            let name = header.abi_name(f);
            assert!(
                imports.contains(&name),
                "{header:?}: {name} not in {imports:?}"
            );
        }
        assert!(imports.contains(&"nvJitLinkVersion".to_owned()));
        let other: Vec<&String> = imports
            .iter()
            .filter(|i| i.contains("nvJitLink") && !i.ends_with(header.abi_suffix()))
            .filter(|i| *i != "nvJitLinkVersion")
            .collect();
        assert!(other.is_empty(), "{header:?}: {other:?}");
        let needed = dynamic::needed(exe);
        assert!(
            needed.contains(&"libstubs_nvjitlink.so".to_owned()),
            "{needed:?}"
        );
        assert!(
            !needed.iter().any(|n| n.starts_with("libnvJitLink")),
            "{needed:?}"
        );
    }
    // The stub needs nothing of NVIDIA's: libc, and the two libraries of the glibc floor
    // (`stub-loader/link_args.rs`, as `load_topology.rs` and `glibc_floor.rs` check).
    assert_eq!(
        dynamic::needed(&stub("nvjitlink")),
        ["libc.so.6", "libdl.so.2", "libpthread.so.0"]
    );
}

/// `header`'s program on the real nvJitLink of `lib`: LTO-IR and PTX from that major's NVRTC
/// linked to CUBINs, then the LTO-IR the program's own major's NVRTC makes (what an application
/// built against that toolkit ships): a newer nvJitLink links it, an older one refuses it with
/// its own error.
fn links(header: Header, lib: u32) {
    let (file, dir) = real(lib);
    let (ltoir, ptx) = nvrtc_inputs::ltoir_and_ptx(lib);
    let out = temp_dir(&format!("{}-on-{lib}", header.name()));
    let cubins = [out.join("ltoir.cubin"), out.join("ptx.cubin")];
    let mut commands = vec![
        "version".to_owned(),
        format!("link:ltoir:{}:{}", ltoir.display(), cubins[0].display()),
        format!("link:ptx:{}:{}", ptx.display(), cubins[1].display()),
    ];
    let cross = header.major() != lib;
    let own_cubin = out.join("own.cubin");
    if cross {
        let (own, _) = nvrtc_inputs::ltoir_and_ptx(header.major());
        commands.push(format!(
            "link:ltoir:{}:{}",
            own.display(),
            own_cubin.display()
        ));
    }
    commands.push("status".to_owned());
    let run = Scenario::new(program(header))
        .args(&commands)
        .library_path([&dir])
        .debug()
        .run();
    let version = if lib == 12 { 12090 } else { 13050 };
    run.assert_success()
        .assert_line(&format!(
            "nvJitLinkVersion rc=0 out={lib}.{}",
            (version % 1000) / 10
        ))
        .assert_bound("nvjitlink", &file, version, LOADER)
        .assert_line(&format!("status nvjitlink path={}", file.display()));
    assert!(
        run.line("status nvjitlink rc=0")
            .starts_with(&format!("status nvjitlink rc=0 bound=1 version={version} ")),
        "{run}"
    );
    let sizes = cubin_sizes(&run);
    assert!(sizes.len() >= 2, "{run}");
    // Every handle is destroyed by the real library, which clears it.
    let destroyed: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("nvJitLinkDestroy "))
        .collect();
    assert_eq!(destroyed.len(), if cross { 3 } else { 2 }, "{run}");
    assert!(
        destroyed
            .iter()
            .all(|l| *l == "nvJitLinkDestroy rc=0 handle=null"),
        "{run}"
    );
    assert_cubin(&cubins[0], sizes[0], &run);
    assert_cubin(&cubins[1], sizes[1], &run);

    if cross && header.major() < lib {
        // 13.5's nvJitLink links 12.9's LTO-IR.
        assert_eq!(sizes.len(), 3, "{run}");
        assert_cubin(&own_cubin, sizes[2], &run);
    } else if cross {
        // 12.9's refuses 13.5's LTO-IR: its own error and log, not the stub's.
        run.assert_line("nvJitLinkAddData rc=6");
        assert!(
            run.line("error-log:")
                .contains("may need newer version of nvJitLink library"),
            "{run}"
        );
    }

    // How each name was bound: the program's names where the library has them, else the plain
    // name; nothing of a name the library has is logged.
    let debug = run.debug("nvjitlink");
    let replaced = |f: &str| {
        let name = header.abi_name(f);
        debug.contains(&format!("{name}: absent, bound to its replacement {f}").as_str())
    };
    for f in ["nvJitLinkCreate", "nvJitLinkAddData", "nvJitLinkComplete"] {
        assert_eq!(
            replaced(f),
            cross && header != Header::V13Plain,
            "{f}: {run}"
        );
    }
    assert!(
        !debug.iter().any(|l| l.starts_with("nvJitLinkVersion")),
        "{run}"
    );
    if header.major() >= 13 {
        // nvJitLinkGetLinkedLTOIRSize exists from 13.0: on 12.9 the stub's typed error, after
        // neither its ABI name nor the plain one was found; on 13.5 the library's own answer.
        let name = header.abi_name("nvJitLinkGetLinkedLTOIRSize");
        let lines: Vec<&str> = run
            .stdout
            .lines()
            .filter(|l| l.starts_with("nvJitLinkGetLinkedLTOIRSize rc="))
            .collect();
        assert!(!lines.is_empty(), "{run}");
        let refused = format!("nvJitLinkGetLinkedLTOIRSize rc={ABSENT}");
        if lib == 12 {
            assert!(lines.iter().all(|l| *l == refused), "{run}");
            assert!(
                debug.iter().any(|l| l.starts_with(&format!("{name}: "))),
                "{run}"
            );
            assert!(
                !debug
                    .iter()
                    .any(|l| l.contains("replacement nvJitLinkGetLinkedLTOIRSize")),
                "{run}"
            );
        } else {
            assert!(lines.iter().all(|l| *l != refused), "{run}");
        }
    }
}

#[test]
fn real_12_header_12_links_a_cubin() {
    links(Header::V12, 12);
}

#[test]
fn real_13_header_12_links_a_cubin() {
    links(Header::V12, 13);
}

#[test]
fn real_12_header_13_links_a_cubin() {
    links(Header::V13, 12);
}

#[test]
fn real_13_header_13_links_a_cubin() {
    links(Header::V13, 13);
}

#[test]
fn real_12_header_13_plain_names_link_a_cubin() {
    links(Header::V13Plain, 12);
}

#[test]
fn real_13_header_13_plain_names_link_a_cubin() {
    links(Header::V13Plain, 13);
}

/// `CUDA_STUBS_NVJITLINK_PATH` pins 12.9 with 13.5 on the loader's path.
#[test]
fn real_override_pins_12_over_13() {
    let (twelve, _) = real(12);
    let (_, thirteen) = real(13);
    let run = Scenario::new(program(Header::V13))
        .args(["version"])
        .env("CUDA_STUBS_NVJITLINK_PATH", &twelve)
        .library_path([thirteen])
        .debug()
        .run();
    run.assert_success()
        .assert_line("nvJitLinkVersion rc=0 out=12.9")
        .assert_bound("nvjitlink", &twelve, 12090, "environment override");
}

/// No nvJitLink: every status-returning export answers 6, the status says what was searched,
/// and the stub prints nothing.
#[test]
fn no_library_every_function_returns_the_typed_error() {
    let dir = temp_dir("nvjitlink-none");
    let list = dir.join("functions.txt");
    let names: Vec<String> = declared("nvjitlink")
        .into_iter()
        .filter(|f| f.ret == RetKind::Status && !f.attr.hand_written)
        .map(|f| f.name())
        .collect();
    assert!(names.len() > 200, "{}", names.len());
    std::fs::write(&list, names.join("\n") + "\n").expect("write list");
    for header in [Header::V12, Header::V13] {
        let run = Scenario::new(program(header))
            .args([
                "version".to_owned(),
                format!("link:ptx:{}:{}", list.display(), dir.join("x").display()),
                "status".to_owned(),
                format!("callall:{}", list.display()),
            ])
            .env("LD_LIBRARY_PATH", "")
            .run();
        run.assert_success()
            .assert_silent()
            .assert_line(&format!("nvJitLinkVersion rc={NO_LIBRARY} out=7777.7777"))
            .assert_line(&format!("nvJitLinkCreate rc={NO_LIBRARY}"))
            .assert_line("status nvjitlink path=(null)");
        assert!(
            run.line("status nvjitlink rc=0")
                .starts_with("status nvjitlink rc=0 bound=0 version=0 "),
            "{run}"
        );
        assert!(
            run.line("status nvjitlink message").starts_with(
                "status nvjitlink message=cuda-stubs: libnvjitlink not found (searched \
                 libnvJitLink.so.13, libnvJitLink.so.12: already loaded (RTLD_NOLOAD); \
                 environment override (CUDA_STUBS_NVJITLINK_PATH); wheel layout beside the stub \
                 (nvidia/cu13/lib, nvidia/nvjitlink/lib);"
            ),
            "{run}"
        );
        for name in &names {
            run.assert_line(&format!("callall {name} rc={NO_LIBRARY}"));
        }
    }
}

/// nvJitLink 12.0 – 12.2 export only their own per-version names: a name they have is bound
/// exactly (`__nvJitLinkCreate_12_1`), a newer header's name has no plain name to fall back to
/// and gets the typed error, and `nvJitLinkVersion` (12.3+) too; the soname gives the version.
#[test]
fn mock_12_1_binds_its_own_names_and_refuses_the_rest() {
    let run = Scenario::new(program(Header::V12))
        .args([
            "version",
            "call:__nvJitLinkCreate_12_0",
            "call:__nvJitLinkCreate_12_1",
            "call:__nvJitLinkCreate_12_9",
            "call:__nvJitLinkCreate_13_5",
            "call:nvJitLinkCreate",
            "status",
        ])
        .library_path([mock("mock-nvjitlink-12.1")])
        .debug()
        .run();
    let file = mock("mock-nvjitlink-12.1").join("libnvJitLink.so.12");
    run.assert_success()
        .assert_bound("nvjitlink", &file, 12000, LOADER)
        .assert_line(&format!("nvJitLinkVersion rc={ABSENT} out=7777.7777"))
        .assert_line("call __nvJitLinkCreate_12_0 rc=120")
        .assert_line("call __nvJitLinkCreate_12_1 rc=121")
        .assert_line(&format!("call __nvJitLinkCreate_12_9 rc={ABSENT}"))
        .assert_line(&format!("call __nvJitLinkCreate_13_5 rc={ABSENT}"))
        .assert_line(&format!("call nvJitLinkCreate rc={ABSENT}"))
        .assert_debug(
            "nvjitlink",
            "__nvJitLinkCreate_12_9: symbol missing from the library",
        )
        .assert_debug(
            "nvjitlink",
            "nvJitLinkCreate: symbol missing from the library",
        );
    assert!(
        run.line("status nvjitlink rc=0")
            .starts_with("status nvjitlink rc=0 bound=1 version=12000 resolved=2 missing=4"),
        "{run}"
    );
}

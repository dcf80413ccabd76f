//! cuTENSOR 2 through `libstubs_cutensor.so`, on NVIDIA's real `libcutensor.so.2` of CUDA 11.x
//! (2.2.0), 12.x and 13.x (2.8.1) from the wheels (no GPU: what cuTENSOR answers without a
//! driver) and on none, and the rule of one CUDA release per process.
//!
//! `tests/c/cutensor_host.c` is compiled against each major's real `cutensor.h` twice: linked
//! only to the stubs, and linked normally to that major's `libcutensor.so.2`. Both builds must
//! print the same lines (cuTENSOR's version and the runtime it was built with, every error
//! string, the logger, `cutensorCreate`'s no-GPU answer, handle-less calls); the stub build
//! must report the runtime version `cutensorGetCudartVersion` answers, which is all that tells
//! the CUDA 12 and CUDA 13 builds of cuTENSOR 2.8.1 apart: one of another release than the
//! process's runtime is refused by it. Majors without a cuTENSOR wheel for the machine are
//! skipped.
//!
//! `tests/c/cutensor_compute_desc.c` is built the same two ways, without PIC (`-fno-pic
//! -no-pie`: the executable copy-relocates `CUTENSOR_COMPUTE_DESC_*`, data, from whichever
//! library it links), and shows through cuTENSOR's own API log which descriptor each call
//! handed the library: through the stub, the stand-in the program read must arrive as the
//! loaded library's object of the same name, as it does linked normally.

use object::{Object, ObjectSymbol, ObjectSymbolTable};
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use stub_model::libraries::CUTENSOR;
use stubs_tests::two_builds::{RUNTIME_FIRST, TwoBuilds, api_lines};
use stubs_tests::{Outcome, Scenario, compile_c, cuda_include_args, cuda_layout, stubs_dir};

/// The stub's code for no library (of the process's release): `CUTENSOR_STATUS_NOT_INITIALIZED`.
const NO_LIBRARY: i32 = 1;
/// The stub's code for a function the loaded cuTENSOR lacks: `CUTENSOR_STATUS_NOT_SUPPORTED`.
const ABSENT: i32 = 15;
/// What the real `cutensorCreate` answers without a GPU: `CUTENSOR_STATUS_CUDA_ERROR`.
const NO_GPU: u32 = 18;
const OVERRIDE: &str = "environment override";
const PROGRAM: TwoBuilds = TwoBuilds {
    library: &CUTENSOR,
    source: "c/cutensor_host.c",
    also_stubs: &["cudart"],
    // cutensor.h includes cuda_runtime.h, whose cuda_fp16.h includes CCCL's <nv/target>.
    nv_target_shim: true,
};

/// The majors whose layout has NVIDIA's cuTENSOR.
fn majors() -> Vec<u32> {
    [11, 12, 13]
        .into_iter()
        .filter(|&m| cuda_layout(m).libraries.contains_key("cutensor"))
        .collect()
}

/// The number a line `<prefix> version=N` of `run` gives.
fn version(run: &Outcome, prefix: &str) -> i32 {
    let line = run.line(prefix);
    line.rsplit_once("version=")
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{line:?}: {run}"))
}

/// The stub build with the runtime and cuTENSOR of the given majors as overrides.
fn run_stub(header: u32, cudart: Option<u32>, cutensor: Option<u32>) -> Outcome {
    PROGRAM.run_stub(header, cudart, cutensor, &[])
}

/// On every major, the stub build prints what the normal build prints, and binds the real
/// library at the runtime version it was built with. In the memcheck pass one major
/// (`variants`), the other one than the descriptors' test below: the stub forwards the same
/// way to each.
#[test]
fn each_major_answers_as_the_normally_linked_program() {
    for major in stubs_tests::variants(&majors(), 0) {
        let normal = PROGRAM.run_normal(major);
        let [own_major, own_minor, _] = PROGRAM.wheel_version(major);
        let own = version(&normal, "cutensorGetVersion");
        assert_eq!(own / 100, own_major * 100 + own_minor, "{normal}");
        let cuda = version(&normal, "cutensorGetCudartVersion");
        assert_eq!(cuda / 1000, major as i32, "{normal}");
        normal
            .assert_line(&format!("cutensorCreate rc={NO_GPU}"))
            .assert_line("cutensorGetErrorString(1) = CUTENSOR_STATUS_NOT_INITIALIZED")
            .assert_line("cutensorCreateTensorDescriptor(no handle) rc=7");

        let stub = run_stub(major, Some(major), Some(major));
        stub.assert_success()
            .assert_bound("cutensor", &PROGRAM.real(major), cuda, OVERRIDE)
            .assert_line(&format!(
                "status bound=1 version={cuda} found_by={OVERRIDE}"
            ));
        assert_eq!(
            api_lines(&stub, "cutensor"),
            api_lines(&normal, "cutensor"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
    }
}

/// With no cuTENSOR anywhere, every status is the typed error, the version functions answer
/// 0, error strings are never NULL (the enumerator's name, or a text for a value the header
/// does not define), and the status says what was searched.
#[test]
fn without_a_library_every_call_is_the_typed_error() {
    let run = run_stub(13, None, None);
    run.assert_success();
    assert_eq!(NO_LIBRARY, CUTENSOR.errors.no_library.value);
    for line in [
        "cutensorGetVersion version=0",
        "cutensorGetCudartVersion version=0",
        "cutensorGetErrorString(0) = CUTENSOR_STATUS_SUCCESS",
        "cutensorGetErrorString(15) = CUTENSOR_STATUS_NOT_SUPPORTED",
        "cutensorGetErrorString(18) = CUTENSOR_STATUS_CUDA_ERROR",
        "cutensorLoggerSetLevel rc=1",
        "cutensorLoggerForceDisable rc=1",
        "cutensorCreate rc=1",
        "cutensorCreateTensorDescriptor(no handle) rc=1",
        "cutensorCreatePlanPreference(no handle) rc=1",
        "cutensorDestroyBlockSparseTensorDescriptor(NULL) (header 20800) rc=1",
        "status bound=0 version=0 found_by=(null)",
    ] {
        run.assert_line(line);
    }
    // cutensorGetErrorString answers enumerator names (`TextKind::Name`), as the real one.
    run.assert_line("cutensorGetErrorString(1) = CUTENSOR_STATUS_NOT_INITIALIZED");
    let searched = "cuda-stubs: libcutensor not found (searched libcutensor.so.2";
    assert!(run.line("status message").contains(searched), "{run}");
    // A value the header does not define: still a text.
    assert!(
        run.line("cutensorGetErrorString(2)")
            .starts_with("cutensorGetErrorString(2) = "),
        "{run}"
    );
    assert!(!run.stdout.contains("= (null)"), "{run}");
}

/// A program built against cuTENSOR 2.8's header on 2.2.0 (CUDA 11): a function 2.2.0 exports
/// without declaring it (block-sparse, declared from 2.3) is the typed "absent" error, never
/// called with a prototype it may not have; the rest answers as 2.2.0 does.
#[test]
fn a_newer_header_on_an_older_cutensor() {
    if !stubs_tests::runs_with(majors().contains(&11), "cuTENSOR of CUDA 11") {
        return;
    }
    let normal = PROGRAM.run_normal(11);
    let run = run_stub(12, Some(11), Some(11));
    run.assert_success()
        .assert_bound(
            "cutensor",
            &PROGRAM.real(11),
            version(&normal, "cutensorGetCudartVersion"),
            OVERRIDE,
        )
        .assert_line(&format!(
            "cutensorDestroyBlockSparseTensorDescriptor(NULL) (header 20800) rc={ABSENT}"
        ))
        .assert_line(&format!(
            "cutensorGetVersion version={}",
            version(&normal, "cutensorGetVersion")
        ))
        .assert_line(&format!("cutensorCreate rc={NO_GPU}"));
    assert_eq!(ABSENT, CUTENSOR.errors.absent.value);
}

/// NVIDIA's CUDA 12 build of cuTENSOR 2.8.1 beside a 13.5 runtime is refused once
/// `cutensorGetCudartVersion` says 12.9 (its `cutensorGetVersion`, 20800, is the CUDA 13
/// build's too); every call is then the "no library" code and the status names both releases.
#[test]
fn a_cu12_cutensor_beside_a_13_runtime_is_refused_by_its_runtime_version() {
    if !stubs_tests::runs_with(
        majors().contains(&12) && majors().contains(&13),
        "cuTENSOR of CUDA 12 and 13",
    ) {
        return;
    }
    let run = run_stub(13, Some(13), Some(12));
    run.assert_success();
    let reason = "CUDA 12, but the process has CUDA 13 (libcudart.so.13): one CUDA release \
                  per process";
    run.assert_debug(
        "cutensor",
        &format!(
            "try {} [{OVERRIDE}]: rejected: {reason}",
            PROGRAM.real(12).display()
        ),
    )
    .assert_line("cutensorGetVersion version=0")
    .assert_line(&format!("cutensorCreate rc={NO_LIBRARY}"));
    assert!(run.line("status message").contains(reason), "{run}");
}

/// The compute-descriptor program (`tests/c/cutensor_compute_desc.c`).
const DESC_SOURCE: &str = "c/cutensor_compute_desc.c";

/// The compute-descriptor program against `header`'s cutensor.h, without PIC: linked to the
/// stubs (with `-DWITH_STATUS`, the runtime stub and `runtime_first.c`, as [`TwoBuilds`]
/// does) when `stub`, else normally to NVIDIA's cuTENSOR of that major. Built once per test
/// process and kind.
fn desc_program(header: u32, stub: bool) -> PathBuf {
    static BUILT: Mutex<BTreeMap<(u32, bool), PathBuf>> = Mutex::new(BTreeMap::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    built
        .entry((header, stub))
        .or_insert_with(|| {
            let kind = if stub { "stub" } else { "normal" };
            let name = format!("cutensor-desc-{kind}-{header}");
            let mut args = cuda_include_args(header);
            let shim = stubs_tests::workspace_root().join("codegen/shim-include");
            args.push(format!("-I{}", shim.display()).into());
            // No PIC: every use of a descriptor reads the executable's copy of it.
            args.extend(["-fno-pic", "-no-pie"].map(OsString::from));
            let mut sources = vec![Path::new(DESC_SOURCE)];
            if stub {
                let dir = stubs_dir();
                args.push("-DWITH_STATUS".into());
                args.push(format!("-L{}", dir.display()).into());
                args.extend(
                    ["-Wl,--no-as-needed", "-lstubs_cutensor", "-lstubs_cudart"]
                        .map(OsString::from),
                );
                args.push(format!("-Wl,-rpath,{}", dir.display()).into());
                sources.push(Path::new(RUNTIME_FIRST));
            } else {
                let dir = PROGRAM.real_dir(header);
                args.push(format!("-L{}", dir.display()).into());
                args.push("-l:libcutensor.so.2".into());
                args.push(format!("-Wl,-rpath-link,{}", dir.display()).into());
            }
            // dlopen(RTLD_NOLOAD) and dlsym: in libdl before glibc 2.34.
            args.push("-ldl".into());
            let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
            compile_c(&name, &sources, &refs)
        })
        .clone()
}

/// The stub build of the compute-descriptor program against `header`'s cutensor.h, with the
/// runtime and cuTENSOR of the given majors (`None`: none).
fn run_desc_stub(header: u32, cudart: Option<u32>, cutensor: Option<u32>) -> Outcome {
    let mut s = Scenario::new(desc_program(header, true)).debug();
    if let Some(m) = cudart {
        s = s
            .env("CUDA_STUBS_CUDART_PATH", cuda_layout(m).cudart)
            .env("STUBS_TESTS_RUNTIME_FIRST", "1");
    }
    if let Some(m) = cutensor {
        s = s.env("CUDA_STUBS_CUTENSOR_PATH", PROGRAM.real(m));
    }
    let run = s.run();
    run.assert_success();
    run
}

/// The `CUTENSOR_COMPUTE_DESC_*` copy relocations of `program` (`R_X86_64_COPY`,
/// `R_AARCH64_COPY`): the names whose storage the executable holds itself.
fn copied_descriptors(program: &Path) -> Vec<String> {
    let data = std::fs::read(program).expect("read the program");
    let file = object::File::parse(&*data).expect("an ELF file");
    let symbols = file.dynamic_symbol_table().expect("a dynamic symbol table");
    let mut copied: Vec<String> = file
        .dynamic_relocations()
        .into_iter()
        .flatten()
        .filter(|(_, r)| {
            matches!(
                r.flags(),
                object::RelocationFlags::Elf {
                    r_type: object::elf::R_X86_64_COPY | object::elf::R_AARCH64_COPY
                }
            )
        })
        .filter_map(|(_, r)| match r.target() {
            object::RelocationTarget::Symbol(i) => symbols
                .symbol_by_index(i)
                .ok()
                .and_then(|s| s.name().ok().map(str::to_owned)),
            _ => None,
        })
        .filter(|name| name.starts_with("CUTENSOR_COMPUTE_DESC_"))
        .collect();
    copied.sort();
    copied
}

/// The `CUTENSOR_COMPUTE_DESC_*` names NVIDIA's cuTENSOR of `major` exports.
fn real_descriptors(major: u32) -> Vec<String> {
    let data = std::fs::read(PROGRAM.real(major)).expect("read libcutensor.so.2");
    let file = object::File::parse(&*data).expect("an ELF file");
    let mut names: Vec<String> = file
        .dynamic_symbols()
        .filter(|s| s.is_definition())
        .filter_map(|s| s.name().ok().map(str::to_owned))
        .filter(|n| n.starts_with("CUTENSOR_COMPUTE_DESC_"))
        .collect();
    names.sort();
    names
}

/// On every major, a program linked without PIC against the stub copy-relocates every
/// descriptor its header declares, and each reaches NVIDIA's library as the library's own
/// object of the same name, through every function taking one, exactly as in the normally
/// linked program (same lines); the values the program read are not the library's (the stub's
/// stand-ins); a pointer that is no stand-in, and NULL, arrive as given. In the memcheck pass
/// one major (`variants`), the other one than the test above: the stand-ins' code is the same
/// for each, only the table of names differs (each took ~70 s under memcheck).
#[test]
fn compute_descriptors_reach_the_library_as_its_own() {
    for major in stubs_tests::variants(&majors(), 1) {
        let real = real_descriptors(major);
        assert!(real.len() >= 6, "{real:?}");
        let normal = Scenario::new(desc_program(major, false))
            .linked_normally()
            .library_path([PROGRAM.real_dir(major)])
            .run();
        normal.assert_success();
        let stub = run_desc_stub(major, Some(major), Some(major));
        assert_eq!(copied_descriptors(&desc_program(major, true)), real);
        stub.assert_line("libcutensor.so.2 loaded=1");
        let calls = api_lines(&stub, "cutensorCreate");
        assert_eq!(
            calls,
            api_lines(&normal, "cutensorCreate"),
            "stub:\n{stub}\nnormal:\n{normal}"
        );
        // Each descriptor through cutensorCreateContraction, then the other six calls (five on
        // 2.2.0's header, which has no block-sparse contraction), the two plain pointers.
        assert_eq!(
            calls.len(),
            real.len() + 2 + if major == 11 { 5 } else { 6 },
            "{stub}"
        );
        for name in &real {
            stub.assert_line(&format!(
                "cutensorCreateContraction({name}) rc=7 descCompute=the library's {name}"
            ))
            .assert_line(&format!("stand-in {name} differs=1"));
        }
        for call in [
            "cutensorCreateContractionTrinary",
            "cutensorCreateElementwiseBinary",
            "cutensorCreateElementwiseTrinary",
            "cutensorCreatePermutation",
            "cutensorCreateReduction",
        ] {
            stub.assert_line(&format!(
                "{call}(CUTENSOR_COMPUTE_DESC_32F) rc=7 descCompute=the library's \
                 CUTENSOR_COMPUTE_DESC_32F"
            ));
        }
        stub.assert_line(
            "cutensorCreateContraction(the program's own pointer) rc=7 descCompute=the \
             program's own pointer",
        )
        .assert_line("cutensorCreateContraction(NULL) rc=7 descCompute=NULL");
        assert!(!stub.stdout.contains("unknown to the library"), "{stub}");
    }
}

/// The CUDA 12 header's nine descriptors on cuTENSOR 2.2.0, which has six: the three it lacks
/// (`9X16BF`, `8XINT8`, `4X16F`) are refused with the "absent" code, the library never called;
/// the six arrive as 2.2.0's own; the block-sparse contraction is absent in 2.2.0 (exported,
/// not declared) and refused whatever its descriptor.
#[test]
fn a_descriptor_the_loaded_cutensor_lacks_is_refused() {
    if !stubs_tests::runs_with(
        majors().contains(&11) && majors().contains(&12),
        "cuTENSOR of CUDA 11 and 12",
    ) {
        return;
    }
    let lacks = ["9X16BF", "8XINT8", "4X16F"];
    let run = run_desc_stub(12, Some(11), Some(11));
    for name in real_descriptors(12) {
        let short = name.trim_start_matches("CUTENSOR_COMPUTE_DESC_");
        let expected = if lacks.contains(&short) {
            format!("cutensorCreateContraction({name}) rc={ABSENT} descCompute=(not called)")
        } else {
            format!("cutensorCreateContraction({name}) rc=7 descCompute=the library's {name}")
        };
        run.assert_line(&expected);
    }
    for short in lacks {
        run.assert_debug(
            "cutensor",
            &format!(
                "CUTENSOR_COMPUTE_DESC_{short}: data object missing from the library (or none \
                 bound): refused"
            ),
        );
    }
    run.assert_line(&format!(
        "cutensorCreateBlockSparseContraction(CUTENSOR_COMPUTE_DESC_32F) rc={ABSENT} \
         descCompute=(not called)"
    ));
}

/// With no cuTENSOR, every call taking a descriptor is the "no library" code, stand-in or not,
/// and nothing crashes.
#[test]
fn without_a_library_descriptors_are_the_typed_error() {
    let run = run_desc_stub(13, None, None);
    run.assert_line("libcutensor.so.2 loaded=0");
    let calls = api_lines(&run, "cutensorCreate");
    assert_eq!(calls.len(), 9 + 2 + 6, "{run}");
    for line in calls {
        assert!(
            line.ends_with(&format!(" rc={NO_LIBRARY} descCompute=(not called)")),
            "{line}: {run}"
        );
    }
}

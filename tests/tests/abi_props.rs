//! Cross-major ABI adapters, proven on CPU: `tests/c/abi_props.c` is compiled against the REAL
//! CUDA 13.0 headers and again against the 12.9 headers, linked only against the stubs, and run
//! against the mock runtimes of 11.x, 12.x and 13.x (`tests/mocks/cudart_abi.c`: each major's
//! own prototypes and struct layouts, with a distinct value in every field). Every field the
//! program reads must hold the value the mock put in that same field, or, where the loaded
//! major's layout lacks the field, the mock's `cudaDeviceGetAttribute` answer (0 where that
//! fails or no attribute exists).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::{Scenario, compile_c, cuda_include_args, mock, struct_fields, stubs_dir};

/// FNV-1a, as the mock computes it.
fn hash(s: &str) -> u32 {
    let mut h: u32 = 2_166_136_261;
    for b in s.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(16_777_619);
    }
    h
}

fn mock_int(field: &str, major: u32) -> i64 {
    i64::from(hash(field) % 100_000) * 100 + i64::from(major)
}

fn mock_size(field: &str, major: u32) -> u64 {
    (u64::from(major) << 32) | u64::from(hash(field) % 100_000)
}

/// Fields some layout lacks, and the `cudaDeviceAttr` (13.0 / 12.9 numbering) the adapter reads
/// them from; `None`: no attribute, always 0.
const ATTRIBUTE_OF: &[(&str, Option<i64>)] = &[
    ("deviceNumaConfig", Some(130)),
    ("deviceNumaId", Some(131)),
    ("mpsEnabled", Some(133)),
    ("hostNumaId", Some(134)),
    ("gpuPciDeviceID", Some(139)),
    ("gpuPciSubsystemID", Some(140)),
    ("hostNumaMultinodeIpcSupported", Some(143)),
    ("hostRegisterSupported", Some(99)),
    ("sparseCudaArraySupported", Some(112)),
    ("hostRegisterReadOnlySupported", Some(113)),
    ("timelineSemaphoreInteropSupported", Some(114)),
    ("memoryPoolsSupported", Some(115)),
    ("gpuDirectRDMASupported", Some(116)),
    ("gpuDirectRDMAFlushWritesOptions", Some(117)),
    ("gpuDirectRDMAWritesOrdering", Some(118)),
    ("memoryPoolSupportedHandleTypes", Some(119)),
    ("clusterLaunch", Some(120)),
    ("deferredMappingCudaArraySupported", Some(121)),
    ("ipcEventSupported", Some(125)),
    ("unifiedFunctionPointers", None),
    ("clockRate", Some(13)),
    ("deviceOverlap", Some(15)),
    ("kernelExecTimeoutEnabled", Some(17)),
    ("computeMode", Some(20)),
    ("memoryClockRate", Some(36)),
    ("maxTexture1DLinear", Some(69)),
    ("singleToDoublePrecisionPerfRatio", Some(87)),
    ("cooperativeMultiDeviceLaunch", Some(96)),
];

/// The mock's attributes that fail (the field must stay 0).
const FAILING_ATTRIBUTES: [i64; 2] = [96, 133];

/// `cudaDeviceProp` fields of one major's layout, from the generated Rust types.
fn layout(major: u32) -> Vec<(String, String, usize)> {
    match major {
        11 => struct_fields(
            "stubs-cudart/src/generated/abi_types.rs",
            Some("v11"),
            "cudaDeviceProp",
        ),
        12 => struct_fields(
            "stubs-cudart/src/generated/abi_types.rs",
            Some("v12"),
            "cudaDeviceProp",
        ),
        _ => struct_fields(
            "stubs-cudart/src/generated/types.rs",
            None,
            "cudaDeviceProp",
        ),
    }
}

fn hex(bytes: impl IntoIterator<Item = u32>) -> String {
    bytes
        .into_iter()
        .map(|b| format!("{:02x}", b & 0xff))
        .collect()
}

/// Every `key=value` line the program must print for `cudaDeviceProp`, built from the header
/// major's layout and the mock major's.
fn expected_props(header: u32, mock_major: u32) -> BTreeMap<String, String> {
    let source: Vec<String> = layout(mock_major).into_iter().map(|f| f.0).collect();
    let mut out = BTreeMap::new();
    for (name, ty, len) in layout(header) {
        if name == "reserved" {
            continue;
        }
        let present = source.contains(&name);
        let value_of = |i: Option<usize>| -> String {
            if !present {
                let attr = ATTRIBUTE_OF
                    .iter()
                    .find(|(f, _)| *f == name)
                    .unwrap_or_else(|| {
                        panic!("{name}: missing from CUDA {mock_major} and not in ATTRIBUTE_OF")
                    })
                    .1;
                return match attr {
                    Some(a) if !FAILING_ATTRIBUTES.contains(&a) => {
                        (5_000_000 + 100 * a + i64::from(mock_major)).to_string()
                    }
                    _ => "0".to_string(),
                };
            }
            if ty == "usize" {
                return mock_size(&name, mock_major).to_string();
            }
            let base = mock_int(&name, mock_major);
            (base + i.map_or(0, |i| 10_000_000 * (i as i64 + 1))).to_string()
        };
        match name.as_str() {
            "name" => {
                out.insert(name.clone(), format!("mock-{mock_major}"));
            }
            "uuid" => {
                out.insert(name.clone(), hex((0..16).map(|i| mock_major * 16 + i)));
            }
            "luid" => {
                out.insert(name.clone(), hex((0..8).map(|i| mock_major + 100 + i)));
            }
            _ if len > 0 => {
                for i in 0..len {
                    out.insert(format!("{name}[{i}]"), value_of(Some(i)));
                }
            }
            _ => {
                out.insert(name.clone(), value_of(None));
            }
        }
    }
    out
}

/// `abi_props.c` built against the headers of `major`, once per test process.
fn program(major: u32) -> &'static Path {
    static BUILT: OnceLock<BTreeMap<u32, PathBuf>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let dir = stubs_dir();
        let mut rpath = OsString::from("-Wl,-rpath,");
        rpath.push(dir);
        let mut libdir = OsString::from("-L");
        libdir.push(dir);
        [12, 13]
            .into_iter()
            .map(|m| {
                let mut args = cuda_include_args(m);
                args.extend([libdir.clone(), "-lstubs_cudart".into(), rpath.clone()]);
                let refs: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
                (
                    m,
                    compile_c(
                        &format!("abi_props_{m}"),
                        &[Path::new("c/abi_props.c")],
                        &refs,
                    ),
                )
            })
            .collect()
    });
    &built[&major]
}

fn run(header: u32, mock_major: u32) -> BTreeMap<String, String> {
    let outcome = Scenario::new(program(header))
        .library_path([mock(&format!("mock-{mock_major}"))])
        .run();
    outcome.assert_success();
    outcome
        .stdout
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn check(header: u32, mock_major: u32) {
    let got = run(header, mock_major);
    let what = format!("built against CUDA {header} headers, run on mock CUDA {mock_major}");
    let size = if header == 13 { "1008" } else { "1032" };
    assert_eq!(got["sizeof"], size, "{what}");
    assert_eq!(
        got["bad_device_status"], "101",
        "{what}: errors pass through"
    );
    assert_eq!(got["props_status"], "0", "{what}");
    let expected = expected_props(header, mock_major);
    let mut wrong = Vec::new();
    for (key, value) in &expected {
        match got.get(key) {
            Some(v) if v == value => {}
            other => wrong.push(format!("{key}: expected {value}, got {other:?}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "{what}: {} fields wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(
        expected.len() > 100,
        "{what}: only {} fields checked",
        expected.len()
    );

    // cudaGraphInstantiate: the flags reach the runtime (11.x: through WithFlags).
    assert_eq!(got["instantiate_status"], "0", "{what}");
    assert_eq!(
        got["instantiate_exec"],
        (0x10_0000 + 8 * 16 + u64::from(mock_major)).to_string(),
        "{what}: cudaGraphInstantiate"
    );

    // cudaFuncGetAttributes: 56-byte 11.x layout converted; cluster fields 0 on 11.x.
    assert_eq!(got["funcattr_status"], "0", "{what}");
    for f in ["sharedSizeBytes", "constSizeBytes", "localSizeBytes"] {
        assert_eq!(got[f], mock_size(f, mock_major).to_string(), "{what}: {f}");
    }
    for f in [
        "maxThreadsPerBlock",
        "numRegs",
        "ptxVersion",
        "binaryVersion",
        "cacheModeCA",
        "maxDynamicSharedSizeBytes",
        "preferredShmemCarveout",
    ] {
        assert_eq!(got[f], mock_int(f, mock_major).to_string(), "{what}: {f}");
    }
    for f in [
        "clusterDimMustBeSet",
        "requiredClusterWidth",
        "requiredClusterHeight",
        "requiredClusterDepth",
        "clusterSchedulingPolicyPreference",
        "nonPortableClusterSizeAllowed",
    ] {
        let want = if mock_major == 11 {
            0
        } else {
            mock_int(f, mock_major)
        };
        assert_eq!(got[f], want.to_string(), "{what}: {f}");
    }
    assert_eq!(got["funcattr_reserved_zero"], "1", "{what}");

    // cudaPointerGetAttributes: 24-byte 11.x/12.x layout into 13.0's 88 bytes.
    assert_eq!(got["ptrattr_status"], "0", "{what}");
    assert_eq!(got["ptr_type"], "2", "{what}");
    assert_eq!(got["ptr_device"], mock_major.to_string(), "{what}");
    assert_eq!(got["ptr_devicePointer"], 0x7000.to_string(), "{what}");
    assert_eq!(
        got["ptr_hostPointer"],
        (0x7000 + mock_major).to_string(),
        "{what}"
    );
}

#[test]
fn cuda13_program_on_cuda11() {
    check(13, 11);
}

#[test]
fn cuda13_program_on_cuda12() {
    check(13, 12);
}

#[test]
fn cuda13_program_on_cuda13() {
    check(13, 13);
}

#[test]
fn cuda12_program_on_cuda11() {
    check(12, 11);
}

#[test]
fn cuda12_program_on_cuda12() {
    check(12, 12);
}

#[test]
fn cuda12_program_on_cuda13() {
    check(12, 13);
}

//! Capturing a board (issue 48 item 3): `bin/cuda-stubs-capture`
//! (`packaging/capture/cuda-stubs-capture.c`, built here as CMakeLists.txt builds it: its own
//! `_start`, glibc 2.17's `dlopen`) and `python -m cuda_stubs --capture-profile`, which runs it.
//!
//! No GPU here, so the board is the mock device itself, opened as the driver and NVML
//! (`CUDA_STUBS_CAPTURE_LIBCUDA`, `…_LIBNVML`, and `CUDA_STUBS_CAPTURE_ALLOW_MOCK=1`, without
//! which the program refuses it): a capture of the built-in h200 profile is that profile, value
//! for value, and the mock loads it as it is. The error paths run on the mock, on the tests'
//! stand-in driver (`tests/mocks/stand_in_driver.c`: no device, or a driver without
//! `cuDeviceGetUuid`) and on no driver at all. On a real GPU, `tests/gpu/capture.sh`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::{
    MOCK_PACKAGE, Outcome, Scenario, build_stubs, compile_c, stand_in_driver_dir, symbol_versions,
    target_arch, temp_dir, workspace_root,
};

/// The capture program, built as CMakeLists.txt builds it.
fn capture() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        compile_c(
            "cuda-stubs-capture",
            &[Path::new("../packaging/capture/cuda-stubs-capture.c")],
            &[
                "-DCUDA_STUBS_CAPTURE_OWN_START".as_ref(),
                "-nostartfiles".as_ref(),
                "-Wl,--no-as-needed".as_ref(),
                "-l:libdl.so.2".as_ref(),
            ],
        )
    })
}

fn mock_file() -> PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| build_stubs(&[MOCK_PACKAGE]).join("libcuda_stubs_mock.so"))
        .clone()
}

/// The capture program reading the mock device under `CUDA_STUBS_MOCK=profile`.
fn on_mock(profile: &str) -> Scenario {
    let mock = mock_file();
    Scenario::new(capture())
        .env("CUDA_STUBS_MOCK", profile)
        .env("CUDA_STUBS_CAPTURE_ALLOW_MOCK", "1")
        .env("CUDA_STUBS_CAPTURE_LIBCUDA", &mock)
        .env("CUDA_STUBS_CAPTURE_LIBNVML", &mock)
}

fn exit_code(run: &Outcome) -> Option<i32> {
    run.status.code()
}

fn parse(text: &str) -> toml::Table {
    toml::from_str(text).unwrap_or_else(|e| panic!("the capture parses as TOML: {e}\n{text}"))
}

/// The profile's tables, `[profile]` aside (its name and description say where it came from).
fn board(profile: &toml::Table) -> BTreeMap<String, toml::Value> {
    profile
        .iter()
        .filter(|(k, _)| k.as_str() != "profile")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn built_in_h200() -> toml::Table {
    let text = std::fs::read_to_string(workspace_root().join("stub-mock/profiles/h200.toml"))
        .expect("the built-in h200 profile");
    parse(&text)
}

/// `packaging/capture/attributes.h` names every `CUdevice_attribute` with the number the mock's
/// profile parser knows (`stub-mock/build.rs` reads them from the driver stub's generated
/// types): a capture never writes a name the mock refuses, nor leaves one out.
#[test]
fn the_attribute_table_is_the_mocks() {
    let types = std::fs::read_to_string(workspace_root().join("stubs-cuda/src/generated/types.rs"))
        .expect("the driver stub's generated types");
    // As stub-mock/build.rs reads them: by statement, whitespace folded.
    let mut expected = Vec::new();
    for statement in types.split(';') {
        let statement = statement.split_whitespace().collect::<Vec<_>>().join(" ");
        let Some(rest) = statement.strip_prefix("pub const CU_DEVICE_ATTRIBUTE_") else {
            continue;
        };
        let Some((name, value)) = rest.split_once(": CUdevice_attribute_enum = ") else {
            continue;
        };
        if name != "MAX" {
            expected.push(format!("  {{\"CU_DEVICE_ATTRIBUTE_{name}\", {value}}},"));
        }
    }
    let header = std::fs::read_to_string(workspace_root().join("packaging/capture/attributes.h"))
        .expect("the capture's attribute table");
    let rows: Vec<String> = header
        .lines()
        .filter(|l| l.starts_with("  {\"CU_DEVICE_ATTRIBUTE_"))
        .map(String::from)
        .collect();
    assert!(expected.len() > 150, "only {} attributes", expected.len());
    assert_eq!(
        rows,
        expected,
        "packaging/capture/attributes.h differs from cuda.h's enum: its rows should be\n{}",
        expected.join("\n")
    );
}

/// A capture of the built-in h200 profile with `--keep-ids` is that profile: the same driver,
/// device, every attribute and every NVML reading; the mock loads it as it is, and a capture of
/// the capture is the capture again.
#[test]
fn a_capture_of_the_h200_profile_is_that_profile() {
    let dir = temp_dir("capture-h200");
    let file = dir.join("captured.toml");
    let run = on_mock("h200")
        .args(["--keep-ids"])
        .args(["-o"])
        .arg_path(&file)
        .run();
    run.assert_success();
    assert!(
        run.stderr.contains("written to"),
        "it says where it wrote: {run}"
    );
    let text = std::fs::read_to_string(&file).expect("the capture");
    let captured = parse(&text);
    assert_eq!(board(&captured), board(&built_in_h200()), "{text}");
    assert_eq!(captured["profile"]["name"].as_str(), Some("nvidia-h200"));
    assert_eq!(captured["profile"]["devices"].as_integer(), Some(1));
    // The attributes a 13.0 driver lacks (cuda.h 13.5's newer names) are comments: the mock
    // answers "invalid value" for them, as that driver did.
    assert!(
        text.contains("# CU_DEVICE_ATTRIBUTE_ATOMIC_REDUCTION_SUPPORTED: error 1"),
        "{text}"
    );

    // The mock loads the file as it is: captured again under it, the same board.
    let again = on_mock(file.to_str().expect("UTF-8 path"))
        .args(["--keep-ids"])
        .run();
    again.assert_success();
    assert_eq!(board(&parse(&again.stdout)), board(&captured));
}

/// Without `--keep-ids` the UUID and the PCI location are made up, the PCI attributes with
/// them; nothing else changes.
#[test]
fn the_board_s_ids_are_replaced_unless_kept() {
    let run = on_mock("h200").run();
    run.assert_success();
    let captured = parse(&run.stdout);
    let h200 = built_in_h200();
    assert_eq!(
        captured["device"]["uuid"].as_str(),
        Some("GPU-c0da5b0b-ca97-4000-8000-000000000000")
    );
    assert_eq!(
        captured["device"]["pci_bus_id"].as_str(),
        Some("00000000:01:00.0")
    );
    assert!(
        run.stdout
            .contains("# The UUID and PCI location are made up")
    );
    let attributes = captured["attributes"].as_table().expect("[attributes]");
    for (name, value) in [
        ("CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID", 0),
        ("CU_DEVICE_ATTRIBUTE_PCI_BUS_ID", 1),
        ("CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID", 0),
    ] {
        assert_eq!(attributes[name].as_integer(), Some(value), "{name}");
    }
    // h200's device 6 on bus 0: the made-up location differs from it.
    assert_eq!(
        h200["attributes"]["CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID"].as_integer(),
        Some(6)
    );
    let mut same = board(&captured);
    let mut theirs = board(&h200);
    for table in [&mut same, &mut theirs] {
        let device = table
            .get_mut("device")
            .and_then(|d| d.as_table_mut())
            .unwrap();
        device.remove("uuid");
        device.remove("pci_bus_id");
        let attributes = table
            .get_mut("attributes")
            .and_then(|a| a.as_table_mut())
            .unwrap();
        for name in ["DOMAIN_ID", "BUS_ID", "DEVICE_ID"] {
            attributes.remove(&format!("CU_DEVICE_ATTRIBUTE_PCI_{name}"));
        }
    }
    assert_eq!(same, theirs);
}

/// A machine of several devices: the capture stops and says how to choose (exit 3);
/// `--device N` captures that one, as a profile of one device; a number past the last is a
/// usage error (exit 2).
#[test]
fn several_devices_need_a_choice() {
    let run = on_mock("h200:2").run();
    assert_eq!(exit_code(&run), Some(3), "{run}");
    assert!(run.stdout.is_empty(), "{run}");
    assert!(
        run.stderr
            .contains("this machine has 2 CUDA devices and a profile describes one: choose it with --device N (0 to 1)"),
        "{run}"
    );
    let second = on_mock("h200:2")
        .args(["--device", "1", "--keep-ids"])
        .run();
    second.assert_success();
    let captured = parse(&second.stdout);
    assert_eq!(captured["profile"]["devices"].as_integer(), Some(1));
    // The mock's second device: the UUID's last byte and the bus counted up.
    assert_eq!(
        captured["device"]["uuid"].as_str(),
        Some("GPU-c0da5b0b-0200-4000-8000-000000000001")
    );
    assert_eq!(
        captured["device"]["pci_bus_id"].as_str(),
        Some("00000000:01:06.0")
    );
    assert!(second.stdout.contains("device 1 of 2"), "{second}");
    let past = on_mock("h200:2").args(["--device", "2"]).run();
    assert_eq!(exit_code(&past), Some(2), "{past}");
    assert!(
        past.stderr
            .contains("--device 2: this machine has 2 CUDA devices (0 to 1)"),
        "{past}"
    );
    for bad in [
        &["--device", "x"][..],
        &["--device", "-1"],
        &["--frobnicate"],
    ] {
        let run = on_mock("h200").args(bad).run();
        assert_eq!(exit_code(&run), Some(2), "{bad:?}: {run}");
        assert!(run.stdout.is_empty(), "{bad:?}: {run}");
    }
}

/// No GPU: the driver loads and sees no device (the stand-in driver with no device: `cuInit`
/// answers `CUDA_ERROR_NO_DEVICE`); no driver at all; a driver without a function the profile
/// needs; the mock without the test's permission: each says so, exit 1, nothing written.
#[test]
fn without_a_gpu_it_says_so() {
    let stand_in = stand_in_driver_dir().join("libcuda.so.1");
    let dir = temp_dir("capture-none");
    let file = dir.join("never.toml");
    let none = Scenario::new(capture())
        .env("CUDA_STUBS_CAPTURE_LIBCUDA", &stand_in)
        .env("STAND_IN_DEVICE_COUNT", "0")
        .args(["-o"])
        .arg_path(&file)
        .run();
    assert_eq!(exit_code(&none), Some(1), "{none}");
    assert!(
        none.stderr.contains("no GPU: the driver (")
            && none
                .stderr
                .contains("sees no CUDA device (cuInit: 100 CUDA_ERROR_NO_DEVICE"),
        "{none}"
    );
    assert!(!file.exists(), "nothing written on failure");

    let missing = dir.join("no-such-libcuda.so.1");
    let no_driver = Scenario::new(capture())
        .env("CUDA_STUBS_CAPTURE_LIBCUDA", &missing)
        .run();
    assert_eq!(exit_code(&no_driver), Some(1), "{no_driver}");
    assert!(
        no_driver.stderr.contains(&format!(
            "no NVIDIA driver: {} cannot be loaded",
            missing.display()
        )),
        "{no_driver}"
    );

    // The stand-in driver answers devices and attributes but has no UUID query.
    let old = Scenario::new(capture())
        .env("CUDA_STUBS_CAPTURE_LIBCUDA", &stand_in)
        .run();
    assert_eq!(exit_code(&old), Some(1), "{old}");
    assert!(
        old.stderr
            .contains("has no cuDeviceGetUuid: too old a driver"),
        "{old}"
    );

    let refused = Scenario::new(capture())
        .env("CUDA_STUBS_MOCK", "h200")
        .env("CUDA_STUBS_CAPTURE_LIBCUDA", mock_file())
        .run();
    assert_eq!(exit_code(&refused), Some(1), "{refused}");
    assert!(
        refused
            .stderr
            .contains("is cuda-stubs' mock device, not a driver: nothing to capture"),
        "{refused}"
    );
    assert!(refused.stdout.is_empty(), "{refused}");
}

/// An output that cannot be written: exit 4, naming the file.
#[test]
fn an_unwritable_output_is_an_error() {
    let dir = temp_dir("capture-unwritable");
    let file = dir.join("no-such-folder/profile.toml");
    let run = on_mock("h200").args(["-o"]).arg_path(&file).run();
    assert_eq!(exit_code(&run), Some(4), "{run}");
    assert!(
        run.stderr
            .contains(&format!("{}: No such file", file.display())),
        "{run}"
    );
}

/// The program keeps the stubs' glibc floor (docs/src/glibc-floor.md): no symbol version above
/// 2.17, and `libdl.so.2` needed where glibc < 2.34 defines `dlopen`; so the wheel that holds it
/// stays manylinux_2_17.
#[test]
fn the_program_needs_at_most_glibc_2_17() {
    let versions = symbol_versions::read(capture());
    let base = match target_arch() {
        "aarch64" => "GLIBC_2.17",
        _ => "GLIBC_2.2.5",
    };
    for (name, node, _) in &versions.needed {
        let Some(v) = node.strip_prefix("GLIBC_") else {
            continue;
        };
        let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
        let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
        assert!((major, minor) <= (2, 17), "{name}@{node}");
    }
    for name in ["dlopen", "dlsym", "dlerror", "__libc_start_main"] {
        assert_eq!(
            versions.needs(name),
            Some(base),
            "{name}: {:?}",
            versions.needed
        );
    }
    let needed = stubs_tests::dynamic::needed(capture());
    assert!(needed.contains(&"libdl.so.2".to_string()), "{needed:?}");
}

/// `python -m cuda_stubs --capture-profile` runs the package's `bin/cuda-stubs-capture` with the
/// options given (the same output and exit status); a package without it says so (exit 2).
#[test]
fn python_runs_the_installed_program() {
    if stubs_tests::cross_target().is_some() {
        // The host's python3 would run the target's program.
        return;
    }
    let dir = temp_dir("capture-python");
    let package = dir.join("cuda_stubs");
    std::fs::create_dir_all(package.join("bin")).expect("package folder");
    for entry in std::fs::read_dir(workspace_root().join("python/cuda_stubs")).expect("package") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "py") {
            std::fs::copy(&path, package.join(path.file_name().unwrap())).expect("copy");
        }
    }
    let python = |mock: &str| {
        let m = mock_file();
        // Python itself loads no stub: natively under the memcheck pass.
        Scenario::new("python3")
            .linked_normally()
            .args(["-m", "cuda_stubs", "--capture-profile"])
            .env("PYTHONPATH", &dir)
            .env("CUDA_STUBS_MOCK", mock)
            .env("CUDA_STUBS_CAPTURE_ALLOW_MOCK", "1")
            .env("CUDA_STUBS_CAPTURE_LIBCUDA", &m)
            .env("CUDA_STUBS_CAPTURE_LIBNVML", &m)
    };
    let absent = python("h200").run();
    assert_eq!(exit_code(&absent), Some(2), "{absent}");
    assert!(
        absent
            .stderr
            .contains("no cuda-stubs-capture in this installation"),
        "{absent}"
    );
    std::fs::copy(capture(), package.join("bin/cuda-stubs-capture")).expect("the program");
    let file = dir.join("python.toml");
    let run = python("h200")
        .args(["--keep-ids", "-o"])
        .arg_path(&file)
        .run();
    run.assert_success();
    let captured = parse(&std::fs::read_to_string(&file).expect("written"));
    assert_eq!(board(&captured), board(&built_in_h200()));
    let several = python("h200:2").run();
    assert_eq!(exit_code(&several), Some(3), "{several}");
}

/// A machine whose NVML cannot be loaded: the capture still writes a profile the mock loads,
/// NVML's required readings 0 (the profile format has no "not supported" for them) and its
/// optional facts left out, and says so.
#[test]
fn without_nvml_the_readings_are_zero() {
    let dir = temp_dir("capture-no-nvml");
    let file = dir.join("no-nvml.toml");
    let run = on_mock("h200")
        .env(
            "CUDA_STUBS_CAPTURE_LIBNVML",
            dir.join("no-such-libnvidia-ml.so.1"),
        )
        .args(["--keep-ids", "-o"])
        .arg_path(&file)
        .run();
    run.assert_success();
    assert!(
        run.stderr.contains("NVML unavailable (") && run.stderr.contains("its readings are 0"),
        "{run}"
    );
    let captured = parse(&std::fs::read_to_string(&file).expect("written"));
    let nvml = captured["nvml"].as_table().expect("[nvml]");
    assert_eq!(nvml.len(), 13, "{nvml:?}");
    assert!(nvml.values().all(|v| v.as_integer() == Some(0)), "{nvml:?}");
    // Without NVML the driver's version text is the kernel module's, else CUDA's.
    assert!(captured["driver"]["version"].as_str().is_some());
    let again = on_mock(file.to_str().expect("UTF-8 path"))
        .args(["--keep-ids"])
        .run();
    again.assert_success();
    let reread = parse(&again.stdout);
    assert_eq!(reread["attributes"], captured["attributes"]);
    assert_eq!(reread["device"], captured["device"]);
}

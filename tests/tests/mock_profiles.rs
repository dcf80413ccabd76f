//! The mock device's built-in boards (issue 48): `h100`, read off a real board, answers what
//! that board answered, value by value; `a100`, `l4`, `rtx4090` and `b200`, made from NVIDIA's
//! published tables, hold those tables' values (this file's own copy of them, each row citing
//! its source, so that a typo in a profile fails); every built-in profile loads and the mock
//! answers its values; `CUDA_STUBS_MOCK=list` and `python -m cuda_stubs --mock-profiles` list
//! them; a profile with an unknown field, a value of the wrong type or out of range is refused
//! naming the file, the line and the field, and the stubs bind nothing; the README's command
//! for the mock puts it where the README's recipe says.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::{Outcome, Scenario, build_stubs, stubs_dir, temp_dir, workspace_root};

/// Every built-in profile, in the mock's order (`stub-mock/src/device/profile.rs`'s
/// `BUILT_IN`).
const BUILT_IN: [&str; 6] = ["h200", "h100", "a100", "l4", "rtx4090", "b200"];

/// The mock library, built beside the stubs.
fn mock_built() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| build_stubs(&[stubs_tests::MOCK_PACKAGE]).join("libcuda_stubs_mock.so"))
        .clone()
}

fn profile_path(name: &str) -> PathBuf {
    workspace_root().join(format!("stub-mock/profiles/{name}.toml"))
}

fn profile(name: &str) -> toml::Table {
    let text = std::fs::read_to_string(profile_path(name)).expect("a built-in profile");
    toml::from_str(&text).expect("the profile parses")
}

fn int(table: &toml::Table, section: &str, key: &str) -> i64 {
    table
        .get(section)
        .and_then(|s| s.get(key))
        .and_then(toml::Value::as_integer)
        .unwrap_or_else(|| panic!("[{section}] {key} is no integer"))
}

/// `tests/gpu/device_props/dump.sh` (every attribute, `cudaDeviceProp` field and NVML reading)
/// built against NVIDIA's 13.5 headers, linked to the stubs and run under
/// `CUDA_STUBS_MOCK=mock`: its TOML.
fn dump(mock: &str) -> toml::Table {
    mock_built();
    let dir = stubs_dir();
    let cuda_home = stubs_tests::cuda_layout(13)
        .include
        .iter()
        .find(|d| d.join("cuda.h").is_file())
        .and_then(|d| d.parent())
        .expect("CUDA 13.5's include folder")
        .to_path_buf();
    let link = format!(
        "-L{0} -lstubs_cuda -lstubs_cudart -lstubs_nvml -Wl,-rpath,{0}",
        dir.display()
    );
    let run = Scenario::new("bash")
        .arg_path(workspace_root().join("tests/gpu/device_props/dump.sh"))
        .env("CUDA_HOME", &cuda_home)
        .env("DUMP_LINK", &link)
        .env("CUDA_STUBS_MOCK", mock)
        .run();
    run.assert_success();
    toml::from_str(&run.stdout).unwrap_or_else(|e| panic!("the dump under {mock}: {e}: {run}"))
}

/// The h100 profile against the real board (`tests/gpu/device_props/h100-real.toml`, dump.sh
/// on a lent H100 80GB HBM3): every attribute, every `cudaDeviceProp` field and NVML's
/// identity, limits, clocks and readings are the mock's too, except the idle memory use the
/// board happened to have and the runtime's version (the mock implements 13.5's headers, the
/// board had 13.0's runtime). Nothing the board answered is missing.
#[test]
fn the_h100_profile_answers_what_the_real_board_answers() {
    if stubs_tests::memcheck_pass() {
        // A shell script building a C program: memcheck would check bash and gcc.
        return;
    }
    let text =
        std::fs::read_to_string(workspace_root().join("tests/gpu/device_props/h100-real.toml"))
            .expect("the real board's values");
    let real: toml::Table = toml::from_str(&text).expect("h100-real.toml parses");
    let mock = dump("h100");
    let differ = [
        "device.runtime_version",
        "nvml.handle_by",
        "nvml.memory_free",
        "nvml.memory_used",
        "nvml.memory_v2_free",
        "nvml.memory_v2_used",
    ];
    let mut same = 0;
    let mut missing = Vec::new();
    for section in ["device", "attributes", "properties", "nvml"] {
        let (Some(r), Some(m)) = (real.get(section), mock.get(section)) else {
            panic!("no [{section}] in both: {mock:?}");
        };
        let (r, m) = (r.as_table().unwrap(), m.as_table().unwrap());
        for (key, value) in r {
            let name = format!("{section}.{key}");
            match m.get(key) {
                None => missing.push(name),
                Some(_) if differ.contains(&name.as_str()) => {}
                Some(v) => {
                    assert_eq!(v, value, "{name}: the mock's differs from the board's");
                    same += 1;
                }
            }
        }
    }
    // The 153 attributes, the 92 properties (the UUID too: the capture's is the profile's
    // made-up one) and NVML's identity, readings and fixed facts.
    assert!(same >= 153 + 92 + 40, "only {same} values compared");
    assert_eq!(missing, Vec::<String>::new(), "not answered by the mock");
}

/// Every built-in profile loads, and the mock answers each of its attributes, its name, its
/// memory and NVML's limits and clocks as the file says (the listing of `stub-mock/profiles/`
/// is [`BUILT_IN`]: a profile added there and not built in fails here).
#[test]
fn every_built_in_profile_answers_its_values() {
    if stubs_tests::memcheck_pass() {
        return;
    }
    let mut files: Vec<String> = std::fs::read_dir(workspace_root().join("stub-mock/profiles"))
        .expect("the profiles' folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut built_in: Vec<String> = BUILT_IN.iter().map(|s| s.to_string()).collect();
    built_in.sort();
    assert_eq!(
        files, built_in,
        "stub-mock/profiles/ against the built-in list"
    );
    for name in BUILT_IN {
        let file = profile(name);
        let mock = dump(name);
        let attributes = file["attributes"].as_table().expect("[attributes]");
        for (key, value) in attributes {
            assert_eq!(
                mock["attributes"].get(key),
                Some(value),
                "{name}: {key} as the mock answers it"
            );
        }
        assert_eq!(mock["device"]["name"], file["device"]["name"], "{name}");
        assert_eq!(
            mock["device"]["total_memory"], file["device"]["total_memory"],
            "{name}"
        );
        for (dump_key, file_key) in [
            ("power_limit_mw", "power_limit"),
            ("max_clock_sm_mhz", "max_clock_sm"),
            ("max_clock_mem_mhz", "max_clock_memory"),
            ("memory_v2_reserved", "memory_reserved"),
        ] {
            assert_eq!(
                mock["nvml"].get(dump_key),
                file["nvml"].get(file_key),
                "{name}: nvml {dump_key}"
            );
        }
    }
}

/// A published source: the key a profile's `# published: KEY` comments name, and where.
struct Source {
    key: &'static str,
    what: &'static str,
}

/// The CUDA C++ Programming Guide's "Compute Capabilities" tables: "Technical Specifications
/// per Compute Capability" (threads, blocks, registers, shared memory: KB of 1,024 bytes),
/// "Feature Availability" (thread block clusters and the tensor memory accelerator from 9.0),
/// "Throughput of Native Arithmetic Instructions" (FP32 and FP64 results per clock per SM:
/// 8.0 64 and 32, 8.9 128 and 2, 10.0 128 and 64).
/// <https://docs.nvidia.com/cuda/cuda-c-programming-guide/#compute-capabilities>
const PG: Source = Source {
    key: "PG",
    what: "CUDA C++ Programming Guide, Compute Capabilities",
};

/// One compute capability's column of the Programming Guide's tables.
struct Capability {
    major: i64,
    minor: i64,
    threads_per_sm: i64,
    blocks_per_sm: i64,
    shared_per_sm_kb: i64,
    shared_per_block_optin_kb: i64,
    fp32_per_fp64: i64,
    clusters: bool,
}

const CC_8_0: Capability = Capability {
    major: 8,
    minor: 0,
    threads_per_sm: 2048,
    blocks_per_sm: 32,
    shared_per_sm_kb: 164,
    shared_per_block_optin_kb: 163,
    fp32_per_fp64: 2,
    clusters: false,
};

const CC_8_9: Capability = Capability {
    major: 8,
    minor: 9,
    threads_per_sm: 1536,
    blocks_per_sm: 24,
    shared_per_sm_kb: 100,
    shared_per_block_optin_kb: 99,
    fp32_per_fp64: 64,
    clusters: false,
};

const CC_10_0: Capability = Capability {
    major: 10,
    minor: 0,
    threads_per_sm: 2048,
    blocks_per_sm: 32,
    shared_per_sm_kb: 228,
    shared_per_block_optin_kb: 227,
    fp32_per_fp64: 2,
    clusters: true,
};

/// A board's published values: `(value, source key)` each, `None` where no table gives it.
struct Board {
    name: &'static str,
    cc: Capability,
    sources: &'static [Source],
    sms: Option<(i64, &'static str)>,
    boost_mhz: Option<(i64, &'static str)>,
    bus_bits: Option<(i64, &'static str)>,
    l2_mb: Option<(i64, &'static str)>,
    cores: Option<(i64, &'static str)>,
    memory_gb: (i64, &'static str),
    bandwidth_gb_s: (i64, &'static str),
    tdp_w: (i64, &'static str),
    pcie_gen: Option<(i64, &'static str)>,
}

const BOARDS: [Board; 4] = [
    Board {
        name: "a100",
        cc: CC_8_0,
        sources: &[
            // The A100 80GB SXM column: 80 GB HBM2e, 2,039 GB/s, 400 W max TDP, PCIe Gen4.
            Source {
                key: "DS",
                what: "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
            },
            // The A100's column: 108 SMs, 6,912 FP32 cores, 1,410 MHz boost, 5,120-bit
            // memory, 40 MB L2.
            Source {
                key: "WP",
                what: "https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-architecture-whitepaper.pdf",
            },
        ],
        sms: Some((108, "WP")),
        boost_mhz: Some((1410, "WP")),
        bus_bits: Some((5120, "WP")),
        l2_mb: Some((40, "WP")),
        cores: Some((6912, "WP")),
        memory_gb: (80, "DS"),
        bandwidth_gb_s: (2039, "DS"),
        tdp_w: (400, "DS"),
        pcie_gen: Some((4, "DS")),
    },
    Board {
        name: "l4",
        cc: CC_8_9,
        sources: &[
            // 24 GB GDDR6, 300 GB/s, 72 W max power, PCIe Gen4 x16.
            Source {
                key: "DS",
                what: "https://www.nvidia.com/en-us/data-center/l4/",
            },
        ],
        sms: None,
        boost_mhz: None,
        bus_bits: None,
        l2_mb: None,
        cores: None,
        memory_gb: (24, "DS"),
        bandwidth_gb_s: (300, "DS"),
        tdp_w: (72, "DS"),
        pcie_gen: Some((4, "DS")),
    },
    Board {
        name: "rtx4090",
        cc: CC_8_9,
        sources: &[
            // 16,384 CUDA cores, 2.52 GHz boost, 24 GB GDDR6X, 384-bit, 450 W, PCIe Gen 4.
            Source {
                key: "SPEC",
                what: "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4090/",
            },
            // The appendix's RTX 4090 column: 128 SMs, 72 MB L2, 1,008 GB/s.
            Source {
                key: "WP",
                what: "https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf",
            },
        ],
        sms: Some((128, "WP")),
        boost_mhz: Some((2520, "SPEC")),
        bus_bits: Some((384, "SPEC")),
        l2_mb: Some((72, "WP")),
        cores: Some((16384, "SPEC")),
        memory_gb: (24, "SPEC"),
        bandwidth_gb_s: (1008, "WP"),
        tdp_w: (450, "SPEC"),
        pcie_gen: Some((4, "SPEC")),
    },
    Board {
        name: "b200",
        cc: CC_10_0,
        sources: &[
            // DGX B200: 8 GPUs, 1,440 GB and 64 TB/s of HBM3e in all.
            Source {
                key: "DS",
                what: "https://resources.nvidia.com/en-us-dgx-systems/dgx-b200-datasheet",
            },
            // Blackwell Tuning Guide, "Increased L2 Capacity": 126 MB.
            Source {
                key: "TG",
                what: "https://docs.nvidia.com/cuda/blackwell-tuning-guide/",
            },
            // HGX B200: up to 1,000 W a GPU.
            Source {
                key: "HGX",
                what: "https://www.nvidia.com/en-us/data-center/hgx/",
            },
        ],
        sms: None,
        boost_mhz: None,
        bus_bits: None,
        l2_mb: Some((126, "TG")),
        cores: None,
        memory_gb: (180, "DS"),
        bandwidth_gb_s: (8000, "DS"),
        tdp_w: (1000, "HGX"),
        pcie_gen: None,
    },
];

/// The published values of `board`: `(section, key) -> (value, source key)`.
fn published(board: &Board) -> BTreeMap<(&'static str, String), (i64, &'static str)> {
    let mut rows = BTreeMap::new();
    let mut put = |section: &'static str, key: &str, value: Option<(i64, &'static str)>| {
        if let Some(v) = value {
            rows.insert((section, key.to_string()), v);
        }
    };
    let pg = |v: i64| Some((v, PG.key));
    let c = &board.cc;
    for (key, value) in [
        ("COMPUTE_CAPABILITY_MAJOR", c.major),
        ("COMPUTE_CAPABILITY_MINOR", c.minor),
        ("MAX_THREADS_PER_BLOCK", 1024),
        ("MAX_BLOCK_DIM_X", 1024),
        ("MAX_BLOCK_DIM_Y", 1024),
        ("MAX_BLOCK_DIM_Z", 64),
        ("MAX_GRID_DIM_X", 2_147_483_647),
        ("MAX_GRID_DIM_Y", 65535),
        ("MAX_GRID_DIM_Z", 65535),
        ("WARP_SIZE", 32),
        ("TOTAL_CONSTANT_MEMORY", 64 * 1024),
        ("MAX_SHARED_MEMORY_PER_BLOCK", 48 * 1024),
        ("MAX_REGISTERS_PER_BLOCK", 64 * 1024),
        ("MAX_REGISTERS_PER_MULTIPROCESSOR", 64 * 1024),
        ("MAX_THREADS_PER_MULTIPROCESSOR", c.threads_per_sm),
        ("MAX_BLOCKS_PER_MULTIPROCESSOR", c.blocks_per_sm),
        (
            "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR",
            c.shared_per_sm_kb * 1024,
        ),
        (
            "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
            c.shared_per_block_optin_kb * 1024,
        ),
        // The 1 KB of shared memory per block "reserved for system use".
        ("RESERVED_SHARED_MEMORY_PER_BLOCK", 1024),
        ("SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO", c.fp32_per_fp64),
        ("CLUSTER_LAUNCH", c.clusters as i64),
        ("TENSOR_MAP_ACCESS_SUPPORTED", c.clusters as i64),
    ] {
        put(
            "attributes",
            &format!("CU_DEVICE_ATTRIBUTE_{key}"),
            pg(value),
        );
    }
    let attr = |key: &str| format!("CU_DEVICE_ATTRIBUTE_{key}");
    put("attributes", &attr("MULTIPROCESSOR_COUNT"), board.sms);
    put(
        "attributes",
        &attr("CLOCK_RATE"),
        board.boost_mhz.map(|(v, s)| (v * 1000, s)),
    );
    put(
        "attributes",
        &attr("GLOBAL_MEMORY_BUS_WIDTH"),
        board.bus_bits,
    );
    put(
        "attributes",
        &attr("L2_CACHE_SIZE"),
        board.l2_mb.map(|(v, s)| (v << 20, s)),
    );
    put("nvml", "max_clock_graphics", board.boost_mhz);
    put("nvml", "max_clock_sm", board.boost_mhz);
    put("nvml", "num_gpu_cores", board.cores);
    put("nvml", "memory_bus_width", board.bus_bits);
    let (tdp, tdp_source) = board.tdp_w;
    put("nvml", "power_limit", Some((tdp * 1000, tdp_source)));
    put(
        "nvml",
        "power_default_limit",
        Some((tdp * 1000, tdp_source)),
    );
    put("nvml", "pcie_link_gen_current", board.pcie_gen);
    put("nvml", "pcie_link_gen_max", board.pcie_gen);
    rows
}

/// The profiles made from NVIDIA's tables hold the tables' values: each value this file's
/// table gives is the profile's, and each line a profile marks `# published: KEY` is one of
/// them, from that source (a value marked published that no table here gives, or a source key
/// the header does not define, fails). The memory (NVML's total: CUDA's and the reserved) is
/// the published size in GiB; the memory clock times the bus width is the published bandwidth.
#[test]
fn the_published_boards_hold_nvidias_published_values() {
    for board in &BOARDS {
        let name = board.name;
        let text = std::fs::read_to_string(profile_path(name)).expect("profile");
        let file = profile(name);
        let rows = published(board);
        for ((section, key), (value, source)) in &rows {
            assert_eq!(
                int(&file, section, key),
                *value,
                "{name}: [{section}] {key}, published by {source}"
            );
        }
        // Every `# published: KEY` line is a row of the table, from that source.
        let mut section = String::new();
        let mut marked = 0;
        for line in text.lines() {
            if let Some(s) = line.strip_prefix('[') {
                section = s.trim_end_matches(']').to_string();
                continue;
            }
            // Only a setting's own comment (the header explains the mark).
            let setting_line = !line.starts_with('#');
            let Some((setting, source)) = line.split_once("# published: ").filter(|_| setting_line)
            else {
                continue;
            };
            let key = setting.split('=').next().unwrap().trim().to_string();
            let row = rows.get(&(section.as_str(), key.clone()));
            assert_eq!(
                row.map(|(_, s)| *s),
                Some(source.trim()),
                "{name}: [{section}] {key} is marked published by {source}, which this test's \
                 table does not say"
            );
            marked += 1;
        }
        assert!(
            marked >= 20,
            "{name}: only {marked} values marked published"
        );
        // Each source the table cites is defined in the profile's header, as its URL.
        for s in board.sources.iter().chain([&PG]) {
            let defined = format!("# {}: ", s.key);
            let header: String = text
                .lines()
                .take_while(|l| l.starts_with('#'))
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                header.contains(&defined),
                "{name}: the header defines no {}",
                s.key
            );
            if s.what.starts_with("https://") {
                assert!(header.contains(s.what), "{name}: {} is not cited", s.what);
            }
        }
        let (gb, source) = board.memory_gb;
        let nvml_total =
            int(&file, "device", "total_memory") + int(&file, "nvml", "memory_reserved");
        assert_eq!(
            nvml_total,
            gb << 30,
            "{name}: {gb} GB ({source}) as NVML's total, GiB"
        );
        let (bandwidth, source) = board.bandwidth_gb_s;
        let clock_khz = int(&file, "attributes", "CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE");
        let bus = int(
            &file,
            "attributes",
            "CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH",
        );
        // Double data rate: two transfers a clock, bus / 8 bytes each.
        let computed = clock_khz * 1000 * 2 * (bus / 8) / 1_000_000_000;
        assert!(
            (computed - bandwidth).abs() * 1000 <= bandwidth,
            "{name}: {computed} GB/s from the memory clock and bus, {bandwidth} published ({source})"
        );
        assert_eq!(
            int(&file, "nvml", "max_clock_memory") * 1000,
            clock_khz,
            "{name}: NVML's memory clock is the attribute's"
        );
    }
}

/// The one line of `run` starting with `prefix`, without it.
fn after<'a>(run: &'a Outcome, prefix: &str) -> &'a str {
    let found: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .collect();
    assert_eq!(found.len(), 1, "expected one line `{prefix}…`: {run}");
    found[0]
}

/// The listing's entry of each built-in profile, as the test reads it from the files.
fn expected_entries() -> Vec<String> {
    BUILT_IN
        .iter()
        .map(|name| {
            let p = profile(name);
            let memory = p["device"]["total_memory"].as_integer().unwrap();
            let tenths = (memory * 10 + (1 << 29)) >> 30;
            let cuda = int(&p, "driver", "cuda_version");
            format!(
                "{name}: {}, sm_{}{}, {}.{} GiB, driver {} (CUDA {}.{})",
                p["device"]["name"].as_str().unwrap(),
                int(
                    &p,
                    "attributes",
                    "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR"
                ),
                int(
                    &p,
                    "attributes",
                    "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR"
                ),
                tenths / 10,
                tenths % 10,
                p["driver"]["version"].as_str().unwrap(),
                cuda / 1000,
                cuda % 1000 / 10
            )
        })
        .collect()
}

/// `CUDA_STUBS_MOCK=list`: the runtime's status lists every built-in profile (name, board,
/// compute capability, memory, driver) and nothing is bound (the runtime answers its "no
/// library" code, as for a name that is not built in).
#[test]
fn list_names_every_built_in_profile_and_binds_nothing() {
    mock_built();
    let run = Scenario::probe(["cudaGetDeviceCount", "status:cudart"])
        .env("CUDA_STUBS_MOCK", "list")
        .run();
    run.assert_success();
    assert!(
        after(&run, "cudaGetDeviceCount rc=").starts_with("34 "),
        "{run}"
    );
    let message = after(&run, "status cudart message=");
    let head = "mock: CUDA_STUBS_MOCK=list: nothing bound (name a profile to use one); \
                the built-in profiles: ";
    let entries = message
        .split_once(head)
        .unwrap_or_else(|| panic!("no listing in {message:?}"))
        .1;
    let entries: Vec<&str> = entries.split("; ").collect();
    assert_eq!(entries, expected_entries());
    // The book shows the listing as `--mock-profiles` prints it.
    let book = std::fs::read_to_string(workspace_root().join("docs/src/testing-without-a-gpu.md"))
        .expect("the book's chapter");
    for entry in &entries {
        assert!(
            book.lines().any(|l| l == *entry),
            "the book's listing lacks {entry:?}"
        );
    }
    assert_eq!(
        entries[0],
        "h200: NVIDIA H200, sm_90, 139.8 GiB, driver 580.159.04 (CUDA 13.0)"
    );
}

/// `python -m cuda_stubs --mock-profiles`: one line each, the same entries, from the package's
/// own mock library (this tree's `python/cuda_stubs` with `lib` the stubs' folder, the wheel's
/// layout). Native only: the host's Python cannot load a cross build's library.
#[test]
fn python_lists_the_built_in_profiles() {
    if stubs_tests::cross_target().is_some() {
        eprintln!("skipped: a cross build's libraries do not load into the host's Python");
        return;
    }
    mock_built();
    let package = temp_dir("mock-profiles-python").join("cuda_stubs");
    std::fs::create_dir_all(&package).expect("package folder");
    for entry in std::fs::read_dir(workspace_root().join("python/cuda_stubs")).expect("list") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|x| x == "py") {
            stubs_tests::copy(&path, &package.join(path.file_name().expect("name")));
        }
    }
    std::os::unix::fs::symlink(stubs_dir(), package.join("lib")).expect("lib -> the stubs");
    let run = Scenario::new("python3")
        .args(["-m", "cuda_stubs", "--mock-profiles"])
        .env("PYTHONPATH", package.parent().expect("folder"))
        // The listing ignores the variable: it never binds a profile.
        .env("CUDA_STUBS_MOCK", "h200")
        .run();
    run.assert_success();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines, expected_entries(), "{run}");
    // No mock library (a package without it, as on Windows): exit 2, saying so.
    std::fs::remove_file(package.join("lib")).expect("unlink");
    std::fs::create_dir(package.join("lib")).expect("empty lib");
    let run = Scenario::new("python3")
        .args(["-m", "cuda_stubs", "--mock-profiles"])
        .env("PYTHONPATH", package.parent().expect("folder"))
        .run();
    assert_eq!(run.status.code(), Some(2), "{run}");
    assert!(run.stderr.contains("libcuda_stubs_mock.so"), "{run}");
}

/// A profile with an unknown field, a value of the wrong type or out of range, or a required
/// attribute missing: the status names the file, the line and the field, and the stubs bind
/// nothing (the runtime's `cudaErrorStubLibrary`, 34).
#[test]
fn a_bad_profile_names_the_file_line_and_field() {
    mock_built();
    let dir = temp_dir("mock-profiles-bad");
    let good = std::fs::read_to_string(profile_path("h200")).expect("h200");
    // `text` with the line starting `from` replaced by `to` (or removed, for an empty `to`).
    let edit = |from: &str, to: &str| -> (String, usize) {
        let at = good
            .lines()
            .position(|l| l.starts_with(from))
            .unwrap_or_else(|| panic!("no line {from}"));
        let mut lines: Vec<&str> = good.lines().collect();
        if to.is_empty() {
            lines.remove(at);
        } else {
            lines[at] = to;
        }
        (lines.join("\n"), at + 1)
    };
    let attributes_line = 1 + good.lines().position(|l| l == "[attributes]").unwrap();
    let cases = [
        (
            "unknown-attribute",
            edit(
                "CU_DEVICE_ATTRIBUTE_WARP_SIZE",
                "CU_DEVICE_ATTRIBUTE_WARP = 32",
            ),
            "[attributes] CU_DEVICE_ATTRIBUTE_WARP: no such CUdevice_attribute in cuda.h 13.5"
                .to_string(),
        ),
        (
            "unknown-nvml-field",
            edit("temperature", "fan_speed = 30"),
            "[nvml] fan_speed: unknown field `fan_speed`".to_string(),
        ),
        (
            "attribute-of-wrong-type",
            edit(
                "CU_DEVICE_ATTRIBUTE_WARP_SIZE",
                "CU_DEVICE_ATTRIBUTE_WARP_SIZE = \"32\"",
            ),
            "[attributes] CU_DEVICE_ATTRIBUTE_WARP_SIZE: invalid type: string \"32\", expected i64"
                .to_string(),
        ),
        (
            "nvml-of-wrong-type",
            edit("temperature", "temperature = -3"),
            "[nvml] temperature: invalid value: integer `-3`, expected u32".to_string(),
        ),
        (
            "warp-size-out-of-range",
            edit(
                "CU_DEVICE_ATTRIBUTE_WARP_SIZE",
                "CU_DEVICE_ATTRIBUTE_WARP_SIZE = 64",
            ),
            "[attributes] CU_DEVICE_ATTRIBUTE_WARP_SIZE: 64: 32 to 32".to_string(),
        ),
        (
            "block-out-of-range",
            edit(
                "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
                "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 2048",
            ),
            "[attributes] CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: 2048: 1 to 1024".to_string(),
        ),
        (
            "negative-size",
            edit(
                "CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE",
                "CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = -1",
            ),
            "[attributes] CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: -1: a count, size or flag, 0 or more"
                .to_string(),
        ),
        (
            "beyond-int",
            edit(
                "CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE",
                "CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 4294967296",
            ),
            "[attributes] CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: 4294967296: not an int".to_string(),
        ),
        (
            "compute-mode-out-of-range",
            edit("compute_mode", "compute_mode = 7"),
            "[nvml] compute_mode: 7: 0 to 3".to_string(),
        ),
    ];
    let mut cases: Vec<(&str, String, usize, String)> = cases
        .into_iter()
        .map(|(file, (text, line), why)| (file, text, line, why))
        .collect();
    // A required attribute missing: its section's line.
    let (text, _) = edit("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT", "");
    cases.push((
        "no-sm-count",
        text,
        attributes_line,
        "[attributes] CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: missing".to_string(),
    ));
    for (file, text, line, why) in cases {
        let path = dir.join(format!("{file}.toml"));
        std::fs::write(&path, text).unwrap();
        let run = Scenario::probe(["cudaGetDeviceCount", "status:cudart"])
            .env("CUDA_STUBS_MOCK", &path)
            .run();
        run.assert_success();
        assert!(
            after(&run, "cudaGetDeviceCount rc=").starts_with("34 "),
            "{file}: {run}"
        );
        let expected = format!("mock: profile {}: line {line}: {why}", path.display());
        let message = after(&run, "status cudart message=");
        assert!(
            message.contains(&expected),
            "{file}: expected {expected:?} in {message:?}"
        );
    }
}

/// The README's recipe (`CUDA_STUBS_MOCK=h200 cargo test`, the stubs' folder "this
/// repository's target/release") works: the README gives the command that builds the mock
/// there, and that command, run as written (but into this suite's target dir), leaves
/// `release/libcuda_stubs_mock.so` in it, where a plain `cargo build --release` of the
/// workspace never puts it (the mock is a cargo workspace of its own).
#[test]
fn the_readmes_command_builds_the_mock_where_the_recipe_looks() {
    if stubs_tests::memcheck_pass() || stubs_tests::cross_target().is_some() {
        return;
    }
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).expect("README");
    let command = "cargo build --release --manifest-path stub-mock/Cargo.toml --target-dir target";
    let line = readme
        .lines()
        .find(|l| l.starts_with(command))
        .unwrap_or_else(|| panic!("the README gives no `{command}` line"));
    assert!(
        line.contains("target/release/libcuda_stubs_mock.so"),
        "the README's line says where the mock goes: {line}"
    );
    assert!(
        readme.contains("CUDA_STUBS_MOCK=h200 cargo test"),
        "the recipe the command serves"
    );
    // The suite's target dir: the folder above the stubs' `debug` or `release`.
    let target = stubs_dir().parent().expect("the target dir").to_path_buf();
    let mut args: Vec<String> = command.split(' ').skip(1).map(String::from).collect();
    *args.last_mut().unwrap() = target.display().to_string();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let status = std::process::Command::new(cargo)
        .current_dir(workspace_root())
        .args(&args)
        .arg("--quiet")
        .status()
        .expect("cargo");
    assert!(status.success(), "the README's command failed: {args:?}");
    let built = target.join("release/libcuda_stubs_mock.so");
    assert!(
        Path::new(&built).is_file(),
        "{} missing after the README's command",
        built.display()
    );
}

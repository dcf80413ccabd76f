//! Builds the mock CUDA libraries the tests load instead of NVIDIA's: real shared objects with
//! the real sonames (`libcudart.so.12`, `libnvrtc.so.13`, `libcuda.so.1`, `libnvidia-ml.so.1` …), one directory per
//! variant under `$OUT_DIR/mocks`, plus the bad candidates (`bad/`): a 32-bit ELF, an ELF of
//! another machine, an empty file, a text file and a relocatable object.
//!
//! The tests find the directory through `env!("STUBS_TESTS_MOCKS")`, and the target triple
//! (for the `cc` crate at test time) through `env!("STUBS_TESTS_TARGET")`, and the machine
//! building them through `env!("STUBS_TESTS_HOST")` (differs when cross-built for aarch64).

use std::path::{Path, PathBuf};
use std::process::Command;

struct Mock {
    /// Directory under `mocks/`.
    dir: &'static str,
    /// Source under `tests/mocks/`.
    source: &'static str,
    /// File name and soname.
    soname: &'static str,
    /// `-D` definitions.
    defines: &'static [&'static str],
}

const MOCKS: &[Mock] = &[
    // cudart, one per major, the symbol set of that major.
    Mock {
        dir: "mock-11",
        source: "cudart.c",
        soname: "libcudart.so.11.0",
        defines: &["MOCK_MAJOR=11"],
    },
    Mock {
        dir: "mock-12",
        source: "cudart.c",
        soname: "libcudart.so.12",
        defines: &["MOCK_MAJOR=12"],
    },
    Mock {
        dir: "mock-13",
        source: "cudart.c",
        soname: "libcudart.so.13",
        defines: &["MOCK_MAJOR=13"],
    },
    // nvrtc, one per major, beside the cudart of the same major.
    Mock {
        dir: "mock-11",
        source: "nvrtc.c",
        soname: "libnvrtc.so.11.2",
        defines: &["MOCK_MAJOR=11"],
    },
    Mock {
        dir: "mock-12",
        source: "nvrtc.c",
        soname: "libnvrtc.so.12",
        defines: &["MOCK_MAJOR=12"],
    },
    Mock {
        dir: "mock-13",
        source: "nvrtc.c",
        soname: "libnvrtc.so.13",
        defines: &["MOCK_MAJOR=13"],
    },
    // Every symbol of every major exported; those the major lacks return 4242.
    Mock {
        dir: "mock-11-all",
        source: "cudart.c",
        soname: "libcudart.so.11.0",
        defines: &["MOCK_MAJOR=11", "MOCK_ALL_SYMBOLS"],
    },
    Mock {
        dir: "mock-11-all",
        source: "nvrtc.c",
        soname: "libnvrtc.so.11.2",
        defines: &["MOCK_MAJOR=11", "MOCK_ALL_SYMBOLS"],
    },
    Mock {
        dir: "mock-13-all",
        source: "cudart.c",
        soname: "libcudart.so.13",
        defines: &["MOCK_MAJOR=13", "MOCK_ALL_SYMBOLS"],
    },
    Mock {
        dir: "mock-13-all",
        source: "nvrtc.c",
        soname: "libnvrtc.so.13",
        defines: &["MOCK_MAJOR=13", "MOCK_ALL_SYMBOLS"],
    },
    // A 12 that lacks most symbols (cudaGetDeviceCount among them).
    Mock {
        dir: "mock-12-partial",
        source: "cudart.c",
        soname: "libcudart.so.12",
        defines: &["MOCK_MAJOR=12", "MOCK_PARTIAL"],
    },
    // A 12 whose cudaRuntimeGetVersion fails (35): the soname gives the version.
    Mock {
        dir: "mock-12-noversion",
        source: "cudart.c",
        soname: "libcudart.so.12",
        defines: &["MOCK_MAJOR=12", "MOCK_VERSION_FAILS"],
    },
    // A 12 whose constructor calls cudaGetDeviceCount through the global scope: the stub's own
    // export, from inside the stub's search.
    Mock {
        dir: "mock-12-reenter",
        source: "cudart.c",
        soname: "libcudart.so.12",
        defines: &["MOCK_MAJOR=12", "MOCK_REENTER"],
    },
    // A libcudart.so.13 that reports 10.2: too old, rejected.
    Mock {
        dir: "mock-too-old",
        source: "cudart.c",
        soname: "libcudart.so.13",
        defines: &["MOCK_MAJOR=13", "MOCK_REPORTED_VERSION=10020"],
    },
    // The driver: a 13.0 one (R580), a 12.8 one, a 12.4 one (R550: runs 12.x, not 13.x), and an
    // old 11.8 one exporting 12.x entry points anyway.
    Mock {
        dir: "mock-driver",
        source: "cuda.c",
        soname: "libcuda.so.1",
        defines: &["MOCK_DRIVER_VERSION=13000"],
    },
    Mock {
        dir: "mock-driver-12.4",
        source: "cuda.c",
        soname: "libcuda.so.1",
        defines: &["MOCK_DRIVER_VERSION=12040"],
    },
    Mock {
        dir: "mock-driver-12",
        source: "cuda.c",
        soname: "libcuda.so.1",
        defines: &["MOCK_DRIVER_VERSION=12080"],
    },
    Mock {
        dir: "mock-driver-11",
        source: "cuda.c",
        soname: "libcuda.so.1",
        defines: &["MOCK_DRIVER_VERSION=11080", "MOCK_ALL_SYMBOLS"],
    },
    // The stand-in driver: checks the device code it is handed as a real driver of
    // `STAND_IN_DRIVER_VERSION` does on an `STAND_IN_DEVICE_SM` device (configured at run time).
    Mock {
        dir: "stand-in-driver",
        source: "stand_in_driver.c",
        soname: "libcuda.so.1",
        defines: &[],
    },
    // NVML of a driver serving CUDA 13, and of one serving CUDA 12.
    Mock {
        dir: "mock-nvml-13",
        source: "nvml.c",
        soname: "libnvidia-ml.so.1",
        defines: &["MOCK_CUDA_MAJOR=13"],
    },
    Mock {
        dir: "mock-nvml-12",
        source: "nvml.c",
        soname: "libnvidia-ml.so.1",
        defines: &["MOCK_CUDA_MAJOR=12"],
    },
    // cuRAND's one soname of every major, of 12.x and of 13.x (only its version call).
    Mock {
        dir: "mock-curand-12",
        source: "curand.c",
        soname: "libcurand.so.10",
        defines: &["MOCK_CURAND_VERSION=10310"],
    },
    Mock {
        dir: "mock-curand-13",
        source: "curand.c",
        soname: "libcurand.so.10",
        defines: &["MOCK_CURAND_VERSION=10400"],
    },
    // A runtime that records the device code it is handed (PTX newer than the driver,
    // issue 36), with a driver version and device configured at run time.
    Mock {
        dir: "mock-device-code",
        source: "cudart_device_code.c",
        soname: "libcudart.so.13",
        defines: &[],
    },
    // nvJitLink 12.1's export shape: per-version names only (no plain names, no version call).
    Mock {
        dir: "mock-nvjitlink-12.1",
        source: "nvjitlink.c",
        soname: "libnvJitLink.so.12",
        defines: &[],
    },
];

/// Mock variants whose libcudart also gets `mocks/cudart_abi.c` and `mocks/cudart_launch.c`.
const ABI_MOCK_DIRS: &[&str] = &["mock-11", "mock-12", "mock-13"];

fn main() {
    let manifest =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("mocks");
    let target = std::env::var("TARGET").expect("TARGET");
    println!("cargo:rerun-if-changed=mocks");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-env=STUBS_TESTS_MOCKS={}", out.display());
    println!("cargo:rustc-env=STUBS_TESTS_TARGET={target}");
    let host = std::env::var("HOST").expect("HOST");
    println!("cargo:rustc-env=STUBS_TESTS_HOST={host}");

    let compiler = cc::Build::new().get_compiler();
    for mock in MOCKS {
        let dir = out.join(mock.dir);
        std::fs::create_dir_all(&dir).expect("create mock dir");
        let mut cmd = compiler.to_command();
        cmd.args(["-shared", "-fPIC", "-O1", "-Wall", "-Wextra", "-Werror"])
            .arg(format!("-Wl,-soname,{}", mock.soname))
            .args(mock.defines.iter().map(|d| format!("-D{d}")))
            .arg("-o")
            .arg(dir.join(mock.soname))
            .arg(manifest.join("mocks").join(mock.source));
        // The plain per-major runtimes also carry the ABI mock (each major's real prototypes and
        // layouts of the functions the stub adapts) and the launch-path mock (what nvcc's host
        // code calls, with each major's entry points, recording every launch).
        if mock.source == "cudart.c" && ABI_MOCK_DIRS.contains(&mock.dir) {
            cmd.arg(manifest.join("mocks/cudart_abi.c"))
                .arg(manifest.join("mocks/cudart_launch.c"));
        }
        run(cmd, mock.soname);
    }

    let bad = out.join("bad");
    std::fs::create_dir_all(&bad).expect("create bad dir");
    std::fs::write(bad.join("empty"), b"").expect("write empty");
    std::fs::write(bad.join("not-elf"), b"INPUT(libcudart.so.12.9.79)\n").expect("write text");
    elf32(
        &compiler,
        &manifest.join("mocks/elf32.c"),
        &bad.join("elf32"),
    );
    // A relocatable object (ET_REL): right class and machine, but dlopen refuses it.
    let mut cmd = compiler.to_command();
    cmd.args(["-c", "-fPIC", "-DMOCK_MAJOR=12", "-o"])
        .arg(bad.join("relocatable"))
        .arg(manifest.join("mocks/cudart.c"));
    run(cmd, "relocatable");
    // An x86-64 mock whose e_machine says aarch64 (183), or x86-64 (62) on an aarch64 host.
    let mut bytes = std::fs::read(out.join("mock-12/libcudart.so.12")).expect("read mock");
    let other: u16 = if target.starts_with("aarch64") {
        62
    } else {
        183
    };
    bytes[18..20].copy_from_slice(&other.to_le_bytes());
    std::fs::write(bad.join("wrong-machine"), bytes).expect("write wrong machine");
}

fn run(mut cmd: Command, what: &str) {
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("{what}: cannot run the compiler: {e}"));
    assert!(status.success(), "{what}: compiler failed: {cmd:?}");
}

/// A 32-bit ELF shared object: compiled with `-m32` where the compiler can, else a bare ELF32
/// header written by hand (52 bytes, `EI_CLASS` 1, `ET_DYN`, `EM_386`).
fn elf32(compiler: &cc::Tool, source: &Path, dest: &Path) {
    let built = compiler
        .to_command()
        .args(["-m32", "-shared", "-nostdlib", "-fPIC", "-o"])
        .arg(dest)
        .arg(source)
        .status()
        .is_ok_and(|s| s.success());
    if built {
        return;
    }
    let mut h = vec![0u8; 52];
    h[..4].copy_from_slice(b"\x7fELF");
    h[4] = 1; // ELFCLASS32
    h[5] = 1; // little endian
    h[6] = 1; // EV_CURRENT
    h[16..18].copy_from_slice(&3u16.to_le_bytes()); // ET_DYN
    h[18..20].copy_from_slice(&3u16.to_le_bytes()); // EM_386
    h[20..24].copy_from_slice(&1u32.to_le_bytes()); // e_version
    h[40..42].copy_from_slice(&52u16.to_le_bytes()); // e_ehsize
    std::fs::write(dest, h).expect("write elf32");
}

//! The mock device with a CUDA 12 driver (issue 48 item 4): `tests/data/a100-r535.toml`, an
//! A100 on driver 535 (CUDA 12.2). Its runtime is the release the stubs bind on such a driver,
//! 12.9 (`Model::runtime_version`), not the mock's 13.5, which a 12.x driver refuses: programs
//! built against 12.x headers (linked to `libstubs_cudart_abi12`) and against 13.x headers both
//! run, the stubs translating either to the mock's 13.5 entry points
//! (`stub_loader::Loaded::abi_major`); what 13.x added is refused as a 12.x runtime
//! refuses it (the stub's gating: it never reaches the mock); PTX above the driver's ISA (8.2)
//! is refused with `CUDA_ERROR_UNSUPPORTED_PTX_VERSION`; and a driver older than any runtime the
//! mock can be (11.x) gets `cudaErrorInsufficientDriver` from the runtime while its own API
//! answers.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::{
    MOCK_PACKAGE, Outcome, Scenario, build_stubs, compile_c, cuda_include_args, temp_dir,
    workspace_root,
};

/// The program: the runtime's and the driver's views of the device, memory, PTX of three ISAs,
/// and (built against 13.x headers) a function 13.0 added. One line per step.
const PROGRAM: &str = r#"
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

static const char *ptx(const char *isa, const char *target) {
  static char text[512];
  snprintf(text, sizeof text,
           ".version %s\n.target %s\n.address_size 64\n\n.visible .entry k()\n{\n\tret;\n}\n",
           isa, target);
  return text;
}

int main(void) {
  int rt = -1, drv = -1, n = -1;
  cudaError_t e = cudaRuntimeGetVersion(&rt);
  printf("runtime rc=%d version=%d\n", (int)e, rt);
  e = cudaDriverGetVersion(&drv);
  printf("runtime's driver rc=%d version=%d\n", (int)e, drv);
  e = cudaGetDeviceCount(&n);
  printf("count rc=%d n=%d\n", (int)e, n);
  struct cudaDeviceProp p;
  memset(&p, 0, sizeof p);
  e = cudaGetDeviceProperties(&p, 0);
  printf("props rc=%d name=%s cc=%d.%d sms=%d l2=%d optin=%zu\n", (int)e, p.name, p.major,
         p.minor, p.multiProcessorCount, p.l2CacheSize, p.sharedMemPerBlockOptin);
#if CUDART_VERSION < 13000
  /* Fields 13.0 removed: the stub fills 12's layout from the 13.5 entry points. */
  printf("props 12.x rc=%d clockRate=%d memoryClockRate=%d\n", (int)e, p.clockRate,
         p.memoryClockRate);
#endif
  int value = -1;
  e = cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
  printf("attribute rc=%d shared per SM=%d\n", (int)e, value);
  void *d = NULL;
  char in[64], out[64];
  for (int i = 0; i < 64; i++) in[i] = (char)i;
  memset(out, 0, sizeof out);
  cudaError_t m = cudaMalloc(&d, sizeof in);
  cudaError_t c1 = cudaMemcpy(d, in, sizeof in, cudaMemcpyHostToDevice);
  cudaError_t c2 = cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
  cudaError_t f = cudaFree(d);
  printf("memory rc=%d,%d,%d,%d same=%d\n", (int)m, (int)c1, (int)c2, (int)f,
         !memcmp(in, out, sizeof in));
#if CUDART_VERSION >= 13000
  size_t params = 0;
  e = cudaFuncGetParamCount((const void *)main, &params);
  printf("13.0 function rc=%d\n", (int)e);
#endif
  CUresult r = cuInit(0);
  int v = -1;
  CUresult r2 = cuDriverGetVersion(&v);
  printf("driver rc=%d,%d version=%d\n", (int)r, (int)r2, v);
  CUdevice dev = 0;
  CUcontext ctx = NULL;
  r = cuDeviceGet(&dev, 0);
  r2 = cuDevicePrimaryCtxRetain(&ctx, dev);
  CUresult r3 = cuCtxSetCurrent(ctx);
  printf("context rc=%d,%d,%d\n", (int)r, (int)r2, (int)r3);
  static const char *const isas[][2] = {
      {"8.0", "sm_80"}, {"8.2", "sm_80"}, {"8.3", "sm_80"}, {"9.0", "sm_80"}, {"8.0", "sm_90"}};
  for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
    CUmodule mod = NULL;
    r = cuModuleLoadData(&mod, ptx(isas[i][0], isas[i][1]));
    printf("PTX %s %s rc=%d\n", isas[i][0], isas[i][1], (int)r);
    if (r == CUDA_SUCCESS) cuModuleUnload(mod);
  }
  return 0;
}
"#;

/// The folder of the stubs the program links and of the mock, built (only those).
fn stubs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        build_stubs(&["stubs-cudart", "stubs-cudart-abi12", "stubs-cuda"]);
        build_stubs(&[MOCK_PACKAGE])
    })
}

/// The program built against CUDA `major`'s headers, linked as such code links the runtime stub
/// (13: `libstubs_cudart`; 12: the link-time stub `libstubs_cudart_abi12`), and the driver's.
fn program(major: u32) -> &'static Path {
    static PROGRAMS: OnceLock<[PathBuf; 2]> = OnceLock::new();
    let built = PROGRAMS.get_or_init(|| {
        let stubs = stubs();
        let dir = temp_dir("mock-driver12-source");
        let source = dir.join("mock_driver12.c");
        std::fs::write(&source, PROGRAM).expect("write the program");
        [12, 13].map(|major| {
            let mut args = cuda_include_args(major);
            args.push(format!("-L{}", stubs.display()).into());
            let cudart = if major == 12 {
                "-lstubs_cudart_abi12"
            } else {
                "-lstubs_cudart"
            };
            args.push(cudart.into());
            args.push("-lstubs_cuda".into());
            args.push(format!("-Wl,-rpath,{}", stubs.display()).into());
            let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
            compile_c(&format!("mock_driver12_abi{major}"), &[&source], &refs)
        })
    });
    &built[usize::from(major == 13)]
}

fn a100_r535() -> PathBuf {
    workspace_root().join("tests/data/a100-r535.toml")
}

fn run(major: u32, profile: &Path) -> Outcome {
    let run = Scenario::new(program(major))
        .env("CUDA_STUBS_MOCK", profile)
        .debug()
        .run();
    run.assert_success();
    run
}

/// What the program prints on the A100 / 535 profile whatever headers it was built against:
/// a 12.9 runtime on a 12.2 driver, the board's values, memory, and the driver's PTX rules
/// (ISA 8.2 the newest it compiles: 222 above; sm_90 code on sm_80: 209).
fn assert_works_on_a_12_2_driver(run: &Outcome) {
    run.assert_line("runtime rc=0 version=12090")
        .assert_line("runtime's driver rc=0 version=12020")
        .assert_line("count rc=0 n=1")
        .assert_line(
            "props rc=0 name=NVIDIA A100-SXM4-80GB cc=8.0 sms=108 l2=41943040 optin=166912",
        )
        .assert_line("attribute rc=0 shared per SM=167936")
        .assert_line("memory rc=0,0,0,0 same=1")
        .assert_line("driver rc=0,0 version=12020")
        .assert_line("context rc=0,0,0")
        .assert_line("PTX 8.0 sm_80 rc=0")
        .assert_line("PTX 8.2 sm_80 rc=0")
        .assert_line("PTX 8.3 sm_80 rc=222")
        .assert_line("PTX 9.0 sm_80 rc=222")
        .assert_line("PTX 8.0 sm_90 rc=209");
    assert!(
        run.bound("cudart").contains("(version 12090)"),
        "the runtime stub records a 12.9 runtime: {run}"
    );
}

/// Built against CUDA 12.9's headers (`libstubs_cudart_abi12`): the 12.x layout of
/// `cudaDeviceProp` (with the fields 13.0 removed) filled from the mock.
#[test]
fn a_program_built_against_12_headers_runs_on_a_12_2_driver() {
    let run = run(12, &a100_r535());
    assert_works_on_a_12_2_driver(&run);
    run.assert_line("props 12.x rc=0 clockRate=1410000 memoryClockRate=1593000");
}

/// Built against CUDA 13.5's headers: on a 12.x driver the stubs run it on the 12.9 runtime, as
/// on a real machine; a function 13.0 added is refused by the stub (gated: absent in CUDA 12)
/// and never reaches the mock, where on the h200 profile's 13.0 driver the mock answers it.
#[test]
fn a_program_built_against_13_headers_runs_and_13_0_s_functions_are_refused() {
    let run = run(13, &a100_r535());
    assert_works_on_a_12_2_driver(&run);
    assert!(
        run.debug("cudart")
            .iter()
            .any(|l| l.starts_with("cudaFuncGetParamCount: absent in CUDA 12")),
        "the 12.9 runtime has no cudaFuncGetParamCount: {run}"
    );
    assert_ne!(run.line("13.0 function"), "13.0 function rc=0", "{run}");
    assert!(
        !run.stderr.contains("cudaFuncGetParamCount: not modelled"),
        "the stub refused it, the mock never saw it: {run}"
    );

    // The same program on the h200 profile (driver 13.0): a 13.5 runtime, and the call reaches
    // the mock (not modelled there: its own "not supported" line, not the stub's gate).
    let h200 = Scenario::new(program(13))
        .env("CUDA_STUBS_MOCK", "h200")
        .debug()
        .run();
    h200.assert_success()
        .assert_line("runtime rc=0 version=13050")
        .assert_line("runtime's driver rc=0 version=13000")
        .assert_line("PTX 9.0 sm_80 rc=0");
    assert!(
        !h200
            .debug("cudart")
            .iter()
            .any(|l| l.starts_with("cudaFuncGetParamCount: absent")),
        "{h200}"
    );
    assert!(
        h200.stderr
            .contains("cudaFuncGetParamCount: not modelled by the mock device"),
        "{h200}"
    );
}

/// A driver older than any runtime the mock can be (CUDA 11.8: the mock implements no 11.x
/// runtime): every runtime call answers `cudaErrorInsufficientDriver` (35), as a 12.x runtime
/// does on that driver, while the driver's own API answers (and refuses PTX above 11.8's 7.8).
#[test]
fn an_11_x_driver_refuses_the_runtime() {
    let text = std::fs::read_to_string(a100_r535()).expect("the profile");
    let old = text
        .replace("cuda_version = 12020", "cuda_version = 11080")
        .replace("version = \"535.183.01\"", "version = \"520.61.05\"");
    assert_ne!(old, text);
    let file = temp_dir("mock-driver11").join("a100-r520.toml");
    std::fs::write(&file, old).expect("write the profile");
    let run = run(12, &file);
    run.assert_line("runtime rc=0 version=12090")
        .assert_line("runtime's driver rc=0 version=11080")
        .assert_line("count rc=35 n=-1")
        .assert_line("memory rc=35,35,35,35 same=0")
        .assert_line("driver rc=0,0 version=11080")
        .assert_line("PTX 8.0 sm_80 rc=222");
}

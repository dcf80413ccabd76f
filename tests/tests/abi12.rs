//! CUDA 12's ABI from the one runtime stub: a C program compiled against the real 12.9 headers
//! and linked against the link-time stub `libstubs_cudart_abi12.so` (`-lstubs_cudart_abi12`,
//! what `cuda-stubs-cudart-12.pc` links) records `name@CUDA_STUBS_CUDART_12` for the names
//! whose 12.x and 13.x prototypes differ, and runs on the mock 11.x, 12.x and 13.x runtimes
//! through `libstubs_cudart.so`'s CUDA 12 implementations.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stubs_tests::mock_values::{attr, mock_int, mock_size};
use stubs_tests::{Scenario, compile_c, cuda_include_args, mock, stubs_dir};

fn program() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        let dir = stubs_dir();
        let mut args = cuda_include_args(12);
        args.push(OsString::from(format!("-L{}", dir.display())));
        args.push("-lstubs_cudart_abi12".into());
        args.push(OsString::from(format!("-Wl,-rpath,{}", dir.display())));
        args.push("-ldl".into());
        let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        compile_c("abi12", &[Path::new("c/abi12.c")], &refs)
    })
}

#[test]
fn twelve_abi_reaches_the_12_runtime_with_its_own_prototype() {
    let run = Scenario::new(program())
        .library_path([mock("mock-12")])
        .run();
    run.assert_success()
        .assert_line("header=12090")
        .assert_line("runtime=12090")
        .assert_line("deps=0")
        .assert_line(
            "calls=cudaGraphAddDependencies graph=0x77 from=0x101,0x102 to=0x201,0x202 edges=- n=2",
        );
}

/// Asserts every line of `expected` (one per line, leading spaces trimmed) is in the output.
fn assert_lines(run: &stubs_tests::Outcome, expected: &str) {
    for line in expected.lines().map(str::trim).filter(|l| !l.is_empty()) {
        run.assert_line(line);
    }
}

/// What a 12.x caller gets from the families translated for 13.x and forwarded on 11.x /
/// 12.x: the same results and outputs on every major (values per major from the mock).
fn assert_same_answers(run: &stubs_tests::Outcome, major: u32) {
    let m = format!("{major:x}");
    assert_lines(
        run,
        &format!(
            "deps=0
             remove=0
             edges=0 n=3
             edges_from=0x200{m},0x201{m},0x202{m},0
             edges_to=0x300{m},0x301{m},0x302{m},0
             edges_count=0 n=3
             node_deps=0 n=2
             node_deps_list=0x400{m},0x401{m}
             dependents_bad=400 n=2
             dependents_list=0x5555,0x5555
             advise=0
             advise_cpu=0
             prefetch=0
             prefetch_ptsz=1
             capture=0 status=1 id={id}
             capture_bad=400 status=-1 id=0
             update=0
             update_ptsz=0
             ptr=0 type=2 device={major} devptr=0x7000 hostptr=0x700{m} tail=1
             ptr_null=1
             props_bad=101 untouched=1
             choose=0 device={dev}
             choose_null=1 device=-1
             tex=0 obj=0x7e0{m}
             surf=0 obj=0x5f0{m}
             tex_res=0 type=3 ptr=0xd00{m} desc=8,16,0,0,{major} w={w} h={h} pitch={pitch} tail=1
             surf_res_bad=400 untouched=1
             view=0 format=1 w={vw} h={vh} d={vd} mip=1-{vmip} layer=3-{vlayer} tail=1
             tex_desc=0 addr=1,2,3 filter=1 aniso={aniso} border3={border3} max={major} seamless={major}
             extmem=0 mem=0xe10{m}
             buffer=0 ptr=0xe20{m}
             buffer_bad=400 ptr=0x5555
             mipmap=0 array=0xe30{m}
             extsem=0 sem=0xe40{m}
             signal=0
             signal_ptsz=0
             wait=0
             wait_bad=400",
            id = 7000 + major,
            w = 100 + major,
            h = 200 + major,
            pitch = 512 + major,
            vw = 10 + major,
            vh = 20 + major,
            vd = 30 + major,
            vmip = 2 + major,
            vlayer = 4 + major,
            aniso = 4 + major,
            border3 = f64::from(major) + 1.5,
            dev = 10 + major,
        ),
    );
}

/// What the texture / external-memory / semaphore calls hand the runtime: the same fields on
/// every major; 13.x's widened layouts show their zeroed `flags` / `reserved`. 11.x creates the
/// texture through `cudaCreateTextureObject_v2` (72-byte descriptor, `seamlessCubemap` kept).
fn assert_descriptor_calls(run: &stubs_tests::Outcome, major: u32) {
    let m = format!("{major:x}");
    let (flags, reserved) = if major >= 13 {
        (" flags=0", " reserved=0")
    } else {
        ("", "")
    };
    let create = if major == 11 {
        "cudaCreateTextureObject_v2"
    } else {
        "cudaCreateTextureObject"
    };
    let get_tex = if major == 11 {
        "cudaGetTextureObjectTextureDesc_v2"
    } else {
        "cudaGetTextureObjectTextureDesc"
    };
    assert_lines(
        run,
        &format!(
            "calls={create} res={{type=3 ptr=0xd100 desc=8,16,0,0,2 w=64 h=32 pitch=256{flags}}} tex={{addr=1,2,0 filter=1 read=0 srgb=0 border=0,0,0,0 norm=1 aniso=2 mipfilter=0 bias=0 min=0 max=0 notrilinear=0 seamless=1}} view={{format=22 w=64 h=32 d=0 mip=0-2 layer=0-1{reserved}}}
             calls=cudaCreateSurfaceObject res={{type=3 ptr=0xd100 desc=8,16,0,0,2 w=64 h=32 pitch=256{flags}}}
             calls=cudaGetTextureObjectResourceDesc object=0x7e0d
             calls=cudaGetSurfaceObjectResourceDesc object=0xbad
             calls=cudaGetTextureObjectResourceViewDesc object=0x7e0d
             calls={get_tex} object=0x7e0d
             calls=cudaImportExternalMemory type=2 handle=0x1234 name=0x5678 size=4096 flags=1{reserved}
             calls=cudaExternalMemoryGetMappedBuffer mem=0xe10{m} offset=16 size=1024 flags=0{reserved}
             calls=cudaExternalMemoryGetMappedBuffer mem=0xbad offset=16 size=1024 flags=0{reserved}
             calls=cudaExternalMemoryGetMappedMipmappedArray mem=0xe10{m} offset=32 format=32,0,0,0,2 extent=64,32,1 flags=0 numLevels=3{reserved}
             calls=cudaImportExternalSemaphore type=1 fd=7 flags=0{reserved}
             calls=cudaSignalExternalSemaphoresAsync sem=0x4001 fence=42 key=9 flags=1 n=2 stream=0x5000 last=44,11,0,0
             calls=cudaSignalExternalSemaphoresAsync_ptsz sem=0x4001 fence=42 key=9 flags=1 n=1 stream=0x5001
             calls=cudaWaitExternalSemaphoresAsync sem=0x4001 fence=100 key=200 flags=0 n=10 stream=0x5002 last=109,209,309,1
             calls=cudaWaitExternalSemaphoresAsync_ptsz sem=0xbad fence=100 key=200 flags=0 n=1 stream=0x5003"
        ),
    );
}

#[test]
fn twelve_abi_is_forwarded_unchanged_on_11_and_12() {
    for major in [11, 12] {
        let run = Scenario::new(program())
            .library_path([mock(&format!("mock-{major}"))])
            .run();
        run.assert_success();
        assert_same_answers(&run, major);
        assert_descriptor_calls(&run, major);
        // Each call reached the runtime's own plain name with its 12.x (= 11.x) prototype.
        assert_lines(
            &run,
            "calls=cudaGraphRemoveDependencies graph=0x78 from=0x101,0x102 to=0x201,0x202 edges=- n=2
             calls=cudaGraphGetEdges handle=0x79 from=1 to=1 edges=- num=4
             calls=cudaGraphGetEdges handle=0x79 from=0 to=0 edges=- num=0
             calls=cudaGraphNodeGetDependencies handle=0x7a from=0 to=1 edges=- num=2
             calls=cudaGraphNodeGetDependentNodes handle=0xbad from=0 to=1 edges=- num=2
             calls=cudaMemAdvise ptr=0x5000 count=64 advice=3 device=3
             calls=cudaMemAdvise ptr=0x5000 count=64 advice=5 device=-1
             calls=cudaMemPrefetchAsync ptr=0x5000 count=64 device=-1 stream=0x99
             calls=cudaMemPrefetchAsync_ptsz ptr=0x5000 count=0 device=3 stream=0x98
             calls=cudaStreamGetCaptureInfo stream=0x55 status=1 id=1 graph=0 deps=0 edges=- num=0
             calls=cudaStreamGetCaptureInfo_ptsz stream=0xbad status=1 id=1 graph=0 deps=0 edges=- num=0
             calls=cudaStreamUpdateCaptureDependencies stream=0x56 deps=0x301,0x302 edges=- n=2 flags=1
             calls=cudaStreamUpdateCaptureDependencies_ptsz stream=0x57 deps=0x301 edges=- n=1 flags=0
             calls=cudaChooseDevice prop=null",
        );
        // The plain cudaGetDeviceProperties export: 11.8's 728-byte layout on both (12.x's
        // legacy export; the mock-12 marks it with sms=4242), nothing written past it.
        let sms = if major == 12 {
            4242
        } else {
            mock_int("multiProcessorCount", major)
        };
        run.assert_line(&format!(
            "props=0 name=mock-{major} major={} sms={sms} totalGlobalMem={:#x} clockRate={} \
             memoryClockRate={} computeMode={} coopMulti={} reservedShm={:#x} tail=1",
            mock_int("major", major),
            mock_size("totalGlobalMem", major),
            mock_int("clockRate", major),
            mock_int("memoryClockRate", major),
            mock_int("computeMode", major),
            mock_int("cooperativeMultiDeviceLaunch", major),
            mock_size("reservedSharedMemPerBlock", major),
        ));
    }
    // cudaChooseDevice: 12.x reads the caller's 1032-byte struct as it is; 11.x gets it
    // converted to its 728-byte layout (clusterLaunch, a 12.x field, dropped).
    Scenario::new(program())
        .library_path([mock("mock-12")])
        .run()
        .assert_line(
            "calls=cudaChooseDevice size=1032 name=want major=8 minor=6 totalGlobalMem=123 \
             sms=44 clockRate=777 clusterLaunch=1",
        );
    Scenario::new(program())
        .library_path([mock("mock-11")])
        .run()
        .assert_line(
            "calls=cudaChooseDevice size=728 name=want major=8 minor=6 totalGlobalMem=123 \
             sms=44 clockRate=777",
        );
}

#[test]
fn twelve_abi_is_translated_for_a_13_runtime() {
    let run = Scenario::new(program())
        .library_path([mock("mock-13")])
        .run();
    run.assert_success().assert_line("runtime=13000");
    assert_same_answers(&run, 13);
    // Descriptors widened to 13.x's layouts (zero `flags` / `reserved`); the _v1 semaphore
    // parameters converted entry by entry (2 on the stack, 10 through malloc).
    assert_descriptor_calls(&run, 13);
    // What arrived at 13.x's plain names: NULL edge data (default edges / not returned), a
    // cudaMemLocation for the int device (-1 = cudaCpuDeviceId → Host:0, n → Device:n) and
    // prefetch flags 0, the legacy capture-info outputs only.
    assert_lines(
        &run,
        "calls=cudaGraphAddDependencies graph=0x77 from=0x101,0x102 to=0x201,0x202 edges=null n=2
         calls=cudaGraphRemoveDependencies graph=0x78 from=0x101,0x102 to=0x201,0x202 edges=null n=2
         calls=cudaGraphGetEdges handle=0x79 from=1 to=1 edges=0 num=4
         calls=cudaGraphGetEdges handle=0x79 from=0 to=0 edges=0 num=0
         calls=cudaGraphNodeGetDependencies handle=0x7a from=0 to=1 edges=0 num=2
         calls=cudaGraphNodeGetDependentNodes handle=0xbad from=0 to=1 edges=0 num=2
         calls=cudaMemAdvise ptr=0x5000 count=64 advice=3 location=1:3
         calls=cudaMemAdvise ptr=0x5000 count=64 advice=5 location=2:0
         calls=cudaMemPrefetchAsync ptr=0x5000 count=64 location=2:0 flags=0 stream=0x99
         calls=cudaMemPrefetchAsync_ptsz ptr=0x5000 count=0 location=1:3 flags=0 stream=0x98
         calls=cudaStreamGetCaptureInfo stream=0x55 status=1 id=1 graph=0 deps=0 edges=0 num=0
         calls=cudaStreamGetCaptureInfo_ptsz stream=0xbad status=1 id=1 graph=0 deps=0 edges=0 num=0
         calls=cudaStreamUpdateCaptureDependencies stream=0x56 deps=0x301,0x302 edges=null n=2 flags=1
         calls=cudaStreamUpdateCaptureDependencies_ptsz stream=0x57 deps=0x301 edges=null n=1 flags=0
         calls=cudaChooseDevice size=1008 name=want major=8 minor=6 totalGlobalMem=123 sms=44 clusterLaunch=1 deviceNumaId=0
         calls=cudaChooseDevice prop=null",
    );
    // The plain cudaGetDeviceProperties (728 bytes) from 13.x's 1008-byte answer: shared fields
    // copied, those 13.0 removed from cudaDeviceGetAttribute (clockRate 13, memoryClockRate 36,
    // computeMode 20; cooperativeMultiDeviceLaunch 96 fails on the mock: 0).
    run.assert_line(&format!(
        "props=0 name=mock-13 major={} sms={} totalGlobalMem={:#x} clockRate={} \
         memoryClockRate={} computeMode={} coopMulti=0 reservedShm={:#x} tail=1",
        mock_int("major", 13),
        mock_int("multiProcessorCount", 13),
        mock_size("totalGlobalMem", 13),
        attr(13, 13),
        attr(36, 13),
        attr(20, 13),
        mock_size("reservedSharedMemPerBlock", 13),
    ));
}

/// The line after `line` (each result line is followed by what the mock received).
fn after<'a>(run: &'a stubs_tests::Outcome, line: &str) -> &'a str {
    let lines: Vec<&str> = run.stdout.lines().collect();
    let i = lines
        .iter()
        .position(|l| *l == line)
        .unwrap_or_else(|| panic!("expected the line `{line}`: {run}"));
    lines.get(i + 1).copied().unwrap_or_default()
}

#[test]
fn node_params_and_batch_copies() {
    // 13.x: the 12.x struct copied, 13.0's fields of the selected member defaulted although the
    // caller left 0xAB bytes there; AddNode without edge data; alloc.dptr copied back on
    // success only; a node type 12.9 lacks refused, nothing called. Batch copies without
    // failIdx: left alone on success, SIZE_MAX on an error.
    let run = Scenario::new(program())
        .library_path([mock("mock-13")])
        .run();
    run.assert_success();
    assert_lines(
        &run,
        "add_kernel=0 node=0x900d
         calls=cudaGraphAddNode out=1 graph=0x77 deps=0x111 edges=null n=1 params={type=0 func=0xf00 grid=1,2,3 block=32,1,1 shmem=64 args=0xa00 ctx=0 ftype=0}
         add_alloc=0 dptr=0xa11d
         calls=cudaGraphAddNode out=1 graph=0x78 deps=null edges=null n=0 params={type=10 bytes=4096}
         add_bad=400 dptr=0x5555
         set_host=0
         calls=cudaGraphNodeSetParams node=0x222 params={type=3 fn=0xf10 data=0xf20 sync=0 ctx=0}
         exec_set_kernel=0
         calls=cudaGraphExecNodeSetParams exec=0x333 node=0x444 params={type=0 func=0xf01 grid=4,4,4 block=2,2,2 shmem=0 args=0 ctx=0 ftype=0}
         set_unknown=801
         batch=0 fail=77
         calls=cudaMemcpyBatchAsync dsts=0xb001,0xb002 srcs=0xc001,0xc002 sizes=16,32 count=2 attrs=0xa77 idxs=0x1d5 numAttrs=1 failIdx=- stream=0x6000
         batch_empty=1 fail=0xffffffffffffffff
         batch_ptsz=0
         calls=cudaMemcpyBatchAsync_ptsz dsts=0xb001,0xb002 srcs=0xc001,0xc002 sizes=16,32 count=2 attrs=0xa77 idxs=0x1d5 numAttrs=1 failIdx=- stream=0x6001
         batch3d=0 fail=77
         calls=cudaMemcpy3DBatchAsync numOps=2 ops=0x3d0 failIdx=- flags=0 stream=0x6002
         batch3d_empty=1 fail=0xffffffffffffffff
         calls=cudaMemcpy3DBatchAsync_ptsz numOps=0 ops=0x3d0 failIdx=- flags=0 stream=0x6003",
    );
    assert_eq!(after(&run, "set_unknown=801"), "calls=", "{run}");

    // 12.x: forwarded as they are (the mock reads 12.9's members; it writes failIdx itself).
    let run = Scenario::new(program())
        .library_path([mock("mock-12")])
        .run();
    run.assert_success();
    assert_lines(
        &run,
        "add_kernel=0 node=0x900c
         calls=cudaGraphAddNode out=1 graph=0x77 deps=0x111 edges=- n=1 params={type=0 func=0xf00 grid=1,2,3 block=32,1,1 shmem=64 args=0xa00}
         add_alloc=0 dptr=0xa11c
         calls=cudaGraphNodeSetParams node=0x222 params={type=3 fn=0xf10 data=0xf20}
         calls=cudaGraphExecNodeSetParams exec=0x333 node=0x444 params={type=0 func=0xf01 grid=4,4,4 block=2,2,2 shmem=0 args=0}
         set_unknown=0
         batch=0 fail=0
         calls=cudaMemcpyBatchAsync dsts=0xb001,0xb002 srcs=0xc001,0xc002 sizes=16,32 count=2 attrs=0xa77 idxs=0x1d5 numAttrs=1 failIdx=1 stream=0x6000
         batch_empty=1 fail=0xffffffffffffffff
         calls=cudaMemcpy3DBatchAsync numOps=2 ops=0x3d0 failIdx=1 flags=0 stream=0x6002",
    );

    // 11.x has none of them (12.2+ / 12.8+): refused, outputs untouched.
    let run = Scenario::new(program())
        .library_path([mock("mock-11")])
        .run();
    run.assert_success();
    assert_lines(
        &run,
        "add_kernel=801 node=0
         add_alloc=801 dptr=0x5555
         set_host=801
         exec_set_kernel=801
         batch=801 fail=77
         batch_empty=801 fail=0x4d
         batch3d=801 fail=77",
    );
}

/// `cudaGraphInstantiate`, `cudaFuncGetAttributes`, `cudaGraphExecUpdate`,
/// `cudaGetDriverEntryPoint`: 12.x's prototypes are 13.x's, so one unversioned export serves
/// both headers — forwarded on 12.x / 13.x, translated for 11.x.
#[test]
fn calls_12_and_13_share_are_translated_for_11() {
    for major in [11, 12, 13] {
        let run = Scenario::new(program())
            .library_path([mock(&format!("mock-{major}"))])
            .run();
        run.assert_success();
        let m = format!("{major:x}");
        // 11.8's 56-byte cudaFuncAttributes has no cluster fields: 0.
        let cluster = if major == 11 {
            0
        } else {
            mock_int("clusterDimMustBeSet", major)
        };
        assert_lines(
            &run,
            &format!(
                "instantiate=0 exec=0x701{m}
                 funcattr=0 numRegs={} clusterDimMustBeSet={cluster}
                 exec_update=910 result=2 errorNode=0x810{m}
                 entry_missing=0 fp=0 status=1",
                mock_int("numRegs", major)
            ),
        );
        if major == 11 {
            assert_lines(
                &run,
                "calls=cudaGraphExecUpdate exec=0xe001 graph=0x7000 errorNode=1 result=1
                 calls=cudaGetDriverEntryPoint symbol=cuMissing funcPtr=1 flags=0",
            );
        } else {
            assert_lines(
                &run,
                "calls=cudaGraphExecUpdate exec=0xe001 graph=0x7000 info=1
                 calls=cudaGetDriverEntryPoint symbol=cuMissing funcPtr=1 flags=0 driverStatus=1",
            );
        }
    }
}

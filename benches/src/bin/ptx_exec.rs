//! The PTX executor's speed (issue 47 item 4): runs stub-ptx directly (no CUDA, no mock) on
//! NVRTC's PTX of `benches/ptx/executor.cu` over host memory, for vectorAdd (50,000
//! elements), matrixMul (the cuda-sample's 320×320 by 320×640 product, 32×32 blocks,
//! shared-memory tiles) and a shared-memory reduction, each checked against the host's answer.
//! Prints lane-instructions per second per core ([`stub_ptx::Prepared::run_block_counted`]:
//! per warp instruction, the lanes it was issued for) and the scaling over 1, 2, 4 … threads
//! running blocks, as the mock does (blocks handed out from a shared counter).
//!
//! Usage: `cargo run --release -p stubs-benches --bin ptx_exec -- [--threads 1,2] [--seconds S] [--only matrix_mul]`
//! (default: 1, 2, 4 … up to the online CPUs, at least 0.5 s per measurement). Targets: at
//! least 200 M lane-instructions/s per core, scaling at least 0.7 × linear.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use stub_ptx::{Device, Kernel, Launch, Prepared, Program};

/// NVRTC 13.5's PTX of the benchmark's kernels (the command is in its first line).
const PTX: &str = include_str!("../../ptx/executor.ptx");

/// Device memory: host buffers whose addresses are the device pointers, as in the mock.
#[derive(Default)]
struct HostDevice {
    bufs: Vec<Box<[u64]>>,
}

impl HostDevice {
    /// A buffer holding `data`'s bytes (8-aligned, zero-padded); its device address.
    fn upload<T: Copy>(&mut self, data: &[T]) -> u64 {
        let bytes = std::mem::size_of_val(data);
        let b = vec![0u64; bytes.div_ceil(8).max(1)].into_boxed_slice();
        // SAFETY: the buffer holds at least `bytes` bytes and does not overlap `data`.
        unsafe {
            std::ptr::copy_nonoverlapping(data.as_ptr().cast::<u8>(), b.as_ptr() as *mut u8, bytes)
        };
        let a = b.as_ptr() as u64;
        self.bufs.push(b);
        a
    }

    /// `n` values of type `T` at device address `addr` (a buffer of this device).
    fn download<T: Copy + Default>(&self, addr: u64, n: usize) -> Vec<T> {
        let len = (n * std::mem::size_of::<T>()) as u64;
        assert!(self.global_ok(addr, len), "download outside the buffers");
        let mut out = vec![T::default(); n];
        // SAFETY: checked to lie inside one live buffer.
        unsafe { std::ptr::copy_nonoverlapping(addr as *const T, out.as_mut_ptr(), n) };
        out
    }
}

impl Device for HostDevice {
    fn global_ok(&self, addr: u64, len: u64) -> bool {
        self.global_range(addr, len).is_some()
    }
    fn global_range(&self, addr: u64, len: u64) -> Option<(u64, u64)> {
        self.bufs.iter().find_map(|b| {
            let lo = b.as_ptr() as u64;
            let size = (b.len() * 8) as u64;
            (addr >= lo && addr.checked_add(len)? <= lo + size).then_some((lo, size))
        })
    }
    fn symbol(&self, _: &str) -> Option<u64> {
        None
    }
    fn vprintf(&self, _: u64, _: u64) -> i32 {
        -1
    }
}

/// Packs parameter values (each given as its bytes) into the kernel's layout.
fn pack(kernel: &Kernel, args: &[&[u8]]) -> Vec<u8> {
    let mut buf = vec![0u8; kernel.param_size() as usize];
    assert_eq!(args.len(), kernel.param_layout().len());
    for (a, &(off, size)) in args.iter().zip(kernel.param_layout()) {
        assert_eq!(a.len(), size as usize);
        buf[off as usize..(off + size) as usize].copy_from_slice(a);
    }
    buf
}

/// Checks what a workload computed: the first wrong element, shown.
type Check = Box<dyn Fn(&HostDevice) -> Result<(), String>>;

/// One workload: a kernel, its launch, its device and how to check what it computed.
struct Workload {
    name: &'static str,
    kernel: &'static str,
    grid: [u32; 3],
    block: [u32; 3],
    dynamic_shared: u32,
    dev: HostDevice,
    params: Vec<u8>,
    check: Check,
    /// `wmma.mma` instructions per launch (0: none), for the tensor-core line.
    mmas: u64,
}

/// The calling thread's CPU time in nanoseconds.
fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec to fill; CLOCK_THREAD_CPUTIME_ID exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Runs every block of the launch on `threads` threads (blocks from a shared counter, as the
/// mock's launch does); answers the lane-instructions run and the threads' CPU time (ns).
fn launch_on(prep: &Prepared<'_>, grid: [u32; 3], threads: usize) -> (u64, u64) {
    let blocks = grid[0] * grid[1] * grid[2];
    let next = AtomicU32::new(0);
    let total = AtomicU64::new(0);
    let cpu = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let t0 = thread_cpu_ns();
                let mut n = 0u64;
                loop {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    if b >= blocks {
                        break;
                    }
                    let ctaid = [b % grid[0], b / grid[0] % grid[1], b / (grid[0] * grid[1])];
                    match prep.run_block_counted(ctaid) {
                        Ok(k) => n += k,
                        Err(e) => panic!("block {ctaid:?}: {e:?}"),
                    }
                }
                total.fetch_add(n, Ordering::Relaxed);
                cpu.fetch_add(thread_cpu_ns() - t0, Ordering::Relaxed);
            });
        }
    });
    (total.into_inner(), cpu.into_inner())
}

/// One measurement: launches repeated for at least `min` on `threads` threads.
struct Measure {
    threads: usize,
    launches: u32,
    lane_insts: u64,
    time: Duration,
    /// The threads' CPU time, summed.
    cpu: Duration,
}

impl Measure {
    /// Lane-instructions per second of wall time per thread.
    fn per_core(&self) -> f64 {
        self.lane_insts as f64 / self.time.as_secs_f64() / self.threads as f64
    }
    /// Lane-instructions per second of the threads' CPU time: the per-core speed even where
    /// other processes share the cores.
    fn per_cpu_second(&self) -> f64 {
        self.lane_insts as f64 / self.cpu.as_secs_f64()
    }
    fn per_launch(&self) -> Duration {
        self.time / self.launches
    }
}

fn measure(program: &Program, w: &Workload, threads: usize, min: Duration) -> Measure {
    let k = program
        .kernel(w.kernel)
        .unwrap_or_else(|e| panic!("{}: {e:?}", w.kernel));
    let mut l = Launch::new(w.grid, w.block, &w.params);
    l.dynamic_shared = w.dynamic_shared;
    let prep = Prepared::new(k, &l, &w.dev).unwrap_or_else(|e| panic!("{}: {e:?}", w.name));
    // One launch to warm the caches, then checked.
    launch_on(&prep, w.grid, threads);
    if let Err(e) = (w.check)(&w.dev) {
        panic!("{}: wrong answer on {threads} threads: {e}", w.name);
    }
    let start = Instant::now();
    let (mut launches, mut lane_insts, mut cpu) = (0u32, 0u64, 0u64);
    while launches == 0 || start.elapsed() < min {
        let (n, ns) = launch_on(&prep, w.grid, threads);
        lane_insts += n;
        cpu += ns;
        launches += 1;
    }
    Measure {
        threads,
        launches,
        lane_insts,
        time: start.elapsed(),
        cpu: Duration::from_nanos(cpu),
    }
}

fn vector_add(program: &Program) -> Workload {
    const N: usize = 50_000;
    let a: Vec<f32> = (0..N).map(|i| (i % 1000) as f32 * 0.5).collect();
    let b: Vec<f32> = (0..N).map(|i| (i % 77) as f32 * 0.25).collect();
    let mut dev = HostDevice::default();
    let (da, db, dc) = (dev.upload(&a), dev.upload(&b), dev.upload(&vec![0f32; N]));
    let k = program.kernel("vector_add").expect("vector_add");
    let params = pack(
        k,
        &[
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &dc.to_le_bytes(),
            &(N as i32).to_le_bytes(),
        ],
    );
    let threads = 256u32;
    Workload {
        name: "vectorAdd (50,000 elements)",
        kernel: "vector_add",
        grid: [(N as u32).div_ceil(threads), 1, 1],
        block: [threads, 1, 1],
        dynamic_shared: 0,
        dev,
        params,
        mmas: 0,
        check: Box::new(move |dev| {
            let c: Vec<f32> = dev.download(dc, N);
            match (0..N).find(|&i| c[i] != a[i] + b[i]) {
                Some(i) => Err(format!("c[{i}] = {} != {}", c[i], a[i] + b[i])),
                None => Ok(()),
            }
        }),
    }
}

fn matrix_mul(program: &Program) -> Workload {
    // The cuda-sample's sizes: A is 320×320, B is 320×640 (block 32: dimsA 10·32 × 10·32,
    // dimsB 20·32 × 10·32). Small integers: every product and sum is exact in f32.
    const BLOCK: usize = 32;
    let (ha, wa, wb) = (10 * BLOCK, 10 * BLOCK, 20 * BLOCK);
    let a: Vec<f32> = (0..ha * wa).map(|i| (i * 7 % 5) as f32).collect();
    let b: Vec<f32> = (0..wa * wb).map(|i| (i * 3 % 4) as f32).collect();
    let mut want = vec![0f32; ha * wb];
    for r in 0..ha {
        for k in 0..wa {
            let x = a[r * wa + k];
            for c in 0..wb {
                want[r * wb + c] += x * b[k * wb + c];
            }
        }
    }
    let mut dev = HostDevice::default();
    let (da, db, dc) = (
        dev.upload(&a),
        dev.upload(&b),
        dev.upload(&vec![0f32; ha * wb]),
    );
    let k = program.kernel("matrix_mul").expect("matrix_mul");
    let params = pack(
        k,
        &[
            &dc.to_le_bytes(),
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &(wa as i32).to_le_bytes(),
            &(wb as i32).to_le_bytes(),
        ],
    );
    Workload {
        name: "matrixMul (320×320 · 320×640)",
        kernel: "matrix_mul",
        grid: [(wb / BLOCK) as u32, (ha / BLOCK) as u32, 1],
        block: [BLOCK as u32, BLOCK as u32, 1],
        dynamic_shared: 0,
        dev,
        params,
        mmas: 0,
        check: Box::new(move |dev| {
            let c: Vec<f32> = dev.download(dc, ha * wb);
            match (0..ha * wb).find(|&i| c[i] != want[i]) {
                Some(i) => Err(format!("c[{i}] = {} != {}", c[i], want[i])),
                None => Ok(()),
            }
        }),
    }
}

fn reduction(program: &Program) -> Workload {
    const N: usize = 1 << 20;
    const THREADS: u32 = 256;
    let input: Vec<i32> = (0..N).map(|i| (i as i32 % 201) - 100).collect();
    let blocks = (N as u32).div_ceil(THREADS * 2);
    let want: Vec<i32> = input
        .chunks(THREADS as usize * 2)
        .map(|c| c.iter().sum())
        .collect();
    let mut dev = HostDevice::default();
    let (din, dout) = (dev.upload(&input), dev.upload(&vec![0i32; blocks as usize]));
    let k = program.kernel("reduce_sum").expect("reduce_sum");
    let params = pack(
        k,
        &[
            &din.to_le_bytes(),
            &dout.to_le_bytes(),
            &(N as i32).to_le_bytes(),
        ],
    );
    Workload {
        name: "reduction (2^20 ints, shared memory)",
        kernel: "reduce_sum",
        grid: [blocks, 1, 1],
        block: [THREADS, 1, 1],
        dynamic_shared: THREADS * 4,
        dev,
        params,
        mmas: 0,
        check: Box::new(move |dev| {
            let got: Vec<i32> = dev.download(dout, want.len());
            match (0..want.len()).find(|&i| got[i] != want[i]) {
                Some(i) => Err(format!("out[{i}] = {} != {}", got[i], want[i])),
                None => Ok(()),
            }
        }),
    }
}

fn wmma_gemm(program: &Program) -> Workload {
    // n × n f16 matrices of small integers: every product and sum exact in f32.
    const N: usize = 256;
    let a: Vec<f32> = (0..N * N).map(|i| (i * 7 % 5) as f32 - 2.0).collect();
    // B column-major: B[k][col] at col * N + k.
    let b: Vec<f32> = (0..N * N).map(|i| (i * 3 % 4) as f32 - 1.0).collect();
    let ah: Vec<u16> = a.iter().map(|&x| f16_bits(x)).collect();
    let bh: Vec<u16> = b.iter().map(|&x| f16_bits(x)).collect();
    let mut want = vec![0f32; N * N];
    for r in 0..N {
        for col in 0..N {
            want[r * N + col] = (0..N).map(|k| a[r * N + k] * b[col * N + k]).sum();
        }
    }
    let mut dev = HostDevice::default();
    let (da, db, dc) = (
        dev.upload(&ah),
        dev.upload(&bh),
        dev.upload(&vec![0f32; N * N]),
    );
    let k = program.kernel("wmma_gemm").expect("wmma_gemm");
    let params = pack(
        k,
        &[
            &da.to_le_bytes(),
            &db.to_le_bytes(),
            &dc.to_le_bytes(),
            &(N as i32).to_le_bytes(),
        ],
    );
    let tiles = (N / 16) as u32;
    Workload {
        name: "wmma GEMM (256³ f16 → f32)",
        kernel: "wmma_gemm",
        grid: [tiles, tiles, 1],
        block: [32, 1, 1],
        dynamic_shared: 0,
        dev,
        params,
        mmas: u64::from(tiles * tiles) * (N / 16) as u64,
        check: Box::new(move |dev| {
            let c: Vec<f32> = dev.download(dc, N * N);
            match (0..N * N).find(|&i| c[i] != want[i]) {
                Some(i) => Err(format!("c[{i}] = {} != {}", c[i], want[i])),
                None => Ok(()),
            }
        }),
    }
}

/// The f16 bits of `x`, a small integer or zero (exact: no rounding needed).
fn f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    if x == 0.0 {
        return sign;
    }
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    sign | ((exp as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

fn main() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads: Vec<usize> = std::iter::successors(Some(1usize), |&t| Some(t * 2))
        .take_while(|&t| t < cpus)
        .chain([cpus])
        .collect();
    let mut min = Duration::from_millis(500);
    let mut only = String::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), args.next()) {
            ("--threads", Some(v)) => {
                threads = v.split(',').filter_map(|t| t.parse().ok()).collect();
            }
            ("--only", Some(v)) => only = v,
            ("--seconds", Some(v)) => {
                min = Duration::from_secs_f64(v.parse().unwrap_or(0.5));
            }
            _ => {
                eprintln!("usage: ptx_exec [--threads 1,2,4] [--seconds S] [--only KERNEL]");
                std::process::exit(2);
            }
        }
    }
    threads.dedup();
    let program = Program::load(PTX).expect("executor.ptx parses");
    let workloads = [
        vector_add(&program),
        matrix_mul(&program),
        reduction(&program),
        wmma_gemm(&program),
    ];
    let mut tensor_lines = Vec::new();
    println!("PTX executor, {cpus} CPUs online; lane-instructions per second per thread");
    println!(
        "(per CPU-second: over the threads' CPU time; scaling: wall-clock speed-up over 1 thread / threads)"
    );
    println!();
    println!(
        "| kernel | threads | launch (wall) | M lane-inst/s per thread (wall) | M lane-inst/s per CPU-second | scaling vs linear |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for w in workloads
        .iter()
        .filter(|w| w.kernel.contains(only.as_str()))
    {
        let mut one: Option<f64> = None;
        for &t in &threads {
            let m = measure(&program, w, t, min);
            let rate = m.per_core();
            let base = *one.get_or_insert(rate);
            println!(
                "| {} | {} | {:.2} ms | {:.0} | {:.0} | {:.2} |",
                w.name,
                m.threads,
                m.per_launch().as_secs_f64() * 1e3,
                rate / 1e6,
                m.per_cpu_second() / 1e6,
                rate / base
            );
            if w.mmas > 0 {
                let per_cpu = (w.mmas * u64::from(m.launches)) as f64 / m.cpu.as_secs_f64();
                tensor_lines.push(format!(
                    "{}, {} thread(s): {:.2} M wmma.mma per CPU-second (each a 16×16×16 product with its fragments' gather and scatter)",
                    w.name,
                    m.threads,
                    per_cpu / 1e6
                ));
            }
        }
    }
    println!();
    for l in tensor_lines {
        println!("{l}");
    }
}

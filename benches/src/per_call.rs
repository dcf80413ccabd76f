//! Per-call overhead after resolution: `c/call_loop.c` linked the three ways, timed
//! (median ns/call) and counted (instructions/call with callgrind).

use crate::link::{lib_args, link};
use crate::setup::{Lib, Setup, Variant, clean_command, exports};
use crate::stats::{field, median};
use std::path::{Path, PathBuf};
use std::process::Command;

pub const FUNCTIONS: [&str; 4] = [
    "nvrtcVersion",
    "cudaRuntimeGetVersion",
    "cudaGetLastError",
    "cuDriverGetVersion",
];

/// Timed loops per process (each process first makes the resolving call).
pub const LOOPS_PER_PROCESS: usize = 3;

/// One function through one variant.
pub struct Row {
    pub function: &'static str,
    pub variant: Variant,
    /// Why it was not measured.
    pub skipped: Option<String>,
    /// Status of the first call.
    pub first_status: String,
    pub ns_median: f64,
    pub ns_min: f64,
    pub ns_max: f64,
    /// Instructions per call (loop minus the empty loop, divided by the calls).
    pub instructions: f64,
}

/// An executable and the environment that pins the real library it reaches.
struct Program {
    exe: PathBuf,
    env: Vec<(String, String)>,
}

impl Program {
    /// `runner` (the executable itself, or valgrind) with the program's environment.
    fn command(&self, runner: &Path) -> Command {
        let mut cmd = clean_command(runner);
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }
}

fn program(setup: &Setup, function: &str, variant: Variant) -> Result<Program, String> {
    let lib = Lib::of(function);
    let real = setup.real(lib).ok_or_else(|| {
        format!(
            "no real lib{} here",
            if lib == Lib::Cuda { "cuda.so.1" } else { "?" }
        )
    })?;
    if matches!(variant, Variant::Stub | Variant::StubHooksElsewhere)
        && !exports(&setup.stub(lib)).iter().any(|s| s == function)
    {
        return Err(format!("not exported by this {} build", lib.stub_file()));
    }
    let exe = link(
        setup,
        &format!("call_loop-{function}-{}", variant.name()),
        &[&format!("call_loop-{function}.o")],
        &lib_args(setup, lib, variant)?,
    )?;
    let real = real.display().to_string();
    let env = match variant {
        Variant::Direct => vec![],
        Variant::Stub => vec![(format!("CUDA_STUBS_{}_PATH", lib.upper()), real)],
        Variant::StubHooksElsewhere => vec![
            (format!("CUDA_STUBS_{}_PATH", lib.upper()), real),
            (
                "CUDA_STUBS_TRACE".into(),
                "cudaMalloc,nvrtcCompileProgram,cuInit".into(),
            ),
            ("CUDA_STUBS_TRACE_FILE".into(), "/dev/null".into()),
            (
                "CUDA_STUBS_FAULT".into(),
                "cudaFree=2%0.5,nvrtcGetPTX=6@3".into(),
            ),
        ],
        Variant::Trampoline => vec![(format!("BENCH_TRAMP_{}", lib.upper()), real)],
    };
    Ok(Program { exe, env })
}

fn run_loop(p: &Program, calls: u64) -> Result<(String, Vec<f64>), String> {
    let out = p
        .command(&p.exe)
        .args(["call", &calls.to_string(), &LOOPS_PER_PROCESS.to_string()])
        .output()
        .map_err(|e| format!("{}: {e}", p.exe.display()))?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if !out.status.success() {
        return Err(format!(
            "{}: {} {}",
            p.exe.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let ns = field(&text, "ns_per_call")
        .unwrap_or_default()
        .split(',')
        .filter_map(|v| v.parse().ok())
        .collect();
    Ok((text, ns))
}

/// Instructions callgrind counts inside `loop_<mode>` for `calls` iterations.
fn callgrind(p: &Program, work: &Path, tag: &str, mode: &str, calls: u64) -> Result<f64, String> {
    let out_file = work.join(format!("callgrind.{tag}.{mode}.out"));
    let exe = &p.exe;
    let out = p
        .command(Path::new("valgrind"))
        .args([
            "--tool=callgrind",
            &format!("--toggle-collect=loop_{mode}"),
            &format!("--callgrind-out-file={}", out_file.display()),
        ])
        .arg(exe)
        .args([mode, &calls.to_string(), "1"])
        .output()
        .map_err(|e| format!("valgrind: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "valgrind {}: {}",
            exe.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = std::fs::read_to_string(&out_file).map_err(|e| format!("{e}"))?;
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .ok_or_else(|| format!("{}: no totals", out_file.display()))
}

/// Processes per variant and function (quick run, full run).
pub fn processes(quick: bool) -> usize {
    if quick { 5 } else { 15 }
}

/// Calls per timed loop, and per callgrind-counted loop (quick run, full run).
pub fn sizes(quick: bool) -> (u64, u64) {
    if quick {
        (1_000_000, 10_000)
    } else {
        (10_000_000, 100_000)
    }
}

pub fn run(setup: &Setup) -> Vec<Row> {
    let repeats = processes(setup.quick);
    let (calls, counted) = sizes(setup.quick);
    println!(
        "\n== per-call overhead: {calls} calls per loop, {repeats} processes (interleaved) x {LOOPS_PER_PROCESS} loops"
    );
    let mut rows = Vec::new();
    for function in FUNCTIONS {
        let mut programs = Vec::new();
        for variant in Variant::ALL {
            let mut row = Row {
                function,
                variant,
                skipped: None,
                first_status: String::new(),
                ns_median: f64::NAN,
                ns_min: f64::NAN,
                ns_max: f64::NAN,
                instructions: f64::NAN,
            };
            match program(setup, function, variant) {
                Ok(p) => programs.push((rows.len(), p)),
                Err(why) => {
                    println!("{function} {}: skipped: {why}", variant.name());
                    row.skipped = Some(why);
                }
            }
            rows.push(row);
        }
        let mut samples: Vec<Vec<f64>> = vec![Vec::new(); programs.len()];
        for _ in 0..repeats {
            for (i, (r, p)) in programs.iter().enumerate() {
                if rows[*r].skipped.is_some() {
                    continue;
                }
                match run_loop(p, calls) {
                    Ok((line, ns)) => {
                        println!("{} {line}", rows[*r].variant.name());
                        rows[*r].first_status = field(&line, "first").unwrap_or("?").into();
                        samples[i].extend(ns);
                    }
                    Err(why) => {
                        println!("{why}");
                        rows[*r].skipped = Some(why);
                    }
                }
            }
        }
        let mut baseline = None;
        for (i, (r, p)) in programs.iter().enumerate() {
            let row = &mut rows[*r];
            if row.skipped.is_some() {
                continue;
            }
            row.ns_median = median(&samples[i]);
            row.ns_min = samples[i].iter().copied().fold(f64::INFINITY, f64::min);
            row.ns_max = samples[i].iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let tag = format!("{function}-{}", row.variant.name());
            if baseline.is_none() {
                baseline = Some(callgrind(p, &setup.work, &tag, "none", counted));
            }
            let counted_ir = callgrind(p, &setup.work, &tag, "call", counted);
            match (baseline.as_ref(), counted_ir.as_ref()) {
                (Some(Ok(base)), Ok(ir)) => {
                    row.instructions = (ir - base) / counted as f64;
                    println!(
                        "callgrind {tag}: loop_call {ir} Ir, loop_none {base} Ir, {counted} calls: {:.2} instructions/call",
                        row.instructions
                    );
                }
                (Some(Err(why)), _) | (_, Err(why)) => println!("callgrind {tag}: {why}"),
                (None, _) => {}
            }
        }
    }
    rows
}

//! First call: from the start of `main` to the return of the first `nvrtcVersion` /
//! `cudaRuntimeGetVersion`, the real library on `LD_LIBRARY_PATH`, a fresh process per sample.

use crate::link::{lib_args, link, parent};
use crate::setup::{Lib, Setup, Variant, clean_command};
use crate::stats::{field, median};
use std::path::PathBuf;

pub const FUNCTIONS: [&str; 2] = ["nvrtcVersion", "cudaRuntimeGetVersion"];

/// The ways a first call is made.
pub const CASES: [&str; 6] = [
    "direct",
    "stub",
    "stub, real library already loaded",
    "trampoline",
    "plain dlopen+dlsym+call",
    "stub minus its time inside dlopen (same process)",
];

pub struct Row {
    pub function: &'static str,
    /// Median µs per case, in [`CASES`] order.
    pub median_us: Vec<f64>,
    pub runs: usize,
}

impl Row {
    /// The stub's own share: stub first call minus a plain dlopen+dlsym+call.
    pub fn stub_minus_dlopen(&self) -> f64 {
        self.median_us[1] - self.median_us[4]
    }

    /// The stub's own share measured directly: first call with the real library preloaded.
    pub fn stub_preloaded(&self) -> f64 {
        self.median_us[2]
    }

    /// The stub's own share, paired: each process's first call minus the time it spent inside
    /// `dlopen` (an `LD_PRELOAD` interposer counts it), median over processes.
    pub fn stub_minus_own_dlopen(&self) -> f64 {
        self.median_us[5]
    }
}

struct Case {
    exe: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
}

fn cases(setup: &Setup, function: &str) -> Result<Vec<Case>, String> {
    let lib = Lib::of(function);
    let real = setup.real(lib).ok_or("no real library")?;
    let soname = real
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let object = format!("first_call-{function}.o");
    let linked = |variant: Variant| {
        link(
            setup,
            &format!("first_call-{function}-{}", variant.name()),
            &[&object],
            &lib_args(setup, lib, variant)?,
        )
    };
    let stub = linked(Variant::Stub)?;
    let timer = link(
        setup,
        "dlopen_timer.so",
        &["dlopen_timer.o"],
        &["-shared".into()],
    )?;
    Ok(vec![
        Case {
            exe: linked(Variant::Direct)?,
            args: vec![],
            env: vec![],
        },
        Case {
            exe: stub.clone(),
            args: vec![],
            env: vec![],
        },
        Case {
            exe: stub.clone(),
            args: vec![real.display().to_string()],
            env: vec![],
        },
        Case {
            exe: linked(Variant::Trampoline)?,
            args: vec![],
            env: vec![(format!("BENCH_TRAMP_{}", lib.upper()), soname.clone())],
        },
        Case {
            exe: link(setup, "dlopen_call", &["dlopen_call.o"], &[])?,
            args: vec![soname, function.to_string()],
            env: vec![],
        },
        Case {
            exe: stub,
            args: vec![],
            env: vec![("LD_PRELOAD".into(), timer.display().to_string())],
        },
    ])
}

pub fn run(setup: &Setup) -> Result<Vec<Row>, String> {
    let runs = if setup.quick { 20 } else { 200 };
    println!(
        "\n== first call: {runs} fresh processes per case (interleaved), LD_LIBRARY_PATH = the real library's folder"
    );
    let mut rows = Vec::new();
    for function in FUNCTIONS {
        let lib = Lib::of(function);
        let real = setup.real(lib).ok_or("no real library")?;
        let ld_path = parent(real).display().to_string();
        let cases = cases(setup, function)?;
        let mut samples = vec![Vec::with_capacity(runs); cases.len()];
        for round in 0..runs + 3 {
            for (i, case) in cases.iter().enumerate() {
                let out = clean_command(&case.exe)
                    .args(&case.args)
                    .env("LD_LIBRARY_PATH", &ld_path)
                    .envs(case.env.iter().map(|(k, v)| (k, v)))
                    .output()
                    .map_err(|e| format!("{}: {e}", case.exe.display()))?;
                let text = String::from_utf8_lossy(&out.stdout).trim().to_owned();
                let ns: Option<f64> = field(&text, "first_call_ns").and_then(|v| v.parse().ok());
                // The paired case subtracts the process's own time inside dlopen.
                let ns = match field(&text, "dlopen_ns").and_then(|v| v.parse::<f64>().ok()) {
                    Some(d) => ns.map(|n| n - d),
                    None => ns,
                };
                let (Some(ns), true) = (ns, out.status.success()) else {
                    return Err(format!(
                        "{} {}: {} {text} {}",
                        function,
                        CASES[i],
                        out.status,
                        String::from_utf8_lossy(&out.stderr).trim()
                    ));
                };
                if round < 3 {
                    continue; // page cache warm-up
                }
                if round < 6 || round + 1 == runs + 3 {
                    println!("{function} [{}] {text}", CASES[i]);
                }
                samples[i].push(ns / 1000.0);
            }
        }
        let row = Row {
            function,
            median_us: samples.iter().map(|s| median(s)).collect(),
            runs,
        };
        for (case, m) in CASES.iter().zip(&row.median_us) {
            println!("{function} [{case}]: median {m:.1} µs");
        }
        rows.push(row);
    }
    Ok(rows)
}

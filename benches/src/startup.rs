//! Process start-up: `c/empty_main.c` (calls nothing) linked against the three stubs, against
//! the real libraries, and against nothing. hyperfine when installed, else a fork/exec loop.

use crate::link::{lib_args, link};
use crate::setup::{Lib, Setup, Variant, clean_command};
use crate::stats::median;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

pub struct Row {
    pub name: &'static str,
    /// The `DT_NEEDED` entries of the program.
    pub needed: String,
    pub median_us: f64,
    /// Fastest run: the least disturbed by other load on the machine.
    pub min_us: f64,
}

pub struct Startup {
    pub rows: Vec<Row>,
    /// How it was timed.
    pub tool: String,
    pub runs: usize,
}

fn needed(exe: &Path) -> String {
    let out = Command::new("readelf").arg("-d").arg(exe).output();
    let text = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    text.unwrap_or_default()
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| l.split('[').nth(1)?.split(']').next().map(str::to_owned))
        .filter(|n| !n.starts_with("libc.so") && !n.starts_with("libdl.so"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn programs(setup: &Setup) -> Result<Vec<(&'static str, PathBuf)>, String> {
    let mut stub_args = vec!["-Wl,--no-as-needed".to_string()];
    let mut real_args = stub_args.clone();
    for lib in [Lib::Cudart, Lib::Nvrtc, Lib::Cuda] {
        stub_args.extend(lib_args(setup, lib, Variant::Stub)?);
        if setup.real(lib).is_some() {
            real_args.extend(lib_args(setup, lib, Variant::Direct)?);
        }
    }
    Ok(vec![
        (
            "stubs",
            link(setup, "empty_main-stubs", &["empty_main.o"], &stub_args)?,
        ),
        (
            "real",
            link(setup, "empty_main-real", &["empty_main.o"], &real_args)?,
        ),
        (
            "nothing",
            link(setup, "empty_main-nothing", &["empty_main.o"], &[])?,
        ),
    ])
}

/// (median, min) in µs per program.
type Times = Vec<(f64, f64)>;

fn hyperfine(setup: &Setup, progs: &[(&str, PathBuf)], runs: usize) -> Result<Times, String> {
    let json = setup.work.join("hyperfine.json");
    let mut cmd = clean_command(Path::new("hyperfine"));
    cmd.args([
        "-N",
        "--warmup",
        "20",
        "--runs",
        &runs.to_string(),
        "--export-json",
    ])
    .arg(&json);
    for (name, exe) in progs {
        cmd.args(["-n", name]).arg(exe);
    }
    let status = cmd.status().map_err(|e| format!("hyperfine: {e}"))?;
    if !status.success() {
        return Err(format!("hyperfine: {status}"));
    }
    let text = std::fs::read_to_string(&json).map_err(|e| format!("{}: {e}", json.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{e}"))?;
    let results = v["results"]
        .as_array()
        .ok_or("hyperfine json: no results")?;
    Ok(results
        .iter()
        .map(|r| {
            let us = |k: &str| r[k].as_f64().unwrap_or(f64::NAN) * 1e6;
            (us("median"), us("min"))
        })
        .collect())
}

/// Fork/exec each program in turn, `runs` rounds (after 20 warm-up rounds); median µs.
fn spawn_loop(progs: &[(&str, PathBuf)], runs: usize) -> Result<Times, String> {
    let mut samples = vec![Vec::with_capacity(runs); progs.len()];
    for round in 0..runs + 20 {
        for (i, (_, exe)) in progs.iter().enumerate() {
            let t = Instant::now();
            let status = clean_command(exe)
                .stdout(Stdio::null())
                .status()
                .map_err(|e| format!("{}: {e}", exe.display()))?;
            let us = t.elapsed().as_secs_f64() * 1e6;
            if !status.success() {
                return Err(format!("{}: {status}", exe.display()));
            }
            if round >= 20 {
                samples[i].push(us);
            }
        }
    }
    Ok(samples
        .iter()
        .map(|s| (median(s), s.iter().copied().fold(f64::INFINITY, f64::min)))
        .collect())
}

pub fn run(setup: &Setup) -> Result<Startup, String> {
    let runs = if setup.quick { 50 } else { 300 };
    println!("\n== process start-up: programs that call nothing, {runs} runs each");
    let progs = programs(setup)?;
    for (name, exe) in &progs {
        println!("{name}: {} needs [{}]", exe.display(), needed(exe));
    }
    let has_hyperfine = Command::new("hyperfine")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let (medians, tool) = if has_hyperfine {
        let version = crate::setup::command_line("hyperfine", &["--version"]);
        (
            hyperfine(setup, &progs, runs)?,
            format!("{version} -N, 20 warm-up runs"),
        )
    } else {
        println!("hyperfine not installed: timing fork/exec/wait from Rust");
        let medians = spawn_loop(&progs, runs)?;
        for ((name, _), (m, min)) in progs.iter().zip(&medians) {
            println!("{name}: median {m:.1} µs, min {min:.1} µs");
        }
        (
            medians,
            "fork/exec/wait loop (std::process), 20 warm-up rounds, interleaved".into(),
        )
    };
    let rows = progs
        .iter()
        .zip(medians)
        .map(|((name, exe), (median_us, min_us))| Row {
            name,
            needed: needed(exe),
            median_us,
            min_us,
        })
        .collect();
    Ok(Startup { rows, tool, runs })
}

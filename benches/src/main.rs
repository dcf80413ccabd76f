//! The cuda-stubs benchmark runner (`scripts/bench.sh` runs it): per-call overhead against
//! direct linking and Implib.so-style trampolines, process start-up, first call and size;
//! prints the raw output and writes `benches/RESULTS.md`.
//!
//! Usage: `stubs-benches --cache DIR --stubs DIR --work DIR --results FILE [--cuda MAJOR] [--quick]
//! [--stubs-aarch64 DIR] [--size-only]`
//!
//! `--stubs` holds the x86-64 release build of every stub (the three benchmarked, and the rest
//! for the size of every stub); `--stubs-aarch64`, the aarch64 one, sized with
//! `aarch64-linux-gnu-strip`. `--size-only` runs the size benches alone and prints their
//! sections of the report, writing nothing.

mod first_call;
mod link;
mod per_call;
mod report;
mod setup;
mod size;
mod startup;
mod stats;

use setup::{Setup, command_line};
use std::path::PathBuf;
use std::process::ExitCode;

fn machine() -> report::Machine {
    let lscpu = std::process::Command::new("lscpu").output();
    let cpu = lscpu
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout).lines().find_map(|l| {
                l.strip_prefix("Model name:")
                    .map(|v| format!("{} ({} CPUs online)", v.trim(), num_cpus()))
            })
        })
        .unwrap_or_else(|| "?".into());
    report::Machine {
        cpu,
        kernel: command_line("uname", &["-sr"]),
        date: command_line("date", &["-u", "+%Y-%m-%d %H:%M"]),
        compiler: command_line(env!("BENCH_CC"), &["--version"]),
        valgrind: command_line("valgrind", &["--version"]),
    }
}

fn num_cpus() -> usize {
    std::thread::available_parallelism().map_or(0, |n| n.get())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut cache, mut stubs, mut work, mut results) = (None, None, None, None);
    let mut major = "13".to_string();
    let (mut quick, mut size_only, mut stubs_aarch64) = (false, false, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--cache" => cache = args.next().map(PathBuf::from),
            "--stubs" => stubs = args.next().map(PathBuf::from),
            "--work" => work = args.next().map(PathBuf::from),
            "--results" => results = args.next().map(PathBuf::from),
            "--cuda" => major = args.next().unwrap_or_default(),
            "--quick" => quick = true,
            "--size-only" => size_only = true,
            "--stubs-aarch64" => stubs_aarch64 = args.next().map(PathBuf::from),
            _ => {
                eprintln!("unknown argument {a}");
                return ExitCode::from(2);
            }
        }
    }
    let (Some(cache), Some(stubs), Some(work), Some(results)) = (cache, stubs, work, results)
    else {
        eprintln!(
            "usage: stubs-benches --cache DIR --stubs DIR --work DIR --results FILE [--cuda MAJOR] [--quick] [--stubs-aarch64 DIR] [--size-only]"
        );
        return ExitCode::from(2);
    };
    let setup = match Setup::new(&cache, &major, stubs, work, quick) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("stubs-benches: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut every_size = vec![size::every_stub(
        "x86-64",
        &setup.stubs,
        "strip",
        &setup.work,
    )];
    if let Some(dir) = &stubs_aarch64 {
        every_size.push(size::every_stub(
            "aarch64",
            dir,
            "aarch64-linux-gnu-strip",
            &setup.work,
        ));
    }
    if size_only {
        let sizes = size::run(&setup);
        println!("\n{}", report::size_section(&sizes));
        println!("{}", report::every_stub_section(&every_size));
        return if sizes.is_ok() && every_size.iter().all(Result::is_ok) {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let m = machine();
    println!(
        "machine: {} | {} | CUDA {}",
        m.cpu, m.kernel, setup.cuda_version
    );
    let r = report::Results {
        per_call: per_call::run(&setup),
        startup: startup::run(&setup),
        first_call: first_call::run(&setup),
        size: size::run(&setup),
        every_size,
        gpu: results
            .parent()
            .and_then(|d| std::fs::read_to_string(d.join("gpu/RESULTS.md")).ok()),
    };
    let text = report::render(&setup, &m, &r);
    if let Err(e) = std::fs::write(&results, &text) {
        eprintln!("{}: {e}", results.display());
        return ExitCode::FAILURE;
    }
    println!("\n== wrote {}\n\n{text}", results.display());
    ExitCode::SUCCESS
}

//! The kernel executor's conformance families (`tests/cuda/conformance/<family>.cu`, run by
//! `tests/c/conformance_runner.c`) against the values recorded on a GPU
//! (`tests/data/conformance/<family>.txt`, by `tests/gpu/conformance.sh`): the one comparison
//! that the Linux mock (`tests/tests/mock_kernels.rs`) and the Windows mock DLL under wine
//! (`tests/tests/windows_mock.rs`) both pass. Exact lines must be equal; an `approx <ulps>
//! [<abs>]` line (the approximate functions) must be within that many units in the last place
//! of fp32, or within the absolute error. A placeholder file (first line `# PLACEHOLDER`) fails.

use crate::workspace_root;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The families' CUDA sources.
pub fn sources() -> PathBuf {
    workspace_root().join("tests/cuda/conformance")
}

/// The recorded values.
pub fn data() -> PathBuf {
    workspace_root().join("tests/data/conformance")
}

/// One result line: `<family> <kernel>.<index> <hex> [approx <ulps> [<abs>]]`, or an error line
/// `<family> error ...` (keyed by its whole text, so that it matches only itself).
pub struct Line<'a> {
    key: &'a str,
    bits: Option<u32>,
    ulps: Option<u32>,
    abs: Option<f32>,
    text: &'a str,
}

pub fn parse(text: &str) -> Line<'_> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let key = match fields.get(1) {
        Some(&"error") | None => text,
        Some(key) => key,
    };
    let bits = fields.get(2).and_then(|h| u32::from_str_radix(h, 16).ok());
    let approx = fields.get(3) == Some(&"approx");
    Line {
        key,
        bits: if key == text { None } else { bits },
        ulps: approx
            .then(|| fields.get(4).and_then(|u| u.parse().ok()))
            .flatten(),
        abs: approx
            .then(|| fields.get(5).and_then(|a| a.parse().ok()))
            .flatten(),
        text,
    }
}

/// Distance in fp32 ulps between two bit patterns (on the line of ordered integers: -0 and +0
/// one apart, across zero the sum), `None` where either is NaN.
pub fn ulps_apart(a: u32, b: u32) -> Option<u64> {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    if fa.is_nan() || fb.is_nan() {
        return None;
    }
    let ordered = |x: u32| -> i64 {
        if x & 0x8000_0000 != 0 {
            -i64::from(x & 0x7fff_ffff) - 1
        } else {
            i64::from(x)
        }
    };
    Some(ordered(a).abs_diff(ordered(b)))
}

/// Whether `got` matches `expected` (a recorded line).
pub fn matches(expected: &Line, got: &Line) -> bool {
    if expected.text == got.text {
        return true;
    }
    let (Some(e), Some(g), Some(ulps)) = (expected.bits, got.bits, expected.ulps) else {
        return false;
    };
    let (fe, fg) = (f32::from_bits(e), f32::from_bits(g));
    if fe.is_nan() || fg.is_nan() {
        return fe.is_nan() && fg.is_nan();
    }
    if fe.is_infinite() || fg.is_infinite() {
        return e == g;
    }
    ulps_apart(e, g).is_some_and(|d| d <= u64::from(ulps))
        || expected.abs.is_some_and(|abs| (fe - fg).abs() <= abs)
}

/// Compares `got_text`, the runner's stdout for `family` on a mock, with the recorded file;
/// panics naming the first difference and counting all of them, with `diagnostics` (the
/// runner's status and the end of its stderr).
pub fn check(family: &str, got_text: &str, diagnostics: &str) {
    let file = data().join(format!("{family}.txt"));
    let recorded = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (record it: tests/gpu/conformance.sh)",
            file.display()
        )
    });
    let first = recorded.lines().next().unwrap_or("");
    let prefix = format!("{family} ");
    let expected: Vec<Line> = recorded
        .lines()
        .filter(|l| l.starts_with(&prefix))
        .map(parse)
        .collect();
    let got: BTreeMap<&str, Line> = got_text
        .lines()
        .filter(|l| l.starts_with(&prefix))
        .map(parse)
        .map(|l| (l.key, l))
        .collect();
    let mut differ = 0usize;
    let mut first_diff = None;
    for e in &expected {
        let ok = got.get(e.key).is_some_and(|g| matches(e, g));
        if !ok {
            differ += 1;
            if first_diff.is_none() {
                let g = got.get(e.key).map_or("(no such line)", |g| g.text);
                first_diff = Some(format!("expected `{}`, the mock `{g}`", e.text));
            }
        }
    }
    let keys: std::collections::BTreeSet<&str> = expected.iter().map(|l| l.key).collect();
    let extra: Vec<&str> = got
        .values()
        .filter(|g| !keys.contains(g.key))
        .map(|g| g.text)
        .collect();
    assert!(
        !first.starts_with("# PLACEHOLDER"),
        "{}: a placeholder, not yet recorded on a GPU (OUT=$OUT bash tests/gpu/conformance.sh \
         on the lent GPU, then tar xzf conformance.tar.gz -C tests/data/conformance); the mock \
         {}",
        file.display(),
        if differ == 0 && extra.is_empty() {
            "gives its values".to_string()
        } else {
            format!("differs from it in {differ} lines")
        }
    );
    assert!(
        first.starts_with("# recorded by: ") && !expected.is_empty(),
        "{}: not a recorded file (first line `{first}`)",
        file.display()
    );
    assert!(
        differ == 0 && extra.is_empty(),
        "{family}: {differ} of {} recorded lines differ on the mock, {} lines the recording \
         lacks; first: {}; first extra: {:?}\n{diagnostics}",
        expected.len(),
        extra.len(),
        first_diff.unwrap_or_default(),
        extra.first()
    );
}

"""Runs every built cuda-sample (args from the repository's test_args.json) with a timeout;
writes {name: [rc, last lines, seconds]} as JSON.
usage: run_samples.py BUILD_DIR PTSZ_DIR OUT.json TAG   (BUILD_DIR: cuda-samples/<cmake build dir>)"""
import concurrent.futures, json, os, pathlib, subprocess, sys, time
build, ptsz, out, tag = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4]
cfg = json.load(open(build.parent / "test_args.json"))
exes = [p for p in (build / "Samples").rglob("*") if p.is_file() and os.access(p, os.X_OK)
        and p.suffix not in (".so", ".o") and "CMakeFiles" not in p.parts]
exes += [p for p in ptsz.glob("*_ptsz")]
def one(p):
    c = cfg.get(p.name.replace("_ptsz", ""), {})
    if c.get("skip"):
        return p.name, [None, "skipped"]
    args = c.get("args") or (c.get("runs") or [{}])[0].get("args", [])
    t = time.time()
    try:
        r = subprocess.run(["./" + p.name] + args, cwd=p.parent, capture_output=True, timeout=60)
        tail = (r.stdout + r.stderr).decode(errors="replace").strip().splitlines()[-4:]
        return p.name, [r.returncode, " | ".join(tail)[-400:], round(time.time() - t, 1)]
    except subprocess.TimeoutExpired:
        return p.name, ["timeout", "", 60]
with concurrent.futures.ThreadPoolExecutor(8) as ex:
    res = dict(ex.map(one, exes))
json.dump(res, open(out, "w"), indent=0, sort_keys=True)
ok = sum(1 for v in res.values() if v[0] == 0)
print(f"{tag}: {ok} passed of {len(res)} run ({sum(1 for v in res.values() if v[0] is None)} skipped)")

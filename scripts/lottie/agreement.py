"""scripts/lottie-agreement: how closely `flipbook still` matches ThorVG and rlottie on the
Lottie corpus, by the agreement metric of issue 14 (compare.py).

For every snapshot of output/lottie-ref/index.json (made by scripts/lottie-references, run
first when missing): `flipbook still CORPUS/FILE --at P% --size WxH --output …png`, then
pixelmatch against the ThorVG render, against the rlottie render, and — where ThorVG and rlottie
agree with each other — against both ("consensus": agrees with ThorVG and with rlottie). A
command that exits non-zero, times out or writes no PNG of the right size is a failure: counted,
listed, and a disagreement in every fraction; the script itself carries on."""
import argparse, concurrent.futures, json, os, subprocess, sys, time
import compare, engines
from references import ROOT, PROGRESS, default_corpus, label, write_json

OUT = os.path.join(ROOT, "output")


def ensure_flipbook(path, default, who="lottie-agreement"):
    """The flipbook executable at `path`. The default path is this checkout's release build,
    brought up to date first (a no-op when it is): one left from an older checkout would
    score that checkout's code."""
    if path != default:
        if not os.path.exists(path):
            sys.exit(f"{who}: {path} does not exist")
        return path
    print(f"{who}: building flipbook (swift build -c release --product flipbook)", file=sys.stderr)
    r = subprocess.run(["swift", "build", "-c", "release", "--product", "flipbook"], cwd=ROOT,
                       stdout=sys.stderr)
    if r.returncode != 0 or not os.path.exists(path):
        sys.exit(f"{who}: swift build failed; pass --flipbook PATH")
    return path


def ensure_refs(refs):
    index = os.path.join(refs, "index.json")
    if not os.path.exists(index):
        print("lottie-agreement: no reference renders yet; running scripts/lottie-references --no-goldens", file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "lottie", "references.py"),
                        "--no-goldens", "--out", refs], check=True)
    with open(index) as f:
        return json.load(f)


def run_still(flipbook, corpus, snap, out_dir, timeout):
    stem = f"{os.path.splitext(snap['file'])[0]}@{label(snap['progress'])}"
    out = os.path.join(out_dir, f"{stem}.png")
    if os.path.exists(out):
        os.remove(out)
    cmd = [flipbook, "still", os.path.join(corpus, snap["file"]), "--at", f"{label(snap['progress'])}%",
           "--size", snap["size"], "--output", out]
    return (stem, out) + run_timed(cmd, timeout)


def run_timed(cmd, timeout):
    """(exit status or None when it did not finish, stderr stripped, seconds taken)."""
    t = time.monotonic()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        code, err = r.returncode, (r.stderr or "").strip()
    except subprocess.TimeoutExpired:
        code, err = None, f"timed out after {timeout} s"
    except OSError as e:
        code, err = None, str(e)
    return code, err, time.monotonic() - t


def measure(snap, refs, stem, out, code, err, seconds):
    row = {"file": snap["file"], "progress": snap["progress"], "size": snap["size"],
           "refsAgree": snap["agree"], "seconds": round(seconds, 3)}
    failure = None
    if code != 0:
        failure = f"exit {code}: {err.splitlines()[-1] if err else ''}" if code is not None else err
    elif not os.path.exists(out):
        failure = "exit 0 but no PNG written"
    else:
        try:
            ours = engines.read_png(out)
        except Exception as e:
            ours, failure = None, f"unreadable PNG: {e}"
        if ours is not None and ours.shape[:2] != (snap["height"], snap["width"]):
            failure = f"PNG is {ours.shape[1]}x{ours.shape[0]}, expected {snap['size']}"
    if failure:
        row.update(failed=failure, thorvg=None, rlottie=None, agreeThorvg=False, agreeRlottie=False)
        row["agreeConsensus"] = False if snap["agree"] else None
        return row
    if err:
        row["stderr"] = err.splitlines()[:5]  # warnings (ignored features) are worth seeing
    for eng in ("thorvg", "rlottie"):
        ref = os.path.join(refs, f"{stem}.{eng}.png")
        if not os.path.exists(ref):
            row[eng], row["agree" + eng.capitalize()] = None, False
            continue
        counted, aa = compare.mismatch(ours, engines.read_png(ref))
        frac = counted.sum() / counted.size
        row[eng] = round(float(frac), 6)
        row["agree" + ("Thorvg" if eng == "thorvg" else "Rlottie")] = bool(compare.agrees(frac))
        if eng == "thorvg" and counted.any():
            from PIL import Image
            Image.fromarray(compare.diff_image(ours, counted, aa), "RGB").save(out.replace(".png", ".diff-thorvg.png"))
    row["agreeConsensus"] = (row["agreeThorvg"] and row["agreeRlottie"]) if snap["agree"] else None
    return row


def pct(k, n):
    return f"{k}/{n} ({100 * k / n:.1f} %)" if n else "–"


def summarize(rows):
    def block(sub):
        cons = [r for r in sub if r["refsAgree"]]
        return {"snapshots": len(sub), "failed": sum("failed" in r for r in sub),
                "agreeThorvg": sum(r["agreeThorvg"] for r in sub),
                "agreeRlottie": sum(r["agreeRlottie"] for r in sub),
                "refsAgree": len(cons), "agreeConsensus": sum(bool(r["agreeConsensus"]) for r in cons)}
    return {"overall": block(rows), "byProgress": {label(p): block([r for r in rows if r["progress"] == p]) for p in PROGRESS}}


def markdown(rows, summary, flipbook):
    o = summary["overall"]
    lines = ["| | Snapshots | Agree with ThorVG | Agree with rlottie | Agree with both, where ThorVG and rlottie agree | `flipbook still` failed |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, b in [("All", o)] + [(f"at {p} %", b) for p, b in summary["byProgress"].items()]:
        lines.append(f"| {name} | {b['snapshots']} | {pct(b['agreeThorvg'], b['snapshots'])} | {pct(b['agreeRlottie'], b['snapshots'])} "
                     f"| {pct(b['agreeConsensus'], b['refsAgree'])} | {b['failed']} |")
    lines += ["", "Agreement: at most 1.5 % of the pixels beyond pixelmatch's 0.1 threshold (anti-aliased pixels not counted, "
              "transparency over white); snapshots at 0, 25, 50, 75 and 100 % of each of the corpus's files, aspect-fitted into 256×256. "
              "Measured by `scripts/lottie-agreement`.", "",
              "| File | Size | ThorVG | rlottie | Both (where they agree) | Worst vs ThorVG | Failed |",
              "|---|---|---|---|---|---:|---|"]
    files = sorted({r["file"] for r in rows})
    mark = lambda v: "✓" if v else ("✗" if v is not None else "·")
    for f in files:
        sub = sorted((r for r in rows if r["file"] == f), key=lambda r: r["progress"])
        worst = max(sub, key=lambda r: -1 if r["thorvg"] is None else r["thorvg"])
        w = "–" if worst["thorvg"] is None else f"{100 * worst['thorvg']:.1f} % at {worst['progress']} %"
        failed = ", ".join(f"{r['progress']} %" for r in sub if "failed" in r) or ""
        lines.append(f"| {f} | {sub[0]['size']} | {' '.join(mark(r['agreeThorvg']) for r in sub)} | "
                     f"{' '.join(mark(r['agreeRlottie']) for r in sub)} | {' '.join(mark(r['agreeConsensus']) for r in sub)} | {w} | {failed} |")
    lines += ["", "Marks per progress 0, 25, 50, 75, 100 %: ✓ agrees, ✗ does not, · ThorVG and rlottie disagree (no consensus)."]
    return "\n".join(lines) + "\n"


def main():
    default = os.path.join(ROOT, ".build", "release", "flipbook")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flipbook", default=default, help="the flipbook executable (default .build/release/flipbook, built or brought up to date first)")
    ap.add_argument("--corpus", default=default_corpus())
    ap.add_argument("--refs", default=os.path.join(OUT, "lottie-ref"))
    ap.add_argument("--out", default=os.path.join(OUT, "lottie-agreement"), help="folder for our stills and diff images")
    ap.add_argument("--only", nargs="*", help="corpus file names (without .json)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    flipbook = ensure_flipbook(os.path.abspath(a.flipbook), default)
    index = ensure_refs(a.refs)
    snaps = [s for s in index["snapshots"] if not a.only or os.path.splitext(s["file"])[0] in a.only]
    os.makedirs(a.out, exist_ok=True)
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        runs = [pool.submit(run_still, flipbook, a.corpus, s, a.out, a.timeout) for s in snaps]
        for s, fut in zip(snaps, runs):
            row = measure(s, a.refs, *fut.result())
            rows.append(row)
            fmt = lambda v: "  –   " if v is None else f"{100 * v:5.1f}%"
            state = f"FAILED {row['failed']}" if "failed" in row else (
                "consensus " + ("✓" if row["agreeConsensus"] else "✗") if row["refsAgree"] else "no consensus")
            print(f"{row['file']:<52} {label(row['progress']):>3} %  vs ThorVG {fmt(row['thorvg'])}  vs rlottie {fmt(row['rlottie'])}  {state}", flush=True)
    summary = summarize(rows)
    md = markdown(rows, summary, flipbook)
    result = {"flipbook": flipbook, "metric": index.get("metric"), "versions": index.get("versions"), "summary": summary, "snapshots": rows}
    write_json(os.path.join(OUT, "lottie-agreement.json"), result)
    tmp = os.path.join(OUT, "lottie-agreement.md.tmp")
    with open(tmp, "w") as f:
        f.write(md)
    os.replace(tmp, os.path.join(OUT, "lottie-agreement.md"))
    o = summary["overall"]
    print()
    print(f"snapshots {o['snapshots']}, flipbook still failed on {o['failed']}")
    print(f"agree with ThorVG:  {pct(o['agreeThorvg'], o['snapshots'])}")
    print(f"agree with rlottie: {pct(o['agreeRlottie'], o['snapshots'])}")
    print(f"agree with both where ThorVG and rlottie agree: {pct(o['agreeConsensus'], o['refsAgree'])}")
    for p, b in summary["byProgress"].items():
        print(f"  at {p:>3} %: ThorVG {pct(b['agreeThorvg'], b['snapshots'])}, rlottie {pct(b['agreeRlottie'], b['snapshots'])}, both {pct(b['agreeConsensus'], b['refsAgree'])}, failed {b['failed']}")
    if o["failed"]:
        print("failures:")
        for r in rows:
            if "failed" in r:
                print(f"  {r['file']} at {label(r['progress'])} %: {r['failed']}")
    print("wrote output/lottie-agreement.md and output/lottie-agreement.json")


if __name__ == "__main__":
    main()

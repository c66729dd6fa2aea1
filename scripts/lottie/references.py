"""scripts/lottie-references: ThorVG and rlottie renders of the Lottie corpus, their agreement,
and the goldens of Tests/FlipbookLottieTests/Corpus (see that folder's README.md).

For every corpus file and progress p in 0,25,50,75,100: the composition aspect-fitted into
256×256 (integer W×H, the size `flipbook still --size WxH` is given), rendered by ThorVG and by
rlottie (engines.py), compared with pixelmatch (compare.py). Writes
  output/lottie-ref/<name>@<p>.thorvg.png, .rlottie.png, .diff.png   (gitignored)
  output/lottie-ref/index.json                                       (every snapshot)
  Tests/FlipbookLottieTests/Corpus/<name>@<p>.png                    (ThorVG, where both agree)
  Tests/FlipbookLottieTests/Corpus/manifest.json                     (every snapshot)"""
import argparse, glob, json, os, sys, time
from importlib import metadata
import numpy as np
import compare, engines

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRESS = (0, 25, 50, 75, 100)
GOLDEN_DIR = os.path.join(ROOT, "Tests", "FlipbookLottieTests", "Corpus")


def default_corpus():
    return os.environ.get("FLIPBOOK_LOTTIE_CORPUS",
                          os.path.join(ROOT, "Tests", "LottieCorpus"))


def label(p):
    return f"{p:g}"


def versions():
    return {n: metadata.version(n) for n in ("thorvg-python", "rlottie-python", "pixelmatch", "numpy", "pillow")}


def snapshot(path, doc, p, W, H, out):
    name = os.path.splitext(os.path.basename(path))[0]
    stem = f"{name}@{label(p)}"
    rel = engines.requested(doc, p)
    ip = float(doc["ip"])
    row = {"file": os.path.basename(path), "progress": p, "size": f"{W}x{H}", "width": W, "height": H,
           "ip": ip, "op": float(doc["op"]), "fr": float(doc["fr"]),
           "frame": {"requested": round(ip + rel, 6)}}
    images = {}
    for eng, render in (("thorvg", engines.render_thorvg), ("rlottie", engines.render_rlottie)):
        try:
            img, shown, total = render(path, rel, W, H)
        except Exception as e:  # a file an engine cannot read is a disagreement, not a crash
            row.setdefault("errors", {})[eng] = str(e)
            row["frame"][eng] = None
            continue
        images[eng] = img
        row["frame"][eng] = round(ip + shown, 6)
        row.setdefault("totalFrames", {})[eng] = total
        engines.save_png(img, os.path.join(out, f"{stem}.{eng}.png"))
    if len(images) == 2:
        counted, aa = compare.mismatch(images["thorvg"], images["rlottie"])
        row["mismatchedPixels"] = int(counted.sum())
        row["mismatch"] = round(counted.sum() / (W * H), 6)
        row["agree"] = bool(compare.agrees(counted.sum() / (W * H)))
        from PIL import Image
        Image.fromarray(compare.diff_image(images["thorvg"], counted, aa), "RGB").save(
            os.path.join(out, f"{stem}.diff.png"))
        if row["frame"]["thorvg"] != row["frame"]["rlottie"]:
            # Not the metric, a diagnosis: the engines were given different frames
            # (ThorVG's fractional frame or its op − 1 clamp against rlottie's rounded integer);
            # ThorVG at rlottie's frame tells a frame-choice difference from a drawing one.
            same, _, _ = engines.render_thorvg(path, row["frame"]["rlottie"] - ip, W, H)
            row["mismatchAtRlottieFrame"] = round(compare.fraction(same, images["rlottie"]), 6)
    else:
        row["mismatchedPixels"], row["mismatch"], row["agree"] = None, None, False
    row["golden"] = f"{stem}.png" if row["agree"] else None
    return row, images


def write_json(path, obj):
    """Indented JSON, except that each element of "snapshots" takes one line (readable diffs)."""
    rows = obj.get("snapshots")
    head = json.dumps({k: v for k, v in obj.items() if k != "snapshots"}, indent=1, ensure_ascii=False)
    if rows is not None:
        body = ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in rows)
        head = head[:-2] + ',\n "snapshots": [\n' + body + "\n ]\n}"
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(head + "\n")
    os.replace(tmp, path)


def summary(rows):
    lines = []
    n = len(rows); a = sum(r["agree"] for r in rows)
    lines.append(f"ThorVG vs rlottie: {a}/{n} snapshots agree ({100 * a / n:.1f} %)")
    for p in PROGRESS:
        sub = [r for r in rows if r["progress"] == p]
        k = sum(r["agree"] for r in sub)
        lines.append(f"  at {label(p):>3} %: {k}/{len(sub)} ({100 * k / len(sub):.1f} %)")
    files = sorted({r["file"] for r in rows})
    full = [f for f in files if all(r["agree"] for r in rows if r["file"] == f)]
    lines.append(f"  files agreeing at all five: {len(full)}/{len(files)}")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=default_corpus(), help="folder of Lottie .json files (default Tests/LottieCorpus, or $FLIPBOOK_LOTTIE_CORPUS)")
    ap.add_argument("--out", default=os.path.join(ROOT, "output", "lottie-ref"))
    ap.add_argument("--goldens", default=GOLDEN_DIR, help="where goldens and manifest.json go")
    ap.add_argument("--no-goldens", action="store_true", help="only render and measure, leave the goldens alone")
    ap.add_argument("--only", nargs="*", help="corpus file names (without .json) to render; implies --no-goldens")
    ap.add_argument("--check-pixelmatch", action="store_true", help="also run the unmodified pixelmatch package on every snapshot and fail if a count differs")
    a = ap.parse_args()

    files = sorted(glob.glob(os.path.join(a.corpus, "*.json")))
    if not files:
        sys.exit(f"lottie-references: no .json files in {a.corpus} (give --corpus or $FLIPBOOK_LOTTIE_CORPUS)")
    if a.only:
        files = [f for f in files if os.path.splitext(os.path.basename(f))[0] in a.only]
        a.no_goldens = True
    os.makedirs(a.out, exist_ok=True)
    rows, goldens, t0 = [], {}, time.monotonic()
    for path in files:
        doc = engines.load(path)
        W, H = engines.fit_size(doc)
        for p in PROGRESS:
            row, images = snapshot(path, doc, p, W, H, a.out)
            if a.check_pixelmatch and row["mismatchedPixels"] is not None:
                ok, expected = compare.check_exact(images["thorvg"], images["rlottie"])
                if not ok:
                    sys.exit(f"lottie-references: {row['file']}@{label(p)}: prefiltered count {row['mismatchedPixels']} != pixelmatch {expected}")
            rows.append(row)
            if row["agree"]:
                goldens[row["golden"]] = images["thorvg"]
            mark = "agree" if row["agree"] else "DIFFER"
            mm = "error" if row["mismatch"] is None else f"{100 * row['mismatch']:6.2f} %"
            print(f"{row['file']:<55} {label(p):>3} %  {row['size']:>8}  frames tvg {row['frame']['thorvg']} rl {row['frame']['rlottie']}  {mm}  {mark}", flush=True)
    meta = {"generator": "scripts/lottie-references", "corpus": "Tests/LottieCorpus", "fit": engines.FIT,
            "progress": list(PROGRESS), "metric": {"tool": "pixelmatch (mapbox/pixelmatch 5.x algorithm)", "threshold": compare.THRESHOLD,
            "includeAA": False, "maxMismatchFraction": compare.MAX_MISMATCH}, "versions": versions(),
            "notes": {"size": "the composition aspect-fitted into 256x256, rounded to whole pixels: the --size given to flipbook still",
                      "frame": "absolute frames (ip + the frame the engine was given). requested = ip + p/100*(op-ip); "
                               "ThorVG: min(rel, total-1) as a float (so op-1 at 100 %), read back with get_frame; "
                               "rlottie: min(round(rel), total-1) with rlottie's total = op-ip+1 (so op at 100 %)",
                      "mismatch": "fraction of pixels pixelmatch counts between the ThorVG and rlottie renders; agree when <= 0.015",
                      "mismatchAtRlottieFrame": "only where the frames differ: ThorVG re-rendered at rlottie's frame vs rlottie (diagnosis, not the metric)",
                      "golden": "the ThorVG render, straight-alpha 8-bit RGBA PNG, when the engines agree"}}
    write_json(os.path.join(a.out, "index.json"), {**meta, "snapshots": rows})
    if not a.no_goldens:
        os.makedirs(a.goldens, exist_ok=True)
        for old in glob.glob(os.path.join(a.goldens, "*.png")):
            if os.path.basename(old) not in goldens:
                os.remove(old)
        for name, img in goldens.items():
            engines.save_png(img, os.path.join(a.goldens, name), optimize=True)
        write_json(os.path.join(a.goldens, "manifest.json"), {**meta, "snapshots": rows})
        total = sum(os.path.getsize(os.path.join(a.goldens, n)) for n in goldens)
        print(f"goldens: {len(goldens)} PNGs, {total / 1e6:.2f} MB in {os.path.relpath(a.goldens, ROOT)}")
    for line in summary(rows):
        print(line)
    print(f"({time.monotonic() - t0:.0f} s; renders and diffs in {os.path.relpath(a.out, ROOT)})")


if __name__ == "__main__":
    main()

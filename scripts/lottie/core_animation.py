"""scripts/lottie-core-animation: how many of lottie-ios's Core Animation snapshots
(../shared/lottie/core-animation, issue 24) `flipbook still` matches.

For every entry of the folder's manifest.json: `flipbook still samples/X.json --at P% --size WxH`
(WxH: the snapshot PNG's size), then the README's rule: both images composited over white, a
pixel differs when its YIQ distance exceeds pixelmatch's at threshold 0.1 (no anti-aliasing
exemption), and the snapshot passes when the differing share is at most the entry's `limit`.
A command that fails, times out or writes no PNG of the right size is a failed snapshot.

Prints the pass count, a table per file, pass counts per feature and the failures grouped by
feature. A feature is read from what the JSON uses (layer types, shape types, keys), so a file
can sit in several groups. Writes output/lottie-core-animation.md and .json."""
import argparse, concurrent.futures, json, os
from PIL import Image
import compare, engines
from agreement import ensure_flipbook, run_timed
from references import ROOT, write_json

OUT = os.path.join(ROOT, "output")
WHO = "lottie-core-animation"

# Shape item types (`ty` inside `shapes`/`it`) that name a feature of their own.
SHAPE_FEATURES = {"gf": "gradients", "gs": "gradients", "rp": "repeaters", "tm": "trims", "mm": "merge paths",
                  "op": "offset paths", "zz": "zig-zag/pucker", "pb": "zig-zag/pucker", "rd": "rounded corners",
                  "tw": "twist"}


def features(doc):
    """The features a Lottie document uses, by name."""
    found = set()

    def walk(node, in_layer):
        if isinstance(node, list):
            for v in node:
                walk(v, in_layer)
            return
        if not isinstance(node, dict):
            return
        if isinstance(node.get("x"), str) and node["x"].strip():
            found.add("expressions")
        ty = node.get("ty")
        is_layer = "ks" in node and isinstance(ty, int) and "ip" in node
        if is_layer:
            found.update({0: ["precomps"], 2: ["images"], 5: ["text"]}.get(ty, []))
            if node.get("tt"):
                found.add("mattes")
            if node.get("masksProperties"):
                found.add("masks")
            if node.get("ef") or node.get("sy"):
                found.add("shadows/effects")
            if node.get("ddd") == 1:
                found.add("3D")
            if node.get("bm"):
                found.add("blend modes")
            if "tm" in node:
                found.add("time remap")
            if node.get("ks", {}).get("p", {}).get("k") and _has_motion_path(node["ks"]["p"]):
                found.add("motion paths")
        elif isinstance(ty, str):
            if ty in SHAPE_FEATURES:
                found.add(SHAPE_FEATURES[ty])
            if ty == "st" and node.get("d"):
                found.add("dashes")
        for k, v in node.items():
            walk(v, in_layer or is_layer)

    walk(doc.get("layers", []), False)
    walk(doc.get("assets", []), False)
    if doc.get("ddd") == 1:
        found.add("3D")
    return sorted(found) or ["plain"]


def _has_motion_path(p):
    """Whether a keyframed position has spatial tangents (`ti`/`to` not all zero): a curved path."""
    k = p.get("k")
    if not isinstance(k, list) or not k or not isinstance(k[0], dict):
        return False
    return any(any(abs(v) > 1e-9 for v in (kf.get("ti") or []) + (kf.get("to") or [])
                   if isinstance(v, (int, float))) for kf in k)


def run_still(flipbook, base, entry, out_dir, timeout, compat):
    out = os.path.join(out_dir, f"{entry['name']}@{entry['progress']}.png")
    if os.path.exists(out):
        os.remove(out)
    with Image.open(os.path.join(base, entry["snapshot"])) as im:
        w, h = im.size
    cmd = [flipbook, "still", os.path.join(base, entry["json"]), "--at", f"{entry['progress']}%",
           "--size", f"{w}x{h}", "--output", out] + (["--lottie-compat", compat] if compat else [])
    return (out, (w, h)) + run_timed(cmd, timeout)


def measure(base, entry, out, size, code, err, seconds):
    row = {"name": entry["name"], "progress": entry["progress"], "size": f"{size[0]}x{size[1]}",
           "limit": entry["limit"], "seconds": round(seconds, 3)}
    if code != 0:
        row["failed"] = f"exit {code}: {err.splitlines()[-1] if err else ''}" if code is not None else err
    elif not os.path.exists(out):
        row["failed"] = "exit 0 but no PNG written"
    else:
        ours = engines.read_png(out)
        truth = engines.read_png(os.path.join(base, entry["snapshot"]))
        if ours.shape != truth.shape:
            row["failed"] = f"PNG is {ours.shape[1]}x{ours.shape[0]}, expected {row['size']}"
        else:
            row["differing"] = round(compare.over_white_fraction(ours, truth), 6)
    row["pass"] = "differing" in row and row["differing"] <= entry["limit"]
    return row


def report(rows, feats, base):
    names = sorted({r["name"] for r in rows}, key=str.lower)
    passed = sum(r["pass"] for r in rows)
    lines = [f"{passed}/{len(rows)} snapshots pass ({100 * passed / max(1, len(rows)):.1f} %)", "",
             "| File | Size | 0 25 50 75 100 % | Worst | Features |", "|---|---|---|---:|---|"]
    for n in names:
        sub = sorted((r for r in rows if r["name"] == n), key=lambda r: r["progress"])
        worst = max(sub, key=lambda r: 2 if "failed" in r else r["differing"])
        w = "failed" if "failed" in worst else f"{100 * worst['differing']:.1f} % at {worst['progress']} %"
        lines.append(f"| {n} | {sub[0]['size']} | {' '.join('✓' if r['pass'] else '✗' for r in sub)} | {w} "
                     f"| {', '.join(feats[n])} |")
    groups = sorted({f for n in names for f in feats[n]})
    lines += ["", "| Feature | Files | Snapshots | Pass |", "|---|---:|---:|---:|"]
    for g in groups:
        sub = [r for r in rows if g in feats[r["name"]]]
        lines.append(f"| {g} | {len({r['name'] for r in sub})} | {len(sub)} | {sum(r['pass'] for r in sub)} |")
    lines += ["", "Failures by feature (a file using several features is listed under each):"]
    for g in groups:
        bad = [r for r in rows if g in feats[r["name"]] and not r["pass"]]
        if not bad:
            continue
        lines.append(f"- {g} ({len(bad)}):")
        for n in sorted({r["name"] for r in bad}, key=str.lower):
            sub = [r for r in bad if r["name"] == n]
            failed = [r for r in sub if "failed" in r]
            parts = [f"{r['progress']} % {100 * r['differing']:.1f} %" for r in sub if "failed" not in r]
            if failed:  # one message for the progresses it stopped at, without the file's path
                why = failed[0]["failed"].replace(os.path.join(base, f"samples/{n}.json") + ": ", "")
                parts.append(", ".join(f"{r['progress']}" for r in failed) + f" %: {why}")
            lines.append(f"    {n}: " + ", ".join(parts))
    return passed, "\n".join(lines) + "\n"


def main():
    default = os.path.join(ROOT, ".build", "release", "flipbook")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flipbook", default=default, help="the flipbook executable (default .build/release/flipbook, built or brought up to date first)")
    ap.add_argument("--dir", default=os.path.join(ROOT, "..", "shared", "lottie", "core-animation"))
    ap.add_argument("--compat", help="pass --lottie-compat COMPAT (lottie-web or core-animation)")
    ap.add_argument("--out", default=os.path.join(OUT, "lottie-core-animation"), help="folder for our stills")
    ap.add_argument("--only", nargs="*", help="animation names (without .json)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    flipbook = ensure_flipbook(os.path.abspath(a.flipbook), default, WHO)
    base = os.path.abspath(a.dir)
    with open(os.path.join(base, "manifest.json")) as f:
        entries = [e for e in json.load(f) if not a.only or e["name"] in a.only]
    feats = {}
    for e in entries:
        if e["name"] not in feats:
            with open(os.path.join(base, e["json"]), encoding="utf-8") as f:
                feats[e["name"]] = features(json.load(f))
    os.makedirs(a.out, exist_ok=True)
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        runs = [pool.submit(run_still, flipbook, base, e, a.out, a.timeout, a.compat) for e in entries]
        for e, fut in zip(entries, runs):
            rows.append(measure(base, e, *fut.result()))
    passed, md = report(rows, feats, base)
    print(md, end="")
    os.makedirs(OUT, exist_ok=True)
    stem = "lottie-core-animation" + (f"-{a.compat}" if a.compat else "")
    write_json(os.path.join(OUT, stem + ".json"),
               {"flipbook": flipbook, "compat": a.compat or "default", "passed": passed,
                "features": feats, "snapshots": rows})
    tmp = os.path.join(OUT, stem + ".md.tmp")
    with open(tmp, "w") as f:
        f.write(md)
    os.replace(tmp, os.path.join(OUT, stem + ".md"))
    print(f"wrote output/{stem}.md and output/{stem}.json")


if __name__ == "__main__":
    main()

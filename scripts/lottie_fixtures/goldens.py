"""Writes Tests/FlipbookLottieTests/{Fixtures,Malformed}: the hand-made Lottie fixtures, their
golden PNGs and Fixtures/manifest.json. Run through scripts/lottie-fixture-goldens.

For every fixture and progress value: render with ThorVG and rlottie (render.py); if they agree
(<= 1.5 % of pixels beyond pixelmatch's 0.1 threshold, anti-aliased pixels not counted) and
expected.DECISIONS has no entry, ThorVG's render is the golden; otherwise the decision there
says which image is right and why (or computes it: analytic.py / expected.py)."""
import base64, gzip, io, json, os, shutil, sys, zipfile
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures, render, expected, malformed  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
FIX = os.path.join(ROOT, "Tests", "FlipbookLottieTests", "Fixtures")
GOLD = os.path.join(FIX, "goldens")
SCHEMA = None


def schema_errors(doc):
    global SCHEMA
    import jsonschema
    if SCHEMA is None:
        import lottie_specs
        path = os.path.join(os.path.dirname(lottie_specs.__file__), "data", "lottie.schema.json")
        SCHEMA = jsonschema.Draft202012Validator(json.load(open(path)))
    from jsonschema.exceptions import best_match
    errs = list(SCHEMA.iter_errors(doc))
    if not errs:
        return []
    e = best_match(errs)
    return ["%s: %s (%d error(s) in all)" % ("/".join(str(x) for x in e.absolute_path), e.message[:200], len(errs))]


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def save_png(path, arr):
    Image.fromarray(arr, "RGBA").save(path, optimize=True)


def pct(x):
    return round(100 * x, 2)


def decide(name, p, t, r, W, H):
    """Returns (golden array or None, entry for the manifest)."""
    d = expected.DECISIONS.get(name, {})
    dec = d.get(p, d.get("*"))
    m = render.mismatch(t, r)
    entry = {"progress": p, "thorvg_vs_rlottie_percent": pct(m)}
    if dec is None:
        if m > render.AGREE:
            raise SystemExit(f"{name}@{p}: ThorVG and rlottie disagree ({pct(m)} %) and expected.py has no decision")
        entry["source"] = "thorvg+rlottie agree"
        return t, entry
    src, why = dec
    entry["reason"] = why
    if src == "thorvg":
        entry["source"] = "thorvg judged right"
        return t, entry
    if src == "rlottie":
        entry["source"] = "rlottie judged right"
        return r, entry
    if src == "none":
        entry["source"] = "none (neither player supports it; expected property in reason)"
        return None, entry
    g = expected.ANALYTIC[name](p)
    assert g.shape == (H, W, 4), (name, g.shape)
    entry["source"] = "analytic"
    entry["analytic_vs_thorvg_percent"] = pct(render.mismatch(g, t))
    entry["analytic_vs_rlottie_percent"] = pct(render.mismatch(g, r))
    return g, entry


def goldens_for(name, path, doc, progress, features, notes, W, H, out_name=None, schema_note=None):
    rec = {"file": os.path.relpath(path, FIX), "features": features, "size": f"{W}x{H}",
           "fr": doc["fr"], "ip": doc["ip"], "op": doc["op"], "progress": progress, "goldens": {}}
    errs = schema_errors(doc)
    rec["schema_valid"] = not errs
    if errs:
        rec["schema_errors"] = errs
        if not schema_note:
            raise SystemExit(f"{name}: not valid against the lottie-specs schema: {errs}")
        rec["schema_note"] = schema_note
    if notes:
        rec["notes"] = notes
    for p in progress:
        t, r = render.thorvg(path, p, W, H), render.rlottie(path, p, W, H)
        g, entry = decide(name, p, t, r, W, H)
        if g is not None:
            gname = f"{out_name or name}@{p}.png"
            save_png(os.path.join(GOLD, gname), g)
            entry["golden"] = "goldens/" + gname
        rec["goldens"][str(p)] = entry
        print(f"  {name}@{p}: {entry['source']} (players {entry['thorvg_vs_rlottie_percent']} % apart)", flush=True)
    return rec


def sticker():
    """A Telegram-style sticker: 512x512, 60 fps, 2 s (what .tgs files are)."""
    from build import comp, shape_layer, group, ellipse, rect, fill, anim, kf, ks, RED, BLUE, prop
    star = {"ty": "sr", "nm": "Star", "d": 1, "sy": 1, "pt": prop(5), "p": prop([0, 0]), "r": prop(0),
            "or": prop(120), "ir": prop(55), "os": prop(0), "is": prop(0)}
    d = comp("sticker", 512, 512, [
        shape_layer("Ball", 1, [group([ellipse([0, 0], [120, 120]), fill(RED)])], op=120,
                    ks_=ks(p=anim(kf(0, [100, 100, 0]), kf(120, [412, 412, 0])))),
        shape_layer("Star", 2, [group([star, fill(BLUE)])], op=120,
                    ks_=ks(p=(256, 256), r=anim(kf(0, 0), kf(120, 144))))], op=120, fr=60)
    d["tgs"] = 1
    return d


def main():
    shutil.rmtree(FIX, ignore_errors=True)
    os.makedirs(GOLD)
    manifest = {"about": "Hand-made Lottie fixtures, one feature each, with independent goldens. Regenerate with "
                         "scripts/lottie-fixture-goldens. Progress p means frame ip + p/100 * (op - ip). Agreement: "
                         "pixelmatch threshold 0.1, anti-aliased pixels not counted, <= 1.5 % of pixels.",
                "renderers": {"thorvg-python": render.version("thorvg-python"),
                              "rlottie-python": render.version("rlottie-python"),
                              "lottie-specs": render.version("lottie-specs")},
                "fixtures": {}}
    built = fixtures.build_all()
    for name, f in built.items():
        doc = f["doc"]
        path = os.path.join(FIX, name + ".json")
        write_json(path, doc)
        for rel, mk in f["files"].items():
            os.makedirs(os.path.dirname(os.path.join(FIX, rel)), exist_ok=True)
            open(os.path.join(FIX, rel), "wb").write(mk())
        print(name, flush=True)
        manifest["fixtures"][name + ".json"] = goldens_for(name, path, doc, f["progress"], f["features"], f["notes"],
                                                           doc["w"], doc["h"], schema_note=f["schema_note"])

    # dotLottie: image_file's animation with its image, zipped the dotLottie v1 way.
    src = built["image_file"]["doc"]
    inner = json.loads(json.dumps(src))
    inner["assets"][0]["u"] = "/images/"
    zpath = os.path.join(FIX, "image_file.lottie")
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        def add(n, data):
            zi = zipfile.ZipInfo(n, date_time=(2024, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
        add("manifest.json", json.dumps({"version": "1", "generator": "scripts/lottie-fixture-goldens",
                                         "animations": [{"id": "image_file"}]}, indent=1))
        add("animations/image_file.json", json.dumps(inner, indent=1))
        add("images/quadrants.png", fixtures.quadrants_png())
    base = manifest["fixtures"]["image_file.json"]
    manifest["fixtures"]["image_file.lottie"] = {
        "file": "image_file.lottie", "features": ["dotLottie zip", "image from the archive's images/"],
        "size": base["size"], "progress": base["progress"], "fr": base["fr"], "ip": base["ip"], "op": base["op"],
        "contains": ["manifest.json", "animations/image_file.json", "images/quadrants.png"],
        "goldens": {k: dict(v, source="same animation as image_file.json (" + v["source"] + ")")
                    for k, v in base["goldens"].items()}}

    # .tgs: gzip of a 512x512 60 fps Lottie; goldens rendered from the uncompressed JSON.
    st = sticker()
    tmp = os.path.join(FIX, "sticker.json")
    write_json(tmp, st)
    rec = goldens_for("sticker", tmp, st, [0, 50], ["tgs (gzip Lottie)", "512x512", "60 fps"], None, 512, 512)
    raw = json.dumps(st, separators=(",", ":")).encode()
    with open(os.path.join(FIX, "sticker.tgs"), "wb") as f:
        f.write(gzip.compress(raw, 9, mtime=0))
    os.remove(tmp)
    rec["file"] = "sticker.tgs"
    rec["notes"] = "Goldens rendered from the decompressed JSON (the players were given that file)."
    manifest["fixtures"]["sticker.tgs"] = rec

    write_json(os.path.join(FIX, "manifest.json"), manifest)
    malformed.write(os.path.join(ROOT, "Tests", "FlipbookLottieTests", "Malformed"))
    n = sum(len(v["goldens"]) for v in manifest["fixtures"].values())
    print(f"{len(manifest['fixtures'])} fixtures, {n} progress entries")


if __name__ == "__main__":
    main()

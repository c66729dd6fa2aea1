"""scripts/bench-lottie-peers: CPU time per frame of rlottie and ThorVG on corpus files, the
reference for issue 14's speed goal (a Flipbook Lottie frame in at most rlottie's time for the
same file and size; Flipbook's side is measured by package-benchmark in Benchmarks/).

For each file and each size (the 256×256 aspect fit `flipbook still --size` gets, and the
composition's own w×h): the file is loaded once (not timed), then every integer frame
0 … N−1 (N = round(op − ip)) is rendered into one preallocated buffer; the time is the CPU time
of the whole process (time.process_time: user + system of all threads), median of --repeat runs,
divided by N, after an untimed warm-up of up to 10 frames. Only the render call is timed: rlottie's lottie_animation_render (synchronous) and
ThorVG's set_frame + update + draw + sync on a software canvas (Engine threads=0, so one thread
like rlottie's synchronous render). No PNG encoding, no un-premultiplying."""
import argparse, ctypes, json, os, statistics, sys, time
# numpy (imported by engines) starts OpenBLAS's worker threads, which spin for a while after
# the import (40-110 ms of CPU seen): time.process_time counts every thread, so a spin that
# overlaps a timed run would be charged to the peer. Nothing here uses BLAS: one thread.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import engines
from references import ROOT, default_corpus

# Ten varied files: large/small canvases, long/short timelines, gradients, masks and mattes,
# trim paths, repeaters, precomps, images and text.
DEFAULT = ["heart_fill", "5317-fireworkds", "gradient_smoke", "masking", "starstrips",
           "lolo_walk", "property_market", "water_filling", "confetti2", "isometric"]


def frames(doc):
    return max(1, int(round(float(doc["op"]) - float(doc["ip"]))))


def bench_rlottie(path, W, H, n, repeat):
    from rlottie_python import LottieAnimation
    r = LottieAnimation.from_file(path)
    lib = r.rlottie_lib
    buf = (ctypes.c_uint32 * (W * H))()
    lib.lottie_animation_render.argtypes = [type(r.animation_p), ctypes.c_size_t, ctypes.c_void_p,
                                            ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t]
    lib.lottie_animation_render.restype = None
    for i in range(min(n, 10)):  # warm-up, not timed: first-touch allocations and caches
        lib.lottie_animation_render(r.animation_p, i, buf, W, H, W * 4)
    runs = []
    for _ in range(repeat):
        t = time.process_time()
        for i in range(n):
            lib.lottie_animation_render(r.animation_p, i, buf, W, H, W * 4)
        runs.append(time.process_time() - t)
    return runs


def bench_thorvg(path, W, H, n, repeat):
    import thorvg_python as tvg
    engine = engines.thorvg_engine()
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(W, H, W, tvg.Colorspace.ABGR8888)
    anim = tvg.LottieAnimation(engine)
    pic = anim.get_picture()
    if pic.load(path) != tvg.Result.SUCCESS:
        raise RuntimeError("ThorVG could not load the file")
    pic.set_size(W, H)
    canvas.add(pic)
    for i in range(min(n, 10)):  # warm-up, not timed
        anim.set_frame(float(i))
        canvas.update(); canvas.draw(True); canvas.sync()
    runs = []
    for _ in range(repeat):
        anim.set_frame(float(n - 1))  # so that frame 0 of the run is a change
        t = time.process_time()
        for i in range(n):
            anim.set_frame(float(i))
            canvas.update(); canvas.draw(True); canvas.sync()
        runs.append(time.process_time() - t)
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help=f"corpus names without .json (default: {' '.join(DEFAULT)})")
    ap.add_argument("--corpus", default=default_corpus())
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="fit,comp", help="fit (256×256 aspect fit), comp (composition size), or both")
    ap.add_argument("--engines", default="rlottie,thorvg")
    ap.add_argument("--json", default=os.path.join(ROOT, "output", "bench-lottie-peers.json"))
    a = ap.parse_args()
    names = a.files or DEFAULT
    sizes = a.sizes.split(",")
    engs = a.engines.split(",")
    results = []
    head = f"{'file':<28} {'size':>10} {'frames':>6}" + "".join(f" {e + ' ms/frame':>18}" for e in engs)
    if set(engs) == {"rlottie", "thorvg"}:
        head += f" {'ThorVG/rlottie':>15}"
    print(head)
    for name in names:
        path = os.path.join(a.corpus, name + ".json")
        if not os.path.exists(path):
            sys.exit(f"bench-lottie-peers: no {path}")
        doc = engines.load(path)
        n = frames(doc)
        for kind in sizes:
            W, H = engines.fit_size(doc) if kind == "fit" else (int(doc["w"]), int(doc["h"]))
            row = {"file": name + ".json", "sizeKind": kind, "size": f"{W}x{H}", "frames": n, "repeat": a.repeat}
            cells = []
            for e in engs:
                try:
                    runs = (bench_rlottie if e == "rlottie" else bench_thorvg)(path, W, H, n, a.repeat)
                    med = statistics.median(runs)
                    row[e] = {"cpuSecondsRuns": [round(r, 6) for r in runs], "cpuSecondsMedian": round(med, 6),
                              "msPerFrame": round(1000 * med / n, 4)}
                    cells.append(f" {1000 * med / n:>18.3f}")
                except Exception as ex:
                    row[e] = {"error": str(ex)}
                    cells.append(f" {'error':>18}")
            line = f"{name:<28} {row['size']:>10} {n:>6}" + "".join(cells)
            if set(engs) == {"rlottie", "thorvg"} and "msPerFrame" in row.get("rlottie", {}) and "msPerFrame" in row.get("thorvg", {}):
                line += f" {row['thorvg']['msPerFrame'] / row['rlottie']['msPerFrame']:>15.2f}"
            print(line, flush=True)
            results.append(row)
    from importlib import metadata
    out = {"what": "CPU seconds (time.process_time) to render every frame, median of repeats; msPerFrame = median / frames",
           "versions": {p: metadata.version(p) for p in ("rlottie-python", "thorvg-python")},
           "cpu": os.cpu_count(), "results": results}
    os.makedirs(os.path.dirname(a.json), exist_ok=True)
    tmp = a.json + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    os.replace(tmp, a.json)
    print(f"wrote {os.path.relpath(a.json, ROOT)}")


if __name__ == "__main__":
    main()

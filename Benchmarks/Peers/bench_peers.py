#!/usr/bin/env python3
"""Flipbook beside the usual toolchain on the card scene, in one run on one machine.

The card sign-up animation (750×1334 px, 120 frames) is drawn by Flipbook from card.yaml
and by pycairo from cairo_card.py (+ card_timeline.py, the same picture). Every command
runs `--runs` times (default 3); CPU seconds (user + system, from wait4) and peak RSS
are per process, and the median run is reported. Ratios compare numbers of the same run.

  stage                         reference                                   Flipbook
  rasterize one frame           cairo_card.py --no-write (in-process CPU)   render CPU per frame (--timings)
  scene → 120 PNG frames        cairo_card.py --out (Pillow, zlib 6)        render --format png
  scene → GIF                   the above + ffmpeg two-pass palette GIF     render → .gif
  peak memory, scene → GIF      ffmpeg alone                                render → .gif (card, phone-ui)

Usage: bench_peers.py --flipbook PATH [--baseline PATH] [--python PATH] [--ffmpeg PATH] [--runs N] [--jobs N] [--work DIR]
Run through scripts/bench-peers, which builds Flipbook and sets up pycairo and Pillow.
"""
import argparse, os, re, shutil, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def measure(cmd, cwd=None):
    """Runs cmd; returns (cpu seconds, peak RSS in MiB, stdout, stderr) of that process."""
    import tempfile
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, text=True)
        # wait4 gives this child's own CPU time and peak RSS.
        _, status, usage = os.wait4(p.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        out, err = out.read(), err.read()
    if code != 0:
        sys.exit(f"failed ({code}): {' '.join(cmd)}\n{err}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out, err


def folder_bytes(folder):
    return sum(os.path.getsize(os.path.join(folder, n)) for n in os.listdir(folder) if n.endswith(".png"))


def median_run(runs, key):
    ordered = sorted(runs, key=key)
    return ordered[len(ordered) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flipbook", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--ffmpeg", default=shutil.which("ffmpeg"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None, help="Flipbook --jobs (default: its own, every core)")
    ap.add_argument("--work", default="/tmp/flipbook-bench-peers")
    ap.add_argument("--baseline", help="another flipbook build (e.g. an older commit) timed beside, for before/after")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    card = os.path.join(HERE, "card.yaml")
    phone = os.path.join(ROOT, "scenes", "phone-ui.yaml")
    jobs = ["--jobs", str(a.jobs)] if a.jobs else []
    fb = os.path.abspath(a.flipbook)
    rows = {}

    def record(name, values):
        rows.setdefault(name, []).append(values)

    for run in range(a.runs):
        w = os.path.join(a.work, f"run{run}")
        os.makedirs(w)
        # The reference.
        cpu, rss, out, _ = measure([a.python, os.path.join(HERE, "cairo_card.py"), "--no-write"])
        per_frame = float(re.search(r"cpu_ms_per_frame=([\d.]+)", out).group(1))
        record("cairo render", dict(cpu=cpu, ms=per_frame))
        cpu, rss, out, _ = measure([a.python, os.path.join(HERE, "cairo_card.py"), "--out", os.path.join(w, "cairo")])
        record("cairo png", dict(cpu=cpu, bytes=folder_bytes(os.path.join(w, "cairo")), rss=rss))
        if a.ffmpeg:
            cpu, rss, _, _ = measure([a.ffmpeg, "-v", "error", "-y", "-framerate", "30", "-i",
                                      os.path.join(w, "cairo", "frame-%04d.png"), "-filter_complex",
                                      "[0:v]split[a][b];[a]palettegen=stats_mode=diff[p];"
                                      "[b][p]paletteuse=dither=sierra2_4a:diff_mode=rectangle",
                                      os.path.join(w, "ffmpeg.gif")])
            record("ffmpeg gif", dict(cpu=cpu, rss=rss, bytes=os.path.getsize(os.path.join(w, "ffmpeg.gif"))))
        # Flipbook.
        report = os.path.join(w, "png.json")
        cpu, rss, _, err = measure([fb, "render", card, "--format", "png", "-o", os.path.join(w, "fb"), "-q",
                                    "--timings", "--report", report] + jobs)
        render_ms = float(re.search(r"render ([\d.]+) \(([\d.]+) ms/frame\)", err).group(2))
        encode_ms = float(re.search(r"encode ([\d.]+)", err).group(1))
        record("flipbook png", dict(cpu=cpu, rss=rss, bytes=folder_bytes(os.path.join(w, "fb")),
                                    render_ms=render_ms, encode_ms=encode_ms / 120))
        cpu, rss, _, _ = measure([fb, "render", card, "-o", os.path.join(w, "card.gif"), "-q", "--force"] + jobs)
        record("flipbook gif", dict(cpu=cpu, rss=rss, bytes=os.path.getsize(os.path.join(w, "card.gif"))))
        cpu, rss, _, _ = measure([fb, "render", phone, "-o", os.path.join(w, "phone.gif"), "-q", "--force"] + jobs)
        record("flipbook phone gif", dict(cpu=cpu, rss=rss))
        if a.baseline:
            base = os.path.abspath(a.baseline)
            cpu, rss, _, _ = measure([base, "render", card, "--format", "png", "-o", os.path.join(w, "base"), "-q"] + jobs)
            record("baseline png", dict(cpu=cpu, rss=rss, bytes=folder_bytes(os.path.join(w, "base"))))
            shutil.rmtree(os.path.join(w, "base"))
            cpu, rss, _, _ = measure([base, "render", card, "-o", os.path.join(w, "base.gif"), "-q", "--force"] + jobs)
            record("baseline gif", dict(cpu=cpu, rss=rss))
            cpu, rss, _, _ = measure([base, "render", phone, "-o", os.path.join(w, "base-phone.gif"), "-q", "--force"] + jobs)
            record("baseline phone gif", dict(cpu=cpu, rss=rss))
        shutil.rmtree(os.path.join(w, "cairo"))
        shutil.rmtree(os.path.join(w, "fb"))

    med = {name: median_run(runs, key=lambda r: r["cpu"]) for name, runs in rows.items()}
    c, cp, fp, fg = med["cairo render"], med["cairo png"], med["flipbook png"], med["flipbook gif"]
    print(f"card scene, 750×1334, 120 frames; median of {a.runs} runs; CPU seconds (user + sys)\n")
    print(f"{'stage':34} {'reference':>16} {'flipbook':>16} {'ratio':>8}  target")
    print(f"{'rasterize one frame (ms CPU)':34} {c['ms']:>16.2f} {fp['render_ms']:>16.2f} "
          f"{fp['render_ms'] / c['ms']:>8.2f}  ≤ 1.00 (cairo --no-write)")
    print(f"{'scene → 120 PNG (s CPU)':34} {cp['cpu']:>16.2f} {fp['cpu']:>16.2f} {fp['cpu'] / cp['cpu']:>8.2f}  ≤ 0.35 (cairo + Pillow zlib 6)")
    print(f"{'  PNG bytes':34} {cp['bytes']:>16,} {fp['bytes']:>16,} {fp['bytes'] / cp['bytes']:>8.2f}  ≤ 1.25")
    print(f"{'  PNG encode per frame (ms CPU)':34} {'':>16} {fp['encode_ms']:>16.2f}")
    if "ffmpeg gif" in med:
        fg_ref = cp["cpu"] + med["ffmpeg gif"]["cpu"]
        print(f"{'scene → GIF (s CPU)':34} {fg_ref:>16.2f} {fg['cpu']:>16.2f} {fg['cpu'] / fg_ref:>8.2f}  ≤ 0.10 (cairo + Pillow + ffmpeg)")
        print(f"{'  GIF bytes':34} {med['ffmpeg gif']['bytes']:>16,} {fg['bytes']:>16,}")
        print(f"{'peak RSS, scene → GIF (MiB)':34} {med['ffmpeg gif']['rss']:>16.0f} {fg['rss']:>16.0f} "
              f"{'':>8}  ≤ 64 (ffmpeg alone for scale)")
    else:
        print("scene → GIF: skipped (no ffmpeg)")
        print(f"{'peak RSS, scene → GIF (MiB)':34} {'':>16} {fg['rss']:>16.0f}")
    print(f"{'peak RSS, phone-ui → GIF (MiB)':34} {'':>16} {med['flipbook phone gif']['rss']:>16.0f}")
    if a.baseline:
        bp, bg, bph = med["baseline png"], med["baseline gif"], med["baseline phone gif"]
        print(f"\nbefore/after (--baseline {a.baseline}), same run:")
        print(f"{'':34} {'baseline':>16} {'flipbook':>16} {'ratio':>8}")
        print(f"{'scene → 120 PNG (s CPU)':34} {bp['cpu']:>16.2f} {fp['cpu']:>16.2f} {fp['cpu'] / bp['cpu']:>8.2f}")
        print(f"{'  PNG bytes':34} {bp['bytes']:>16,} {fp['bytes']:>16,} {fp['bytes'] / bp['bytes']:>8.2f}")
        print(f"{'scene → GIF (s CPU)':34} {bg['cpu']:>16.2f} {fg['cpu']:>16.2f} {fg['cpu'] / bg['cpu']:>8.2f}")
        print(f"{'peak RSS, card → GIF (MiB)':34} {bg['rss']:>16.0f} {fg['rss']:>16.0f}")
        print(f"{'peak RSS, phone-ui → GIF (MiB)':34} {bph['rss']:>16.0f} {med['flipbook phone gif']['rss']:>16.0f}")


if __name__ == "__main__":
    main()

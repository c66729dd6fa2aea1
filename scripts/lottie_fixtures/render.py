"""Renders a Lottie file with ThorVG and rlottie the way ../shared/lottie/reference.py does
(frame = ip + p/100 * (op - ip), relative to ip; ThorVG samples fractional frames, clamped to
total-1; rlottie takes the rounded frame), returning straight-alpha RGBA numpy arrays, and
compares two renders the way the issue measures agreement: pixelmatch, threshold 0.1,
anti-aliased pixels not counted, agreement when at most 1.5 % of pixels differ."""
import json
import numpy as np
from PIL import Image

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
_engine = None


def _tvg():
    global _engine
    import thorvg_python as tvg
    if _engine is None:
        _engine = tvg.Engine(threads=0)
        # Text layers without glyphs name a font; ThorVG only knows fonts loaded by the host
        # (keyed by file stem, "DejaVuSans"). Loading it is setup, not a change to the renderer.
        tvg.Text(_engine).font_load(DEJAVU)
    return tvg, _engine


def frame_for(doc, p):
    return p / 100 * (float(doc["op"]) - float(doc["ip"]))


def thorvg(path, p, W, H):
    tvg, engine = _tvg()
    doc = json.load(open(path))
    rel = frame_for(doc, p)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(W, H, W, tvg.Colorspace.ABGR8888)
    anim = tvg.LottieAnimation(engine)
    pic = anim.get_picture()
    if pic.load(path) != tvg.Result.SUCCESS:
        return None
    pic.set_size(W, H)
    canvas.add(pic)
    _, total = anim.get_total_frame()
    anim.set_frame(min(rel, max(total - 1, 0)))
    canvas.update(); canvas.draw(True); canvas.sync()
    img = Image.frombuffer("RGBA", (W, H), bytes(canvas.buffer_arr), "raw", "RGBa", W * 4, 1)
    return np.array(img)


def rlottie(path, p, W, H):
    from rlottie_python import LottieAnimation
    doc = json.load(open(path))
    rel = frame_for(doc, p)
    r = LottieAnimation.from_file(path)
    total = r.lottie_animation_get_totalframe()
    img = r.render_pillow_frame(frame_num=min(int(round(rel)), max(total - 1, 0)), width=W, height=H)
    return np.array(img.convert("RGBA"))


def mismatch(a, b, diff_path=None):
    """Fraction of pixels pixelmatch counts as different (threshold 0.1, AA pixels excluded)."""
    from pixelmatch.contrib.PIL import pixelmatch
    ia, ib = Image.fromarray(a, "RGBA"), Image.fromarray(b, "RGBA")
    out = Image.new("RGBA", ia.size) if diff_path else None
    n = pixelmatch(ia, ib, out, threshold=0.1, includeAA=False)
    if diff_path:
        out.save(diff_path)
    return n / (a.shape[0] * a.shape[1])


AGREE = 0.015


def version(dist):
    from importlib.metadata import version as v
    return v(dist)

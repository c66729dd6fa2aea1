"""Renders one Lottie snapshot with ThorVG and with rlottie the way ../shared/lottie/reference.py
does, and reports the frame each engine actually showed.

Frames: progress p asks for the frame rel = p/100 · (op − ip), counted from ip (both players
count frames from ip). reference.py passes
  ThorVG:  min(rel, max(total − 1, 0)), a float (ThorVG interpolates fractional frames; the
           value goes through a C float), total = ThorVG's total frame count = op − ip;
  rlottie: min(int(round(rel)), max(total − 1, 0)), an integer (Python's round: halves go to
           the even integer), total = rlottie's frame count.
So at 100 % ThorVG shows op − 1, not op. The frame reported is the absolute frame
(ip + what the engine was given; for ThorVG what Animation.get_frame() reads back).

One deliberate difference from reference.py: rlottie renders premultiplied ARGB32
(rlottie::Surface), and rlottie-python's render_pillow_frame reads the buffer as straight
"BGRA", which darkens every semi-transparent pixel. Here the buffer is read as "BGRa"
(premultiplied), as reference.py already does for ThorVG ("RGBa"), so both images are
straight-alpha RGBA of the same kind."""
import ctypes, json, math, os
import numpy as np
from PIL import Image

FIT = 256


def load(path):
    with open(path, "rb") as f:
        doc = json.load(f)
    return doc


def fit_size(doc, box=FIT):
    """Integer W×H with the composition's aspect ratio, fitting box×box (the larger side = box)."""
    w, h = float(doc["w"]), float(doc["h"])
    s = min(box / w, box / h)
    return max(1, int(math.floor(w * s + 0.5))), max(1, int(math.floor(h * s + 0.5)))


def requested(doc, progress):
    """The frame asked for at progress (0…100), relative to ip."""
    return progress / 100 * (float(doc["op"]) - float(doc["ip"]))


_engine = None


def thorvg_engine():
    global _engine
    if _engine is None:
        import thorvg_python as tvg
        _engine = tvg.Engine(threads=0)
    return _engine


def render_thorvg(path, rel, W, H):
    """(straight RGBA H×W×4 uint8, relative frame shown) or raises RuntimeError."""
    import thorvg_python as tvg
    engine = thorvg_engine()
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(W, H, W, tvg.Colorspace.ABGR8888)
    anim = tvg.LottieAnimation(engine)
    pic = anim.get_picture()
    res = pic.load(path)
    if res != tvg.Result.SUCCESS:
        raise RuntimeError(f"ThorVG could not load {os.path.basename(path)}: {res}")
    pic.set_size(W, H)
    canvas.add(pic)
    _, total = anim.get_total_frame()
    anim.set_frame(min(rel, max(total - 1, 0)))
    _, shown = anim.get_frame()
    canvas.update(); canvas.draw(True); canvas.sync()
    im = Image.frombuffer("RGBA", (W, H), bytes(canvas.buffer_arr), "raw", "RGBa", W * 4, 1)
    return np.array(im), float(shown), float(total)


def render_rlottie(path, rel, W, H):
    """(straight RGBA H×W×4 uint8, relative frame shown, rlottie's frame count)."""
    from rlottie_python import LottieAnimation
    r = LottieAnimation.from_file(path)
    if r is None or not r.animation_p:
        raise RuntimeError(f"rlottie could not load {os.path.basename(path)}")
    total = r.lottie_animation_get_totalframe()
    frame = min(int(round(rel)), max(total - 1, 0))
    buf = r.lottie_animation_render(frame_num=frame, width=W, height=H)
    im = Image.frombuffer("RGBA", (W, H), buf, "raw", "BGRa", W * 4, 1)
    return np.array(im), frame, total


def save_png(arr, path, optimize=False):
    """Writes an RGBA PNG through a temporary file renamed into place. optimize: recompress
    losslessly with oxipng, keeping 8-bit RGBA (no colour-type or bit-depth reduction, so any
    PNG reader gets the pixels in the same layout); about 20 % smaller than Pillow's output."""
    tmp = path + ".tmp"
    Image.fromarray(arr, "RGBA").save(tmp, format="PNG")
    if optimize:
        import oxipng
        oxipng.optimize(tmp, level=2, color_type_reduction=False, bit_depth_reduction=False,
                        palette_reduction=False, grayscale_reduction=False, strip=oxipng.StripChunks.safe())
    os.replace(tmp, path)


def read_png(path):
    return np.array(Image.open(path).convert("RGBA"))

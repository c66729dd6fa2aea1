"""Expected images computed directly in numpy, independent of any Lottie player.

Used where ThorVG and rlottie disagree (or agree on something wrong) and the geometry is simple
enough to compute: axis-aligned boxes, polygons, flattened cubic Béziers, masks as coverage
arithmetic, blend modes by the W3C compositing formulas, blur/shadow as the lottie-web SVG
filters define them. Coverage is sampled 4x4 per pixel (anti-aliasing); colours are straight
sRGB as Lottie stores them, composited source-over in premultiplied form."""
import math
import numpy as np

SS = 4
GREY = (0.85, 0.85, 0.85)


class Canvas:
    def __init__(self, w, h, bg=GREY):
        self.w, self.h = w, h
        self.rgb = np.zeros((h, w, 3))  # premultiplied
        self.a = np.zeros((h, w))
        if bg is not None:
            self.paint(np.ones((h, w)), bg)

    def paint(self, cov, color, opacity=1.0):
        a = np.clip(cov, 0, 1) * opacity
        self.rgb = self.rgb * (1 - a[..., None]) + np.asarray(color[:3])[None, None, :] * a[..., None]
        self.a = self.a * (1 - a) + a

    def layer(self, rgb, a):
        """Composites a premultiplied layer (rgb, a) over the canvas."""
        self.rgb = self.rgb * (1 - a[..., None]) + rgb
        self.a = self.a * (1 - a) + a

    def rgba8(self):
        a = np.clip(self.a, 0, 1)
        rgb = np.where(a[..., None] > 0, self.rgb / np.maximum(a[..., None], 1e-9), 0)
        out = np.concatenate([np.clip(rgb, 0, 1), a[..., None]], axis=2)
        return np.round(out * 255).astype(np.uint8)


def samples(w, h):
    ys, xs = np.mgrid[0:h * SS, 0:w * SS]
    return (xs + 0.5) / SS, (ys + 0.5) / SS


def resolve(mask, w, h):
    return mask.reshape(h, SS, w, SS).mean(axis=(1, 3))


def rect_cov(w, h, x0, y0, x1, y1):
    X, Y = samples(w, h)
    return resolve(((X >= x0) & (X < x1) & (Y >= y0) & (Y < y1)).astype(float), w, h)


def ellipse_cov(w, h, cx, cy, rx, ry):
    X, Y = samples(w, h)
    return resolve((((X - cx) / rx) ** 2 + ((Y - cy) / ry) ** 2 <= 1).astype(float), w, h)


def poly_mask(w, h, rings, rule="nonzero"):
    """Sub-sample inside mask for closed polygons (list of [(x, y), ...])."""
    X, Y = samples(w, h)
    wind = np.zeros(X.shape, dtype=np.int32)
    for ring in rings:
        pts = list(ring)
        for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
            if y0 == y1:
                continue
            side = (x1 - x0) * (Y - y0) - (X - x0) * (y1 - y0)
            up = (y0 <= Y) & (Y < y1) & (side > 0)
            down = (y1 <= Y) & (Y < y0) & (side < 0)
            wind += up.astype(np.int32) - down.astype(np.int32)
    return (wind != 0) if rule == "nonzero" else (wind % 2 == 1)


def poly_cov(w, h, rings, rule="nonzero"):
    return resolve(poly_mask(w, h, rings, rule).astype(float), w, h)


def cubic(p0, p1, p2, p3, n=24):
    t = np.linspace(0, 1, n + 1)[1:]
    pts = []
    for tt in t:
        u = 1 - tt
        pts.append((u ** 3 * p0[0] + 3 * u * u * tt * p1[0] + 3 * u * tt * tt * p2[0] + tt ** 3 * p3[0],
                    u ** 3 * p0[1] + 3 * u * u * tt * p1[1] + 3 * u * tt * tt * p2[1] + tt ** 3 * p3[1]))
    return pts


def bezier_ring(v, o_abs, i_abs):
    """Flattens a closed Bézier path given absolute out/in control points."""
    pts = []
    n = len(v)
    for k in range(n):
        pts += cubic(v[k], o_abs[k], i_abs[(k + 1) % n], v[(k + 1) % n])
    return pts


def xform(pts, m):
    """Applies a 2x3 affine matrix [[a, c, e], [b, d, f]] to points."""
    return [(m[0][0] * x + m[0][1] * y + m[0][2], m[1][0] * x + m[1][1] * y + m[1][2]) for x, y in pts]


def rot_about(cx, cy, deg):
    """Clockwise (y down) rotation by deg about (cx, cy), as Lottie's r."""
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return [[c, -s, cx - c * cx + s * cy], [s, c, cy - s * cx - c * cy]]


def rect_pts(x0, y0, x1, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def gaussian_blur(plane, sigma):
    r = int(math.ceil(3 * sigma))
    k = np.exp(-0.5 * (np.arange(-r, r + 1) / sigma) ** 2)
    k /= k.sum()
    out = plane
    for axis in (0, 1):
        pad = [(0, 0)] * out.ndim
        pad[axis] = (r, r)
        p = np.pad(out, pad)
        out = sum(k[j] * np.take(p, range(j, j + out.shape[axis]), axis=axis) for j in range(2 * r + 1))
    return out


# ---- W3C compositing blend functions (cb backdrop, cs source, both 0..1 RGB)

def _lum(c):
    return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2]


def _clip_color(c):
    l, n, x = _lum(c), min(c), max(c)
    c = list(c)
    if n < 0:
        c = [l + (ci - l) * l / (l - n) for ci in c]
    if x > 1:
        c = [l + (ci - l) * (1 - l) / (x - l) for ci in c]
    return c


def _set_lum(c, l):
    d = l - _lum(c)
    return _clip_color([ci + d for ci in c])


def _sat(c):
    return max(c) - min(c)


def _set_sat(c, s):
    c = list(c)
    order = sorted(range(3), key=lambda i: c[i])
    mn, md, mx = order
    out = [0.0, 0.0, 0.0]
    if c[mx] > c[mn]:
        out[md] = (c[md] - c[mn]) * s / (c[mx] - c[mn])
        out[mx] = s
    return out


def blend(mode, cb, cs):
    if mode == "multiply":
        return [b * s for b, s in zip(cb, cs)]
    if mode == "screen":
        return [b + s - b * s for b, s in zip(cb, cs)]
    if mode == "overlay":  # hard-light with the layers swapped
        return [2 * b * s if b <= 0.5 else 1 - 2 * (1 - b) * (1 - s) for b, s in zip(cb, cs)]
    if mode == "difference":
        return [abs(b - s) for b, s in zip(cb, cs)]
    if mode == "normal":
        return list(cs)
    if mode == "darken":
        return [min(b, s) for b, s in zip(cb, cs)]
    if mode == "lighten":
        return [max(b, s) for b, s in zip(cb, cs)]
    if mode == "color-dodge":
        return [0 if b == 0 else 1 if s >= 1 else min(1, b / (1 - s)) for b, s in zip(cb, cs)]
    if mode == "color-burn":
        return [1 if b == 1 else 0 if s <= 0 else 1 - min(1, (1 - b) / s) for b, s in zip(cb, cs)]
    if mode == "hard-light":
        return [b * 2 * s if s <= 0.5 else b + (2 * s - 1) - b * (2 * s - 1) for b, s in zip(cb, cs)]
    if mode == "soft-light":
        def D(b): return ((16 * b - 12) * b + 4) * b if b <= 0.25 else math.sqrt(b)
        return [b - (1 - 2 * s) * b * (1 - b) if s <= 0.5 else b + (2 * s - 1) * (D(b) - b) for b, s in zip(cb, cs)]
    if mode == "exclusion":
        return [b + s - 2 * b * s for b, s in zip(cb, cs)]
    if mode == "saturation":
        return _set_lum(_set_sat(cb, _sat(cs)), _lum(cb))
    if mode == "luminosity":
        return _set_lum(cb, _lum(cs))
    if mode == "hue":
        return _set_lum(_set_sat(cs, _sat(cb)), _lum(cb))
    if mode == "color":
        return _set_lum(cs, _lum(cb))
    raise ValueError(mode)


def stroke_cov(w, h, pts, width):
    """Coverage of a polyline stroked with round joins and caps (distance to the segments)."""
    X, Y = samples(w, h)
    d = np.full(X.shape, np.inf)
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        vx, vy = x1 - x0, y1 - y0
        t = np.clip(((X - x0) * vx + (Y - y0) * vy) / (vx * vx + vy * vy), 0, 1)
        d = np.minimum(d, np.hypot(X - (x0 + t * vx), Y - (y0 + t * vy)))
    return resolve((d <= width / 2).astype(float), w, h)


def srgb_to_linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def linear_to_srgb(c):
    return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055

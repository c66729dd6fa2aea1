"""The agreement metric of issue 14: pixelmatch (mapbox/pixelmatch 5.x, through the PyPI port
`pixelmatch` 0.4.0) with its default options — threshold 0.1, anti-aliased pixels not counted,
semi-transparent pixels blended over white — and a snapshot agrees when at most 1.5 % of its
pixels are counted as different.

`mismatch` returns exactly the count `pixelmatch.pixelmatch` returns: numpy computes the YIQ
delta of every pixel only to find the candidates (with a small margin so no float rounding can
drop one); each candidate is then decided by the package's own `color_delta` and `antialiased`,
the same calls in the same order as its main loop. Without the prefilter the pure-Python loop
takes about a second per 256×256 image; `check_exact` compares both on real images."""
import numpy as np
from pixelmatch import pixelmatch as reference_pixelmatch
from pixelmatch.utils import antialiased, color_delta

THRESHOLD = 0.1
MAX_MISMATCH = 0.015
MAX_DELTA = 35215 * THRESHOLD * THRESHOLD  # 35215: the largest possible YIQ delta


def _yiq_delta(a, b):
    """pixelmatch's colorDelta for whole images (float64), 0 where the RGBA bytes are equal."""
    def blended(img):
        c = img[..., :3].astype(np.float64)
        alpha = img[..., 3:4].astype(np.float64)
        # pixelmatch blends only when a < 255: 255 + (c - 255) * a / 255
        return np.where(alpha < 255, 255 + (c - 255) * (alpha / 255), c)
    d = blended(a) - blended(b)
    y = d[..., 0] * 0.29889531 + d[..., 1] * 0.58662247 + d[..., 2] * 0.11448223
    i = d[..., 0] * 0.59597799 - d[..., 1] * 0.27417610 - d[..., 2] * 0.32180189
    q = d[..., 0] * 0.21147017 - d[..., 1] * 0.52261711 + d[..., 2] * 0.31114694
    delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    delta[np.all(a == b, axis=-1)] = 0
    return delta


def mismatch(a, b):
    """(counted, anti-aliased) pixel masks for two H×W×4 uint8 straight-alpha RGBA arrays:
    counted.sum() is pixelmatch's return value with default options."""
    if a.shape != b.shape:
        raise ValueError(f"image sizes differ: {a.shape} vs {b.shape}")
    h, w = a.shape[:2]
    counted = np.zeros((h, w), bool)
    aa = np.zeros((h, w), bool)
    if np.array_equal(a, b):
        return counted, aa
    ys, xs = np.nonzero(_yiq_delta(a, b) > MAX_DELTA * (1 - 1e-6))
    if len(ys) == 0:
        return counted, aa
    l1, l2 = a.reshape(-1).tolist(), b.reshape(-1).tolist()
    for y, x in zip(ys.tolist(), xs.tolist()):
        pos = (y * w + x) * 4
        if color_delta(l1, l2, pos, pos) > MAX_DELTA:
            if antialiased(l1, x, y, w, h, l2) or antialiased(l2, x, y, w, h, l1):
                aa[y, x] = True
            else:
                counted[y, x] = True
    return counted, aa


def fraction(a, b):
    """Fraction of pixels pixelmatch counts as different."""
    counted, _ = mismatch(a, b)
    return counted.sum() / (a.shape[0] * a.shape[1])


def over_white_fraction(a, b):
    """Share of pixels whose YIQ distance, both images composited over white, exceeds
    pixelmatch's at threshold 0.1, with no anti-aliasing exemption: the rule of
    ../shared/lottie/core-animation/README.md (and of `flipbook diff`'s default metric)."""
    if a.shape != b.shape:
        raise ValueError(f"image sizes differ: {a.shape} vs {b.shape}")
    return float((_yiq_delta(a, b) > MAX_DELTA).sum()) / (a.shape[0] * a.shape[1])


def agrees(frac):
    return frac <= MAX_MISMATCH


def diff_image(a, counted, aa):
    """pixelmatch-style diff picture: faded grey image, red counted pixels, yellow anti-aliased."""
    c = a[..., :3].astype(np.float64)
    lum = c[..., 0] * 0.29889531 + c[..., 1] * 0.58662247 + c[..., 2] * 0.11448223
    grey = 255 + (lum - 255) * (0.1 * a[..., 3] / 255)
    out = np.repeat(grey[..., None], 3, axis=-1)
    out[aa] = (255, 255, 0)
    out[counted] = (255, 0, 0)
    return out.astype(np.uint8)


def check_exact(a, b):
    """True when `mismatch` counts what the unmodified pixelmatch package counts."""
    h, w = a.shape[:2]
    expected = reference_pixelmatch(a.reshape(-1).tolist(), b.reshape(-1).tolist(), w, h)
    return int(mismatch(a, b)[0].sum()) == expected, expected

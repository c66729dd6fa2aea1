#!/usr/bin/env python3
"""Writes photo.png (800×480), the asset of photo-pan.yaml: a synthetic landscape with the
statistics of a photograph (smooth sky, fractal clouds and hills, fine grain noise and
sensor-like per-pixel noise), since no real photo ships with the repository. Deterministic
(fixed seed). Needs numpy and Pillow; run once, the PNG is committed."""
import os
import numpy as np
from PIL import Image

W, H = 800, 480
rng = np.random.default_rng(13)


def fractal(h, w, octaves=6):
    out = np.zeros((h, w))
    amp, total = 1.0, 0.0
    for o in range(octaves):
        gh, gw = 2 + (h >> (7 - o)), 2 + (w >> (7 - o))
        g = rng.standard_normal((gh, gw))
        ys, xs = np.linspace(0, gh - 1.001, h), np.linspace(0, gw - 1.001, w)
        y0, x0 = ys.astype(int), xs.astype(int)
        fy, fx = (ys - y0)[:, None], (xs - x0)[None, :]
        fy, fx = fy * fy * (3 - 2 * fy), fx * fx * (3 - 2 * fx)
        a = g[y0][:, x0] * (1 - fx) + g[y0][:, x0 + 1] * fx
        b = g[y0 + 1][:, x0] * (1 - fx) + g[y0 + 1][:, x0 + 1] * fx
        out += amp * (a * (1 - fy) + b * fy)
        total += amp
        amp *= 0.55
    return out / total


y = np.linspace(0, 1, H)[:, None] * np.ones((1, W))
x = np.ones((H, 1)) * np.linspace(0, 1, W)[None, :]
sky = np.stack([80 + 120 * y, 140 + 90 * y, 230 - 20 * y], -1)
sun = np.exp(-((x - 0.72) ** 2 + (y - 0.22) ** 2) / 0.004)[..., None] * np.array([255, 220, 150])
clouds = np.clip(fractal(H, W) * 2.2 + 0.2, 0, 1)[..., None]
img = sky + sun * 0.6
img = img * (1 - 0.75 * clouds) + 245 * 0.75 * clouds
ridge = 0.55 + 0.12 * fractal(1, W, 5)[0] * 3
far = y > ridge[None, :]
img[far] = (np.array([70, 95, 120]) + 25 * fractal(H, W)[..., None] * 3)[far]
ridge2 = 0.72 + 0.08 * fractal(1, W, 5)[0] * 3
near = y > ridge2[None, :]
grass = np.stack([60 + 40 * fractal(H, W, 7), 110 + 50 * fractal(H, W, 7), 40 + 20 * fractal(H, W, 7)], -1)
img[near] = (grass * (0.7 + 0.5 * (y[..., None] - 0.7)))[near]
img += rng.normal(0, 2.5, img.shape)  # grain
Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(os.path.join(os.path.dirname(__file__), "photo.png"))

"""Small builders for hand-made Lottie documents (Bodymovin JSON).

Every fixture in fixtures.py is written with these, so each file stays short and the
geometry is easy to check by eye: flat colours, axis-aligned rectangles, round numbers."""

LIN_O = {"x": [0.0], "y": [0.0]}   # linear out-tangent
LIN_I = {"x": [1.0], "y": [1.0]}   # linear in-tangent

RED = [0.9, 0.1, 0.1]
GREEN = [0.1, 0.7, 0.2]
BLUE = [0.15, 0.3, 0.9]
YELLOW = [0.95, 0.85, 0.1]
MAGENTA = [0.8, 0.2, 0.8]
CYAN = [0.1, 0.8, 0.85]
ORANGE = [1.0, 0.55, 0.0]
BLACK = [0.0, 0.0, 0.0]
WHITE = [1.0, 1.0, 1.0]
GREY = [0.5, 0.5, 0.5]


def prop(v):
    """A property: animated dicts pass through, plain values become static ({"a": 0, "k": v})."""
    if isinstance(v, dict) and "k" in v:
        return v
    return {"a": 0, "k": v}


def kf(t, s, o=None, i=None, h=None, **extra):
    """One keyframe at frame t with start value s (a scalar becomes [s]); linear easing unless given."""
    k = {"t": t, "s": s if isinstance(s, list) else [s]}
    if h:
        k["h"] = 1
    else:
        k["o"] = o or LIN_O
        k["i"] = i or LIN_I
    k.update(extra)
    return k


def anim(*kfs):
    """An animated property; the last keyframe carries only t and s."""
    ks = list(kfs)
    last = dict(ks[-1])
    for key in ("o", "i", "h", "to", "ti"):
        last.pop(key, None)
    ks[-1] = last
    return {"a": 1, "k": ks}


def ks(a=(0, 0), p=(0, 0), s=(100, 100), r=0, o=100, **extra):
    """A layer transform."""
    t = {"a": prop(list(a) + [0] if not isinstance(a, dict) else a),
         "p": prop(list(p) + [0] if not isinstance(p, dict) and not isinstance(p, str) else p),
         "s": prop(list(s) + [100] if not isinstance(s, dict) else s),
         "r": prop(r), "o": prop(o)}
    for k, v in extra.items():
        t[k] = prop(v) if k not in ("p",) else v
    return t


def tr(a=(0, 0), p=(0, 0), s=(100, 100), r=0, o=100, sk=0, sa=0):
    """A group transform item (ty: tr); always the last item of a group."""
    return {"ty": "tr", "nm": "Transform", "a": prop(list(a) if not isinstance(a, dict) else a),
            "p": prop(list(p) if not isinstance(p, dict) else p),
            "s": prop(list(s) if not isinstance(s, dict) else s),
            "r": prop(r), "o": prop(o), "sk": prop(sk), "sa": prop(sa)}


def rect(p, s, r=0, nm="Rect"):
    return {"ty": "rc", "nm": nm, "d": 1, "p": prop(p), "s": prop(s), "r": prop(r)}


def ellipse(p, s, nm="Ellipse"):
    return {"ty": "el", "nm": nm, "d": 1, "p": prop(p), "s": prop(s)}


def path(vs, ins=None, outs=None, closed=True, nm="Path"):
    return {"ty": "sh", "nm": nm, "d": 1, "ks": prop(bez(vs, ins, outs, closed))}


def bez(vs, ins=None, outs=None, closed=True):
    z = [[0, 0] for _ in vs]
    return {"c": closed, "v": vs, "i": ins or z, "o": outs or [list(x) for x in z]}


def fill(c, o=100, r=1, nm="Fill"):
    return {"ty": "fl", "nm": nm, "c": prop(list(c) + [1] if not isinstance(c, dict) else c), "o": prop(o), "r": r}


def stroke(c, w, lc=2, lj=2, ml=4, o=100, d=None, nm="Stroke"):
    st = {"ty": "st", "nm": nm, "c": prop(list(c) + [1]), "o": prop(o), "w": prop(w), "lc": lc, "lj": lj, "ml": ml}
    if d is not None:
        st["d"] = d
    return st


def dash(kind, v):
    """A dash-array entry: kind is d (dash), g (gap) or o (offset)."""
    return {"n": kind, "nm": {"d": "dash", "g": "gap", "o": "offset"}[kind], "v": prop(v)}


def group(items, nm="Group", **trargs):
    return {"ty": "gr", "nm": nm, "np": len(items), "it": list(items) + [tr(**trargs)]}


def layer_base(ty, nm, ind, ip, op, ks_, **extra):
    L = {"ddd": 0, "ind": ind, "ty": ty, "nm": nm, "sr": 1, "ks": ks_, "ao": 0, "ip": ip, "op": op, "st": 0, "bm": 0}
    L.update(extra)
    return L


def shape_layer(nm, ind, shapes, ip=0, op=60, ks_=None, **extra):
    L = layer_base(4, nm, ind, ip, op, ks_ or ks(), **extra)
    L["shapes"] = shapes
    return L


def null_layer(nm, ind, ip=0, op=60, ks_=None, **extra):
    return layer_base(3, nm, ind, ip, op, ks_ or ks(), **extra)


def solid_layer(nm, ind, color_hex, w, h, ip=0, op=60, ks_=None, **extra):
    L = layer_base(1, nm, ind, ip, op, ks_ or ks(), **extra)
    L.update({"sc": color_hex, "sw": w, "sh": h})
    return L


def precomp_layer(nm, ind, ref, w, h, ip=0, op=60, ks_=None, **extra):
    L = layer_base(0, nm, ind, ip, op, ks_ or ks(), **extra)
    L.update({"refId": ref, "w": w, "h": h})
    return L


def image_layer(nm, ind, ref, ip=0, op=60, ks_=None, **extra):
    L = layer_base(2, nm, ind, ip, op, ks_ or ks(), **extra)
    L["refId"] = ref
    return L


def comp(nm, w, h, layers, op=60, fr=30, ip=0, assets=None, **extra):
    d = {"v": "5.7.4", "fr": fr, "ip": ip, "op": op, "w": w, "h": h, "nm": nm, "ddd": 0,
         "assets": assets or [], "layers": layers}
    d.update(extra)
    return d


def box(nm, ind, x, y, w, h, c, **kw):
    """A shape layer holding one axis-aligned filled rectangle with its top-left at (x, y)."""
    return shape_layer(nm, ind, [group([rect([x + w / 2, y + h / 2], [w, h]), fill(c)], nm=nm)], **kw)


def mask(pt, mode="a", inv=False, o=100, x=0, nm="Mask"):
    return {"nm": nm, "mode": mode, "inv": inv, "pt": prop(pt), "o": prop(o), "x": prop(x)}


def rect_path(x, y, w, h):
    """A closed clockwise bezier rectangle, top-left (x, y)."""
    return bez([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])

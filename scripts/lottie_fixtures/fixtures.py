"""The hand-made Lottie fixtures: one feature each, flat colours, mostly axis-aligned.

Each entry: name -> dict(doc=..., features=[...], progress=[...], notes=...). Frames: fr 30,
ip 0, op 60 unless said, so progress 25/50/75 land on whole frames 15/30/45 (the two reference
players then sample exactly the same time). build_all() returns them in a stable order."""
import base64, io, struct, zlib
from build import *  # noqa: F401,F403  (small builder vocabulary)

FIX = {}


def fixture(name, features, progress=(0, 50), notes=None, size=None, files=None, schema_note=None):
    def deco(fn):
        FIX[name] = dict(build=fn, features=features, progress=list(progress), notes=notes, files=files or {},
                         schema_note=schema_note)
        return fn
    return deco


def quadrants_png():
    """A 40x40 PNG: red / green / blue / yellow quadrants (opaque), built with zlib only so the
    bytes never depend on an image library's version."""
    cols = [(230, 30, 30), (30, 180, 50), (40, 80, 230), (240, 215, 30)]
    rows = []
    for y in range(40):
        row = bytearray([0])
        for x in range(40):
            row += bytes(cols[(y >= 20) * 2 + (x >= 20)]) + b"\xff"
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 40, 40, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def bg(ind=99):
    """A light grey full-canvas backdrop (bottom layer) so transparent areas show."""
    return box("Backdrop", ind, 0, 0, 100, 100, [0.85, 0.85, 0.85])


def mover(nm, ind, c, x0, x1, y=40, w=20, h=20, t0=0, t1=60):
    """A w x h box whose left edge moves linearly from x0 (frame t0) to x1 (frame t1)."""
    return shape_layer(nm, ind, [group([rect([w / 2, h / 2], [w, h]), fill(c)], nm=nm)],
                       ks_=ks(p=anim(kf(t0, [x0, y, 0]), kf(t1, [x1, y, 0]))))


# ---------------------------------------------------------------- layers

@fixture("precomp_clip", ["precomp", "precomp w/h clipping"], (0, 50))
def _():
    inner = [mover("Bar", 1, GREEN, 0, 80, y=10, w=20, h=80), box("Big", 2, 0, 0, 100, 100, RED)]
    return comp("precomp_clip", 100, 100, [
        precomp_layer("Clipped", 1, "inner", 50, 50, ks_=ks(p=(25, 25))), bg(2)],
        assets=[{"id": "inner", "nm": "inner", "layers": inner}])


@fixture("precomp_timeremap", ["precomp", "tm time remapping"], (0, 50, 75))
def _():
    inner = [mover("Bar", 1, BLUE, 0, 80, y=40)]
    tm = anim(kf(0, 1.0), kf(60, 0.0))  # seconds: plays the inner comp backwards from 1 s
    return comp("precomp_timeremap", 100, 100, [
        precomp_layer("Remapped", 1, "inner", 100, 100, tm=tm), bg(2)],
        assets=[{"id": "inner", "nm": "inner", "layers": inner}])


@fixture("precomp_start_time", ["precomp", "st start time"], (0, 50, 75))
def _():
    inner = [mover("Bar", 1, MAGENTA, 0, 80, y=40)]
    return comp("precomp_start_time", 100, 100, [
        precomp_layer("Late", 1, "inner", 100, 100, st=20), bg(2)],
        assets=[{"id": "inner", "nm": "inner", "layers": inner}])


@fixture("precomp_stretch", ["precomp", "sr stretch"], (0, 50, 75))
def _():
    inner = [mover("Bar", 1, ORANGE, 0, 80, y=40)]
    return comp("precomp_stretch", 100, 100, [
        precomp_layer("Slow", 1, "inner", 100, 100, sr=2, op=120), bg(2)],
        assets=[{"id": "inner", "nm": "inner", "layers": inner}])


@fixture("solid_layer", ["solid layer", "anchor", "scale"], (0, 50))
def _():
    return comp("solid_layer", 100, 100, [
        solid_layer("Half", 1, "#2050e0", 40, 40, ks_=ks(a=(20, 20), p=(60, 60), o=50)),
        solid_layer("Red", 2, "#e03030", 60, 40, ks_=ks(p=(10, 10), s=anim(kf(0, [100, 100, 100]), kf(60, [50, 100, 100])))),
        bg(3)])


@fixture("image_embedded", ["image layer", "embedded data: PNG"], (0, 50))
def _():
    uri = "data:image/png;base64," + base64.b64encode(quadrants_png()).decode()
    return comp("image_embedded", 100, 100, [
        image_layer("Image", 1, "img_0", ks_=ks(p=(20, 20), s=anim(kf(0, [100, 100, 100]), kf(60, [150, 150, 100])))), bg(2)],
        assets=[{"id": "img_0", "w": 40, "h": 40, "u": "", "p": uri, "e": 1}])


def gradient_jpeg():
    """A 40x40 JPEG (quality 90, 4:2:0): a red-to-blue ramp across, darker down; made with the
    pinned Pillow so the bytes are reproducible."""
    import io
    from PIL import Image
    im = Image.new("RGB", (40, 40))
    im.putdata([(230 - x * 5, 60 + y * 3, 40 + x * 5) for y in range(40) for x in range(40)])
    out = io.BytesIO()
    im.save(out, format="JPEG", quality=90, subsampling=2)
    return out.getvalue()


@fixture("image_jpeg", ["image layer", "embedded data: JPEG"], (0, 50))
def _():
    uri = "data:image/jpeg;base64," + base64.b64encode(gradient_jpeg()).decode()
    return comp("image_jpeg", 100, 100, [
        image_layer("Image", 1, "img_0", ks_=ks(p=(20, 20), s=anim(kf(0, [100, 100, 100]), kf(60, [150, 150, 100])))), bg(2)],
        assets=[{"id": "img_0", "w": 40, "h": 40, "u": "", "p": uri, "e": 1}])


@fixture("image_file", ["image layer", "image file beside the JSON"], (0, 50),
         files={"images/quadrants.png": quadrants_png})
def _():
    return comp("image_file", 100, 100, [
        image_layer("Image", 1, "img_0", ks_=ks(p=(30, 30), r=anim(kf(0, 0), kf(60, 90)), a=(20, 20))), bg(2)],
        assets=[{"id": "img_0", "w": 40, "h": 40, "u": "images/", "p": "quadrants.png", "e": 0}])


@fixture("null_parent", ["null layer", "parent"], (0, 50))
def _():
    return comp("null_parent", 100, 100, [
        null_layer("Mover", 1, ks_=ks(p=anim(kf(0, [20, 20, 0]), kf(60, [60, 50, 0])))),
        box("Child", 2, 0, 0, 30, 30, RED, parent=1),
        box("Unparented", 3, 0, 70, 30, 30, BLUE), bg(4)])


@fixture("parent_chain", ["parent chain of 3", "rotation", "scale"], (0, 50))
def _():
    return comp("parent_chain", 100, 100, [
        null_layer("Root", 1, ks_=ks(p=(50, 50), r=anim(kf(0, 0), kf(60, 90)))),
        null_layer("Middle", 2, parent=1, ks_=ks(p=(20, 0), s=(50, 50))),
        box("Leaf", 3, -20, -20, 40, 40, GREEN, parent=2, ks_=ks(p=(40, 0))),
        box("RootMark", 4, -5, -5, 10, 10, RED, parent=1), bg(5)])


@fixture("ip_op", ["ip/op visibility", "layer ending at op at 100%"], (0, 50, 75, 100),
         notes="At 100 % the layer 'Tail' (ip 10, op 60 = comp op) must still be visible; every layer is static, "
               "so frame 59 and frame 60 look the same and the two players' ways of reaching 100 % agree.")
def _():
    return comp("ip_op", 100, 100, [
        box("Early", 1, 0, 0, 50, 50, RED, ip=0, op=20),
        box("Middle", 2, 50, 0, 50, 50, GREEN, ip=20, op=40),
        box("Late", 3, 0, 50, 50, 50, BLUE, ip=40, op=60),
        box("Tail", 4, 50, 50, 50, 50, ORANGE, ip=10, op=60), bg(5)])


@fixture("hidden", ["hd hidden layer", "hd hidden shape"], (0,))
def _():
    return comp("hidden", 100, 100, [
        box("HiddenLayer", 1, 0, 0, 100, 100, RED, hd=True),
        shape_layer("Shapes", 2, [
            dict(group([rect([25, 50], [40, 40]), fill(MAGENTA)], nm="HiddenGroup"), hd=True),
            group([rect([75, 50], [40, 40]), fill(GREEN)], nm="Shown")]), bg(3)])


@fixture("auto_orient", ["ao auto-orient", "motion path"], (0, 25, 50))
def _():
    arrow = group([path([[-15, -8], [15, 0], [-15, 8]]), fill(RED)], nm="Arrow")
    p = anim(kf(0, [20, 80, 0], to=[20, -60, 0], ti=[-20, 0, 0]), kf(60, [80, 20, 0]))
    return comp("auto_orient", 100, 100, [shape_layer("Arrow", 1, [arrow], ks_=ks(p=p), ao=1), bg(2)])


# ---------------------------------------------------------------- transforms

@fixture("transform_all", ["anchor", "position", "scale", "rotation", "opacity"], (0, 50, 75))
def _():
    t = ks(a=(20, 10), p=anim(kf(0, [30, 30, 0]), kf(60, [70, 70, 0])),
           s=anim(kf(0, [100, 100, 100]), kf(60, [150, 50, 100])),
           r=anim(kf(0, 0), kf(60, 90)), o=anim(kf(0, 100), kf(60, 40)))
    return comp("transform_all", 100, 100, [
        shape_layer("Box", 1, [group([rect([20, 10], [40, 20]), fill(BLUE)])], ks_=t), bg(2)])


@fixture("split_position", ["split position x/y"], (0, 25, 50))
def _():
    t = ks()
    t["p"] = {"s": True, "x": anim(kf(0, 10), kf(60, 70)),
              "y": anim(kf(0, 70, o={"x": [0.5], "y": [0]}, i={"x": [0.5], "y": [1]}), kf(30, 10), kf(60, 40))}
    return comp("split_position", 100, 100, [
        shape_layer("Box", 1, [group([rect([10, 10], [20, 20]), fill(RED)])], ks_=t), bg(2)])


@fixture("skew", ["skew", "skew axis"], (0, 50))
def _():
    return comp("skew", 200, 100, [
        box("Skew", 1, -30, -30, 60, 60, RED, ks_=ks(p=(50, 50), sk=anim(kf(0, 0), kf(60, 30)), sa=0)),
        box("SkewAxis", 2, -30, -30, 60, 60, BLUE, ks_=ks(p=(150, 50), sk=25, sa=anim(kf(0, 0), kf(60, 90)))),
        box("Backdrop", 3, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("easing_per_dimension", ["keyframes per-dimension easing"], (0, 25, 50))
def _():
    p = anim(kf(0, [10, 10, 0], o={"x": [0.9, 0.0, 0.0], "y": [0.0, 0.0, 0.0]},
                i={"x": [1.0, 0.1, 1.0], "y": [1.0, 1.0, 1.0]}), kf(60, [70, 70, 0]))
    return comp("easing_per_dimension", 100, 100, [
        shape_layer("Box", 1, [group([rect([10, 10], [20, 20]), fill(GREEN)])], ks_=ks(p=p)), bg(2)])


@fixture("easing_first_dimension", ["keyframes per-dimension easing on a non-spatial value (scale)"], (0, 25, 50))
def _():
    # x and y of the scale get different curves; lottie-ios, rlottie and ThorVG ease both by
    # the first one (lottie-web would ease each by its own).
    s = anim(kf(0, [20, 20, 100], o={"x": [0.9, 0.0, 0.0], "y": [0.0, 0.0, 0.0]},
                i={"x": [1.0, 0.1, 1.0], "y": [1.0, 1.0, 1.0]}), kf(60, [100, 100, 100]))
    return comp("easing_first_dimension", 100, 100, [
        shape_layer("Box", 1, [group([rect([0, 0], [60, 60]), fill(GREEN)])], ks_=ks(p=(50, 50), s=s)), bg(2)])


@fixture("hold_keyframes", ["hold keyframes h:1"], (0, 25, 50, 75))
def _():
    p = anim(kf(0, [10, 40, 0], h=True), kf(30, [70, 40, 0], h=True), kf(45, [40, 10, 0]))
    c = anim(kf(0, [0.9, 0.1, 0.1, 1], h=True), kf(30, [0.15, 0.3, 0.9, 1]))
    return comp("hold_keyframes", 100, 100, [
        shape_layer("Box", 1, [group([rect([10, 10], [20, 20]), fill(c)])], ks_=ks(p=p)), bg(2)])


@fixture("spatial_bezier", ["spatial bezier ti/to on position"], (0, 25, 50, 75))
def _():
    p = anim(kf(0, [20, 50, 0], to=[0, -40, 0], ti=[0, -40, 0]), kf(60, [80, 50, 0]))
    return comp("spatial_bezier", 100, 100, [
        shape_layer("Dot", 1, [group([ellipse([0, 0], [16, 16]), fill(MAGENTA)])], ks_=ks(p=p)), bg(2)])


@fixture("old_format_e", ["keyframes old format with e end values"], (0, 25, 50),
         schema_note="Deliberately outside the lottie-specs schema: the pre-5.5 keyframe format (e end values, a "
                     "final keyframe with only t) is what old Bodymovin files contain and readers still accept.")
def _():
    d = comp("old_format_e", 100, 100, [
        shape_layer("Box", 1, [group([rect([10, 10], [20, 20]), fill(ORANGE)])], ks_=ks()), bg(2)])
    d["v"] = "4.8.0"
    d["layers"][0]["ks"]["p"] = {"a": 1, "k": [
        {"t": 0, "s": [10, 10, 0], "e": [70, 10, 0], "o": {"x": [0.0], "y": [0.0]}, "i": {"x": [1.0], "y": [1.0]}},
        {"t": 30, "s": [70, 10, 0], "e": [70, 70, 0], "o": {"x": [0.0], "y": [0.0]}, "i": {"x": [1.0], "y": [1.0]}},
        {"t": 60}]}
    return d


# ---------------------------------------------------------------- shapes

@fixture("group_transform", ["group with its own tr", "nested groups"], (0, 50))
def _():
    inner = group([rect([0, 0], [20, 20]), fill(RED)], nm="Inner", p=(20, 0), r=anim(kf(0, 0), kf(60, 90)))
    outer = group([inner, rect([0, 0], [10, 10]), fill(BLUE)], nm="Outer", p=(50, 50), s=(150, 150), o=60)
    return comp("group_transform", 100, 100, [shape_layer("Groups", 1, [outer]), bg(2)])


@fixture("rect_roundness", ["rect with roundness"], (0, 50))
def _():
    return comp("rect_roundness", 100, 100, [shape_layer("Rects", 1, [
        group([rect([30, 50], [40, 60], r=anim(kf(0, 0), kf(60, 30))), fill(RED)]),
        group([rect([75, 50], [30, 80], r=10), fill(BLUE)])]), bg(2)])


@fixture("ellipse", ["ellipse"], (0, 50))
def _():
    return comp("ellipse", 100, 100, [shape_layer("Ellipses", 1, [
        group([ellipse([30, 50], anim(kf(0, [40, 40]), kf(60, [40, 80]))), fill(GREEN)]),
        group([ellipse([75, 50], [30, 60]), fill(MAGENTA)])]), bg(2)])


def polystar(sy, pt, p, orad, ir=None, os=0, is_=0, r=0):
    s = {"ty": "sr", "nm": "PolyStar", "d": 1, "sy": sy, "pt": prop(pt), "p": prop(p), "r": prop(r),
         "or": prop(orad), "os": prop(os)}
    if sy == 1:
        s["ir"] = prop(ir)
        s["is"] = prop(is_)
    return s


@fixture("polystar_star", ["polystar star", "star roundness"], (0, 50))
def _():
    return comp("polystar_star", 200, 100, [shape_layer("Stars", 1, [
        group([polystar(1, 5, [50, 50], 40, 18, r=anim(kf(0, 0), kf(60, 36))), fill(ORANGE)]),
        group([polystar(1, 5, [150, 50], 40, 18, os=60, is_=40), fill(RED)])]),
        box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("polystar_polygon", ["polystar polygon", "polygon roundness"], (0, 50))
def _():
    return comp("polystar_polygon", 200, 100, [shape_layer("Polygons", 1, [
        group([polystar(2, anim(kf(0, 3), kf(60, 6)), [50, 50], 40), fill(BLUE)]),
        group([polystar(2, 6, [150, 50], 40, os=50), fill(GREEN)])]),
        box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("path_animated", ["path with animated vertices"], (0, 25, 50))
def _():
    a = bez([[20, 20], [80, 20], [80, 80], [20, 80]])
    b = bez([[50, 10], [90, 50], [50, 90], [10, 50]])
    sh = {"ty": "sh", "nm": "Morph", "d": 1, "ks": anim(kf(0, [a]), kf(60, [b]))}
    return comp("path_animated", 100, 100, [shape_layer("Morph", 1, [group([sh, fill(RED)])]), bg(2)])


@fixture("fill_rule", ["fill non-zero", "fill even-odd"], (0,))
def _():
    def ring(cx):  # two clockwise squares: non-zero fills the hole, even-odd leaves it empty
        return [path([[cx - 40, 10], [cx + 40, 10], [cx + 40, 90], [cx - 40, 90]], nm="Outer"),
                path([[cx - 20, 30], [cx + 20, 30], [cx + 20, 70], [cx - 20, 70]], nm="Inner")]
    return comp("fill_rule", 200, 100, [shape_layer("Rings", 1, [
        group(ring(50) + [fill(BLUE, r=1)], nm="NonZero"),
        group(ring(150) + [fill(RED, r=2)], nm="EvenOdd")]),
        box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("stroke_caps_joins", ["stroke caps", "stroke joins", "miter limit"], (0,))
def _():
    items = []
    for i, lc in enumerate((1, 2, 3)):  # butt, round, square caps on horizontal lines
        items.append(group([path([[30, 20 + 25 * i], [80, 20 + 25 * i]], closed=False), stroke(BLUE, 12, lc=lc, lj=1)],
                           nm=f"cap{lc}"))
    for i, lj in enumerate((1, 2, 3)):  # miter, round, bevel joins on a right angle
        items.append(group([path([[110 + 30 * i, 80], [110 + 30 * i, 30], [130 + 30 * i, 30]], closed=False),
                            stroke(RED, 10, lc=1, lj=lj, ml=10)], nm=f"join{lj}"))
    # a sharp angle with a low miter limit: the miter is cut back to a bevel
    items.append(group([path([[20, 95], [90, 85], [20, 75]], closed=False), stroke(GREEN, 6, lc=1, lj=1, ml=2)],
                       nm="miterLimit"))
    return comp("stroke_caps_joins", 200, 100, [shape_layer("Strokes", 1, items),
                                                box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("dashes", ["stroke dashes", "dash offset"], (0, 50))
def _():
    d = [dash("d", 20), dash("g", 10), dash("o", anim(kf(0, 0), kf(60, 15)))]
    return comp("dashes", 100, 100, [shape_layer("Dashed", 1, [
        group([path([[10, 30], [90, 30]], closed=False), stroke(BLUE, 8, lc=1, d=d)], nm="line"),
        group([rect([50, 70], [60, 30]), stroke(RED, 4, lc=1, lj=1, d=[dash("d", 12), dash("g", 6), dash("o", 5)])],
              nm="rect")]), bg(2)])


def gfill(t, s, e, stops, n, h=None, a=None, nm="Gradient Fill"):
    g = {"ty": "gf", "nm": nm, "o": prop(100), "r": 1, "t": t, "s": prop(s), "e": prop(e),
         "g": {"p": n, "k": prop(stops)}}
    if h is not None:
        g["h"] = prop(h)
        g["a"] = prop(a)
    return g


@fixture("gradient_linear", ["linear gradient fill"], (0, 50))
def _():
    return comp("gradient_linear", 100, 100, [shape_layer("G", 1, [group([
        rect([50, 50], [80, 80]),
        gfill(1, [10, 50], anim(kf(0, [90, 50]), kf(60, [50, 90])), [0, 0.9, 0.1, 0.1, 0.5, 0.95, 0.85, 0.1, 1, 0.15, 0.3, 0.9], 3)])]),
        bg(2)])


@fixture("gradient_radial_highlight", ["radial gradient", "highlight length", "highlight angle"], (0, 50))
def _():
    return comp("gradient_radial_highlight", 200, 100, [shape_layer("G", 1, [
        group([rect([50, 50], [90, 90]), gfill(2, [50, 50], [90, 50], [0, 1, 1, 1, 1, 0.15, 0.3, 0.9], 2)], nm="plain"),
        group([rect([150, 50], [90, 90]),
               gfill(2, [150, 50], [190, 50], [0, 1, 1, 1, 1, 0.15, 0.3, 0.9], 2, h=anim(kf(0, 0), kf(60, 60)), a=45)],
              nm="highlight")]), box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("gradient_opacity_stops", ["gradient colour stops", "gradient opacity stops"], (0,))
def _():
    stops = [0, 0.9, 0.1, 0.1, 1, 0.15, 0.3, 0.9,  0, 1, 0.5, 0.2, 1, 1]
    return comp("gradient_opacity_stops", 100, 100, [shape_layer("G", 1, [group([
        rect([50, 50], [80, 80]), gfill(1, [10, 50], [90, 50], stops, 2)])]),
        box("Stripe", 2, 40, 0, 20, 100, BLACK), bg(3)])


@fixture("gradient_stroke", ["gradient stroke"], (0, 50))
def _():
    gs = {"ty": "gs", "nm": "Gradient Stroke", "o": prop(100), "w": prop(anim(kf(0, 6), kf(60, 16))), "lc": 2, "lj": 2,
          "ml": 4, "t": 1, "s": prop([10, 10]), "e": prop([90, 90]),
          "g": {"p": 2, "k": prop([0, 0.1, 0.7, 0.2, 1, 0.8, 0.2, 0.8])}}
    return comp("gradient_stroke", 100, 100, [shape_layer("GS", 1, [group([ellipse([50, 50], [70, 70]), gs])]), bg(2)])


def trim(s, e, o=0, m=1):
    return {"ty": "tm", "nm": "Trim", "s": prop(s), "e": prop(e), "o": prop(o), "m": m}


@fixture("trim_simultaneous", ["trim paths simultaneous"], (25, 50))
def _():
    lines = [path([[10, 30 + 20 * i], [90, 30 + 20 * i]], closed=False, nm=f"l{i}") for i in range(3)]
    return comp("trim_simultaneous", 100, 100, [shape_layer("Trim", 1, [group(
        lines + [trim(0, anim(kf(0, 0), kf(60, 100))), stroke(BLUE, 8, lc=1)])]), bg(2)])


@fixture("trim_individual", ["trim paths individually", "trim offset"], (25, 50))
def _():
    lines = [path([[10, 30 + 20 * i], [90, 30 + 20 * i]], closed=False, nm=f"l{i}") for i in range(3)]
    return comp("trim_individual", 100, 100, [shape_layer("Trim", 1, [group(
        lines + [trim(0, anim(kf(0, 0), kf(60, 100)), m=2), stroke(RED, 8, lc=1)], nm="individual"),
        group([rect([50, 50], [70, 70]), trim(0, 50, o=anim(kf(0, 0), kf(60, 180))), stroke(GREEN, 4, lc=1)], nm="offset")]),
        bg(2)])


@fixture("repeater", ["repeater", "repeater start/end opacity", "repeater transform"], (0, 50),
         notes="4 copies 24 apart, each rotated r more than the previous about its own centre (the group's "
               "origin); opacity runs from so (first copy) to eo (last copy). Copies never overlap, so the "
               "composite order does not matter here.")
def _():
    rp = {"ty": "rp", "nm": "Repeater", "c": prop(4), "o": prop(0), "m": 1,
          "tr": {"ty": "tr", "a": prop([0, 0]), "p": prop([24, 0]), "s": prop([100, 100]),
                 "r": prop(anim(kf(0, 0), kf(60, 10))), "o": prop(100), "so": prop(100), "eo": prop(30)}}
    return comp("repeater", 100, 100, [shape_layer("Rep", 1, [
        group([rect([0, 0], [12, 36]), fill(RED), rp], p=(14, 50))]), bg(2)])


@fixture("round_corners", ["round corners"], (0, 50))
def _():
    rd = {"ty": "rd", "nm": "Round Corners", "r": prop(anim(kf(0, 0), kf(60, 20)))}
    return comp("round_corners", 100, 100, [shape_layer("RC", 1, [group([
        path([[10, 10], [60, 10], [60, 60], [10, 60]]), path([[70, 90], [95, 40], [45, 40]]), rd, fill(BLUE)])]), bg(2)])


@fixture("merge_paths", ["merge paths merge/add/subtract/intersect/exclude"], (0,))
def _():
    items = []
    for i, mode in enumerate((1, 2, 3, 4, 5)):
        x = 20 + 40 * i
        items.append(group([rect([x - 5, 45], [24, 24]), ellipse([x + 5, 55], [24, 24]),
                            {"ty": "mm", "nm": "Merge", "mm": mode}, fill(MAGENTA)], nm=f"mode{mode}"))
    return comp("merge_paths", 200, 100, [shape_layer("Merge", 1, items),
                                          box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("offset_path", ["offset path"], (0, 50))
def _():
    op = {"ty": "op", "nm": "Offset", "a": prop(anim(kf(0, 10), kf(60, -10))), "lj": 1, "ml": prop(4)}
    return comp("offset_path", 100, 100, [shape_layer("Off", 1, [
        group([rect([50, 50], [40, 40]), op, fill(GREEN)], nm="offset"),
        group([rect([50, 50], [40, 40]), stroke(BLACK, 1)], nm="original")]), bg(2)])


@fixture("offset_path_joins", ["offset path round join", "offset path bevel join", "offset path inward",
                               "offset path on an ellipse and a star"], (0,),
         notes="Top row: +8 round, +8 bevel, -8 miter on squares; bottom row: +6 on a circle, +4 miter on a star.")
def _():
    def op(a, lj): return {"ty": "op", "nm": "Offset", "a": prop(a), "lj": lj, "ml": prop(4)}
    return comp("offset_path_joins", 200, 100, [shape_layer("Off", 1, [
        group([rect([30, 28], [30, 30]), op(8, 2), fill(RED)], nm="round"),
        group([rect([90, 28], [30, 30]), op(8, 3), fill(BLUE)], nm="bevel"),
        group([rect([155, 28], [40, 40]), op(-8, 1), fill(GREEN)], nm="inward"),
        group([ellipse([50, 75], [24, 24]), op(6, 1), fill(MAGENTA)], nm="circle"),
        group([polystar(1, 5, [130, 75], 20, 9), op(4, 1), fill(ORANGE)], nm="star")]),
        box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("pucker_bloat", ["pucker/bloat"], (0, 50),
         notes="Square paths with 4 explicit vertices (a rect shape's vertex count is renderer-specific).")
def _():
    def sq(cx): return path([[cx - 30, 20], [cx + 30, 20], [cx + 30, 80], [cx - 30, 80]])
    return comp("pucker_bloat", 200, 100, [shape_layer("PB", 1, [
        group([sq(50), {"ty": "pb", "nm": "Pucker", "a": prop(-40)}, fill(RED)], nm="pucker"),
        group([sq(150), {"ty": "pb", "nm": "Bloat", "a": prop(anim(kf(0, 0), kf(60, 40)))}, fill(BLUE)],
              nm="bloat")]), box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("zigzag", ["zig-zag"], (0, 50))
def _():
    def zz(pt): return {"ty": "zz", "nm": "ZigZag", "s": prop(anim(kf(0, 0), kf(60, 6))), "r": prop(5), "pt": prop(pt)}
    return comp("zigzag", 100, 100, [shape_layer("ZZ", 1, [
        group([path([[10, 30], [90, 30]], closed=False), zz(1), stroke(BLUE, 2, lc=1, lj=1)], nm="corner"),
        group([path([[10, 70], [90, 70]], closed=False), zz(2), stroke(RED, 2, lc=1, lj=1)], nm="smooth")]), bg(2)])


@fixture("zigzag_closed", ["zig-zag on closed shapes", "zig-zag corner and smooth points"], (0, 50),
         notes="Left: a 4-vertex square path, 2 ridges per edge, corner points; right: an ellipse, 3 ridges per "
               "quarter, smooth points. Size 0 to 12.")
def _():
    def zz(pt, r): return {"ty": "zz", "nm": "ZigZag", "s": prop(anim(kf(0, 0), kf(60, 12))), "r": prop(r), "pt": prop(pt)}
    return comp("zigzag_closed", 200, 100, [shape_layer("ZZ", 1, [
        group([path([[25, 25], [75, 25], [75, 75], [25, 75]]), zz(1, 2), fill(BLUE)], nm="square"),
        group([ellipse([150, 50], [56, 56]), zz(2, 3), fill(RED)], nm="circle")]),
        box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("stacking_order", ["stacking order: earlier shapes and layers draw on top"], (0,))
def _():
    return comp("stacking_order", 100, 100, [
        box("TopLayer", 1, 60, 60, 30, 30, BLACK),
        shape_layer("Shapes", 2, [
            group([rect([40, 40], [40, 40]), fill(RED)], nm="first (top)"),
            group([rect([55, 55], [40, 40]), fill(GREEN)], nm="second"),
            group([rect([30, 60], [40, 30]), fill(YELLOW), rect([60, 25], [30, 30]), fill(BLUE)], nm="two fills"),
        ]), bg(3)])


# ---------------------------------------------------------------- masks

def masked(nm, ind, c, masks, x=10, y=10, w=80, h=80):
    L = box(nm, ind, x, y, w, h, c)
    L["hasMask"] = True
    L["masksProperties"] = masks
    return L


@fixture("masks_add_subtract_intersect", ["mask add", "mask subtract", "mask intersect"], (0,))
def _():
    return comp("masks_add_subtract_intersect", 300, 100, [
        masked("Add", 1, RED, [mask(rect_path(10, 10, 50, 50)), mask(rect_path(40, 40, 50, 50))]),
        masked("Subtract", 2, GREEN, [mask(rect_path(110, 10, 80, 80)), mask(rect_path(130, 30, 40, 40), mode="s")],
               x=110),
        masked("Intersect", 3, BLUE, [mask(rect_path(210, 10, 50, 50)), mask(rect_path(240, 40, 50, 50), mode="i")],
               x=210),
        box("Backdrop", 4, 0, 0, 300, 100, [0.85, 0.85, 0.85])])


@fixture("masks_lighten_darken_difference_none", ["mask lighten", "mask darken", "mask difference", "mask none"], (0,),
         schema_note="Deliberately outside the lottie-specs schema, whose mask-mode lists only n/a/s/i: Bodymovin "
                     "also writes l (lighten), d (darken) and f (difference), and the issue asks for them.")
def _():
    def pair(x, mode, o2=60):
        return [mask(rect_path(x, 10, 50, 50), o=100), mask(rect_path(x + 30, 40, 50, 50), mode=mode, o=o2)]
    return comp("masks_lighten_darken_difference_none", 400, 100, [
        masked("Lighten", 1, RED, pair(10, "l")),
        masked("Darken", 2, GREEN, pair(110, "d"), x=110),
        masked("Difference", 3, BLUE, pair(210, "f"), x=210),
        masked("None", 4, ORANGE, [mask(rect_path(310, 10, 50, 50)), mask(rect_path(340, 40, 50, 50), mode="n")], x=310),
        box("Backdrop", 5, 0, 0, 400, 100, [0.85, 0.85, 0.85])])


@fixture("mask_inverted_opacity", ["mask inverted", "mask opacity"], (0, 50))
def _():
    return comp("mask_inverted_opacity", 200, 100, [
        masked("Inverted", 1, RED, [mask(rect_path(30, 30, 40, 40), inv=True)]),
        masked("Opacity", 2, BLUE, [mask(rect_path(130, 30, 40, 40), o=anim(kf(0, 100), kf(60, 30)))], x=110),
        box("Backdrop", 3, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("mask_expansion", ["mask expansion"], (0, 50))
def _():
    return comp("mask_expansion", 200, 100, [
        masked("Grow", 1, GREEN, [mask(rect_path(30, 30, 40, 40), x=anim(kf(0, 0), kf(60, 10)))]),
        masked("Shrink", 2, MAGENTA, [mask(rect_path(120, 20, 60, 60), x=-10)], x=110),
        box("Backdrop", 3, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("mask_feather", ["mask feather"], (0,))
def _():
    m = mask(rect_path(25, 25, 50, 50))
    m["f"] = prop([10, 10])
    return comp("mask_feather", 100, 100, [masked("Feathered", 1, BLUE, [m]), bg(2)])


# ---------------------------------------------------------------- mattes

def matte_pair(ind, x, mode, c, luma_src=False, use_tp=False):
    """A matte (a circle, or for luma a white/grey/black striped box) above a coloured box in column x."""
    if luma_src:
        src = shape_layer("Matte", ind, [
            group([rect([x + 40, 30], [80, 20]), fill(WHITE)]), group([rect([x + 40, 50], [80, 20]), fill(GREY)]),
            group([rect([x + 40, 70], [80, 20]), fill(BLACK)])], td=1)
    else:
        src = shape_layer("Matte", ind, [group([ellipse([x + 40, 50], [60, 60]), fill(BLACK)])], td=1)
    tgt = box("Target", ind + 1, x + 10, 10, 60, 80, c, tt=mode)
    if use_tp:
        tgt["tp"] = ind
    return [src, tgt]


@fixture("matte_alpha", ["track matte alpha", "track matte alpha inverted", "tt/td"], (0,))
def _():
    return comp("matte_alpha", 200, 100, matte_pair(1, 0, 1, RED) + matte_pair(3, 100, 2, BLUE) +
                [box("Backdrop", 5, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("matte_luma", ["track matte luma", "track matte luma inverted", "tt/td"], (0,))
def _():
    return comp("matte_luma", 200, 100, matte_pair(1, 0, 3, RED, luma_src=True) +
                matte_pair(3, 100, 4, BLUE, luma_src=True) + [box("Backdrop", 5, 0, 0, 200, 100, [0.85, 0.85, 0.85])])


@fixture("matte_tp", ["track matte by reference tp"], (0,),
         notes="The matte layer is not directly above its target: a plain layer sits between them, and tp names the matte.")
def _():
    src = shape_layer("Matte", 1, [group([ellipse([50, 50], [60, 60]), fill(BLACK)])], td=1)
    between = box("Between", 2, 0, 80, 100, 20, YELLOW)
    tgt = box("Target", 3, 10, 10, 80, 80, RED, tt=1, tp=1)
    return comp("matte_tp", 100, 100, [src, between, tgt, bg(4)])


# ---------------------------------------------------------------- blend modes and effects

@fixture("blend_modes", ["blend multiply", "blend screen", "blend overlay", "blend difference", "blend hue", "blend color"], (0,))
def _():
    layers = []
    for i, bm in enumerate((1, 2, 3, 10, 12, 14)):
        layers.append(box(f"bm{bm}", i + 1, 5 + 50 * i, 25, 40, 50, [0.9, 0.6, 0.2], bm=bm))
    layers.append(shape_layer("Under", 7, [group([rect([150, 35], [300, 30]), fill([0.2, 0.5, 0.8])]),
                                         group([rect([150, 65], [300, 30]), fill([0.7, 0.7, 0.2])])]))
    layers.append(box("Backdrop", 8, 0, 0, 300, 100, [0.85, 0.85, 0.85]))
    return comp("blend_modes", 300, 100, layers)


@fixture("blend_modes_more", ["blend normal", "blend darken", "blend lighten", "blend color dodge", "blend color burn",
                              "blend hard light", "blend soft light", "blend exclusion", "blend saturation",
                              "blend luminosity"], (0,))
def _():
    layers = []
    for i, bm in enumerate((0, 4, 5, 6, 7, 8, 9, 11, 13, 15)):
        layers.append(box(f"bm{bm}", i + 1, 5 + 50 * i, 25, 40, 50, [0.9, 0.6, 0.2], bm=bm))
    layers.append(shape_layer("Under", 11, [group([rect([250, 35], [500, 30]), fill([0.2, 0.5, 0.8])]),
                                          group([rect([250, 65], [500, 30]), fill([0.7, 0.7, 0.2])])]))
    layers.append(box("Backdrop", 12, 0, 0, 500, 100, [0.85, 0.85, 0.85]))
    return comp("blend_modes_more", 500, 100, layers)


def effect_value(ty, nm, v, ix):
    return {"ty": ty, "nm": nm, "ix": ix, "v": prop(v)}


@fixture("effect_drop_shadow", ["drop shadow effect"], (0,))
def _():
    L = box("Shadowed", 1, 25, 25, 40, 40, BLUE)
    L["ef"] = [{"ty": 25, "nm": "Drop Shadow", "ix": 1, "en": 1, "ef": [
        effect_value(2, "Shadow Color", [0, 0, 0, 1], 1), effect_value(0, "Opacity", 128, 2),
        effect_value(0, "Direction", 135, 3), effect_value(0, "Distance", 10, 4), effect_value(0, "Softness", 0, 5)]}]
    return comp("effect_drop_shadow", 100, 100, [L, bg(2)])


def drop_shadow_effect(softness):
    return {"ty": 25, "nm": "Drop Shadow", "ix": 1, "en": 1, "ef": [
        effect_value(2, "Shadow Color", [0.1, 0.1, 0.4, 1], 1), effect_value(0, "Opacity", 178.5, 2),
        effect_value(0, "Direction", 150, 3), effect_value(0, "Distance", 12, 4),
        effect_value(0, "Softness", softness, 5)]}


for _softness in (0, 10, 40):
    def _shadowed(softness=_softness):
        L = box("Shadowed", 1, 25, 20, 40, 40, BLUE)
        L["ef"] = [drop_shadow_effect(softness)]
        return comp(f"drop_shadow_softness_{softness}", 100, 100, [L, bg(2)])
    fixture(f"drop_shadow_softness_{_softness}", ["drop shadow effect", f"drop shadow softness {_softness}"],
            (0,), notes="Dark blue shadow at 70 % opacity, direction 150 degrees, distance 12, softness "
                        f"{_softness}.")(_shadowed)


@fixture("style_drop_shadow", ["layer style drop shadow", "layer style choke"], (0, 50),
         notes="Drop-shadow layer style (sy type 1): light angle 120 degrees (so the shadow falls down "
               "and right), distance 10, size 8, opacity 70 %, dark red; choke 0 at frame 0 rising to 50 "
               "at frame 30.", schema_note="lottie-specs 0.5.2 has no layer styles; sy follows Bodymovin "
               "(python-lottie's DropShadowStyle: c, o, a, s, d, ch, bm, no, lc).")
def _():
    L = box("Styled", 1, 25, 20, 40, 40, BLUE)
    L["sy"] = [{"ty": 1, "nm": "Drop Shadow", "c": prop([0.5, 0.05, 0.05, 1]), "o": prop(70), "a": prop(120),
                "s": prop(8), "d": prop(10), "ch": anim(kf(0, 0), kf(30, 50)), "bm": prop(5), "no": prop(0),
                "lc": prop(1)}]
    return comp("style_drop_shadow", 100, 100, [L, bg(2)])


@fixture("effect_gaussian_blur", ["gaussian blur effect"], (0,))
def _():
    L = box("Blurred", 1, 30, 30, 40, 40, RED)
    L["ef"] = [{"ty": 29, "nm": "Gaussian Blur", "ix": 1, "en": 1, "ef": [
        effect_value(0, "Blurriness", 10, 1), effect_value(7, "Blur Dimensions", 1, 2),
        effect_value(7, "Repeat Edge Pixels", 0, 3)]}]
    return comp("effect_gaussian_blur", 100, 100, [L, bg(2)])


@fixture("effect_fill_tint", ["fill effect", "tint effect"], (0,),
         notes="Left: a two-colour box with the Fill effect (green, opacity 0.5 of the layer's alpha). Right: the "
               "same box with Tint (black to blue, white to yellow, amount 100).")
def _():
    def two_tone(nm, ind, x):
        return shape_layer(nm, ind, [group([rect([x + 20, 30], [40, 20]), fill([0.9, 0.9, 0.9])]),
                                     group([rect([x + 20, 60], [40, 40]), fill([0.2, 0.2, 0.2])])])
    f = two_tone("Filled", 1, 20)
    f["ef"] = [{"ty": 21, "nm": "Fill", "ix": 1, "en": 1, "ef": [
        effect_value(10, "Fill Mask", 0, 1), effect_value(7, "All Masks", 0, 2),
        effect_value(2, "Color", [0.1, 0.7, 0.2, 1], 3), effect_value(7, "Invert", 0, 4),
        effect_value(0, "Horizontal Feather", 0, 5), effect_value(0, "Vertical Feather", 0, 6),
        effect_value(0, "Opacity", 0.5, 7)]}]
    t = two_tone("Tinted", 2, 120)
    t["ef"] = [{"ty": 20, "nm": "Tint", "ix": 1, "en": 1, "ef": [
        effect_value(2, "Map Black To", [0.15, 0.3, 0.9, 1], 1), effect_value(2, "Map White To", [0.95, 0.85, 0.1, 1], 2),
        effect_value(0, "Amount to Tint", 100, 3)]}]
    return comp("effect_fill_tint", 200, 100, [f, t, box("Backdrop", 3, 0, 0, 200, 100, [0.6, 0.6, 0.6])])


@fixture("effect_unsupported", ["unsupported effect ignored with a warning"], (0,),
         notes="Radial Wipe (ty 26) at 50 % completion; Flipbook ignores it with a warning, so the box is whole.")
def _():
    L = box("Wiped", 1, 20, 20, 60, 60, ORANGE)
    L["ef"] = [{"ty": 26, "nm": "Radial Wipe", "ix": 1, "en": 1, "ef": [
        effect_value(0, "Transition Completion", 50, 1), effect_value(0, "Start Angle", 0, 2),
        effect_value(3, "Wipe Center", [50, 50], 3), effect_value(7, "Wipe", 1, 4), effect_value(0, "Feather", 0, 5)]}]
    return comp("effect_unsupported", 100, 100, [L, bg(2)])


# ---------------------------------------------------------------- text

def text_layer(nm, ind, doc, p):
    L = layer_base(5, nm, ind, 0, 60, ks(p=p))
    L["t"] = {"d": {"k": [{"s": doc, "t": 0}]}, "p": {}, "m": {"g": 1, "a": prop([0, 0])}, "a": []}
    return L


@fixture("text_glyphs", ["text layer with chars glyph shapes"], (0,),
         notes="Glyphs are drawn at size 100 (y up is negative, baseline at 0); the font size 50 halves them.")
def _():
    def glyph(ch, w, paths):
        # As Bodymovin writes them: one group of bare paths (no fill, no tr); the text's fc fills them.
        shapes = [{"ty": "gr", "nm": ch, "np": len(paths), "it": paths}] if paths else []
        return {"ch": ch, "size": 100, "style": "Regular", "w": w, "fFamily": "Boxes", "data": {"shapes": shapes}}
    chars = [glyph("I", 40, [path([[10, -100], [30, -100], [30, 0], [10, 0]])]),
             glyph("O", 80, [path([[10, -100], [70, -100], [70, 0], [10, 0]]),
                             path([[30, -80], [30, -20], [50, -20], [50, -80]])]),
             glyph(" ", 30, [])]
    doc = {"s": 50, "f": "Boxes-Regular", "t": "IO OI", "j": 0, "tr": 0, "lh": 60, "ls": 0, "fc": [0.9, 0.1, 0.1]}
    return comp("text_glyphs", 200, 100, [text_layer("Glyphs", 1, doc, (20, 75)),
                                          box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])],
                fonts={"list": [{"fName": "Boxes-Regular", "fFamily": "Boxes", "fStyle": "Regular", "ascent": 75}]},
                chars=chars)


def box_glyphs():
    """Glyphs as Bodymovin writes them (one group of bare paths, size 100, y up negative): I and O boxes."""
    def glyph(ch, w, paths):
        shapes = [{"ty": "gr", "nm": ch, "np": len(paths), "it": paths}] if paths else []
        return {"ch": ch, "size": 100, "style": "Regular", "w": w, "fFamily": "Boxes", "data": {"shapes": shapes}}
    return [glyph("I", 40, [path([[10, -100], [30, -100], [30, 0], [10, 0]])]),
            glyph("O", 80, [path([[10, -100], [70, -100], [70, 0], [10, 0]]),
                            path([[30, -80], [30, -20], [50, -20], [50, -80]])]),
            glyph(" ", 30, [])]


def selector(**kw):
    s = {"t": 0, "xe": prop(0), "ne": prop(0), "a": prop(100), "b": 1, "rn": 0, "sh": 1, "s": prop(0), "e": prop(100),
         "o": prop(0), "r": 1}
    s.update(kw)
    return s


@fixture("text_animator_range", ["text animator", "range selector percent, square, animated offset",
                                 "animator position, opacity, fill colour"], (0, 50),
         notes="Five box glyphs (IOIOI, size 40). The selector's offset moves from -100 % to 100 %: at 0 % nothing "
               "is selected, at 50 % (offset 0) the first half: characters 0, 1 fully, character 2 half.")
def _():
    doc = {"s": 40, "f": "Boxes-Regular", "t": "IOIOI", "j": 0, "tr": 0, "lh": 48, "ls": 0, "fc": [0.9, 0.1, 0.1]}
    L = text_layer("Animated", 1, doc, (10, 70))
    L["t"]["a"] = [{"nm": "Animator 1", "s": selector(e=prop(50), o=prop(anim(kf(0, -100), kf(60, 100)))),
                    "a": {"p": prop([0, -20]), "o": prop(40), "fc": prop([0.1, 0.2, 0.9, 1])}}]
    return comp("text_animator_range", 200, 100, [L, box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])],
                fonts={"list": [{"fName": "Boxes-Regular", "fFamily": "Boxes", "fStyle": "Regular", "ascent": 75}]},
                chars=box_glyphs())


@fixture("text_animator_shapes", ["text animator", "range selector index units, triangle and ramp shapes",
                                  "animator rotation, scale, tracking"], (0, 50),
         notes="Two lines of IOIOI boxes (size 30): line 1 rotated 40 degrees by a triangle selector over "
               "indices 0-5, lines scaled up to 130 % by a ramp-up selector based on lines, tracking from a smooth "
               "selector.")
def _():
    doc = {"s": 30, "f": "Boxes-Regular", "t": "IOIOI\rIOIOI", "j": 0, "tr": 0, "lh": 50, "ls": 0,
           "fc": [0.1, 0.6, 0.2]}
    L = text_layer("Shapes", 1, doc, (15, 35))
    L["t"]["a"] = [
        {"nm": "Turn", "s": selector(r=2, sh=4, s=prop(0), e=prop(anim(kf(0, 5), kf(60, 11)))), "a": {"r": prop(40)}},
        {"nm": "Grow", "s": selector(b=4, sh=2, s=prop(0), e=prop(100)), "a": {"s": prop([130, 130])}},
        {"nm": "Spread", "s": selector(sh=6), "a": {"t": prop(anim(kf(0, 0), kf(60, 10)))}}]
    return comp("text_animator_shapes", 200, 100, [L, box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])],
                fonts={"list": [{"fName": "Boxes-Regular", "fFamily": "Boxes", "fStyle": "Regular", "ascent": 75}]},
                chars=box_glyphs())


@fixture("text_animator_ease", ["text animator", "range selector round and ramp-down shapes, ease high and low",
                                "animator position, opacity, fill colour"], (0, 50),
         notes="Seven box glyphs (IOIOIOI, size 24) on two layers: a round selector eased high 60 / low 40 lifts "
               "the middle; a ramp-down selector eased low -50 fades and recolours from the left.")
def _():
    doc = {"s": 24, "f": "Boxes-Regular", "t": "IOIOIOI", "j": 0, "tr": 0, "lh": 30, "ls": 0, "fc": [0.9, 0.1, 0.1]}
    top = text_layer("Round", 1, doc, (15, 40))
    top["t"]["a"] = [{"nm": "Lift", "s": selector(sh=5, xe=prop(60), ne=prop(40), s=prop(0),
                                                   e=prop(anim(kf(0, 40), kf(60, 100)))),
                      "a": {"p": prop([0, -20])}}]
    bottom = text_layer("Ramp", 2, dict(doc, fc=[0.1, 0.6, 0.2]), (15, 90))
    bottom["t"]["a"] = [{"nm": "Fade", "s": selector(sh=3, ne=prop(-50), s=prop(anim(kf(0, 0), kf(60, 50))),
                                                      e=prop(100)),
                         "a": {"o": prop(20), "fc": prop([0.2, 0.2, 0.9, 1])}}]
    return comp("text_animator_ease", 200, 100, [top, bottom, box("Backdrop", 3, 0, 0, 200, 100, [0.85, 0.85, 0.85])],
                fonts={"list": [{"fName": "Boxes-Regular", "fFamily": "Boxes", "fStyle": "Regular", "ascent": 75}]},
                chars=box_glyphs())


@fixture("text_on_path", ["text on a path (mask path, first margin, perpendicular)"], (0, 50),
         notes="IOIOI boxes (size 30) along an open two-segment mask path (10,85)-(100,35)-(190,85), mode n; "
               "the first margin moves from 0 to 60.")
def _():
    doc = {"s": 30, "f": "Boxes-Regular", "t": "IOIOI", "j": 0, "tr": 0, "lh": 36, "ls": 0, "fc": [0.15, 0.3, 0.9]}
    L = text_layer("OnPath", 1, doc, (0, 0))
    L["hasMask"] = True
    L["masksProperties"] = [mask(bez([[10, 85], [100, 35], [190, 85]], closed=False), mode="n", nm="Path")]
    L["t"]["p"] = {"m": 0, "f": prop(anim(kf(0, 0), kf(60, 120))), "l": prop(0), "r": prop(0), "a": prop(0),
                   "p": prop(1)}
    return comp("text_on_path", 200, 100, [L, box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])],
                fonts={"list": [{"fName": "Boxes-Regular", "fFamily": "Boxes", "fStyle": "Regular", "ascent": 75}]},
                chars=box_glyphs())


@fixture("text_font", ["text layer without chars (font DejaVu Sans)", "j justification", "tracking", "line height"], (0,),
         notes="Three lines, centred (j 2) on x=100, size 26, tracking 50 (1/1000 em), line height 32.")
def _():
    doc = {"s": 26, "f": "DejaVuSans", "t": "Flip\rbook\rLottie", "j": 2, "tr": 50, "lh": 32, "ls": 0,
           "fc": [0.1, 0.2, 0.7]}
    return comp("text_font", 200, 100, [text_layer("Font", 1, doc, (100, 27)),
                                        box("Backdrop", 2, 0, 0, 200, 100, [0.85, 0.85, 0.85])],
                fonts={"list": [{"fName": "DejaVuSans", "fFamily": "DejaVu Sans", "fStyle": "Book", "ascent": 75,
                                 "origin": 0}]})


# ---------------------------------------------------------------- warnings

@fixture("expression", ["expression (x) ignored with a warning"], (0, 50),
         notes="The expression would pin the box to (0,0); without it the box moves from x=10 to x=70.")
def _():
    p = anim(kf(0, [10, 40, 0]), kf(60, [70, 40, 0]))
    p["x"] = "[0, 0]"
    return comp("expression", 100, 100, [
        shape_layer("Expr", 1, [group([rect([10, 10], [20, 20]), fill(RED)])], ks_=ks(p=p)), bg(2)])


@fixture("layer_3d", ["3D layer ddd:1 ignored with a warning"], (0,),
         notes="rx/ry are 3D-only and are ignored; rz is the layer's ordinary 2D rotation.")
def _():
    L = box("ThreeD", 1, -20, -20, 40, 40, GREEN)
    L["ddd"] = 1
    L["ks"] = {"a": prop([0, 0, 0]), "p": prop([50, 50, 0]), "s": prop([100, 100, 100]), "o": prop(100),
               "rx": prop(50), "ry": prop(0), "rz": prop(30), "or": prop([0, 0, 0])}
    d = comp("layer_3d", 100, 100, [L, bg(2)])
    d["ddd"] = 1
    return d


def build_all():
    return {name: dict(f, doc=f["build"]()) for name, f in FIX.items()}

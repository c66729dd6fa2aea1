#!/usr/bin/env python3
"""Browser tests: `flipbook preview` and the `--html` report in real headless Chromium.

Drives Debian's chromium over the DevTools protocol (python3-websocket; both installed by
scripts/setup) as a person would use the page:

  preview  - the page loads and draws frame 0 with exactly the pixels `render --format png`
             writes (canvas read back), and the screenshot is not blank;
           - GET /frames/0.png is byte-identical to render's frame-0000.png (less its
             flipbook-hash tEXt chunk); bad indexes are
             400, out-of-range 404, paths outside the routes 404 (never a file);
           - ArrowRight steps to frame 1 (pixels of render's frame-0001.png);
           - editing the scene file changes the drawn frame within 1 s;
           - breaking it shows the banner with exactly `flipbook validate`'s messages
             (file:line:column) within 1 s, the last good frame staying on screen;
           - fixing it hides the banner within 1 s;
           - rewriting its image asset changes the drawn frame within 1 s.
  report   - `check --html` of a changed scene opens from disk (file://), every image
             loads, the failing frame's section, swipe slider and onion toggle work.
  animated - our APNG and lossless WebP decoded by Chromium (ImageDecoder): frame count,
             100 ms durations, endless loop, first and middle frame equal to render's PNG
             frames pixel for pixel; preview's GIF/APNG/WebP downloads (animated_formats.py).

Every wait is bounded; ports are free ones (the server's port 0, Chromium's
DevToolsActivePort); processes are killed on every exit path. A missing browser is a
failure, not a skip. Usage: browser_tests.py --flipbook PATH [--screenshots DIR]
"""
import argparse
import base64
import json
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request
import zlib

import animated_formats

try:
    import websocket  # python3-websocket (Debian)
except ImportError:
    sys.exit("browser tests: python3-websocket is missing (scripts/setup installs it)")

PROCESSES = []
FAILURES = []


def check(condition, message):
    status = "ok  " if condition else "FAIL"
    print(f"  {status} {message}", flush=True)
    if not condition:
        FAILURES.append(message)
    return condition


def wait_for(predicate, timeout, interval=0.02):
    """Polls predicate until truthy or timeout; returns (value, seconds waited)."""
    start = time.monotonic()
    while True:
        value = predicate()
        elapsed = time.monotonic() - start
        if value or elapsed > timeout:
            return value, elapsed
        time.sleep(interval)


def decode_png(data):
    """RGBA bytes of an 8-bit PNG (color types 2 and 6, non-interlaced), width, height."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
    assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
    ch = 4 if ctype == 6 else 3
    raw, stride = zlib.decompress(idat), w * ch
    out, prev, i = bytearray(), bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - ch] if x >= ch else 0
            b, c = prev[x], (prev[x - ch] if x >= ch else 0)
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    if ch == 3:
        out = bytearray(b"".join(bytes(out[k:k + 3]) + b"\xff" for k in range(0, len(out), 3)))
    return bytes(out), w, h


def without_hash_chunk(data):
    """The PNG without its `tEXt` chunk whose keyword is flipbook-hash."""
    out, i = bytearray(data[:8]), 8
    while i + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[i:i + 8])
        end = i + 12 + length
        if not (kind == b"tEXt" and data[i + 8:i + 8 + length].startswith(b"flipbook-hash\0")):
            out += data[i:end]
        i = end
    return bytes(out)


def kill_all():
    for p in PROCESSES:
        if p.poll() is None:
            p.terminate()
    for p in PROCESSES:
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=5)


class Browser:
    """Headless Chromium with one page, driven over the DevTools protocol."""

    def __init__(self, workdir):
        binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if not binary:
            sys.exit("browser tests: no Chromium found (scripts/setup installs Debian's chromium package)")
        profile = os.path.join(workdir, "profile")
        os.makedirs(profile)
        self.process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--hide-scrollbars", "--disable-dev-shm-usage",
             "--force-device-scale-factor=1", "--window-size=1280,820", "--remote-debugging-port=0",
             "--remote-debugging-address=127.0.0.1", f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(workdir, "chromium.log"), "wb"))
        PROCESSES.append(self.process)
        port_file = os.path.join(profile, "DevToolsActivePort")
        found, _ = wait_for(lambda: os.path.exists(port_file) and open(port_file).read().split("\n")[0].strip(), 30,
                            0.1)
        if not found:
            sys.exit("browser tests: Chromium did not start (see chromium.log)")
        self.port = int(found)
        pages, _ = wait_for(lambda: [t for t in self.targets() if t["type"] == "page"], 10, 0.1)
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=30,
                                              suppress_origin=True)
        self.next_id = 0
        self.send("Page.enable")
        self.send("Runtime.enable")

    def targets(self):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=5) as r:
                return json.load(r)
        except OSError:
            return []

    def send(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def eval(self, expression, await_promise=False):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=await_promise)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:60]}…: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url):
        self.send("Page.navigate", url=url)
        wait_for(lambda: self.eval("document.readyState") == "complete", 15, 0.05)

    def key(self, name, code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=name, code=code, windowsVirtualKeyCode=code_number(name))

    def screenshot(self, path=None, height=None):
        """The viewport, or the top `height` pixels of the page, after two animation frames
        (so that the last changes have been painted)."""
        self.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))", await_promise=True)
        params = {"format": "png"}
        if height:
            params.update(captureBeyondViewport=True, clip={"x": 0, "y": 0, "width": 1280, "height": height, "scale": 1})
        data = base64.b64decode(self.send("Page.captureScreenshot", **params)["data"])
        if path:
            with open(path, "wb") as f:
                f.write(data)
        return data


def code_number(name):
    return {"ArrowRight": 39, "ArrowLeft": 37}[name]


SCENE = """version: 1
canvas:
  size: [120, 80]
  scale: 1
  background: "{background}"
  fps: 10
  duration: 1
layers:
  - id: box
    frame: [10, 25, 30, 30]
    backgroundColor: "#3366cc"
    cornerRadius: 6
  - {{ id: tile, frame: [88, 6, 16, 16], contents: tile }}
animations:
  - layer: box
    keyPath: position.x
    from: 25
    to: 95
    duration: 1
assets:
  tile: tile.png
"""
# Line 11 of SCENE holds the box's color; the test breaks it with a value the loader refuses.
BROKEN_LINE = 11


def write_png(path, width, height, rgb):
    """A solid opaque PNG (the image asset the test scene shows)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def canvas_pixels(browser):
    """The preview canvas's RGBA bytes, width, height and the key of the drawn frame."""
    value = browser.eval("""(() => { const c = document.getElementById('canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let s = ''; for (let i = 0; i < d.length; i += 8192) s += String.fromCharCode.apply(null, d.subarray(i, i + 8192));
        return [btoa(s), c.width, c.height, window.preview.drawn]; })()""")
    return base64.b64decode(value[0]), value[1], value[2], value[3]


def http_status(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def run_flipbook(flipbook, *args):
    return subprocess.run([flipbook, *args], capture_output=True, text=True, timeout=120)


def test_preview(flipbook, browser, work, screenshots):
    print("preview:", flush=True)
    scene = os.path.join(work, "scene.yaml")
    write_png(os.path.join(work, "tile.png"), 4, 4, (20, 160, 60))
    with open(scene, "w") as f:
        f.write(SCENE.format(background="#ffffff"))
    frames = os.path.join(work, "frames")
    r = run_flipbook(flipbook, "render", scene, "--format", "png", "-o", frames, "--frames", "0-1")
    assert r.returncode == 0, r.stderr
    expected0 = open(os.path.join(frames, "frame-0000.png"), "rb").read()
    expected1 = open(os.path.join(frames, "frame-0001.png"), "rb").read()

    server = subprocess.Popen([flipbook, "preview", scene, "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    PROCESSES.append(server)
    ready, _, _ = select.select([server.stdout], [], [], 60)
    line = server.stdout.readline() if ready else ""
    if not check(line.startswith("preview: http://127.0.0.1:"), f"server prints its URL ({line.strip()!r})"):
        return
    url = line.split()[1]

    status, body = http_status(url + "frames/0.png")
    # render's frames carry the content hash in a tEXt chunk (the preview's do not: they
    # are not outputs to skip); every other byte is the same.
    check(status == 200 and body == without_hash_chunk(expected0),
          "GET /frames/0.png is byte-identical to render's frame-0000.png (less its flipbook-hash chunk)")
    for path, code in [("frames/10.png", 404), ("frames/99999.png", 404), ("frames/-1.png", 400),
                       ("frames/abc.png", 400), ("frames/1.5.png", 400), ("frames/0.png?scale=0", 400),
                       ("frames/..%2Fscene.yaml", 404), ("scene.yaml", 404), ("../scene.yaml", 404),
                       ("frames/0.gif", 404)]:
        status, _ = http_status(url + path)
        check(status == code, f"GET /{path} → {code} (got {status})")
    status, body = http_status(url + "frames/0.png?scale=2")
    check(status == 200 and decode_png(body)[1:] == (240, 160), "?scale=2 renders at 2 pixels per point")

    browser.open(url)
    drawn, waited = wait_for(lambda: browser.eval("window.preview && window.preview.drawn"), 10)
    check(bool(drawn), f"the page draws a frame ({waited:.2f} s)")
    pixels, w, h, _ = canvas_pixels(browser)
    want, ww, wh = decode_png(expected0)
    check((w, h) == (ww, wh) and pixels == want, "the canvas holds frame 0's pixels exactly as render writes them")
    shot, sw, sh = decode_png(browser.screenshot())
    colors = {shot[i:i + 3] for i in range(0, len(shot), 4 * 97)}
    check(len(colors) > 8, f"the screenshot is not blank ({len(colors)} sampled colors)")

    browser.key("ArrowRight", "ArrowRight")
    stepped, _ = wait_for(lambda: browser.eval("window.preview.frame === 1 && window.preview.drawn.endsWith('/1')"), 5)
    pixels, _, _, _ = canvas_pixels(browser)
    check(stepped and pixels == decode_png(expected1)[0], "ArrowRight steps to frame 1 (render's frame-0001.png)")
    browser.key("ArrowLeft", "ArrowLeft")
    back, _ = wait_for(lambda: browser.eval("window.preview.frame === 0 && window.preview.drawn.endsWith('/0')"), 5)
    check(bool(back), "ArrowLeft steps back to frame 0")

    browser.eval("document.getElementById('scale').value = '2'; document.getElementById('scale').onchange()")
    scaled, _ = wait_for(lambda: browser.eval("[canvas.width, canvas.height]") == [240, 160], 5)
    check(bool(scaled), "the 2× scale draws the frame at 240 × 160 pixels")
    browser.eval("document.getElementById('scale').value = ''; document.getElementById('scale').onchange()")
    wait_for(lambda: browser.eval("[canvas.width, canvas.height]") == [120, 80], 5)

    # Playback follows the clock: at 10 fps and 1×, about 5 frames in 0.5 s (loose bounds:
    # a loaded machine may paint late, but the frame index comes from the clock).
    browser.eval("document.getElementById('play').click()")
    time.sleep(0.5)
    played = browser.eval("window.preview.frame")
    browser.eval("document.getElementById('play').click()")
    check(played is not None and 3 <= played <= 8, f"playback at the scene's 10 fps reaches frame {played} after 0.5 s")
    browser.eval("document.getElementById('scrub').value = 0; document.getElementById('scrub').oninput()")
    wait_for(lambda: browser.eval("window.preview.drawn.endsWith('/0')"), 5)

    before, _, _, _ = canvas_pixels(browser)
    generation = browser.eval("window.preview.generation")
    time.sleep(0.05)
    with open(scene, "w") as f:
        f.write(SCENE.format(background="#ffe0a0"))
    edited = time.monotonic()
    changed, _ = wait_for(lambda: canvas_pixels(browser)[0] != before, 3)
    took = time.monotonic() - edited
    check(bool(changed) and took < 1.0, f"an edit of the scene file shows on the page in {took:.2f} s (< 1 s)")
    check(browser.eval("window.preview.generation") == generation + 1, "the edit made a new generation")

    good, _, _, _ = canvas_pixels(browser)
    text = open(scene).read().replace('backgroundColor: "#3366cc"', "backgroundColor: 12")
    with open(scene, "w") as f:
        f.write(text)
    edited = time.monotonic()
    shown, _ = wait_for(lambda: browser.eval("document.getElementById('banner').classList.contains('shown')"), 3)
    took = time.monotonic() - edited
    validate = run_flipbook(flipbook, "validate", scene)
    banner = browser.eval("document.getElementById('banner').textContent")
    check(bool(shown) and took < 1.0, f"breaking the scene shows the error banner in {took:.2f} s (< 1 s)")
    check(validate.returncode == 2 and banner == validate.stderr.rstrip("\n"),
          f"the banner holds validate's messages exactly: {banner!r}")
    check(f"{scene}:{BROKEN_LINE}:" in banner, f"the banner names file:line ({os.path.basename(scene)}:{BROKEN_LINE})")
    check(canvas_pixels(browser)[0] == good, "the last good frame stays on screen under the banner")
    if screenshots:
        browser.screenshot(os.path.join(work, "preview-error.png"))

    with open(scene, "w") as f:
        f.write(SCENE.format(background="#ffe0a0"))
    edited = time.monotonic()
    hidden, _ = wait_for(lambda: not browser.eval("document.getElementById('banner').classList.contains('shown')"), 3)
    took = time.monotonic() - edited
    check(bool(hidden) and took < 1.0, f"fixing the scene hides the banner in {took:.2f} s (< 1 s)")

    before, _, _, _ = canvas_pixels(browser)
    write_png(os.path.join(work, "tile.png"), 4, 4, (230, 40, 40))
    edited = time.monotonic()
    changed, _ = wait_for(lambda: canvas_pixels(browser)[0] != before, 3)
    took = time.monotonic() - edited
    check(bool(changed) and took < 1.0, f"an edit of an image asset shows on the page in {took:.2f} s (< 1 s)")
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    check(server.returncode is not None, "the server stops on SIGTERM within 10 s")
    if screenshots:
        screenshot_demo(flipbook, browser, os.path.join(screenshots, "preview.png"))


def screenshot_demo(flipbook, browser, path):
    """docs/preview.png: the demo scene in the page, at frame 45."""
    demo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenes", "demo.yaml")
    server = subprocess.Popen([flipbook, "preview", demo], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    PROCESSES.append(server)
    ready, _, _ = select.select([server.stdout], [], [], 60)
    url = server.stdout.readline().split()[1] if ready else None
    if not check(url is not None, "the demo scene's preview starts (screenshot)"):
        return
    browser.open(url)
    wait_for(lambda: browser.eval("window.preview && window.preview.drawn"), 10)
    browser.eval("document.getElementById('scrub').value = 45; document.getElementById('scrub').oninput()")
    wait_for(lambda: browser.eval("window.preview.drawn && window.preview.drawn.endsWith('/45')"), 10)
    browser.screenshot(path)
    server.terminate()


def test_report(flipbook, browser, work, screenshots):
    print("report:", flush=True)
    scenes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenes")
    golden, html = os.path.join(work, "golden"), os.path.join(work, "report")
    demo = os.path.join(scenes, "demo.yaml")
    r = run_flipbook(flipbook, "check", demo, "--golden", golden, "--record", "--scale", "1", "--frames", "24-41")
    assert r.returncode == 0, r.stderr
    changed = os.path.join(work, "demo-changed.yaml")
    # The progress line changes color and starts 0.1 s later: its 1-px stub (4 px, within
    # --max-diff-pixels 10) before it grows at frame 30, a longer differing line after.
    with open(demo) as f:
        text = f.read().replace('backgroundColor: "#109cc5"', 'backgroundColor: "#e0409a"', 1)
        text = text.replace("    at: 1.0\n    duration: 1.2", "    at: 1.1\n    duration: 1.2", 1)
    with open(changed, "w") as f:
        f.write(text)
    r = run_flipbook(flipbook, "check", changed, "--golden", golden, "--scale", "1", "--frames", "24-41",
                     "--html", html, "--max-diff-pixels", "10")
    check(r.returncode == 1 and os.path.exists(os.path.join(html, "index.html")),
          "check --html writes index.html for a failing check (exit 1)")
    browser.open("file://" + os.path.join(html, "index.html"))
    loaded, _ = wait_for(lambda: browser.eval(
        "[...document.images].every(i => i.complete && i.naturalWidth > 0) && document.images.length"), 10)
    check(bool(loaded), f"the report opens from disk with all {loaded} images loaded")
    sections = browser.eval("document.querySelectorAll('section.frame').length")
    failing = browser.eval("document.querySelectorAll('.thumb.fail').length")
    strip = browser.eval("document.querySelectorAll('.thumb').length")
    check(strip == 18 and 0 < failing < 18 and sections == failing,
          f"filmstrip of 18 frames ({strip}), {failing} marked failing, one section each ({sections})")
    check("FAILED" in browser.eval("document.querySelector('h1').textContent"), "the summary says FAILED")
    remote = browser.eval("performance.getEntriesByType('resource').map(e => e.name)"
                          ".filter(n => !n.startsWith('file://'))")
    check(remote == [], f"the report loads nothing but its own files ({remote})")
    panels = browser.eval("[...document.querySelectorAll('section.frame')[0].querySelectorAll('figcaption')]"
                          ".map(f => f.textContent)")
    check(panels == ["expected", "actual", "difference"], f"a failing frame shows {panels}")
    clip = browser.eval("""(() => { const s = document.querySelector('.slider'); s.value = 20;
        s.dispatchEvent(new Event('input')); return document.querySelector('.swipe img.top').style.clipPath; })()""")
    check(clip == "inset(0px 0px 0px 20%)" or clip == "inset(0 0 0 20%)", f"the swipe slider clips actual ({clip})")
    onion = browser.eval("""(() => { const o = document.querySelector('input.onion'); o.checked = true;
        o.dispatchEvent(new Event('change'));
        return getComputedStyle(document.querySelector('.swipe img.top')).opacity; })()""")
    check(onion == "0.5", "the onion-skin toggle overlays actual at half opacity")
    browser.eval("""(() => { const o = document.querySelector('input.onion'); o.checked = false;
        o.dispatchEvent(new Event('change')); const s = document.querySelector('.slider'); s.value = 50;
        s.dispatchEvent(new Event('input')); })()""")
    browser.screenshot(os.path.join(screenshots or work, "report.png"), height=1500)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flipbook", required=True)
    parser.add_argument("--screenshots", help="folder for preview.png and report.png (docs/)")
    args = parser.parse_args()
    flipbook = os.path.abspath(args.flipbook)
    work = tempfile.mkdtemp(prefix="flipbook-browser-")
    started = time.monotonic()
    try:
        browser = Browser(work)
        test_preview(flipbook, browser, work, args.screenshots)
        test_report(flipbook, browser, work, args.screenshots)
        animated_formats.test_animated_formats(flipbook, browser, work, check, decode_png, without_hash_chunk, PROCESSES)
    except Exception:
        traceback.print_exc()
        FAILURES.append("an exception ended the tests")
    finally:
        kill_all()
        if not FAILURES:
            shutil.rmtree(work, ignore_errors=True)
    print(f"browser tests: {'FAILED' if FAILURES else 'passed'} in {time.monotonic() - started:.1f} s"
          + (f", work folder kept: {work}" if FAILURES else ""))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()

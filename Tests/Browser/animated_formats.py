"""Browser test of the animated outputs: Chromium decodes our APNG and lossless WebP.

The frames are decoded with WebCodecs' ImageDecoder (Chromium's own PNG and WebP decoders,
independent of ours), each drawn into a canvas and read back; for an opaque scene these
pixels must equal `render --format png`'s frames exactly. Checked: the frame count, the
first and a middle frame's pixels, each frame's duration, and that the animation loops
forever. Then `preview`'s download links: the page offers GIF, APNG and WebP, the APNG
downloaded is render's (less its hash chunk) and Chromium plays the WebP's 10 frames.
Used by browser_tests.py.
"""
import base64
import os
import select
import subprocess
import urllib.request

# Opaque (a canvas unpremultiplies, so only opaque pixels read back exactly), 10 frames with
# a gradient and a rounded card moving: many colours and anti-aliased edges.
ANIMATED_SCENE = """version: 1
canvas: { size: [96, 64], scale: 1, fps: 10, duration: 1, background: "#fdf6e3" }
layers:
  - id: sky
    frame: [0, 0, 192, 64]
    gradient: { colors: ["#2b5876", "#4e4376", "#f7971e"], startPoint: [0, 0], endPoint: [1, 1] }
  - { id: card, frame: [6, 20, 30, 22], backgroundColor: "#ffffffcc", cornerRadius: 6 }
animations:
  - { layer: sky, keyPath: position.x, from: 96, to: 0, duration: 1, curve: linear }
  - { layer: card, keyPath: position.x, from: 21, to: 75, duration: 1, curve: easeInEaseOut }
"""

DECODE = """(async (b64, type, indexes) => {
  if (typeof ImageDecoder === 'undefined') return {error: 'no ImageDecoder (secure context: ' + isSecureContext + ')'};
  const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const decoder = new ImageDecoder({data, type, colorSpaceConversion: 'none', premultiplyAlpha: 'none'});
  await decoder.tracks.ready;
  await decoder.completed;
  const track = decoder.tracks.selectedTrack;
  const out = {frameCount: track.frameCount, repetitionCount: track.repetitionCount, frames: [], durations: []};
  for (let i = 0; i < track.frameCount; i++) {
    const {image} = await decoder.decode({frameIndex: i});
    out.durations.push(image.duration);
    if (indexes.includes(i)) {
      const c = new OffscreenCanvas(image.displayWidth, image.displayHeight);
      const g = c.getContext('2d', {colorSpace: 'srgb'});
      g.drawImage(image, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let s = '';
      for (let k = 0; k < d.length; k += 8192) s += String.fromCharCode.apply(null, d.subarray(k, k + 8192));
      out.frames.push([i, btoa(s), c.width, c.height]);
    }
    image.close();
  }
  decoder.close();
  out.repetitionCount = String(out.repetitionCount);
  return out;
})""" 


def decoded(browser, path_or_bytes, mime, indexes):
    data = path_or_bytes if isinstance(path_or_bytes, bytes) else open(path_or_bytes, "rb").read()
    return browser.eval(f"{DECODE}('{base64.b64encode(data).decode()}', '{mime}', {indexes})", await_promise=True)


def test_preview_downloads(flipbook, browser, folder, scene, check, without_hash_chunk, processes):
    server = subprocess.Popen([flipbook, "preview", scene, "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    processes.append(server)
    ready, _, _ = select.select([server.stdout], [], [], 60)
    line = server.stdout.readline() if ready else ""
    if not check(line.startswith("preview: http://127.0.0.1:"), f"preview prints its URL ({line.strip()!r})"):
        return
    url = line.split()[1]
    browser.open(url)
    links = browser.eval("[...document.querySelectorAll('a.download')].map(a => a.textContent + ' ' + "
                         "new URL(a.href).pathname)")
    check(links == ["GIF /download/gif", "APNG /download/apng", "WebP /download/webp"],
          f"the preview page offers GIF, APNG and WebP downloads ({links})")
    bodies = {}
    for kind in ("gif", "apng", "webp"):
        with urllib.request.urlopen(url + "download/" + kind, timeout=120) as r:
            bodies[kind] = (r.headers.get("Content-Disposition"), r.read())
    check(bodies["gif"][0] == 'attachment; filename="scene.gif"' and bodies["gif"][1][:6] == b"GIF89a",
          f"GET /download/gif is a GIF named scene.gif ({bodies['gif'][0]})")
    with open(os.path.join(folder, "x.png"), "rb") as f:
        apng = without_hash_chunk(f.read())
    check(bodies["apng"][0] == 'attachment; filename="scene.png"' and bodies["apng"][1] == apng,
          "GET /download/apng is render's x.png byte for byte (less its flipbook-hash chunk)")
    played = decoded(browser, bodies["webp"][1], "image/webp", [])
    check(played.get("frameCount") == 10 and played.get("repetitionCount") == "Infinity",
          f"GET /download/webp plays in Chromium: {played.get('frameCount')} frames, loop {played.get('repetitionCount')}")
    server.terminate()
    server.wait(timeout=10)


def test_animated_formats(flipbook, browser, work, check, decode_png, without_hash_chunk, processes):
    print("animated formats:", flush=True)
    folder = os.path.join(work, "animated")
    os.makedirs(folder)
    scene = os.path.join(folder, "scene.yaml")
    with open(scene, "w") as f:
        f.write(ANIMATED_SCENE)
    # A page from disk: file:// is a secure context, which ImageDecoder needs.
    page = os.path.join(folder, "blank.html")
    with open(page, "w") as f:
        f.write("<!doctype html><title>decode</title>")
    outputs = {"APNG": ("x.png", "image/png", []), "lossless WebP": ("x.webp", "image/webp", ["--lossless"])}
    frames = os.path.join(folder, "frames")
    for args in [["--format", "png", "-o", frames]] + [["-o", os.path.join(folder, o[0])] + o[2] for o in outputs.values()]:
        r = subprocess.run([flipbook, "render", scene, "--quiet", *args], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
    browser.open("file://" + page)
    middle = 5
    for name, (file, mime, _) in outputs.items():
        result = decoded(browser, os.path.join(folder, file), mime, [0, middle])
        if not check("error" not in result, f"{name}: Chromium's ImageDecoder reads it ({result.get('error', '')})"):
            continue
        check(result["frameCount"] == 10, f"{name}: 10 frames ({result['frameCount']})")
        check(result["repetitionCount"] == "Infinity", f"{name}: loops forever ({result['repetitionCount']})")
        check(result["durations"] == [100_000] * 10, f"{name}: every frame lasts 100 ms ({result['durations']})")
        for index, pixels, width, height in result["frames"]:
            with open(os.path.join(frames, f"frame-{index:04d}.png"), "rb") as f:
                expected, w, h = decode_png(f.read())
            got = base64.b64decode(pixels)
            differing = sum(1 for k in range(0, len(got), 4) if got[k:k + 4] != expected[k:k + 4])
            check((width, height) == (w, h) and differing == 0,
                  f"{name}: frame {index} drawn by Chromium equals render's PNG frame ({differing} pixels differ)")
    test_preview_downloads(flipbook, browser, folder, scene, check, without_hash_chunk, processes)

/// The preview page: one self-contained HTML document (styles and script inline, nothing
/// fetched but this server's own routes).
///
/// It draws the current frame on a canvas at its pixel size (fit to the window, then
/// zoomed), plays at the scene's fps times the speed (0.25×–2×) from a clock, so that
/// playback keeps the scene's timing and skips frames not yet loaded rather than slowing
/// down; frames are fetched once per generation and scale and kept as decoded images.
/// The side panel lists the scene's facts, what it renders without (its ``SceneWarning``s,
/// by layer and feature) and its layer tree.
/// Keys: ← → step a frame, space plays or pauses. A `state` event with errors shows them
/// in a banner over the last good frames; one without errors hides it and, when the
/// generation changed, drops the cached frames and draws the current one again.
/// `window.preview` exposes the state for tests (frame, generation, drawn frame key).
enum PreviewPage {
    static let html = #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>flipbook preview</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        html, body { margin: 0; height: 100%; font: 13px/1.4 system-ui, sans-serif; color: #222; background: #f3f4f6; }
        body { display: grid; grid-template-rows: auto auto 1fr auto; grid-template-columns: 1fr 260px; }
        header { grid-column: 1 / 3; grid-row: 1; display: flex; gap: 12px; align-items: center; padding: 6px 12px; background: #fff;
          border-bottom: 1px solid #ddd; flex-wrap: wrap; }
        header b { font-size: 14px; }
        #banner { grid-column: 1 / 3; grid-row: 2; display: none; background: #fde8e8; color: #8a1010; border-bottom: 2px solid #cf222e;
          padding: 8px 12px; font: 12px/1.5 ui-monospace, monospace; white-space: pre-wrap; }
        #banner.shown { display: block; }
        #stage { grid-column: 1; grid-row: 3; min-height: 0; overflow: auto; display: flex; align-items: center; justify-content: center; position: relative; }
        #stage.white { background: #fff; } #stage.black { background: #000; }
        #stage.checker { background: repeating-conic-gradient(#ccc 0 25%, #fff 0 50%) 0 0 / 20px 20px; }
        canvas { image-rendering: pixelated; box-shadow: 0 0 0 1px rgba(0,0,0,.15); }
        aside { grid-column: 2; grid-row: 3 / 5; overflow: auto; background: #fff; border-left: 1px solid #ddd; padding: 8px 12px; }
        aside ul { margin: 0; padding-left: 14px; } aside li { font-family: ui-monospace, monospace; font-size: 12px; }
        aside table td { padding: 0 8px 0 0; }
        #warnings li { font-family: inherit; color: #7a4d00; }
        footer { grid-column: 1; grid-row: 4; display: flex; gap: 10px; align-items: center; padding: 6px 12px; background: #fff;
          border-top: 1px solid #ddd; }
        #scrub { flex: 1; }
        #time { font-family: ui-monospace, monospace; min-width: 190px; }
        button { min-width: 64px; }
        </style></head>
        <body>
        <header><b id="title">flipbook preview</b>
          <label>zoom <select id="zoom"><option value="fit" selected>fit</option><option value="0.25">25%</option>
            <option value="0.5">50%</option><option value="1">100%</option><option value="2">200%</option>
            <option value="4">400%</option></select></label>
          <label>scale <select id="scale"><option value="" selected>scene</option><option value="1">1×</option>
            <option value="2">2×</option><option value="3">3×</option></select></label>
          <label>background <select id="bg"><option value="white">white</option><option value="black">black</option>
            <option value="checker" selected>checkerboard</option></select></label>
          <label>speed <select id="speed"><option>0.25</option><option>0.5</option><option selected>1</option>
            <option>1.5</option><option>2</option></select>×</label>
          <label><input type="checkbox" id="loop" checked> loop</label>
          <span>download <a class="download" data-format="gif" href="/download/gif">GIF</a>
            <a class="download" data-format="apng" href="/download/apng">APNG</a>
            <a class="download" data-format="webp" href="/download/webp">WebP</a></span>
        </header>
        <div id="banner" role="alert"></div>
        <main id="stage" class="checker"><canvas id="canvas" width="1" height="1"></canvas></main>
        <aside><h3>Scene</h3><table id="facts"></table>
          <div id="warnbox" hidden><h3>Rendered without</h3><ul id="warnings"></ul></div>
          <h3>Layers</h3><div id="layers"></div></aside>
        <footer><button id="play">▶ play</button><input type="range" id="scrub" min="0" max="0" value="0">
          <span id="time">frame 0 · 0.000 s</span></footer>
        <script>
        const $ = (id) => document.getElementById(id);
        const canvas = $('canvas'), ctx = canvas.getContext('2d');
        const state = { info: null, generation: 0, frame: 0, playing: false, drawn: null, errors: [] };
        window.preview = state;
        const images = new Map();
        let clockStart = 0, clockFrame = 0;

        function scaleParam() { return $('scale').value ? '&scale=' + $('scale').value : ''; }
        // The downloads follow the scale chosen (as `render --scale`) and the scene's generation.
        function downloadLinks() {
          for (const a of document.querySelectorAll('a.download')) {
            a.href = '/download/' + a.dataset.format + '?g=' + state.generation + scaleParam();
          }
        }
        function key(i) { return state.generation + '/' + ($('scale').value || 'scene') + '/' + i; }
        function load(i) {
          const k = key(i);
          if (images.has(k)) return images.get(k);
          const entry = { img: new Image(), ready: false, key: k };
          entry.promise = new Promise((resolve) => {
            entry.img.onload = () => { entry.ready = true; resolve(entry); };
            entry.img.onerror = () => { images.delete(k); resolve(null); };
          });
          entry.img.src = '/frames/' + i + '.png?g=' + state.generation + scaleParam();
          images.set(k, entry);
          return entry;
        }
        function draw(entry) {
          if (!entry || !entry.ready) return;
          if (canvas.width !== entry.img.naturalWidth || canvas.height !== entry.img.naturalHeight) {
            canvas.width = entry.img.naturalWidth; canvas.height = entry.img.naturalHeight; layout();
          }
          ctx.clearRect(0, 0, canvas.width, canvas.height);
          ctx.drawImage(entry.img, 0, 0);
          state.drawn = entry.key;
        }
        async function show(i) {
          if (!state.info) return;
          const n = state.info.frameCount;
          state.frame = Math.max(0, Math.min(n - 1, i));
          $('scrub').value = state.frame;
          $('time').textContent = 'frame ' + state.frame + ' / ' + (n - 1) + ' · ' + (state.frame / state.info.fps).toFixed(3) + ' s';
          const entry = load(state.frame);
          if (entry.ready) draw(entry);
          else { const done = await entry.promise; if (done && state.frame === i) draw(done); }
          for (let k = 1; k <= 4 && state.frame + k < n; k++) load(state.frame + k);
        }
        function layout() {
          const z = $('zoom').value, stage = $('stage');
          let f = Number(z);
          if (z === 'fit') f = Math.min(1, (stage.clientWidth - 24) / canvas.width, (stage.clientHeight - 24) / canvas.height);
          canvas.style.width = Math.max(1, Math.round(canvas.width * f)) + 'px';
          canvas.style.height = Math.max(1, Math.round(canvas.height * f)) + 'px';
        }
        function setPlaying(on) {
          state.playing = on;
          $('play').textContent = on ? '❚❚ pause' : '▶ play';
          if (on) { clockStart = performance.now(); clockFrame = state.frame; requestAnimationFrame(tick); }
        }
        function tick(now) {
          if (!state.playing || !state.info) return;
          const n = state.info.frameCount, speed = Number($('speed').value);
          let i = clockFrame + Math.floor((now - clockStart) / 1000 * state.info.fps * speed);
          if (i >= n) {
            if ($('loop').checked) { i = i % n; } else { show(n - 1); setPlaying(false); return; }
          }
          if (i !== state.frame) show(i);
          requestAnimationFrame(tick);
        }
        function tree(nodes) {
          return '<ul>' + nodes.map((n) => '<li>' + esc(n.id) + ' <small>' + n.kind + '</small>'
            + (n.mask ? '<ul><li>mask: ' + esc(n.mask.id) + '</li></ul>' : '')
            + (n.sublayers ? tree(n.sublayers) : '') + '</li>').join('') + '</ul>';
        }
        function esc(t) { return String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c])); }
        function apply(info) {
          state.errors = info.errors || [];
          const banner = $('banner');
          banner.textContent = state.errors.join('\n');
          banner.classList.toggle('shown', state.errors.length > 0);
          if (info.frameCount === undefined) return;
          const changed = info.generation !== state.generation || !state.info || info.scale !== state.info.scale;
          state.info = info; state.generation = info.generation;
          $('title').textContent = info.scene;
          $('scrub').max = info.frameCount - 1;
          $('facts').innerHTML = [['size', info.pointWidth + ' × ' + info.pointHeight + ' pt'],
            ['pixels', info.width + ' × ' + info.height + ' at ' + info.scale + '×'], ['fps', info.fps],
            ['duration', info.duration + ' s'], ['frames', info.frameCount]]
            .map((r) => '<tr><td>' + r[0] + '</td><td>' + r[1] + '</td></tr>').join('');
          $('layers').innerHTML = tree(info.layers || []);
          downloadLinks();
          const warnings = info.warnings || [];
          $('warnings').innerHTML = warnings.map((w) => '<li>' + (w.layer !== undefined ? '<b>' + esc(w.layer) + '</b>: ' : '')
            + esc(w.feature) + '</li>').join('');
          $('warnbox').hidden = warnings.length === 0;
          if (changed) { images.clear(); show(Math.min(state.frame, info.frameCount - 1)); }
        }
        async function refresh() {
          const s = $('scale').value;
          const r = await fetch('/state.json' + (s ? '?scale=' + s : ''));
          if (r.ok) { const info = await r.json(); state.info = null; apply(info); }
        }
        $('play').onclick = () => setPlaying(!state.playing);
        $('scrub').oninput = () => { setPlaying(false); show(Number($('scrub').value)); };
        $('zoom').onchange = layout;
        $('scale').onchange = refresh;
        $('speed').onchange = () => { if (state.playing) setPlaying(true); };
        $('bg').onchange = () => { $('stage').className = $('bg').value; };
        window.addEventListener('resize', layout);
        document.addEventListener('keydown', (e) => {
          if (e.target.tagName === 'INPUT' && e.target.type === 'range') e.preventDefault();
          if (e.key === 'ArrowRight') { setPlaying(false); show(state.frame + 1); }
          else if (e.key === 'ArrowLeft') { setPlaying(false); show(state.frame - 1); }
          else if (e.key === ' ') { e.preventDefault(); setPlaying(!state.playing); }
        });
        const events = new EventSource('/events');
        events.addEventListener('state', (e) => {
          const info = JSON.parse(e.data);
          if ($('scale').value && info.frameCount !== undefined && info.generation !== state.generation) {
            state.generation = info.generation; apply({ errors: info.errors }); refresh();
          } else { apply(info); }
        });
        </script>
        </body></html>
        """#
}

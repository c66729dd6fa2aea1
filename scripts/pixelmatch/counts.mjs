// Usage: node counts.mjs INDEX.mjs FIXTURE_DIR (see scripts/pixelmatch-main-counts).
// Decodes the fixture PNGs itself (8-bit RGBA, RGB, gray, gray+alpha and palette with tRNS,
// non-interlaced: what the fixtures use) so that it needs no package beyond node.
import fs from 'node:fs';
import zlib from 'node:zlib';
import {pathToFileURL} from 'node:url';

const [indexPath, dir] = process.argv.slice(2);
const match = (await import(pathToFileURL(indexPath).href)).default;

function readPNG(path) {
    const buf = fs.readFileSync(path);
    let pos = 8, width = 0, height = 0, type = 0, palette = null, trns = null;
    const idat = [];
    while (pos < buf.length) {
        const len = buf.readUInt32BE(pos), kind = buf.toString('ascii', pos + 4, pos + 8);
        const data = buf.subarray(pos + 8, pos + 8 + len);
        if (kind === 'IHDR') {
            width = data.readUInt32BE(0); height = data.readUInt32BE(4); type = data[9];
            if (data[8] !== 8 || data[12] !== 0) throw new Error(`${path}: only 8-bit non-interlaced PNGs`);
        } else if (kind === 'PLTE') palette = data;
        else if (kind === 'tRNS') trns = data;
        else if (kind === 'IDAT') idat.push(data);
        pos += 12 + len;
    }
    const bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[type];
    if (!bpp) throw new Error(`${path}: colour type ${type}`);
    const raw = zlib.inflateSync(Buffer.concat(idat));
    const stride = width * bpp, out = new Uint8Array(width * height * 4);
    let prev = new Uint8Array(stride), p = 0;
    for (let y = 0; y < height; y++) {
        const filter = raw[p++], line = new Uint8Array(raw.subarray(p, p + stride));
        p += stride;
        for (let i = 0; i < stride; i++) {
            const a = i >= bpp ? line[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
            let v = line[i];
            if (filter === 1) v += a;
            else if (filter === 2) v += b;
            else if (filter === 3) v += (a + b) >> 1;
            else if (filter === 4) {
                const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c);
                v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
            }
            line[i] = v & 255;
        }
        for (let x = 0; x < width; x++) {
            const o = (y * width + x) * 4, s = x * bpp;
            if (type === 6) out.set(line.subarray(s, s + 4), o);
            else if (type === 2) { out.set(line.subarray(s, s + 3), o); out[o + 3] = 255; }
            else if (type === 3) {
                const k = line[s];
                out.set(palette.subarray(3 * k, 3 * k + 3), o);
                out[o + 3] = trns && k < trns.length ? trns[k] : 255;
            } else {
                out[o] = out[o + 1] = out[o + 2] = line[s];
                out[o + 3] = type === 4 ? line[s + 1] : 255;
            }
        }
        prev = line;
    }
    return {width, height, data: out};
}

const cases = [
    // test.js's diffTest calls (drawing-only options left out: they do not change counts)
    ['1a', '1b', {threshold: 0.05}], ['1a', '1b', {}], ['1a', '1b', {threshold: 0.05, diffMask: true}],
    ['1a', '1a', {threshold: 0, diffMask: true}], ['2a', '2b', {threshold: 0.05}], ['3a', '3b', {threshold: 0.05}],
    ['4a', '4b', {threshold: 0.05}], ['5a', '5b', {threshold: 0.05}], ['6a', '6b', {threshold: 0.05}],
    ['6a', '6a', {threshold: 0}], ['7a', '7b', {}], ['8a', '5b', {threshold: 0.05}],
    // test.js's windowSize calls on 6a/6b
    ['6a', '6b', {threshold: 0.05, windowSize: 256}], ['6a', '6b', {threshold: 0.05, windowSize: 32}],
    ['6a', '6b', {threshold: 0.05, windowSize: 8}],
    // further option combinations
    ['1a', '1b', {threshold: 0.05, includeAA: true}], ['3a', '3b', {threshold: 0.05, includeAA: true}],
    ['7a', '7b', {includeAA: true}], ['1a', '1b', {threshold: 0.05, checkerboard: false}],
    ['3a', '3b', {threshold: 0.05, checkerboard: false}], ['5a', '5b', {threshold: 0.05, checkerboard: false}],
    ['8a', '5b', {threshold: 0.05, checkerboard: false}], ['4a', '4b', {checkerboard: false}],
    ['2a', '2b', {threshold: 0}], ['6a', '6b', {threshold: 0}], ['1a', '1b', {threshold: 0.2}],
    ['1a', '1b', {threshold: 0.05, windowSize: 300}], ['1a', '1b', {threshold: 0.05, windowSize: 16}],
    ['3a', '3b', {threshold: 0.05, windowSize: 64}],
];
for (const [a, b, options] of cases) {
    const x = readPNG(`${dir}/${a}.png`), y = readPNG(`${dir}/${b}.png`);
    console.log(a, b, JSON.stringify(options), match(x.data, y.data, null, x.width, x.height, options));
}

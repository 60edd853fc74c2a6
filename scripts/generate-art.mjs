// `npm run art`: regenerates the six quiz background templates
// (src/client/public/images/quiz-templates/quiz{1..6}-template.png, 1280x720).
//
// Plain Node 20 ESM with built-in modules only: a minimal PNG encoder
// (signature, IHDR, IDAT via zlib.deflateSync, IEND, CRC32) and a handful of
// procedural patterns. Deterministic: the same bytes on every run (the bokeh
// pattern uses a seeded PRNG, never Math.random).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const WIDTH = 1280;
const HEIGHT = 720;
const OUT_DIR = fileURLToPath(new URL('../src/client/public/images/quiz-templates/', import.meta.url));

// ---------------------------------------------------------------------------
// Minimal PNG encoder (8-bit RGB, no interlace, filter "sub" on every row)
// ---------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** rgb: Uint8Array of width*height*3 bytes, row-major. */
function encodePng(width, height, rgb) {
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const src = y * stride;
    const dst = y * (stride + 1);
    raw[dst] = 1; // filter type 1 (sub): smooth gradients become runs of tiny deltas
    for (let i = 0; i < stride; i++) {
      const left = i >= 3 ? rgb[src + i - 3] : 0;
      raw[dst + 1 + i] = (rgb[src + i] - left) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour RGB
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method 0
  ihdr[12] = 0; // no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------------------
// Small colour / maths helpers
// ---------------------------------------------------------------------------

const hex = (s) => [parseInt(s.slice(1, 3), 16), parseInt(s.slice(3, 5), 16), parseInt(s.slice(5, 7), 16)];
const clamp01 = (t) => (t < 0 ? 0 : t > 1 ? 1 : t);
const smoothstep = (a, b, t) => {
  const x = clamp01((t - a) / (b - a));
  return x * x * (3 - 2 * x);
};
const mix = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
/** Anti-aliased coverage of a shape from its signed distance (negative = inside), in pixels. */
const cover = (sd) => clamp01(0.5 - sd);
const fract = (x) => x - Math.floor(x);

/** Three-stop gradient along t in [0, 1]. */
function gradient3(a, b, c, t) {
  return t < 0.5 ? mix(a, b, t * 2) : mix(b, c, (t - 0.5) * 2);
}

/** Distance of (x, y) from the image centre, normalised so the corners are ~1. */
function edgeFactor(x, y) {
  const dx = (x - WIDTH / 2) / (WIDTH / 2);
  const dy = (y - HEIGHT / 2) / (HEIGHT / 2);
  return clamp01(Math.sqrt(dx * dx + dy * dy) / Math.SQRT2);
}

/** mulberry32: tiny seeded PRNG so the output is byte-for-byte reproducible. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function render(shade) {
  const rgb = new Uint8Array(WIDTH * HEIGHT * 3);
  let i = 0;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const c = shade(x + 0.5, y + 0.5);
      rgb[i++] = Math.round(c[0]);
      rgb[i++] = Math.round(c[1]);
      rgb[i++] = Math.round(c[2]);
    }
  }
  return rgb;
}

// ---------------------------------------------------------------------------
// The six templates
// ---------------------------------------------------------------------------

// 1. Indigo halftone dots: dots grow towards the corners, the centre stays calm.
function dots() {
  const a = hex('#eef2ff');
  const b = hex('#e0e7ff');
  const c = hex('#ede9fe');
  const dot = hex('#a5b4fc');
  const spacing = 40;
  return (x, y) => {
    let col = gradient3(a, b, c, clamp01((x / WIDTH) * 0.6 + (y / HEIGHT) * 0.4));
    const row = Math.floor(y / spacing);
    const ox = row % 2 ? spacing / 2 : 0; // staggered rows
    const cx = Math.floor((x - ox) / spacing) * spacing + spacing / 2 + ox;
    const cy = row * spacing + spacing / 2;
    const r = 1.5 + 7.5 * smoothstep(0.25, 1, edgeFactor(cx, cy));
    const d = Math.hypot(x - cx, y - cy) - r;
    col = mix(col, dot, cover(d) * 0.55);
    return col;
  };
}

// 2. Amber waves: layered soft waves rising from the bottom and hanging from the top.
function waves() {
  const top = hex('#fffbeb');
  const bottom = hex('#fef3c7');
  const layers = [
    { base: 520, amp: 26, len: 520, phase: 0.3, color: hex('#fde68a'), alpha: 0.45 },
    { base: 580, amp: 22, len: 410, phase: 1.7, color: hex('#fcd34d'), alpha: 0.35 },
    { base: 640, amp: 18, len: 330, phase: 3.1, color: hex('#fbbf24'), alpha: 0.28 },
    { base: 690, amp: 12, len: 260, phase: 4.4, color: hex('#f59e0b'), alpha: 0.22 },
  ];
  const topLayers = [
    { base: 90, amp: 22, len: 600, phase: 2.2, color: hex('#fde68a'), alpha: 0.4 },
    { base: 40, amp: 16, len: 380, phase: 0.9, color: hex('#fcd34d'), alpha: 0.28 },
  ];
  const wave = (l, x) =>
    l.base +
    l.amp * Math.sin((x / l.len) * 2 * Math.PI + l.phase) +
    l.amp * 0.35 * Math.sin((x / l.len) * 4.7 * Math.PI + l.phase * 2);
  return (x, y) => {
    let col = mix(top, bottom, y / HEIGHT);
    for (const l of layers) col = mix(col, l.color, cover(wave(l, x) - y) * l.alpha);
    for (const l of topLayers) col = mix(col, l.color, cover(y - wave(l, x)) * l.alpha);
    return col;
  };
}

// 3. Teal diagonal stripes, stronger at the edges than behind the card.
function stripes() {
  const a = hex('#f0fdfa');
  const b = hex('#ccfbf1');
  const stripe = hex('#5eead4');
  const period = 56;
  const width = 22;
  return (x, y) => {
    let col = mix(a, b, clamp01((x / WIDTH) * 0.7 + (1 - y / HEIGHT) * 0.3));
    const u = (x + y) / Math.SQRT2;
    const m = fract(u / period) * period; // 0..period across one stripe+gap
    const d = Math.min(Math.abs(m - width / 2), Math.abs(m - period - width / 2)) - width / 2;
    const alpha = 0.1 + 0.16 * smoothstep(0.2, 0.9, edgeFactor(x, y));
    col = mix(col, stripe, cover(d) * alpha);
    return col;
  };
}

// 4. Honeycomb: hexagon outlines with a few tinted cells (chosen by a hash, not at random).
function hexagons() {
  const a = hex('#f8fafc');
  const b = hex('#e0e7ff');
  const line = hex('#818cf8');
  const fills = [hex('#c7d2fe'), hex('#fde68a'), hex('#99f6e4')];
  const size = 46; // px per unit of hex space
  const rx = 1;
  const ry = Math.sqrt(3);
  const mod = (v, m) => v - m * Math.floor(v / m);
  return (x, y) => {
    let col = mix(a, b, clamp01((x / WIDTH) * 0.5 + (y / HEIGHT) * 0.5));
    const u = x / size;
    const v = y / size;
    const ax = mod(u, rx) - rx / 2;
    const ay = mod(v, ry) - ry / 2;
    const bx = mod(u - rx / 2, rx) - rx / 2;
    const by = mod(v - ry / 2, ry) - ry / 2;
    const useA = ax * ax + ay * ay < bx * bx + by * by;
    const gx = useA ? ax : bx;
    const gy = useA ? ay : by;
    // Hexagon "radius" in this grid is 0.5 at the edges.
    const px = Math.abs(gx);
    const py = Math.abs(gy);
    const hd = Math.max(px * 0.5 + py * (Math.sqrt(3) / 2), px);
    const distToEdgePx = (0.5 - hd) * size;
    const cellX = Math.round(u - gx);
    const cellY = Math.round((v - gy) * 100);
    const h = fract(Math.sin(cellX * 127.1 + cellY * 3.117) * 43758.5453);
    const ef = edgeFactor(x, y);
    if (h < 0.2) {
      const fill = fills[Math.floor(h * 15) % 3];
      col = mix(col, fill, cover(5 - distToEdgePx) * 0.5 * (0.4 + 0.6 * ef)); // inset fill
    }
    const lineAlpha = 0.16 + 0.24 * smoothstep(0.2, 0.9, ef);
    col = mix(col, line, cover(Math.abs(distToEdgePx) - 1) * lineAlpha);
    return col;
  };
}

// 5. Bokeh: soft overlapping circles on a peach-to-lavender gradient (seeded PRNG).
function bokeh() {
  const a = hex('#fff7ed');
  const b = hex('#fdf2f8');
  const c = hex('#eef2ff');
  const palette = [hex('#c7d2fe'), hex('#fde68a'), hex('#99f6e4'), hex('#fbcfe8'), hex('#ddd6fe')];
  const rand = mulberry32(20240611);
  const circles = [];
  for (let i = 0; i < 34; i++) {
    circles.push({
      x: rand() * WIDTH,
      y: rand() * HEIGHT,
      r: 30 + rand() * 120,
      color: palette[Math.floor(rand() * palette.length)],
      alpha: 0.22 + rand() * 0.25,
      blur: 2 + rand() * 6,
    });
  }
  return (x, y) => {
    let col = gradient3(a, b, c, clamp01((x / WIDTH) * 0.75 + (y / HEIGHT) * 0.25));
    for (const k of circles) {
      const d = Math.hypot(x - k.x, y - k.y) - k.r;
      if (d > k.blur) continue;
      const inside = 1 - smoothstep(-k.blur, k.blur, d);
      const rim = 0.35 * (1 - smoothstep(0, 3, Math.abs(d + 2))); // faint brighter rim
      col = mix(col, k.color, clamp01(inside * k.alpha + rim * k.alpha));
    }
    return col;
  };
}

// 6. Grid paper: minor and major lines, a margin line and a gentle vignette.
function gridPaper() {
  const paper = hex('#fefdf8');
  const shade = hex('#f1f5f9');
  const minor = hex('#bae6fd');
  const major = hex('#7dd3fc');
  const margin = hex('#fda4af');
  const step = 24;
  const majorStep = step * 5;
  const lineDist = (v, s) => {
    const m = fract(v / s) * s;
    return Math.min(m, s - m);
  };
  return (x, y) => {
    let col = mix(paper, shade, smoothstep(0.3, 1, edgeFactor(x, y)));
    const gx = x - 8;
    const gy = y - 12;
    const dMinor = Math.min(lineDist(gx, step), lineDist(gy, step));
    const dMajor = Math.min(lineDist(gx, majorStep), lineDist(gy, majorStep));
    col = mix(col, minor, cover(dMinor - 0.5) * 0.55);
    col = mix(col, major, cover(dMajor - 0.75) * 0.55);
    col = mix(col, margin, cover(Math.abs(x - 128) - 1) * 0.6);
    col = mix(col, margin, cover(Math.abs(x - 134) - 0.5) * 0.35);
    return col;
  };
}

const templates = [dots, waves, stripes, hexagons, bokeh, gridPaper];

mkdirSync(OUT_DIR, { recursive: true });
templates.forEach((make, index) => {
  const png = encodePng(WIDTH, HEIGHT, render(make()));
  const file = `${OUT_DIR}quiz${index + 1}-template.png`;
  writeFileSync(file, png);
  console.log(`${file.replace(process.cwd() + '/', '')}  ${make.name}  ${(png.length / 1024).toFixed(1)} KB`);
});

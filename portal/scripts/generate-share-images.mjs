#!/usr/bin/env node
// Writes the 5 promotional images of share-and-earn (docs/product/constants.md#market-prices-and-limits) into public/share/ as SVG
// (1080 x 1080, Instagram's square; X shows it as is). Deterministic: run again after editing
// and commit what it wrote. `node portal/scripts/generate-share-images.mjs`
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'share');
const SIZE = 1080;

const IMAGES = [
  {
    file: 'share-1.svg',
    from: '#0b1220',
    to: '#0e7490',
    accent: '#38bdf8',
    title: ['Secure connections', 'for everyone'],
    line: 'Private, censorship-resistant access',
    motif: 'shield',
  },
  {
    file: 'share-2.svg',
    from: '#111827',
    to: '#4c1d95',
    accent: '#a78bfa',
    title: ['Run a node,', 'earn SSL'],
    line: 'Operators earn from every client they serve',
    motif: 'nodes',
  },
  {
    file: 'share-3.svg',
    from: '#052e16',
    to: '#065f46',
    accent: '#34d399',
    title: ['Censorship-resistant', 'network access'],
    line: 'Independent servers in many countries',
    motif: 'globe',
  },
  {
    file: 'share-4.svg',
    from: '#1e1b4b',
    to: '#1d4ed8',
    accent: '#93c5fd',
    title: ['Connect with', 'one QR code'],
    line: 'Scan, import, connect: any VLESS client',
    motif: 'qr',
  },
  {
    file: 'share-5.svg',
    from: '#3f0d12',
    to: '#9a3412',
    accent: '#fdba74',
    title: ['No logs.', 'Your traffic is yours.'],
    line: 'We keep no browsing history and no destinations',
    motif: 'lock',
  },
];

function motif(kind, accent) {
  const c = SIZE / 2;
  switch (kind) {
    case 'shield':
      return `<path d="M${c} 170 L${c + 150} 230 V360 C${c + 150} 470 ${c + 70} 540 ${c} 580 C${c - 70} 540 ${c - 150} 470 ${c - 150} 360 V230 Z" fill="none" stroke="${accent}" stroke-width="18" stroke-linejoin="round"/>
  <path d="M${c - 60} 380 L${c - 15} 425 L${c + 70} 330" fill="none" stroke="${accent}" stroke-width="20" stroke-linecap="round" stroke-linejoin="round"/>`;
    case 'nodes': {
      const points = [
        [c, 250],
        [c - 170, 380],
        [c + 170, 380],
        [c - 90, 540],
        [c + 90, 540],
      ];
      const lines = [];
      for (let i = 0; i < points.length; i += 1)
        for (let j = i + 1; j < points.length; j += 1)
          lines.push(
            `<line x1="${points[i][0]}" y1="${points[i][1]}" x2="${points[j][0]}" y2="${points[j][1]}" stroke="${accent}" stroke-opacity="0.45" stroke-width="6"/>`,
          );
      const dots = points.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="34" fill="${accent}"/>`);
      return [...lines, ...dots].join('\n  ');
    }
    case 'globe':
      return `<circle cx="${c}" cy="390" r="200" fill="none" stroke="${accent}" stroke-width="14"/>
  <ellipse cx="${c}" cy="390" rx="85" ry="200" fill="none" stroke="${accent}" stroke-width="10"/>
  <line x1="${c - 200}" y1="390" x2="${c + 200}" y2="390" stroke="${accent}" stroke-width="10"/>
  <path d="M${c - 175} 290 Q${c} 330 ${c + 175} 290 M${c - 175} 490 Q${c} 450 ${c + 175} 490" fill="none" stroke="${accent}" stroke-width="10"/>`;
    case 'qr': {
      const cells = [];
      const n = 11;
      const cell = 34;
      const x0 = c - (n * cell) / 2;
      const y0 = 200;
      for (let y = 0; y < n; y += 1)
        for (let x = 0; x < n; x += 1) {
          const finder = (x < 3 && y < 3) || (x > 7 && y < 3) || (x < 3 && y > 7);
          const on = finder || (x * 7 + y * 13 + x * y) % 3 === 0;
          if (on)
            cells.push(
              `<rect x="${x0 + x * cell}" y="${y0 + y * cell}" width="${cell - 4}" height="${cell - 4}" rx="4" fill="${accent}"/>`,
            );
        }
      return cells.join('\n  ');
    }
    case 'lock':
      return `<rect x="${c - 150}" y="330" width="300" height="240" rx="36" fill="none" stroke="${accent}" stroke-width="18"/>
  <path d="M${c - 95} 330 V260 C${c - 95} 150 ${c + 95} 150 ${c + 95} 260 V330" fill="none" stroke="${accent}" stroke-width="18"/>
  <circle cx="${c}" cy="440" r="30" fill="${accent}"/>
  <rect x="${c - 10}" y="450" width="20" height="70" rx="8" fill="${accent}"/>`;
    default:
      throw new Error(`unknown motif ${kind}`);
  }
}

function escape(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function svg(image, index) {
  const titles = image.title
    .map(
      (line, i) =>
        `<text x="${SIZE / 2}" y="${720 + i * 82}" text-anchor="middle" font-size="72" font-weight="700" fill="#f8fafc">${escape(line)}</text>`,
    )
    .join('\n  ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}" role="img" aria-label="${escape(image.title.join(' '))}">
  <defs>
    <linearGradient id="bg${index}" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${image.from}"/>
      <stop offset="1" stop-color="${image.to}"/>
    </linearGradient>
  </defs>
  <rect width="${SIZE}" height="${SIZE}" fill="url(#bg${index})"/>
  <g font-family="Inter, 'Segoe UI', Helvetica, Arial, sans-serif">
  ${motif(image.motif, image.accent)}
  ${titles}
  <text x="${SIZE / 2}" y="${720 + image.title.length * 82 + 20}" text-anchor="middle" font-size="34" fill="#e2e8f0">${escape(image.line)}</text>
  <text x="${SIZE / 2}" y="1010" text-anchor="middle" font-size="30" font-weight="600" letter-spacing="6" fill="${image.accent}">SECURE CONNECTION NETWORK</text>
  </g>
</svg>
`;
}

mkdirSync(OUT, { recursive: true });
IMAGES.forEach((image, index) => {
  writeFileSync(join(OUT, image.file), svg(image, index));
});
console.log(`wrote ${IMAGES.length} images to ${OUT}`);

// The QR images of a purchase answer: what one PNG data URL costs with the control
// plane's encoder (control-plane/src/common/qr) against the `qrcode` library's public API, on
// the texts a purchase draws: a subscription URL (the group code) and VLESS links of the lengths
// the market hands out, at level L and 180 px as the answer uses.
//
// Ways of drawing, each checked to give the same data URL as the encoder where it claims to:
// - encoder: `qrDataUrl` (what the purchase answer calls);
// - create + mask choice: public `QRCode.create` with mask 0, our `applyBestMask` and PNG writer;
// - create: public `QRCode.create` (the library picks the mask) and our PNG writer;
// - toDataURL: the library end to end (its own RGBA PNG: not the same bytes, for scale only).
// Rounds alternate the ways so a change in the machine's speed touches all of them; the figure
// is the median round, in us of CPU per image (process.cpuUsage, user + system).
//
// Environment knobs: QR_ROUNDS (7), QR_IMAGES (400 per round and text). Needs `npm run build`.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const QRCode = require('qrcode');
const { qrDataUrl, renderPng } = require('../../control-plane/dist/common/qr/qr-code.js');
const { applyBestMask } = require('../../control-plane/dist/common/qr/qr-mask.js');
const { SUBSCRIPTION_QR_SIZE } = require('@scn/proto');

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const ROUNDS = env('QR_ROUNDS', 7);
const IMAGES = env('QR_IMAGES', 400);

const UUID = '3f2b8c1e-1234-4abc-8def-0123456789ab';
const TEXTS = [
  // 256-bit secret, base64url: 43 characters.
  ['subscription URL (group code)', `https://scn.example.com/sub/${'Ab3_'.repeat(10)}Ab3`],
  // What bench/purchase's servers hand out (security none, tcp).
  [
    'link, plain tcp (bench/purchase)',
    `vless://${UUID}@node123.bench.example:10123?security=none&type=tcp#Bench%20node%20123`,
  ],
  [
    'link, reality',
    `vless://${UUID}@node.example.net:443?encryption=none&security=reality&sni=www.example.com&fp=chrome&pbk=Xs7d8fK2lq9Zp0aQw3E4rT5yU6iO7pA8sD9fG0hJ1kL&sid=6ba85179&flow=xtls-rprx-vision&type=tcp#Node%201`,
  ],
  [
    'link, xhttp over tls',
    `vless://${UUID}@cdn.example.net:443?encryption=none&security=tls&sni=cdn.example.net&alpn=h2%2Chttp%2F1.1&fp=chrome&type=xhttp&host=cdn.example.net&path=%2Fapi%2Fv1%2Fstream%2F7f3a9c&mode=auto#Frankfurt%20%E2%80%94%20CDN%20edge%2012`,
  ],
];

const pngUrl = (modules) =>
  `data:image/png;base64,${renderPng(modules, SUBSCRIPTION_QR_SIZE).toString('base64')}`;
const segments = (text) => [{ data: Buffer.from(text, 'utf8'), mode: 'byte' }];

const WAYS = [
  ['encoder', (text) => qrDataUrl(text).qrCode, true],
  [
    'create + mask choice',
    (text) => {
      const qr = QRCode.create(segments(text), { errorCorrectionLevel: 'L', maskPattern: 0 });
      applyBestMask(qr);
      return pngUrl(qr.modules);
    },
    true,
  ],
  [
    'create',
    (text) => pngUrl(QRCode.create(segments(text), { errorCorrectionLevel: 'L' }).modules),
    true,
  ],
  [
    'toDataURL',
    (text) =>
      QRCode.toDataURL(segments(text), {
        errorCorrectionLevel: 'L',
        width: SUBSCRIPTION_QR_SIZE,
        margin: 4,
      }),
    false,
  ],
];

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(
  `QR data URLs, level L, ${SUBSCRIPTION_QR_SIZE} px: ${ROUNDS} rounds of ${IMAGES} images`,
);
for (const [label, text] of TEXTS) {
  const expected = qrDataUrl(text).qrCode;
  const { version } = QRCode.create(segments(text), { errorCorrectionLevel: 'L' });
  const samples = new Map(WAYS.map(([name]) => [name, []]));
  for (const [name, draw, same] of WAYS) {
    const url = await draw(text);
    if (same && url !== expected) throw new Error(`${name} draws another image for ${label}`);
    if (!url.startsWith('data:image/png;base64,')) throw new Error(`${name}: not a PNG data URL`);
    for (let i = 0; i < IMAGES; i += 1) await draw(text); // warm-up
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, draw] of WAYS) {
      const start = cpuUs();
      for (let i = 0; i < IMAGES; i += 1) await draw(text);
      samples.get(name).push((cpuUs() - start) / IMAGES);
    }
  }
  const base = median(samples.get('encoder'));
  console.log(`\n${label}: ${text.length} bytes, version ${version}`);
  for (const [name, , same] of WAYS) {
    const us = median(samples.get(name));
    const spread = samples.get(name).map((v) => v.toFixed(0));
    console.log(
      `  ${name.padEnd(22)} ${us.toFixed(1).padStart(7)} us/image  x${(us / base).toFixed(1).padEnd(5)}` +
        ` ${same ? 'same data URL' : 'other PNG   '}  rounds ${spread.join(' ')}`,
    );
  }
}

// Renders the app icons (public/icons/*.png) from the logo; run once after changing the mark:
//   node scripts/make-icons.mjs
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'public', 'icons');
mkdirSync(out, { recursive: true });

const PRIMARY = '#4f46e5';

/** The mark on a 512 canvas; `inset` shrinks it into the maskable safe zone (80 %). */
function mark({ round, inset }) {
  const c = 256;
  const scale = inset;
  const ring = 136 * scale;
  const dot = 48 * scale;
  const stroke = 48 * scale;
  const dots = [-90, 30, 150].map((deg) => {
    const a = (deg * Math.PI) / 180;
    return `<circle cx="${c + ring * Math.cos(a)}" cy="${c + ring * Math.sin(a)}" r="${dot}" fill="#fff"/>`;
  });
  const background = round
    ? `<circle cx="${c}" cy="${c}" r="240" fill="${PRIMARY}"/>`
    : `<rect width="512" height="512" fill="${PRIMARY}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
${background}
<circle cx="${c}" cy="${c}" r="${ring}" fill="none" stroke="#fff" stroke-width="${stroke}"/>
${dots.join('\n')}
</svg>`;
}

const any = Buffer.from(mark({ round: true, inset: 1 }));
const maskable = Buffer.from(mark({ round: false, inset: 0.78 }));
const touch = Buffer.from(mark({ round: false, inset: 0.9 }));

await sharp(any).resize(192, 192).png().toFile(join(out, 'icon-192.png'));
await sharp(any).resize(512, 512).png().toFile(join(out, 'icon-512.png'));
await sharp(maskable).resize(512, 512).png().toFile(join(out, 'icon-maskable-512.png'));
await sharp(touch).resize(180, 180).png().toFile(join(out, 'apple-touch-icon.png'));
writeFileSync(join(root, 'public', 'favicon.svg'), mark({ round: true, inset: 1 }));
process.stdout.write(`icons written to ${out}\n`);

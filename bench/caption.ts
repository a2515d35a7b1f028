/** Captions for the evals' contact sheets. */

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * One line of text as an SVG for sharp to composite: light on the sheet's dark ground, or with
 * `band`, on a half-dark band laid over a photo.
 */
export function caption(text: string, width: number, height: number, options: { fontSize?: number; colour?: string; band?: boolean } = {}): Buffer {
  const { fontSize = 14, colour = '#eee', band = false } = options;
  // The baseline that centres a line of sans-serif capitals and lower case in the height.
  const baseline = Math.round(height / 2 + fontSize * 0.35);
  const shade = band ? '<rect width="100%" height="100%" fill="black" fill-opacity="0.6"/>' : '';
  return Buffer.from(`<svg width="${width}" height="${height}">${shade}<text x="5" y="${baseline}" font-family="sans-serif" font-size="${fontSize}" fill="${colour}">${escapeXml(text)}</text></svg>`);
}

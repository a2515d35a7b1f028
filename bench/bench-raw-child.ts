/**
 * Child process of the `raw` benchmark: decodes one RAW file the way the service does and
 * writes the 16-bit RGB samples (little-endian, interleaved) to a file, so its wall time
 * and peak RSS include Node and WebAssembly start-up, as `dcraw_emu`'s include its own.
 */
import fs from 'node:fs';
import { decodeImage } from '../src/imaging/decode.js';

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: bench-raw-child.js INPUT.dng OUTPUT.bin');
const { image } = await decodeImage(fs.readFileSync(input), { fileName: input });
fs.writeFileSync(output, new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength));
process.stdout.write(`${image.width} ${image.height}\n`);

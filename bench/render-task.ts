/**
 * The bench's imaging thread task (bench-render.ts runs it on a Piscina pool, as the
 * service runs its own tasks): one automatic edit from JPEG bytes to JPEG bytes, with the
 * options asked for, and the stage times measured in this thread.
 */
import { helpWithBands } from '../src/imaging/bands.js';
import { developFinished } from '../src/imaging/develop.js';
import type { EstimateOptions } from '../src/imaging/estimate.js';

helpWithBands();

export default async function developTask(input: { bytes: Uint8Array; options: EstimateOptions }): Promise<number> {
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  const developed = await developFinished([{ fileName: 'photo.jpg', bytes, rotate: 0 }], { options: input.options });
  return developed.bytes.length;
}

/** A Buffer view of bytes that crossed a thread boundary as a Uint8Array. */
export const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The bytes as a Uint8Array that owns its whole ArrayBuffer, to be put in a transfer list
 * (moved to the other thread, not copied). A view into a larger, pooled buffer is copied first.
 */
export function ownBytes(buffer: Buffer): Uint8Array {
  const own = buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength ? buffer : Buffer.from(buffer);
  return new Uint8Array(own.buffer, 0, own.byteLength);
}

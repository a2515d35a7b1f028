/** A Buffer view of bytes that crossed a thread boundary as a Uint8Array. */
export const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The bytes as a Uint8Array that owns its whole ArrayBuffer, to be put in a transfer list
 * (moved to the other thread, not copied). A view into a larger, pooled buffer is copied first.
 */
export function ownBytes(buffer: Buffer): Uint8Array {
  if (buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength) return new Uint8Array(buffer.buffer, 0, buffer.byteLength);
  // Not Buffer.from: small Buffers come from a shared pool, which must not be moved away.
  return new Uint8Array(buffer);
}

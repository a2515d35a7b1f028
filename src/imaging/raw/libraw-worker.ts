/**
 * Worker-thread side of the RAW decoder: runs LibRaw (the WebAssembly build shipped by the
 * npm package libraw-wasm) off the main thread, one job at a time. The package wraps the
 * module in a browser Web Worker; its Emscripten module itself runs in Node when handed
 * the .wasm bytes, which is all this file does.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import type { LibRawInfo, WorkerReply, WorkerRequest } from './libraw-protocol.js';

interface LibRawInstance {
  open(bytes: Uint8Array, settings: Record<string, unknown>): void;
  metadata(full: boolean): RawMetadata;
  imageData(): { width: number; height: number; colors: number; bits: number; data: Uint16Array };
  delete(): void;
}
interface LibRawModule {
  LibRaw: new () => LibRawInstance;
}

/** The parts of the wrapper's metadata(true) we read (names as LibRaw's imgdata). */
interface RawMetadata {
  width: number;
  height: number;
  flip: number;
  camera_make: string;
  camera_model: string;
  iso_speed: number;
  shutter: number;
  aperture: number;
  focal_len: number;
  timestamp: number;
  lens?: { Lens?: string };
  colors: number;
  color_data: { black: number; maximum: number; raw_bps: number; cam_mul: number[]; pre_mul: number[]; rgb_cam: number[][] };
}

const require = createRequire(import.meta.url);
const factory = (await import(pathToFileURL(require.resolve('libraw-wasm/dist/libraw.js')).href)) as {
  default: (options: Record<string, unknown>) => Promise<LibRawModule>;
};
const libraw = await factory.default({
  wasmBinary: fs.readFileSync(require.resolve('libraw-wasm/dist/libraw.wasm')),
  print: () => {},
  printErr: () => {},
});

function infoOf(meta: RawMetadata): LibRawInfo {
  const c = meta.color_data;
  return {
    make: meta.camera_make,
    model: meta.camera_model,
    lens: meta.lens?.Lens ?? '',
    iso: meta.iso_speed,
    shutter: meta.shutter,
    aperture: meta.aperture,
    focalLength: meta.focal_len,
    timestamp: meta.timestamp,
    width: meta.width,
    height: meta.height,
    flip: meta.flip,
    colors: meta.colors,
    bitsPerSample: c.raw_bps,
    blackLevel: c.black,
    whiteLevel: c.maximum,
    cameraMultipliers: c.cam_mul.slice(0, 4),
    daylightMultipliers: c.pre_mul.slice(0, 4),
    rgbCam: c.rgb_cam.map((row) => row.slice(0, 4)),
  };
}

function run(request: WorkerRequest): WorkerReply {
  let raw: LibRawInstance | null = new libraw.LibRaw();
  let stage = 'open';
  try {
    raw.open(request.bytes, request.settings);
    const meta = raw.metadata(true);
    if (request.kind === 'identify') return { id: request.id, ok: true, info: infoOf(meta) };
    // Half-size skips demosaicing and quarters the work; worth it when the caller wants at most half the sensor size.
    if (request.maxLongEdge !== undefined && request.maxLongEdge * 2 <= Math.max(meta.width, meta.height)) {
      raw.delete();
      raw = new libraw.LibRaw();
      raw.open(request.bytes, { ...request.settings, halfSize: true });
    }
    stage = 'process';
    const image = raw.imageData();
    if (image.colors !== 3 || image.bits !== 16) throw new Error(`LibRaw returned ${image.colors} colours at ${image.bits} bits, expected 3 at 16`);
    return { id: request.id, ok: true, info: infoOf(meta), image: { width: image.width, height: image.height, data: image.data } };
  } catch (err) {
    // Emscripten surfaces LibRaw's C++ exceptions as opaque objects; say which step failed instead.
    const detail = err instanceof Error ? err.message : stage === 'open' ? 'unsupported camera, not a RAW file, or corrupt data' : 'corrupt or truncated sensor data';
    return { id: request.id, ok: false, stage, error: detail };
  } finally {
    raw?.delete();
  }
}

parentPort!.on('message', (request: WorkerRequest) => {
  const reply = run(request);
  parentPort!.postMessage(reply, reply.ok && reply.image ? [reply.image.data.buffer as ArrayBuffer] : []);
});

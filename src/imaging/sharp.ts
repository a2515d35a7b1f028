/**
 * sharp, loaded through its CommonJS entry: the one place the project imports it. The ES
 * module entry cost a fresh process 110-155 ms CPU to load, the CommonJS one 50-60 ms
 * (Node 20, this machine), which every CLI run, bench child and imaging thread pays.
 */
import { createRequire } from 'node:module';
import type SharpModule from 'sharp';

export type { Metadata, OverlayOptions, Sharp } from 'sharp';

const sharp: typeof SharpModule = createRequire(import.meta.url)('sharp');
export default sharp;

/** The imaging Style a profile biases estimates with (profiles.style). */
import { type Static, Type } from 'typebox';
import { neutralStyle, type Style } from '../../imaging/settings.js';
import { objectRecord } from './stored-record.js';

const Bias = Type.Optional(Type.Number());

/** A style as stored: its name and the biases it sets; a bias it leaves out is none (a hand-written preset lists only what it changes). */
const StoredStyle = Type.Object(
  {
    name: Type.String(),
    exposure: Bias,
    contrast: Bias,
    highlights: Bias,
    shadows: Bias,
    whites: Bias,
    blacks: Bias,
    warmth: Bias,
    tint: Bias,
    vibrance: Bias,
    saturation: Bias,
    clarity: Bias,
  },
  { additionalProperties: false },
);
export type StoredStyle = Static<typeof StoredStyle>;

export const styleRecord = objectRecord({ name: 'profile style', version: 1, schema: StoredStyle });

/** The whole Style the engine takes: the stored biases, none where the record sets none. */
export function fullStyle(style: StoredStyle): Style {
  return { ...neutralStyle(style.name), ...style };
}

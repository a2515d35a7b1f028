/**
 * The optional model path: when the operator configures an OpenAI-compatible endpoint,
 * an instruction goes to its /chat/completions under a strict JSON schema of CopilotDelta
 * (structured outputs). The answer is validated against the same schema and the delta's
 * ranges; on any failure — timeout, HTTP error, refusal, invalid JSON or schema, or a
 * model that does not understand — the built-in engine answers instead.
 */
import { Ajv } from 'ajv';
import { ADJUST_KEYS, AUTO_CORRECTIONS, checkDelta, describeDelta, interpretInstruction, QUARTER_TURNS, SKY_TEMPLATES, UNDERSTOOD, type InstructionContext, type Interpretation } from './instructions/index.js';
import { SLIDER_TARGETS } from './instructions/vocabulary.js';

export interface ModelConfig {
  /** e.g. https://api.openai.com/v1 or http://localhost:11434/v1; /chat/completions is appended. */
  baseUrl: string;
  /** Sent as a Bearer token when set. */
  apiKey?: string | null;
  model: string;
  /** Whole request, milliseconds; 5000 by default. */
  timeoutMs?: number;
}

export type ModelInterpretation = Interpretation & ({ source: 'model' } | { source: 'built-in'; fallback: string });

const DEFAULT_TIMEOUT_MS = 5000;

const nullableNumber = { type: ['number', 'null'] };
const object = (properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties });

/**
 * The answer's JSON schema, within what strict structured outputs accept: every property
 * required, no additional ones, null for "no change". Ops mirror CopilotOp one to one.
 */
export const DELTA_SCHEMA = object({
  kind: { type: 'string', enum: ['edit', 'unrealistic', 'not_understood'] },
  reason: { type: ['string', 'null'], description: 'why, when kind is not edit' },
  adjust: object(Object.fromEntries(ADJUST_KEYS.map((k) => [k, nullableNumber]))),
  ops: {
    type: 'array',
    items: {
      anyOf: [
        object({ crop: { anyOf: [{ type: 'string', enum: ['reset'] }, object({ aspect: { type: 'string', description: 'W:H, e.g. 4:5' } }), object({ scale: { type: 'number', description: 'relative size, 0.9 = 10 % tighter' } })] } }),
        object({ rotate: { type: 'integer', enum: [...QUARTER_TURNS], description: 'clockwise quarter turn' } }),
        object({ auto: { type: 'string', enum: [...AUTO_CORRECTIONS] } }),
        object({ sky: { anyOf: [{ type: 'string', enum: ['remove'] }, object({ template: { type: ['string', 'null'], enum: [...SKY_TEMPLATES, null] }, strength: { type: 'number', description: 'change of blend strength, -1..1' } })] } }),
      ],
    },
  },
});

const validateAnswer = new Ajv({ strict: true, strictTypes: false }).compile(DELTA_SCHEMA);

interface ModelAnswer {
  kind: 'edit' | 'unrealistic' | 'not_understood';
  reason: string | null;
  adjust: Record<string, number | null>;
  ops: unknown[];
}

function systemPrompt(): string {
  const steps = Object.entries(SLIDER_TARGETS)
    .filter(([, t]) => Object.keys(t.step).length === 1 && t.setTo === undefined)
    .map(([, t]) => Object.entries(t.step).map(([k, v]) => `${k} ${Math.abs(v)}`)[0])
    .join(', ');
  return [
    "You turn a photographer's editing instruction into changes of develop settings (like Lightroom), as JSON.",
    'adjust: changes ADDED to the current settings, null for no change. Units: exposure in EV (stops); temperature in kelvin (higher is warmer); tint -150..150 (positive is more magenta); straightenAngle in degrees, positive turns the picture clockwise; sharpening 0..150, noiseReduction, windowPull, smoothSkin 0..100; the rest -100..100.',
    `One ordinary step ("brighter", "more contrast"): ${steps}. "slightly" is 0.4 of a step, "a bit" 0.5, "a lot" 2.5; explicit amounts are taken as said ("+1 stop", "20 %" of a -100..100 slider is 20).`,
    'ops, in order: crop {aspect "W:H"} (largest window of that ratio), crop {scale} (0.9 = 10 % tighter, 1.1 looser), crop "reset"; rotate 90/180/270 (clockwise quarter turns); auto "straighten" (level the horizon) or "perspective" (fix converging verticals); sky {template, strength} switches to a template (null keeps the current one) and adds strength (-1..1; 1 for a full replacement, 0.4 for "bluer sky" with template "clear blue"), sky "remove" undoes sky replacement.',
    `Templates: ${SKY_TEMPLATES.join(', ')}.`,
    'kind "unrealistic" for what photo editing cannot do realistically: adding, removing or moving objects or people, changing the background, style transfer (painting, cartoon, anime), changing faces or bodies, weather or season. kind "not_understood" when the instruction is not about editing this photo. Otherwise kind "edit" with reason null.',
    `The engine understands: ${UNDERSTOOD.join('; ')}.`,
  ].join('\n');
}

/** The request body for an instruction. */
function modelRequest(text: string, context: InstructionContext, model: string): Record<string, unknown> {
  const { version: _version, ...settings } = context.settings;
  return {
    model,
    temperature: 0,
    messages: [
      { role: 'system', content: systemPrompt() },
      { role: 'user', content: JSON.stringify({ instruction: text, current_settings: settings }) },
    ],
    response_format: { type: 'json_schema', json_schema: { name: 'copilot_delta', strict: true, schema: DELTA_SCHEMA } },
  };
}

/** The model's answer as an Interpretation, or the reason it is not usable. */
function readAnswer(body: unknown): Interpretation | string {
  const message = (body as { choices?: { message?: { content?: unknown; refusal?: unknown } }[] } | null)?.choices?.[0]?.message;
  if (!message) return 'no choices[0].message in the answer';
  if (typeof message.refusal === 'string' && message.refusal) return `the model refused: ${message.refusal}`;
  if (typeof message.content !== 'string') return 'no message content';
  let answer: unknown;
  try {
    answer = JSON.parse(message.content);
  } catch {
    return 'the content is not JSON';
  }
  if (!validateAnswer(answer)) return `the answer does not match the schema: ${validateAnswer.errors?.[0]?.instancePath} ${validateAnswer.errors?.[0]?.message}`;
  const a = answer as unknown as ModelAnswer;
  if (a.kind === 'unrealistic') return { kind: 'unrealistic', reason: a.reason ?? 'not a realistic photo edit' };
  if (a.kind === 'not_understood') return 'the model did not understand';
  try {
    const adjust = Object.fromEntries(Object.entries(a.adjust).filter(([, v]) => v !== null && v !== 0));
    const delta = checkDelta({ adjust, ops: a.ops });
    if (delta.ops.length === 0 && Object.keys(delta.adjust).length === 0) return 'the model answered an empty edit';
    return { kind: 'edit', delta, summary: describeDelta(delta) };
  } catch (err) {
    return `the delta is out of range: ${(err as Error).message}`;
  }
}

function checkConfig(config: ModelConfig): void {
  if (typeof config !== 'object' || config === null) throw new Error(`Expected a model config {baseUrl, model, apiKey?, timeoutMs?} but received ${String(config)}`);
  if (typeof config.baseUrl !== 'string' || !/^https?:\/\//.test(config.baseUrl)) throw new Error(`Expected an http(s) URL for config.baseUrl but received ${JSON.stringify(config.baseUrl)}`);
  if (typeof config.model !== 'string' || config.model === '') throw new Error(`Expected a model name for config.model but received ${JSON.stringify(config.model)}`);
  if (config.timeoutMs !== undefined && !(Number.isFinite(config.timeoutMs) && config.timeoutMs > 0)) throw new Error(`Expected a positive number of milliseconds for config.timeoutMs but received ${config.timeoutMs}`);
}

/**
 * Interprets an instruction with the configured model, falling back to the built-in
 * engine. Never rejects for the model's sake; `source` and `fallback` say what happened.
 */
export async function interpretWithModel(text: string, context: InstructionContext, config: ModelConfig, fetchImpl: typeof fetch = fetch): Promise<ModelInterpretation> {
  checkConfig(config);
  const builtIn = interpretInstruction(text, context);
  const fallback = (reason: string): ModelInterpretation => ({ ...builtIn, source: 'built-in', fallback: reason });
  let body: unknown;
  try {
    const response = await fetchImpl(`${config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify(modelRequest(text, context, config.model)),
      signal: AbortSignal.timeout(config.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    if (!response.ok) return fallback(`HTTP ${response.status}`);
    body = await response.json();
  } catch (err) {
    return fallback((err as Error).name === 'TimeoutError' ? 'the model timed out' : `the request failed: ${(err as Error).message}`);
  }
  const read = readAnswer(body);
  return typeof read === 'string' ? fallback(read) : { ...read, source: 'model' };
}

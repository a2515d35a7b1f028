/**
 * Text → tokens → clauses. Numbers, ratios and words are read by one scanner; words are
 * then merged into the longest phrases the vocabulary knows ("a little bit", "black and
 * white"), so the grammar sees one entry list per phrase; clauses end at "and", "but",
 * commas and the like.
 */
import { LONGEST_PHRASE, lookup, type Entry } from './vocabulary.js';

export type Token = { kind: 'word'; text: string; entries: Entry[] | undefined } | { kind: 'number'; value: number; signed: boolean } | { kind: 'ratio'; aspect: string };

/** Unicode and symbols to plain words the scanner reads. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[\u2212\u2013\u2014]/g, '-')
    .replace(/\u00d7/g, 'x')
    .replace(/b&w|b\/w/g, ' monochrome ')
    .replace(/&/g, ' and ')
    .replace(/°/g, ' degrees ')
    .replace(/%/g, ' percent ')
    .replace(/([a-z])-(?=[a-z])/g, '$1 ');
}

const SCANNER = /(\d+(?:\.\d+)?)\s*[:x]\s*(\d+(?:\.\d+)?)(?![\d.])|([+-]?)(\d+(?:\.\d+)?|\.\d+)(?:\/(\d+(?:\.\d+)?))?|([a-z]+(?:'[a-z]+)?)|([,;.!?()])/g;

interface Raw {
  kind: 'word' | 'number' | 'ratio' | 'break';
  text: string;
  value?: number;
  signed?: boolean;
}

function scan(text: string): Raw[] {
  const out: Raw[] = [];
  for (const m of normalise(text).matchAll(SCANNER)) {
    if (m[1] !== undefined) out.push({ kind: 'ratio', text: `${Number(m[1])}:${Number(m[2])}` });
    else if (m[4] !== undefined) {
      const value = Number(m[4]) / (m[5] !== undefined ? Number(m[5]) : 1);
      out.push({ kind: 'number', text: m[0], value: m[3] === '-' ? -value : value, signed: m[3] !== '' });
    } else if (m[6] !== undefined) {
      // Possessives carry nothing: "the sky's colour".
      const word = m[6].endsWith("'s") && m[6] !== "it's" ? m[6].slice(0, -2) : m[6];
      out.push({ kind: 'word', text: word });
    } else out.push({ kind: 'break', text: m[0] });
  }
  return out;
}

/** Words merged into the longest known phrases; a clause break is a separator word. */
export function tokenise(text: string): Token[] {
  const raw = scan(text);
  const out: Token[] = [];
  for (let i = 0; i < raw.length; ) {
    const r = raw[i]!;
    if (r.kind === 'number') {
      out.push({ kind: 'number', value: r.value!, signed: r.signed! });
      i++;
    } else if (r.kind === 'ratio') {
      out.push({ kind: 'ratio', aspect: r.text });
      i++;
    } else if (r.kind === 'break') {
      out.push({ kind: 'word', text: r.text, entries: [{ kind: 'separator' }] });
      i++;
    } else {
      let matched = 1;
      let entries: Entry[] | undefined;
      for (let n = Math.min(LONGEST_PHRASE, raw.length - i); n >= 1 && entries === undefined; n--) {
        const words = raw.slice(i, i + n);
        if (words.some((w) => w.kind !== 'word')) continue;
        entries = lookup(words.map((w) => w.text).join(' '));
        if (entries) matched = n;
      }
      out.push({
        kind: 'word',
        text: raw
          .slice(i, i + matched)
          .map((w) => w.text)
          .join(' '),
        entries,
      });
      i += matched;
    }
  }
  return out;
}

const has = (t: Token, kinds: Entry['kind'][]) => t.kind === 'word' && t.entries?.some((e) => kinds.includes(e.kind)) === true;

/**
 * Clauses: runs of tokens between separators. A separator that also means something
 * ("without" = separator + not) starts the next clause with its other entries. A direction
 * after a clause already holding a direction and a target starts a new clause too: "more
 * contrast less saturation".
 */
export function splitClauses(tokens: Token[]): Token[][] {
  const clauses: Token[][] = [[]];
  let direction = false;
  let target = false;
  const start = (first: Token[]) => {
    clauses.push(first);
    direction = false;
    target = false;
  };
  for (const t of tokens) {
    if (t.kind === 'word' && has(t, ['separator'])) {
      const rest = t.entries!.filter((e) => e.kind !== 'separator');
      start(rest.length > 0 ? [{ kind: 'word', text: t.text, entries: rest }] : []);
      continue;
    }
    const isDirection = has(t, ['direction']);
    if (isDirection && direction && target) start([]);
    clauses[clauses.length - 1]!.push(t);
    direction ||= isDirection;
    target ||= has(t, ['noun', 'quality']);
  }
  return clauses.filter((c) => c.length > 0);
}

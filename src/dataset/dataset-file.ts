import type { DatasetProblem } from './validate-dataset.js';

/**
 * A data set file is UTF-8. Read leniently, a byte that is not UTF-8 would become U+FFFD and be
 * stored as such; it is refused instead, with the JSON path of the string it falls in.
 */
export type DatasetText = { text: string; problems: [] } | { text: null; problems: DatasetProblem[] };

// ignoreBOM keeps a byte order mark in the text, where JSON.parse refuses it, as it always did.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeDatasetFile(bytes: Uint8Array): DatasetText {
  try {
    return { text: strict.decode(bytes), problems: [] };
  } catch {
    return { text: null, problems: locateNotUtf8(bytes) };
  }
}

interface BadSequence {
  /** Its bytes, written as 0xFF 0xFE. */
  bytes: string;
  line: number;
}

/**
 * The file with every sequence that is not UTF-8 replaced by a mark holding its number, parsed: the
 * strings (and keys) that hold marks are where they fall. A mark is enclosed in lone surrogates, which
 * no UTF-8 decodes to, so no text of the file can look like one.
 */
const MARK = /\udfff(\d+)\udfff/g;
const holdsMark = (text: string): boolean => text.includes('\udfff');

function locateNotUtf8(bytes: Uint8Array): DatasetProblem[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const bad: BadSequence[] = [];
  const pieces: string[] = [];
  let from = 0;
  let line = 1;
  for (const { offset, length } of notUtf8Sequences(bytes)) {
    for (let i = from; i < offset; i++) if (bytes[i] === 0x0a) line++;
    pieces.push(buffer.toString('utf8', from, offset), `\udfff${bad.length}\udfff`);
    bad.push({ bytes: [...bytes.subarray(offset, offset + length)].map(hex).join(' '), line });
    from = offset + length;
  }
  pieces.push(buffer.toString('utf8', from));
  const describe = (text: string): string =>
    [...text.matchAll(MARK)].map(([, n]) => `${bad[Number(n)].bytes} (line ${bad[Number(n)].line})`).join(', ');
  let parsed: unknown;
  try {
    parsed = JSON.parse(pieces.join(''));
  } catch {
    // Outside any string, where the JSON is broken anyway: the lines say where.
    return [{ path: '$', message: `the file is not UTF-8: it holds ${describe(pieces.join(''))}` }];
  }
  const problems: DatasetProblem[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      if (holdsMark(value)) {
        problems.push({ path, message: `must be UTF-8 text: the file holds ${describe(value)} here` });
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${path}[${i}]`));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (holdsMark(key)) {
          problems.push({ path, message: `a field name must be UTF-8 text: the file holds ${describe(key)} here` });
        } else {
          walk(item, path === '$' ? key : `${path}.${key}`);
        }
      }
    }
  };
  walk(parsed, '$');
  return problems;
}

const hex = (byte: number): string => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * Where the bytes are not UTF-8: each maximal part of a sequence that cannot be completed, as the
 * WHATWG decoder replaces each with one U+FFFD (well-formed sequences: Unicode, table 3-7).
 */
export function notUtf8Sequences(bytes: Uint8Array): { offset: number; length: number }[] {
  const found: { offset: number; length: number }[] = [];
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    // How many continuation bytes the lead byte calls for, and the range of the first of them.
    let needed: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) needed = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      needed = 2;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      needed = 3;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else {
      found.push({ offset: i, length: 1 });
      i++;
      continue;
    }
    let seen = 1;
    while (seen <= needed) {
      const byte = bytes[i + seen];
      const [min, max] = seen === 1 ? [low, high] : [0x80, 0xbf];
      if (byte === undefined || byte < min || byte > max) break;
      seen++;
    }
    if (seen > needed) i += seen;
    else {
      found.push({ offset: i, length: seen });
      i += seen;
    }
  }
  return found;
}

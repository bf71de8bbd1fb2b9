import { decodeDatasetFile, notUtf8Sequences } from './dataset-file.js';

describe('notUtf8Sequences', () => {
  it('finds each part the WHATWG decoder replaces with U+FFFD', () => {
    // Random bytes biased towards the lead and continuation bytes where UTF-8 is subtle.
    const interesting = [0x41, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
    for (let run = 0; run < 2000; run++) {
      const bytes = Uint8Array.from({ length: 1 + random(12) }, () => interesting[random(interesting.length)]);
      const replaced = [...lenient.decode(bytes)].filter((c) => c === '\ufffd').length;
      expect(notUtf8Sequences(bytes)).toHaveLength(replaced);
    }
  });
});

describe('decodeDatasetFile', () => {
  it('gives the text of a UTF-8 file, byte order mark included', () => {
    expect(decodeDatasetFile(Buffer.from('{"a": "é 😀 \ufffd"}'))).toEqual({
      text: '{"a": "é 😀 \ufffd"}',
      problems: [],
    });
    expect(decodeDatasetFile(Buffer.from('\ufeff{}')).text).toBe('\ufeff{}');
  });

  it('names the string or the object whose field name holds bytes that are not UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"products": [{"name": "ok"}, {"name": "a'),
      Buffer.from([0xe2, 0x82]),
      Buffer.from('"}],\n "tenants": [{"na'),
      Buffer.from([0xff]),
      Buffer.from('me": "x"}]}'),
    ]);
    expect(decodeDatasetFile(bytes)).toEqual({
      text: null,
      problems: [
        { path: 'products[1].name', message: 'must be UTF-8 text: the file holds 0xE2 0x82 (line 1) here' },
        { path: 'tenants[0]', message: 'a field name must be UTF-8 text: the file holds 0xFF (line 2) here' },
      ],
    });
  });
});

import { describe, expect, test } from '@jest/globals';
import { parseJsonText, parseObjectPiecewise } from './json-body';

// A PutRecordBatch-like body well over the piecewise threshold, with the characters a scanner could trip on.
function bigBody(space = ''): string {
  const records = Array.from({ length: 1500 }, (_, i) => ({
    Data: Buffer.from(`{"i":${i},"s":"quote \\" and backslash \\\\ and ] } ,"}`).toString('base64'),
  }));
  const tricky = {
    text: 'a "quoted" \\ back\\\\slash ]}{[ , : ünïcödé 🎉',
    n: [1, -2.5e3, true, false, null],
  };
  return JSON.stringify({ DeliveryStreamName: 'flows', Records: records, Tricky: tricky }, null, space);
}

describe('JSON request bodies', () => {
  test('a large body parses piecewise to exactly what JSON.parse gives', () => {
    for (const space of ['', ' ', '\t']) {
      // Prepare
      const text = bigBody(space);
      expect(text.length).toBeGreaterThan(96 * 1024);

      // Act
      const parsed = parseJsonText(Buffer.from(text));

      // Assess: the same value, and the piecewise scan (not the fallback) produced it
      expect(parsed).toEqual(JSON.parse(text));
      expect(parseObjectPiecewise(Buffer.from(text))).toEqual(JSON.parse(text));
    }
  });

  test('duplicate keys keep the last value and a __proto__ key stays a plain member, as with JSON.parse', () => {
    const text = `{"a":1,"__proto__":{"polluted":true},"Records":${JSON.stringify(JSON.parse(bigBody()).Records)},"a":2}`;
    const parsed = parseJsonText(Buffer.from(text)) as Record<string, unknown>;
    expect(parsed).toEqual(JSON.parse(text));
    expect(parsed['a']).toBe(2);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // The piecewise scan leaves a __proto__ key to JSON.parse, and keeps the last of duplicate keys itself.
    expect(() => parseObjectPiecewise(Buffer.from(text))).toThrow();
    const duplicates = `{"a":1,"Records":${JSON.stringify(JSON.parse(bigBody()).Records)},"a":2}`;
    expect(parseObjectPiecewise(Buffer.from(duplicates))).toEqual(JSON.parse(duplicates));
  });

  test('malformed large bodies are refused, not half-read', () => {
    const text = bigBody();
    for (const broken of [
      text
        .replace('"Records":[', '"Records":[[')
        .replace(/\]([^\]]*)$/, ']]$1')
        .slice(0, -1),
      text.slice(0, -1),
      `${text} x`,
      text.replace('"Records":[', '"Records":[,'),
      text.replace('},{', '}{'),
      text.replace('"DeliveryStreamName":', '"DeliveryStreamName"'),
    ]) {
      expect(parseJsonText(Buffer.from(broken))).toBeUndefined();
    }
  });

  test('small bodies and non-object bodies parse as JSON.parse does', () => {
    expect(parseJsonText(Buffer.from('{"Name":"x"}'))).toEqual({ Name: 'x' });
    expect(parseJsonText(Buffer.from(`[${'1,'.repeat(60_000)}1]`))).toHaveLength(60_001);
    expect(parseJsonText(Buffer.from('{"Name":'))).toBeUndefined();
  });

  test('a body is parsed once: every reader of the same request body gets the same value', () => {
    const body = Buffer.from('{"DeliveryStreamName":"s","Records":[]}');
    expect(parseJsonText(body)).toBe(parseJsonText(body));
    // Another buffer with the same bytes is another request.
    expect(parseJsonText(Buffer.from(body))).not.toBe(parseJsonText(body));
  });
});

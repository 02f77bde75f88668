import { describe, test, expect } from '@jest/globals';
import { makeBadRecords, BAD_RECORD_KINDS } from './bad-records';
import { FlowGenerator } from './generator';
import { FLOW_LOG_V2_COLUMNS } from './records';

describe('makeBadRecords', () => {
  test('every kind appears and none of the lines is a valid flow record', () => {
    // Prepare
    const good = new FlowGenerator({ seed: 1 }).burst({ at: new Date('2026-11-29T00:00:00Z'), count: 20 });
    // Act
    const bad = makeBadRecords(9, good);
    // Assess
    expect(new Set(bad.map((b) => b.kind))).toEqual(new Set(BAD_RECORD_KINDS));
    for (const { line } of bad) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue; // malformed JSON: bad by construction
      }
      const valid =
        typeof parsed === 'object' &&
        parsed !== null &&
        !Array.isArray(parsed) &&
        FLOW_LOG_V2_COLUMNS.every((c) => c in parsed) &&
        typeof (parsed as Record<string, unknown>).packets === 'number' &&
        typeof (parsed as Record<string, unknown>).start_time === 'number';
      expect(valid).toBe(false);
    }
  });

  test('bad lines made from distinct flows are distinct (the error output can be matched line by line)', () => {
    const good = new FlowGenerator({ seed: 2 }).burst({ at: new Date('2026-11-29T00:00:00Z'), count: 200 });
    const lines = makeBadRecords(3, good).map((b) => b.line);
    expect(new Set(lines).size).toBe(lines.length);
  });
});

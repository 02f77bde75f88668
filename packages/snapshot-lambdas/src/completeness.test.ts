import { describe, test, expect } from '@jest/globals';
import { decideWatermark, formatHours, type HourCount } from './completeness';
import { NoCompleteDayError, InvalidParameterError } from './errors';

function fullDay(day: string, hours: number[] = [...Array(24).keys()]): HourCount[] {
  return hours.map((hour) => ({
    day,
    hour,
    records: 5,
    lastRecord: new Date(`${day}T${String(hour).padStart(2, '0')}:59:00Z`),
  }));
}

const base = {
  latenessGraceMinutes: 30,
  minRecordsPerHour: 1,
  scannedFrom: new Date('2026-11-20T00:00:00Z'),
};

describe('decideWatermark', () => {
  test('picks the newest day with all 24 hours and data landed past its end + grace', () => {
    // Prepare: 26th and 27th complete, 28th in progress until 00:45 on the 29th is not there yet.
    const hours = [...fullDay('2026-11-26'), ...fullDay('2026-11-27'), ...fullDay('2026-11-28', [0, 1, 2])];
    // Act
    const decision = decideWatermark({ ...base, hours, lastPublished: '2026-11-26' });
    // Assess
    expect(decision.watermark).toBe('2026-11-27');
    expect(decision.evidence.days.map((d) => [d.day, d.complete])).toEqual([
      ['2026-11-27', true],
      ['2026-11-28', false],
    ]);
  });

  test('a day whose next-day data has not passed the grace is not complete, even with every hour present', () => {
    // Prepare: all of the 27th, and a record at 00:10 on the 28th (grace is 30 minutes)
    const hours = [
      ...fullDay('2026-11-27'),
      { day: '2026-11-28', hour: 0, records: 1, lastRecord: new Date('2026-11-28T00:10:00Z') },
    ];
    // Act / Assess
    expect(() => decideWatermark({ ...base, hours, lastPublished: '2026-11-26' })).toThrow(
      /2026-11-27: no record at or after 2026-11-28T00:30:00.000Z yet/,
    );
  });

  test('the incident: a partly loaded day fails with the missing hours named, never published', () => {
    // Prepare: published 26th; 27th has hours 00-13 only; today's records have started arriving
    const hours = [...fullDay('2026-11-27', [...Array(14).keys()]), ...fullDay('2026-11-28', [0, 1])];
    // Act
    let error: unknown;
    try {
      decideWatermark({ ...base, hours, lastPublished: '2026-11-26' });
    } catch (e) {
      error = e;
    }
    // Assess
    expect(error).toBeInstanceOf(NoCompleteDayError);
    const e = error as NoCompleteDayError;
    expect(e.name).toBe('NoCompleteDayError');
    expect(e.message).toContain('2026-11-27: hours missing 14-23 (10 of 24; present 00-13)');
    expect(e.message).toContain('published watermark 2026-11-26');
    const evidence = e.value.evidence as {
      lastRecordAt: string;
      days: { day: string; hoursMissing: number[] }[];
    };
    expect(evidence.lastRecordAt).toBe('2026-11-28T01:59:00.000Z');
    expect(evidence.days[0]?.hoursMissing).toEqual([14, 15, 16, 17, 18, 19, 20, 21, 22, 23]);
  });

  test('a requested date must be complete; the published date is an idempotent re-run; older is refused', () => {
    const hours = [...fullDay('2026-11-26'), ...fullDay('2026-11-27'), ...fullDay('2026-11-28', [0])];
    expect(
      decideWatermark({ ...base, hours, lastPublished: '2026-11-27', requestedDay: '2026-11-27' }),
    ).toMatchObject({
      watermark: '2026-11-27',
      alreadyPublished: true,
    });
    expect(() =>
      decideWatermark({ ...base, hours, lastPublished: '2026-11-27', requestedDay: '2026-11-26' }),
    ).toThrow(InvalidParameterError);
    expect(() =>
      decideWatermark({ ...base, hours, lastPublished: null, requestedDay: '2026-11-28' }),
    ).toThrow(/Day 2026-11-28 is not complete.*hours missing 01-23/);
  });

  test('minRecordsPerHour counts thin hours as missing', () => {
    const hours = [...fullDay('2026-11-27'), ...fullDay('2026-11-28', [0, 1])];
    expect(() => decideWatermark({ ...base, minRecordsPerHour: 6, hours, lastPublished: null })).toThrow(
      /hours missing 00-23/,
    );
  });

  test('no data at all says so', () => {
    expect(() => decideWatermark({ ...base, hours: [], lastPublished: null })).toThrow(
      /The source holds no records since 2026-11-20T00:00:00.000Z/,
    );
  });

  test('formatHours compresses runs', () => {
    expect(formatHours([0, 1, 2, 5, 7, 8])).toBe('00-02, 05, 07-08');
    expect(formatHours([])).toBe('none');
  });
});

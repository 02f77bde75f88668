// The completeness rule, as a pure function of what the source holds (never of the calendar):
//
//   A UTC day D is COMPLETE when
//     (1) every hour 00..23 of D holds at least `minRecordsPerHour` records, and
//     (2) the source already holds a record whose event time is at or after D+1 00:00 + `latenessGraceMinutes`
//         ("data has landed beyond the day's end plus the grace", so late records of D had time to arrive).
//
// The watermark is the newest complete day after the last published one. With no such day the run fails with
// NoCompleteDayError carrying, for every day after the published one, the hours present and missing, plus the
// last record time: the evidence an operator needs to see whether upstream is late or broken.
import { NoCompleteDayError, InvalidParameterError } from './errors';

export interface HourCount {
  day: string;
  hour: number;
  records: number;
  lastRecord: Date;
}

export interface DayEvidence {
  day: string;
  records: number;
  hoursPresent: number[];
  hoursMissing: number[];
  /** A record at or after this instant must exist for the day to count as landed. */
  landedBy: string;
  landed: boolean;
  complete: boolean;
}

export interface WatermarkEvidence {
  lastRecordAt: string | null;
  lastPublished: string | null;
  scannedFrom: string;
  latenessGraceMinutes: number;
  minRecordsPerHour: number;
  days: DayEvidence[];
}

export interface CompletenessInput {
  hours: HourCount[];
  /** Start of the scanned window (the first day evaluated is this instant's UTC day). */
  scannedFrom: Date;
  lastPublished: string | null;
  latenessGraceMinutes: number;
  minRecordsPerHour: number;
  /** A day asked for explicitly (`--date`); must itself be complete. */
  requestedDay?: string;
}

export interface WatermarkDecision {
  watermark: string;
  /** True when the watermark is the one already published (a re-run: the build step will change nothing). */
  alreadyPublished: boolean;
  evidence: WatermarkEvidence;
}

const DAY_MS = 86_400_000;
const dayOf = (instant: Date) => instant.toISOString().slice(0, 10);
const addDays = (day: string, n: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/** `[0,1,2,5,7,8]` → `00-02, 05, 07-08`. */
export function formatHours(hours: number[]): string {
  if (hours.length === 0) return 'none';
  const pad = (h: number) => String(h).padStart(2, '0');
  const parts: string[] = [];
  let start = hours[0] as number;
  let prev = start;
  for (const h of [...hours.slice(1), Number.NaN]) {
    if (h === prev + 1) {
      prev = h;
      continue;
    }
    parts.push(start === prev ? pad(start) : `${pad(start)}-${pad(prev)}`);
    start = h;
    prev = h;
  }
  return parts.join(', ');
}

function evaluateDay(day: string, input: CompletenessInput, lastRecord: Date | null): DayEvidence {
  const counts = new Map<number, number>();
  for (const h of input.hours) if (h.day === day) counts.set(h.hour, (counts.get(h.hour) ?? 0) + h.records);
  const hoursPresent: number[] = [];
  const hoursMissing: number[] = [];
  for (let hour = 0; hour < 24; hour++) {
    ((counts.get(hour) ?? 0) >= input.minRecordsPerHour ? hoursPresent : hoursMissing).push(hour);
  }
  const landedBy = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS + input.latenessGraceMinutes * 60_000);
  const landed = lastRecord !== null && lastRecord.getTime() >= landedBy.getTime();
  return {
    day,
    records: [...counts.values()].reduce((a, b) => a + b, 0),
    hoursPresent,
    hoursMissing,
    landedBy: landedBy.toISOString(),
    landed,
    complete: landed && hoursMissing.length === 0,
  };
}

function describe(e: DayEvidence, lastRecordAt: string | null): string {
  const reasons: string[] = [];
  if (e.hoursMissing.length > 0) {
    reasons.push(
      `hours missing ${formatHours(e.hoursMissing)} (${e.hoursMissing.length} of 24; present ${formatHours(e.hoursPresent)})`,
    );
  }
  if (!e.landed)
    reasons.push(`no record at or after ${e.landedBy} yet (last record ${lastRecordAt ?? 'none'})`);
  return `${e.day}: ${reasons.join('; ')}`;
}

export function decideWatermark(input: CompletenessInput): WatermarkDecision {
  const lastRecord = input.hours.reduce<Date | null>(
    (max, h) => (max === null || h.lastRecord > max ? h.lastRecord : max),
    null,
  );
  const lastRecordAt = lastRecord?.toISOString() ?? null;
  const firstDay = input.requestedDay ?? dayOf(input.scannedFrom);
  const lastDay = lastRecord ? dayOf(lastRecord) : firstDay;
  const days: DayEvidence[] = [];
  for (let day = firstDay; day <= lastDay; day = addDays(day, 1)) {
    if (input.requestedDay === undefined && input.lastPublished !== null && day <= input.lastPublished)
      continue;
    days.push(evaluateDay(day, input, lastRecord));
  }
  const evidence: WatermarkEvidence = {
    lastRecordAt,
    lastPublished: input.lastPublished,
    scannedFrom: input.scannedFrom.toISOString(),
    latenessGraceMinutes: input.latenessGraceMinutes,
    minRecordsPerHour: input.minRecordsPerHour,
    days,
  };
  const rule = `a day is complete when all 24 hours hold >= ${input.minRecordsPerHour} record(s) and a record exists at or after the next midnight + ${input.latenessGraceMinutes} min`;

  if (input.requestedDay !== undefined) {
    const requested = input.requestedDay;
    if (input.lastPublished !== null && requested < input.lastPublished) {
      throw new InvalidParameterError(
        `Refused date ${requested}: it is older than the published watermark ${input.lastPublished}, and publishing it would move the snapshot backwards`,
        { value: { requested, lastPublished: input.lastPublished } },
      );
    }
    const e = days.find((d) => d.day === requested) ?? evaluateDay(requested, input, lastRecord);
    if (!e.complete) {
      throw new NoCompleteDayError(
        `Day ${requested} is not complete, so no snapshot was built. ${describe(e, lastRecordAt)}. Rule: ${rule}.`,
        {
          value: { evidence: { ...evidence, days: [e] } },
        },
      );
    }
    return {
      watermark: requested,
      alreadyPublished: requested === input.lastPublished,
      evidence: { ...evidence, days: [e] },
    };
  }

  const complete = days.filter((d) => d.complete);
  const newest = complete[complete.length - 1];
  if (newest) return { watermark: newest.day, alreadyPublished: false, evidence };

  const blocking = days.filter((d) => !d.complete);
  const summary =
    lastRecordAt === null
      ? `The source holds no records since ${evidence.scannedFrom}`
      : blocking.length > 0
        ? blocking.map((d) => describe(d, lastRecordAt)).join(' | ')
        : `no records since ${evidence.scannedFrom}`;
  throw new NoCompleteDayError(
    `No complete day newer than the published watermark ${input.lastPublished ?? '(none)'}; nothing was published. ${summary}. Rule: ${rule}.`,
    { value: { evidence } },
  );
}

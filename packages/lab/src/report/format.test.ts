import { describe, test, expect } from '@jest/globals';
import {
  athenaCostUsd,
  fitLine,
  formatBytes,
  outputColumns,
  renderTable,
  renderWrappedTable,
  wrapText,
} from './format';

describe('format', () => {
  test('bytes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(15.1 * 1024 * 1024)).toBe('15.1 MiB');
    expect(formatBytes(1536)).toBe('1.50 KiB');
  });

  test('Athena cost: free at zero bytes, 10 MB minimum, rounded up to the MB, $5 per TB', () => {
    expect(athenaCostUsd(0)).toEqual({ billedBytes: 0, usd: 0 });
    expect(athenaCostUsd(1).billedBytes).toBe(10 * 1024 * 1024);
    expect(athenaCostUsd(20 * 1024 * 1024 + 1).billedBytes).toBe(21 * 1024 * 1024);
    expect(athenaCostUsd(1e12 - 1).usd).toBeCloseTo(5, 3);
  });

  test('table aligns columns and shows NULL', () => {
    const text = renderTable(
      ['Experiment', 'Result'],
      [
        ['Load', '3 commits'],
        ['Add columns', null],
      ],
    );
    expect(text.split('\n')).toEqual([
      '┌─────────────┬───────────┐',
      '│ Experiment  │ Result    │',
      '├─────────────┼───────────┤',
      '│ Load        │ 3 commits │',
      '│ Add columns │ NULL      │',
      '└─────────────┴───────────┘',
    ]);
  });

  test('wrapped table: cells wrap at spaces to the column widths, long words are cut, a rule between rows', () => {
    expect(wrapText('same · lab’s choice', 10)).toEqual(['same ·', 'lab’s', 'choice']);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('', 4)).toEqual(['']);
    const text = renderWrappedTable(
      ['A', 'B'],
      [
        ['one two three', 'x'],
        ['y', 'z'],
      ],
      [7, 3],
    );
    expect(text.split('\n')).toEqual([
      '┌─────────┬─────┐',
      '│ A       │ B   │',
      '├─────────┼─────┤',
      '│ one two │ x   │',
      '│ three   │     │',
      '├─────────┼─────┤',
      '│ y       │ z   │',
      '└─────────┴─────┘',
    ]);
  });
});

describe('query results fit the terminal', () => {
  const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));
  const header = ['committed_at', 'snapshot_id', 'operation', 'added_records', 'summary'];
  const rows = [['2026-12-01 14:00:00.000 UTC', '4411619297815427', 'append', '200', 'x'.repeat(50)]];

  test('narrower columns that wrap, then one block per row; nothing cut when it fits', () => {
    const natural = renderTable(header, rows);
    expect(renderTable(header, rows, 60, 500)).toBe(natural);
    const fitted = renderTable(header, rows, 60, 90);
    expect(widest(fitted)).toBeLessThanOrEqual(90);
    expect(fitted).toMatch(/^┌/);
    const records = renderTable(header, rows, 60, 40);
    expect(widest(records)).toBeLessThanOrEqual(40);
    expect(records).toMatch(
      /^── row 1\ncommitted_at {2}│ 2026-12-01 14:00:00\.000\n {14}│ UTC\nsnapshot_id {3}│ 4411619297815427/,
    );
    expect(renderTable(header, [], 60, 30)).toBe(
      'columns: committed_at,\nsnapshot_id, operation,\nadded_records, summary',
    );
  });

  test('the width: the terminal when stdout is one, else $COLUMNS, else none (the full layout)', () => {
    expect(outputColumns({ isTTY: true, columns: 90 }, { COLUMNS: '200' })).toBe(90);
    expect(outputColumns({ isTTY: false }, { COLUMNS: '80' })).toBe(80);
    expect(outputColumns({ isTTY: false }, {})).toBeUndefined();
    expect(fitLine('\n  FAILED: one two three four five six', 20)).toBe(
      '\n  FAILED: one two\n    three four five\n    six',
    );
  });
});

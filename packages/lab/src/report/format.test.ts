import { describe, test, expect } from '@jest/globals';
import { athenaCostUsd, formatBytes, renderTable, renderWrappedTable, wrapText } from './format';

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

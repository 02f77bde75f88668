// The seeds' "Experiment | Result" table with the article's figure beside this run's and a verdict per row, then
// the rows that failed or were not run, one line per figure that differs (its rule and why), per figure the lab sets
// itself, and per failed check. Everything fits the terminal's width when one is known.
import { renderWrappedTable, wrapText } from './format';
import type { ExperimentReport, LabReport } from './lab-report';
import { runSummary } from './run-summary';
import { rowVerdict } from './verdict';

/** Column widths (characters) of the full table: experiment, the article, this run, verdict. */
const WIDTHS = [24, 44, 70, 22] as const;
/** The narrowest each column gets before the table gives way to one block per row. */
const MIN_WIDTHS = [14, 24, 30, 14] as const;
/** Characters of a 4-column table's borders and padding: "│ " + 3 × " │ " + " │". */
const BORDERS = 2 + 3 * 3 + 2;
/** The full table's width. */
export const FULL_TABLE_WIDTH = WIDTHS.reduce((a, b) => a + b, 0) + BORDERS;
/** Below this many columns each row is a block of its own (a 4-column table would be mostly wrapping). */
export const NARROW_BELOW = 120;

const HEADER = ['Experiment', 'The article', 'This run', 'Verdict'] as const;

const cells = (e: ExperimentReport) => [
  e.title,
  e.article,
  e.error ? `FAILED: ${e.error}` : e.skipped !== undefined && !e.result ? `not run: ${e.skipped}` : e.result,
  rowVerdict(e).summary,
];

/** Column widths that fit `width` characters: the full widths shrunk in proportion, never below MIN_WIDTHS. */
export function fittedWidths(width: number): number[] {
  const available = width - BORDERS;
  const full = WIDTHS.reduce((a, b) => a + b, 0);
  if (available >= full) return [...WIDTHS];
  const widths = WIDTHS.map((w, i) => Math.max(MIN_WIDTHS[i] as number, Math.floor((w * available) / full)));
  // What rounding left over goes to "This run", the longest text.
  widths[2] = Math.max(MIN_WIDTHS[2], (widths[2] as number) + available - widths.reduce((a, b) => a + b, 0));
  return widths;
}

/** One block per row: the title and verdict on a line, the article's words and this run's under it. */
function stackedRows(report: LabReport, width: number): string {
  const label = 12;
  const textWidth = Math.max(20, width - label - 3);
  const blocks = report.experiments.map((e) => {
    const [title, article, run, verdict] = cells(e) as [string, string, string, string];
    const head = wrapText(`── ${title} · ${verdict}`, Math.max(20, width));
    const field = (name: string, text: string) =>
      wrapText(text, textWidth).map((line, i) => `   ${(i === 0 ? name : '').padEnd(label)}${line}`);
    return [...head, ...field('The article', article), ...field('This run', run)].join('\n');
  });
  return blocks.join('\n\n');
}

/**
 * The experiment table. `width` is the terminal's (undefined: not a terminal, the full layout): from
 * FULL_TABLE_WIDTH up the full table, down to NARROW_BELOW narrower columns, below that one block per row.
 */
export function experimentTable(report: LabReport, width?: number): string {
  if (width !== undefined && width < NARROW_BELOW) return stackedRows(report, width);
  const widths = width === undefined ? [...WIDTHS] : fittedWidths(width);
  return renderWrappedTable(HEADER, report.experiments.map(cells), widths);
}

/** A bullet wrapped to the width, its continuation lines indented under its text. */
function bullet(text: string, width: number | undefined): string {
  if (width === undefined) return `- ${text}`;
  return wrapText(text, Math.max(20, width - 2))
    .map((line, i) => `${i === 0 ? '-' : ' '} ${line}`)
    .join('\n');
}

function paragraph(text: string, width: number | undefined): string {
  return width === undefined ? text : wrapText(text, Math.max(20, width)).join('\n');
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The lines under the table: rows that failed or were not run (first: nothing they were to show was shown), every
 * difference with its rule and reason, the lab's own choices, failed checks. The sentence that every figure is the
 * article's is said only when every row ran and some figure was compared.
 */
export function differencesText(report: LabReport, width?: number): string {
  const failedRows: string[] = [];
  const skippedRows: string[] = [];
  const differs: string[] = [];
  const choices: string[] = [];
  const failed: string[] = [];
  let compared = 0;
  for (const e of report.experiments) {
    const v = rowVerdict(e);
    if (v.status === 'error') failedRows.push(bullet(`${e.title}: ${e.error}`, width));
    if (v.status === 'skipped') skippedRows.push(bullet(`${e.title}: ${e.skipped}`, width));
    // A row that did not run measured nothing: no figure of it can differ, be the lab's choice, or fail a check.
    if (v.status === 'error' || v.status === 'skipped') continue;
    if (v.status === 'same' || v.status === 'differs') compared += e.comparisons.length;
    for (const c of v.differs)
      differs.push(
        bullet(`${e.title} · ${c.figure}: ${c.article} → ${c.ours} (rule: ${c.rule}). Why: ${c.why}.`, width),
      );
    for (const c of v.labChoices) choices.push(bullet(`${e.title} · ${c.figure}: ${c.labChoice}.`, width));
    for (const check of v.failedChecks) failed.push(bullet(`${e.title} · ${check}`, width));
  }
  const s = runSummary(report.experiments);
  const these = report.partial ? ' for the rows run' : '';
  const missing = [
    ...(s.failed > 0 ? [`${plural(s.failed, 'row')} failed`] : []),
    ...(s.skipped > 0
      ? [`${plural(s.skipped, 'row')} ${s.skipped === 1 ? 'was' : 'were'} not run or skipped`]
      : []),
  ].join(' and ');
  const verdict =
    differs.length > 0
      ? [
          paragraph('Where this run differs from the article (its figure → ours; the rule; why):', width),
          ...differs,
        ]
      : compared === 0
        ? [
            paragraph(
              `No figure of the article was compared in this run${missing ? ` (${missing})` : ''}.`,
              width,
            ),
          ]
        : missing
          ? [
              paragraph(
                `Every figure this run measured is the article's, but ${missing}: their figures were not compared.`,
                width,
              ),
            ]
          : [paragraph(`Every figure the article gives${these} is the same here.`, width)];
  return [
    ...(failedRows.length > 0
      ? [paragraph('Rows that failed (nothing they were to show was measured):', width), ...failedRows, '']
      : []),
    ...(skippedRows.length > 0 ? [paragraph('Rows not run or skipped:', width), ...skippedRows, ''] : []),
    ...verdict,
    ...(differs.length > 0 && missing ? ['', paragraph(`Not compared: ${missing}.`, width)] : []),
    ...(choices.length > 0
      ? ['', paragraph("Figures the lab's own choices produce or shape:", width), ...choices]
      : []),
    ...(failed.length > 0 ? ['', paragraph("The lab's own checks that failed:", width), ...failed] : []),
  ].join('\n');
}

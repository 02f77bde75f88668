// The seeds' "Experiment | Result" table with the article's figure beside this run's and a verdict per row, then
// one line per figure that differs (its rule and why), per figure the lab sets itself, and per failed check.
import { renderWrappedTable } from './format';
import type { LabReport } from './lab-report';
import { rowVerdict } from './verdict';

/** Column widths (characters) of the terminal table: experiment, the article, this run, verdict. */
const WIDTHS = [24, 44, 70, 22] as const;

export function experimentTable(report: LabReport): string {
  const rows = report.experiments.map((e) => [
    e.title,
    e.article,
    e.error ? `FAILED: ${e.error}` : e.result,
    rowVerdict(e).summary,
  ]);
  return renderWrappedTable(['Experiment', 'The article', 'This run', 'Verdict'], rows, WIDTHS);
}

/** The lines under the table: every difference with its rule and reason, the lab's own choices, failed checks. */
export function differencesText(report: LabReport): string {
  const differs: string[] = [];
  const choices: string[] = [];
  const failed: string[] = [];
  for (const e of report.experiments) {
    const v = rowVerdict(e);
    for (const c of v.differs)
      differs.push(`- ${e.title} · ${c.figure}: ${c.article} → ${c.ours} (rule: ${c.rule}). Why: ${c.why}.`);
    for (const c of v.labChoices) choices.push(`- ${e.title} · ${c.figure}: ${c.labChoice}.`);
    for (const check of v.failedChecks) failed.push(`- ${e.title} · ${check}`);
  }
  return [
    ...(differs.length > 0
      ? ['Where this run differs from the article (its figure → ours; the rule; why):', ...differs]
      : ['Every figure the article gives is the same here.']),
    ...(choices.length > 0 ? ['', "Figures the lab's own choices produce or shape:", ...choices] : []),
    ...(failed.length > 0 ? ['', "The lab's own checks that failed:", ...failed] : []),
  ].join('\n');
}

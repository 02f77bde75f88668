// The seeds' "Experiment | Result" table, measured.
import { renderTable } from './format';
import type { LabReport } from './lab-report';

export function experimentTable(report: LabReport): string {
  const rows = report.experiments.map((e) => {
    const failed = Object.entries(e.checks)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    const note = e.error
      ? `FAILED: ${e.error}`
      : failed.length > 0
        ? `${e.result}  [differs from the article: ${failed.join(', ')}]`
        : e.result;
    return [e.title, note];
  });
  return renderTable(['Experiment', 'Result'], rows, 140);
}

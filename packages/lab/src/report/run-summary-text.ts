// What the terminal prints after the experiment table: the run's verdict line and what the run would cost on
// AWS. One call from the lab command; the HTML report shows the same line and the same estimate.
import { costText } from '../cost/cost-text';
import type { LabReport } from './lab-report';
import { verdictLine } from './run-verdict';

export function runSummaryText(report: Pick<LabReport, 'experiments' | 'partial' | 'cost'>): string {
  return [`Verdict: ${verdictLine(report)}`, ...(report.cost ? ['', costText(report.cost)] : [])].join('\n');
}

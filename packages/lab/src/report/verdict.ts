// A row's verdict at a glance: same as the article, where it differs (and why), which figures the lab sets itself,
// and which of its own checks failed. One summary for the terminal and the HTML report.
import type { Comparison } from '../article';
import type { ExperimentReport } from './lab-report';

export interface RowVerdict {
  /** "same", "differs (1 of 3)", "no figure", with " · lab's choice" / " · check failed: …" appended. */
  summary: string;
  status: 'same' | 'differs' | 'no-figure' | 'error' | 'skipped';
  differs: Comparison[];
  labChoices: Comparison[];
  failedChecks: string[];
}

export function rowVerdict(e: ExperimentReport): RowVerdict {
  const differs = e.comparisons.filter((c) => c.verdict === 'differs');
  const labChoices = e.comparisons.filter((c) => c.labChoice);
  const failedChecks = Object.entries(e.checks)
    .filter(([, ok]) => !ok)
    .map(([name]) => name);
  if (e.error) return { summary: 'FAILED', status: 'error', differs, labChoices, failedChecks };
  if (e.skipped !== undefined)
    return { summary: 'skipped', status: 'skipped', differs, labChoices, failedChecks };
  const status = e.comparisons.length === 0 ? 'no-figure' : differs.length > 0 ? 'differs' : 'same';
  const head =
    status === 'no-figure'
      ? 'no figure'
      : status === 'differs'
        ? `differs (${differs.length} of ${e.comparisons.length})`
        : 'same';
  const summary = [
    head,
    ...(labChoices.length > 0 ? ["lab's choice"] : []),
    ...(failedChecks.length > 0 ? [`check failed: ${failedChecks.join(', ')}`] : []),
  ].join(' · ');
  return { summary, status, differs, labChoices, failedChecks };
}

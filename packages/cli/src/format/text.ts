// The default verdict: a few lines for a terminal or a CI log.
import type { GateResult } from '../model';
import { signed, statusWord } from './words';

export function formatText(r: GateResult): string {
  const lines = [`${r.verdict.passed ? 'PASSED' : 'FAILED'}  ${r.domain}  ${r.score}/100 (${r.grade})${deltaText(r)}`];
  for (const failure of r.verdict.failures) lines.push(`  - ${failure}`);
  if (r.baseline) {
    lines.push(`Checks that changed since the baseline: ${r.changes.length}`);
    for (const c of r.changes) {
      lines.push(`  ${c.direction === 'worse' ? '-' : c.direction === 'better' ? '+' : '~'} ${c.name} (${c.id}): ${statusWord(c.before)} -> ${statusWord(c.after)} (${signed(c.delta)} points)`);
    }
  }
  lines.push(`Checks to fix: ${r.toFix.length}`);
  for (const c of r.toFix) lines.push(`  ${c.status === 'failed' ? 'x' : '!'} ${c.name} (${c.id})${c.fix ? `: ${c.fix}` : ''}`);
  if (r.reportUrl) lines.push(`Report: ${r.reportUrl}`);
  return `${lines.join('\n')}\n`;
}

function deltaText(r: GateResult): string {
  return r.baseline ? `  ${signed(r.delta ?? 0)} vs ${r.baseline.score} (${r.baseline.grade}) baseline` : '';
}

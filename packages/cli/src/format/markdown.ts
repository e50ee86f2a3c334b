// `--format markdown`: a ready pull-request comment. The first line is a hidden marker so a workflow can find and
// update its earlier comment instead of adding one per push.
import type { CheckChange, GateCheck, GateResult } from '../model';
import { signed, statusWord } from './words';

export const COMMENT_MARKER = '<!-- arl-check -->';
const MAX_OPEN_ROWS = 15;

export function formatMarkdown(r: GateResult): string {
  const out: string[] = [COMMENT_MARKER, `### ${r.verdict.passed ? '✅' : '❌'} Agent readiness of ${code(r.domain)}: ${r.score}/100 (${r.grade})`, ''];
  out.push('| | score | grade | scanned |', '|---|---:|:---:|---|');
  out.push(`| this run | **${r.score}** | **${r.grade}** | ${day(r.scannedAt)} |`);
  if (r.baseline) {
    out.push(`| baseline (${cell(r.baseline.source)}) | ${r.baseline.score} | ${r.baseline.grade} | ${day(r.baseline.scannedAt)} |`);
    out.push(`| change | **${signed(r.delta ?? 0)}** | ${r.grade === r.baseline.grade ? '=' : `${r.baseline.grade} → ${r.grade}`} | |`);
  }
  out.push('');
  if (r.verdict.passed) out.push(`**Gate passed**${rules(r)}.`);
  else out.push(`**Gate failed**${rules(r)}:`, ...r.verdict.failures.map((f) => `- ${f}`));
  out.push('');
  if (r.baseline) {
    if (r.changes.length === 0) out.push('No check changed against the baseline.', '');
    else {
      // A long list (another site, a catalog change) stays folded so the verdict keeps the top of the comment.
      const open = r.changes.length <= MAX_OPEN_ROWS ? ' open' : '';
      out.push(`<details${open}><summary>Checks that changed (${r.changes.length})</summary>`, '', ...changeTable(r.changes), '', '</details>', '');
    }
  }
  if (r.toFix.length > 0) {
    const open = r.toFix.length <= MAX_OPEN_ROWS && r.changes.length === 0 ? ' open' : '';
    out.push(`<details${open}><summary>Checks to fix (${r.toFix.length})</summary>`, '', ...fixTable(r.toFix), '', '</details>', '');
  }
  out.push(`<sub>${r.reportUrl ? `[Full report](${r.reportUrl}) · ` : ''}${r.mode === 'local' ? 'scanned locally' : 'scanned by the service'} with \`arl check\`</sub>`);
  return `${out.join('\n')}\n`;
}

function changeTable(changes: readonly CheckChange[]): string[] {
  return [
    '| | check | layer | before | now | points | fix |',
    '|---|---|---|---|---|---:|---|',
    ...changes.map((c) => `| ${c.direction === 'worse' ? '🔻' : c.direction === 'better' ? '🔺' : '➖'} | ${cell(c.name)} (${code(c.id)}) | ${c.layer} | ${statusWord(c.before)} | ${statusWord(c.after)} | ${signed(c.delta)} | ${c.fix ? cell(c.fix) : ''} |`),
  ];
}

function fixTable(checks: readonly GateCheck[]): string[] {
  return [
    '| | check | layer | fix |',
    '|---|---|---|---|',
    ...checks.map((c) => `| ${c.status === 'failed' ? '❌' : '⚠️'} | ${cell(c.name)} (${code(c.id)}) | ${c.layer} | ${c.fix ? cell(c.fix) : ''} |`),
  ];
}

function rules(r: GateResult): string {
  const parts: string[] = [];
  if (r.failUnder !== null) parts.push(`threshold ${r.failUnder}`);
  if (r.baseline) parts.push(r.maxDrop > 0 ? `at most ${r.maxDrop} points below the baseline` : 'no drop below the baseline');
  if (r.failOnGradeDrop) parts.push('no lower grade');
  if (r.failOnCheckDrop) parts.push('no check worse');
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** Table cells: one line, pipes and HTML neutralised (fix texts quote what a site served). */
export function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|');
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

// `--format github`: workflow commands on stdout (one ::error per reason the gate failed and per check that got
// worse, one ::warning per check still to fix) and the markdown comment appended to $GITHUB_STEP_SUMMARY.
// Escaping follows the runner's rules for command data and properties (actions/toolkit, command.ts).
import * as fs from 'node:fs';
import type { GateResult } from '../model';
import { formatMarkdown } from './markdown';
import { statusWord } from './words';

export function formatGithub(r: GateResult): string {
  const lines: string[] = [];
  for (const failure of r.verdict.failures) lines.push(command('error', `Agent readiness of ${r.domain}`, failure));
  for (const c of r.changes.filter((x) => x.direction === 'worse')) {
    lines.push(command('error', `${c.name} (${c.id})`, `${statusWord(c.before)} → ${statusWord(c.after)}${c.fix ? `. Fix: ${c.fix}` : ''}`));
  }
  const worse = new Set(r.changes.filter((x) => x.direction === 'worse').map((x) => x.id));
  for (const c of r.toFix.filter((x) => !worse.has(x.id))) {
    lines.push(command(c.status === 'failed' ? 'warning' : 'notice', `${c.name} (${c.id})`, c.fix ?? statusWord(c.status)));
  }
  lines.push(`Agent readiness of ${r.domain}: ${r.score}/100 (${r.grade}), gate ${r.verdict.passed ? 'passed' : 'failed'}.`);
  return `${lines.join('\n')}\n`;
}

/** Appends the comment to the job summary when the runner names one (nothing to do outside Actions). */
export function writeStepSummary(r: GateResult, file: string | undefined): boolean {
  if (!file) return false;
  fs.appendFileSync(file, `${formatMarkdown(r)}\n`);
  return true;
}

export function errorAnnotation(message: string): string {
  return `${command('error', 'arl check', message)}\n`;
}

function command(kind: 'error' | 'warning' | 'notice', title: string, message: string): string {
  return `::${kind} title=${escapeProperty(title)}::${escapeData(message)}`;
}

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

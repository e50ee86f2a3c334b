// The same content as the HTML pages, as Markdown, for agents that send `Accept: text/markdown`.
import { LAYERS } from '@arl/client';
import { errorAdvice, errorTitle } from '../pages/ErrorPage';
import { ENDING_LABELS, LAYER_NAMES, STATUS_LABELS, TASK_LABELS, formatTime, humanStep, rankMovement, scoreMovement } from '../shared/format';
import type { PageData } from '../shared/page-data';
import { PUBLIC_FIGURES } from '../shared/public-figures';
import { companyHref, compareHref, leaderboardHref } from '../shared/urls';
import { movementOf } from '../pages/WatchParts';

/**
 * Other people's words as Markdown text: company and category names (a scanned site chooses its own), a visitor's
 * search. Every character CommonMark or GitHub could read as syntax (links, images, emphasis, code, headings, tables,
 * strike-through, raw HTML) is backslash-escaped, so the text renders as the words it is and never as markup.
 */
export const mdText = (s: string): string => s.replace(/[\\`*_[\]()<>#|!~]/g, '\\$&');
/** A table cell: pipes escaped (those mdText escaped already are left as they are), line breaks folded. */
const cell = (s: string | number | null | undefined) => String(s ?? '—').replace(/(?<!\\)\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const row = (cells: Array<string | number | null | undefined>) => `| ${cells.map(cell).join(' | ')} |`;

export function toMarkdown(data: PageData, publicUrl: string): string {
  const abs = (p: string) => `${publicUrl}${p}`;
  const lines: string[] = [];
  switch (data.page) {
    case 'leaderboard': {
      lines.push('# Agent-Readiness Leaderboard', '');
      lines.push('Companies ranked by how ready their websites, APIs and MCP servers are for AI agents.', '');
      const filters = [data.query.q && `search "${mdText(data.query.q)}"`, data.query.category && `category ${mdText(data.query.category)}`, data.query.community && 'community scans included'].filter(Boolean);
      lines.push(`${data.list.total} ${data.list.total === 1 ? 'company' : 'companies'}${filters.length ? ` (${filters.join(', ')})` : ''}.`, '');
      if (data.list.items.length > 0) {
        lines.push(row(['Rank', 'Company', 'Domain', 'Category', 'Score', 'Grade', '7-day score', '7-day rank', 'New this week']));
        lines.push(row(['---:', '---', '---', '---', '---:', '---', '---', '---', '---']).replace(/\\\|/g, '|'));
        for (const e of data.list.items) {
          lines.push(row([e.rank, `[${mdText(e.company.name)}](${abs(companyHref(e.company.domain, data.query.community === 'include'))})`, e.company.domain, e.company.category && mdText(e.company.category.name), e.score, e.grade, scoreMovement(e.scoreChange7d).sign, rankMovement(e.rankChange7d).sign, e.newThisWeek ? 'yes' : 'no']));
        }
        lines.push('');
        if (data.list.nextCursor) lines.push(`[Next page](${abs(leaderboardHref({ ...data.query, cursor: data.list.nextCursor }))})`, '');
      } else if (data.coverage) {
        const c = data.coverage;
        lines.push('## Nothing is ranked yet', '');
        lines.push(`Of ${c.curated} seeded companies: ${c.scored} scored, ${c.queued} waiting for their scan, ${c.running} being scanned, ${c.unscored} scanned without a score, ${c.neverScanned} not scanned yet.`, '');
        for (const cause of c.causes) lines.push(`- ${ENDING_LABELS[cause.ending]}: ${cause.cause} (${cause.companies})`);
        if (c.causes.length) lines.push('');
        if (c.community > 0) lines.push(`${c.community} community companies have a score: ${abs(leaderboardHref({ community: 'include' }))}`, '');
        lines.push('Offline, `npm run demo` scans the sandbox fixture sites and lists them as community companies.', '');
      }
      lines.push(`API: ${abs('/v1/leaderboard')} · Methodology: ${abs('/methodology')} · Reference: ${abs('/docs')}`);
      break;
    }
    case 'company': {
      const c = data.company;
      lines.push(`# ${mdText(c.name)}`, '', `Website: ${mdText(c.website)} · Category: ${c.category ? mdText(c.category.name) : 'none'} · Source: ${c.source}`, '');
      if (c.score !== null) {
        lines.push(`- Score: **${c.score}/100**, grade **${c.grade}**`);
        lines.push(`- Rank: ${c.rank !== null ? `${c.rank} of ${c.rankedCompanies}` : 'not ranked'}; in category: ${c.categoryRank !== null ? `${c.categoryRank} of ${c.categoryRankedCompanies}` : '—'}`);
        lines.push(`- 7 days: score ${scoreMovement(c.scoreChange7d).words}; rank ${rankMovement(c.rankChange7d).words}`);
        lines.push(`- Scanned: ${formatTime(c.scannedAt)}`, '');
        if (c.summary) lines.push(c.summary, '');
      } else {
        lines.push('Not scored yet: no scan of this company has finished.', '');
      }
      const layers = c.layers ?? data.report?.layers ?? [];
      if (layers.length) {
        lines.push('## Layers', '', row(['Layer', 'Weight', 'Score']), '| --- | ---: | ---: |');
        for (const l of layers) lines.push(row([LAYER_NAMES[l.id], `${l.weight}%`, l.score ?? 'no score']));
        lines.push('');
      }
      if (data.disputes.length) {
        lines.push('## Disputes', '');
        for (const d of data.disputes) lines.push(`- ${d.checkName} (\`${d.checkId}\`), disputed as ${d.disputedStatus} in scan ${d.scanId}: **${d.state}**. ${d.outcome}`);
        lines.push('');
      }
      if (data.history && data.history.items.length) {
        lines.push(`## History (last ${data.history.days} days)`, '', row(['Date', 'Score', 'Grade', 'Rank']), '| --- | ---: | --- | ---: |');
        for (const p of data.history.items) lines.push(row([p.at.slice(0, 10), p.score, p.grade, p.rank]));
        lines.push('');
      }
      if (data.moved) {
        lines.push(`## What moved in the last ${data.moved.days} days`, '');
        if (!data.moved.items.length) lines.push('No check changed status.');
        for (const m of data.moved.items) lines.push(`- ${m.name} (\`${m.checkId}\`): ${STATUS_LABELS[m.from].text} → ${STATUS_LABELS[m.to].text} on ${m.at.slice(0, 10)}, ${m.earnedChange >= 0 ? '+' : ''}${m.earnedChange} pts`);
        lines.push('');
      }
      const checks = data.report?.checks ?? c.checks ?? [];
      if (checks.length) {
        lines.push('## Checks', '');
        if (data.report) lines.push(`From scan ${data.report.scanId} (${formatTime(data.report.scannedAt)}).`, '');
        for (const layer of LAYERS) {
          const inLayer = checks.filter((k) => k.layer === layer);
          if (!inLayer.length) continue;
          lines.push(`### ${LAYER_NAMES[layer]}`, '');
          for (const k of inLayer) {
            const full = k as typeof k & { evidence?: { detail: string; url: string | null }; fix?: string | null };
            const moved = movementOf(data.changes, k.id);
            lines.push(`- **${STATUS_LABELS[k.status].text}** — ${k.name} (\`${k.id}\`, ${k.earned}/${k.points} pts, ${k.tier})${moved ? ` — ${moved}` : ''}`);
            if (full.evidence) lines.push(`  - Found: ${full.evidence.detail}${full.evidence.url ? ` (${full.evidence.url})` : ''}`);
            if (full.fix) lines.push(`  - Fix: ${full.fix}`);
          }
          lines.push('');
        }
      }
      lines.push(`Compare: ${abs(compareHref([c.domain], data.community))}&add=other.com · Badge: \`[![Agent readiness of ${mdText(c.name.replace(/`/g, ''))}](${data.badge.image})](${data.badge.page})\``);
      break;
    }
    case 'compare': {
      lines.push('# Compare companies', '');
      const cmp = data.comparison;
      if (!cmp) {
        lines.push(`Give two to four domains: ${abs('/compare?domains=a.com,b.com')}`);
        break;
      }
      const names = cmp.companies.map((x) => mdText(x.name));
      const ahead = (leaders: string[], i: number) => (leaders.includes(cmp.companies[i].domain) ? ' (ahead)' : '');
      lines.push(row(['Measure', ...names]), row(['---', ...names.map(() => '---')]).replace(/\\\|/g, '|'));
      lines.push(row(['Score', ...cmp.companies.map((x, i) => (x.score === null ? 'not scored' : `${x.score} ${x.grade}${ahead(cmp.score.leaders, i)}`))]));
      lines.push(row(['Rank', ...cmp.companies.map((x, i) => (x.rank === null ? 'not ranked' : `${x.rank}${ahead(cmp.rank.leaders, i)}`))]));
      for (const l of cmp.layers) lines.push(row([`${LAYER_NAMES[l.id]} (${l.weight}%)`, ...l.values.map((v, i) => (v === null ? '—' : `${v}${ahead(l.leaders, i)}`))]));
      for (const k of cmp.checks) lines.push(row([`${k.name} (\`${k.id}\`)`, ...k.statuses.map((st, i) => (st === null ? 'not run' : `${STATUS_LABELS[st].text} ${k.values[i]}/${k.points}${ahead(k.leaders, i)}`))]));
      lines.push('', `API: ${abs(`/v1/leaderboard/compare?domains=${cmp.companies.map((x) => x.domain).join(',')}`)}`);
      break;
    }
    case 'scan': {
      if (!data.scan) {
        lines.push('# Scan a site', '', 'Start a scan with the API: `POST /v1/leaderboard/scans` with `{"url": "https://example.com"}` (optional `email`).', '');
        lines.push(`Follow it at /v1/leaderboard/scans/{id}/events (Server-Sent Events). Reference: ${abs('/docs')}`);
        break;
      }
      const s = data.scan;
      lines.push(`# Scan of ${s.domain}`, '');
      if (data.joined) lines.push('You joined a scan that was already running.', '');
      lines.push(s.state === 'ended' ? `Ended: ${ENDING_LABELS[s.ending!]}. ${s.cause ?? ''}` : `In progress: ${humanStep(s.state)}.`, '');
      if (s.score !== undefined) lines.push(`Score: **${s.score}/100**, grade **${s.grade}**. Company: ${abs(companyHref(s.domain, true))}`, '');
      lines.push('## Steps', '');
      for (const e of s.events) lines.push(`1. ${humanStep(e.step)} (${formatTime(e.at)})`);
      break;
    }
    case 'journey': {
      lines.push(`# An agent on ${data.companyName}`, '');
      if (!data.journey) {
        lines.push(`Start a journey with \`POST /v1/leaderboard/companies/${data.domain}/journeys\` and a task: ${Object.keys(TASK_LABELS).join(', ')}.`);
        break;
      }
      const j = data.journey;
      lines.push(`Task: ${TASK_LABELS[j.task]} · State: ${j.state}${j.outcome ? ` · Outcome: ${j.outcome}` : ''}`, '');
      if (j.cause) lines.push(j.cause, '');
      lines.push('## Steps', '');
      for (const s of j.steps) lines.push(`1. ${s.action} ${s.url}${s.seen ? ` — ${s.seen}` : ''}`);
      lines.push('', '## Evidence', '');
      for (const ev of j.evidence) lines.push(`- ${ev.kind}: ${ev.detail}${ev.url ? ` (${ev.url})` : ''}`);
      break;
    }
    case 'methodology': {
      const m = data.methodology;
      lines.push('# Methodology', '', `Catalog ${m.catalogVersion}: ${m.checks.length} checks in four layers.`, '');
      lines.push('## The formula', '');
      lines.push(`- Points by tier: required ${m.tierPoints.required}, recommended ${m.tierPoints.recommended}, emerging ${m.tierPoints.emerging}.`);
      lines.push(`- Credit by status: passed ${m.statusCredit.passed}, warning ${m.statusCredit.warning}, failed ${m.statusCredit.failed}.`);
      lines.push(`- Layer weights: ${m.layers.map((l) => `${LAYER_NAMES[l.id]} ${l.weight}%`).join(', ')}.`);
      lines.push(`- Caps: base at most ${m.caps.baseCeiling}; a failed required check caps at ${m.caps.requiredFailure}.`);
      lines.push(`- Bonus: ${m.bonus.pointsPerCheck} points per bonus check when the base is at least ${m.bonus.minimumBase}.`);
      lines.push(`- Capabilities: ${m.capabilities.pointsPerCapability} points each (${m.capabilities.items.map((c) => c.name).join('; ')}).`);
      lines.push(`- Grades: ${m.gradeBands.map((g) => `${g.grade} from ${g.min}`).join(', ')}.`, '');
      lines.push('## The checks', '', row(['Check', 'Id', 'Layer', 'Tier', 'Points', 'Applies to', 'What it looks for']), '| --- | --- | --- | --- | ---: | --- | --- |');
      for (const c of m.checks) lines.push(row([c.name, `\`${c.id}\``, LAYER_NAMES[c.layer], c.tier + (c.bonus ? ' (bonus)' : ''), c.points, c.appliesTo.join(', '), c.description]));
      lines.push('', '## Public figures and our definitions', '');
      for (const f of PUBLIC_FIGURES.filter((p) => m.checks.some((c) => c.id === p.checkId))) {
        lines.push(`- \`${f.checkId}\`, ${f.source}: ${f.figure} How ours differs: ${f.differs}`);
      }
      lines.push('', `Our figures: ${abs('/stats')}`);
      break;
    }
    case 'stats': {
      const s = data.stats;
      const pct = (x: number) => `${(x * 100).toFixed(x > 0 && x < 0.1 ? 1 : 0)} %`;
      lines.push('# The state of agent readiness', '');
      lines.push(`${s.rankedCompanies} ranked companies (${s.category ? `category ${mdText(s.category.name)}, ` : ''}${s.population === 'all' ? 'curated and community' : 'curated'}); ${s.countedCompanies} counted. Methodology ${s.methodologyVersion}: ${abs('/methodology')}`, '');
      lines.push('## Every check', '', row(['Check', 'Companies', 'Passed', 'Warning', 'Failed', 'Not applicable', 'Could not check']), '| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
      for (const c of s.checks) {
        lines.push(row([`[${c.name}](${abs(`/methodology#check-${c.id}`)})`, c.companies, pct(c.shares.passed), pct(c.shares.warning), pct(c.shares.failed), pct(c.shares.notApplicable), pct(c.shares.couldntCheck)]));
      }
      lines.push('', '## Grades', '');
      for (const g of s.grades) lines.push(`- ${g.grade}: ${g.companies} (${pct(g.share)})`);
      lines.push('', '## Layers (quartiles)', '');
      for (const l of s.layers) lines.push(`- ${LAYER_NAMES[l.id]}: ${l.quartiles ? `${l.quartiles.min} / ${l.quartiles.q1} / ${l.quartiles.median} / ${l.quartiles.q3} / ${l.quartiles.max}` : 'no score'} (${l.scored} scored)`);
      if (s.categories.length > 0) {
        lines.push('', '## By category', '', row(['Category', 'Companies', 'Median score']), '| --- | ---: | ---: |');
        for (const c of s.categories) lines.push(row([mdText(c.category.name), c.rankedCompanies, c.score?.median ?? null]));
      }
      lines.push('', '## Weekly pass shares', '');
      for (const w of s.weekly) lines.push(`- Week ending ${w.weekEnding}${w.partial ? ' (so far)' : ''}: ${w.companies} companies; ${w.checks.filter((c) => c.companies > 0).slice(0, 6).map((c) => `${c.id} ${pct(c.share)}`).join(', ')}`);
      lines.push('', '## The open dataset (CC BY 4.0)', '');
      for (const f of s.dataset.formats) lines.push(`- ${f.format.toUpperCase()}: ${f.url}`);
      lines.push(`- License: ${s.dataset.licenseUrl}`, `- These figures as JSON: ${abs('/v1/leaderboard/stats')}`);
      break;
    }
    case 'error': {
      lines.push(`# ${errorTitle(data.status)}`, '', errorAdvice(data.status, data.retryAfterSeconds), '');
      lines.push(`- Status: ${data.status}`, `- Code: ${data.code}`, `- Message: ${data.message}`, `- Request id: ${data.requestId}`, '', `Leaderboard: ${abs('/')}`);
      break;
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

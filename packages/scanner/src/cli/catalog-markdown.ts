import { CHECK_CATALOG } from '../checks/catalog';
import { CATALOG_VERSION } from '../version';
import { changelogMarkdown } from '../checks/changelog';

export function catalogMarkdown(): string {
  const rows = CHECK_CATALOG.map((c) => `| \`${c.id}\` | ${c.name} | ${c.layer} | ${c.tier} | ${c.label ?? ''} | ${c.bonus ? 'yes' : ''} | ${c.points} | ${c.appliesTo.join(', ')} |`);
  return [
    `Check catalog ${CATALOG_VERSION} (${CHECK_CATALOG.length} checks)`,
    '',
    '| id | name | layer | tier | label | bonus | points | applies to |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'What each check applies (the standard and section, or why the rule is our own):',
    '',
    ...CHECK_CATALOG.map((c) => `- \`${c.id}\`: ${c.source}.`),
    '',
    changelogMarkdown(),
  ].join('\n');
}

/**
 * Not part of `npm test`: prints the corpus score table for the closing notes.
 *   npx jest --testMatch '<rootDir>/test/corpus/print-scores.run.ts' (SCORE_TABLE_OUT=/path/file.md to write it to a file)
 */
import fs from 'node:fs';
import { corpusScoreTable, personaScoreTable, scoreTableMarkdown } from './score-table';
import { CORPUS_TABLE_ENTRIES } from './table-entries';

it('prints the corpus score table', async () => {
  const markdown = [scoreTableMarkdown(await corpusScoreTable(CORPUS_TABLE_ENTRIES)), '', scoreTableMarkdown(await personaScoreTable())].join('\n');
  if (process.env.SCORE_TABLE_OUT) fs.writeFileSync(process.env.SCORE_TABLE_OUT, `${markdown}\n`);
  process.stdout.write(`${markdown}\n`);
}, 240000);

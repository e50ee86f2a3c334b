import path from 'node:path';
import { formatCorpusTable, listCorpusFiles, scanCorpus, verdictCounts } from '../corpus/run';

const USAGE = `Usage: npm run corpus -- <folder> [--json] [--concurrency N]

Scans every file of <folder> (llms.txt, robots.txt, A2A agent cards, OpenAPI documents), each served from its own
loopback site at the path its kind lives at, and prints a verdict table: file, kind, check, status, first message.
The kind comes from <folder>/manifest.json when there is one ({"files": [{"kind", "file", "content_type"}]}), else
from each file's path and content. Nothing but loopback is fetched. --json prints {rows, counts, skipped} instead.
`;

/** `npm run corpus -- <folder>`: the exit code is 0 when every file was scanned, 2 on a usage error. */
export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const json = argv.includes('--json');
  const at = argv.indexOf('--concurrency');
  const concurrency = at >= 0 ? Number(argv[at + 1]) : 3;
  const folders = argv.filter((a, i) => !a.startsWith('--') && !(at >= 0 && i === at + 1));
  if (argv.includes('--help') || folders.length !== 1 || !Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
    (argv.includes('--help') ? out : err).write(USAGE);
    return argv.includes('--help') ? 0 : 2;
  }
  // npm runs scripts from the package's folder; a relative path means the folder the command was typed in.
  const folder = path.resolve(process.env.INIT_CWD ?? process.cwd(), folders[0]);
  let listed;
  try {
    listed = await listCorpusFiles(folder);
  } catch (error) {
    err.write(`Cannot read ${folder}: ${(error as Error).message}\n`);
    return 2;
  }
  const rows = await scanCorpus(listed.files, { concurrency, onFile: json ? undefined : (done, total) => err.write(`\rscanned ${done}/${total}`) });
  if (!json) err.write('\n');
  if (json) out.write(`${JSON.stringify({ rows, counts: verdictCounts(rows), skipped: listed.skipped }, null, 2)}\n`);
  else out.write(formatCorpusTable(rows) + (listed.skipped.length > 0 ? `\nskipped (kind unknown): ${listed.skipped.join(', ')}\n` : ''));
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}

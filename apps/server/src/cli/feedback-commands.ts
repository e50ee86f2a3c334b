// The owner CLI's commands over a Runtime: projects, invitation tokens, reports. Output goes to `out` (data) and
// `info` (messages for the person at the terminal).
import type { Writable } from 'node:stream';
import { parseInterval } from '../config';
import { InviteTokens, TOKEN as INVITE_TOKEN } from '../feedback/invite-token';
import type { Runtime } from '../runtime';
import { exportReports, type ExportFormat } from './feedback-export';

export class UsageError extends Error {
  constructor(message: string, readonly exitCode?: number) {
    super(message);
    this.name = 'UsageError';
  }
}

export const USAGE = `Usage: npm run feedback -- <command> [options]

Projects
  project create <slug> --name <text> [--invitation <text>] [--guidance <text>]
                 [--accepting true|false] [--signed-only true|false]
  project update <slug> [--name <text>] [--invitation <text>] [--guidance <text>]
                 [--accepting true|false] [--signed-only true|false]
  project list

Invitation tokens (for signed-only projects; a token goes in a report's "invite" field)
  invite issue <slug> [--expires 30d|12h|<ISO date>] [--note <text>]   prints the token
  invite revoke <token-or-id>
  invite list <slug>

Reports
  reports list <slug> [--limit 20]                  newest first
  reports export <slug> --format jsonl|csv [--out <file>]   oldest first, streamed

Slugs: 1-64 characters, lowercase letters, digits and single hyphens. Defaults for a new project: accepting true,
signed-only false, empty invitation and guidance. Uses the same environment as \`npm start\` (DATABASE_URL, DATA_DIR,
FEEDBACK_INVITE_SECRET, ...). Exit codes: 0 done, 1 failed, 2 usage error.
Data on stdout: \`npm run -s feedback -- ...\` (npm prints its "> script" banner on stdout without -s), or --out <file>.
`;

const SLUG = /^[a-z0-9](?:-?[a-z0-9])*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_INVITE_DAYS = 30;
const MAX_LIST = 1000;

type Values = Record<string, string | boolean | undefined>;

/** Checks a command's shape (name, options, arguments, values) without a database, so usage errors are instant. */
export function checkFeedbackCommand(positionals: string[], values: Values): { key: string; args: string[] } {
  const [group, action, ...args] = positionals;
  const key = `${group ?? ''} ${action ?? ''}`.trim();
  const allowed = ALLOWED_OPTIONS[key];
  if (!allowed) throw new UsageError(`Unknown command "${positionals.join(' ')}".`);
  const extra = Object.keys(values).filter((o) => values[o] !== undefined && !allowed.includes(o));
  if (extra.length > 0) throw new UsageError(`"${key}" does not take --${extra.join(', --')}.`);
  const wantArgs = key === 'project list' ? 0 : 1;
  if (args.length !== wantArgs) throw new UsageError(`"${key}" takes ${wantArgs === 0 ? 'no argument' : 'exactly one argument'}.`);
  if (wantArgs === 1 && key !== 'invite revoke') slugOf(args[0]);
  if (key === 'invite revoke' && !UUID.test(args[0]) && !INVITE_TOKEN.test(args[0])) {
    throw new UsageError('invite revoke takes an invitation token or its id (a UUID).');
  }
  if (key.startsWith('project ')) projectFields(values);
  if (key === 'project create' && values.name === undefined) throw new UsageError('project create needs --name.');
  if (key === 'invite issue') expiryOf(values.expires as string | undefined, new Date());
  if (key === 'reports list') intOf(values.limit as string | undefined, 20, 1, MAX_LIST, '--limit');
  if (key === 'reports export' && values.format !== 'jsonl' && values.format !== 'csv') throw new UsageError('reports export needs --format jsonl or --format csv.');
  return { key, args };
}

export async function runFeedbackCommand(runtime: Runtime, positionals: string[], values: Values, out: Writable, info: Writable): Promise<void> {
  const { key, args } = checkFeedbackCommand(positionals, values);
  const say = (line: string) => info.write(`${line}\n`);
  const { prisma } = runtime.db;

  switch (key) {
    case 'project create': {
      const slug = slugOf(args[0]);
      if (values.name === undefined) throw new UsageError('project create needs --name.');
      if (await prisma.feedbackProject.findUnique({ where: { slug } })) throw new UsageError(`Project "${slug}" already exists; use project update.`, 1);
      const project = await prisma.feedbackProject.create({
        data: { slug, invitation: '', guidance: '', ...projectFields(values) } as never,
      });
      say(`Created project "${project.slug}".`);
      out.write(`${JSON.stringify(describe(runtime, project))}\n`);
      return;
    }
    case 'project update': {
      const slug = slugOf(args[0]);
      const fields = projectFields(values);
      if (Object.keys(fields).length === 0) throw new UsageError('project update needs at least one of --name, --invitation, --guidance, --accepting, --signed-only.');
      await projectId(runtime, slug);
      const project = await prisma.feedbackProject.update({ where: { slug }, data: fields });
      say(`Updated project "${project.slug}".`);
      out.write(`${JSON.stringify(describe(runtime, project))}\n`);
      return;
    }
    case 'project list': {
      const projects = await prisma.feedbackProject.findMany({ orderBy: { slug: 'asc' }, include: { _count: { select: { reports: true } } } });
      if (projects.length === 0) say('No projects yet: npm run feedback -- project create <slug> --name <text>');
      for (const p of projects) {
        out.write(`${p.slug}\t${p.accepting ? 'accepting' : 'closed'}\t${p.signedOnly ? 'signed-only' : 'open'}\t${p._count.reports} reports\t${p.name}\n`);
      }
      return;
    }
    case 'invite issue': {
      const slug = slugOf(args[0]);
      const id = await projectId(runtime, slug);
      const expiresAt = expiryOf(values.expires as string | undefined, runtime.clock());
      const note = values.note as string | undefined;
      if (note !== undefined && note.length > 500) throw new UsageError('--note is at most 500 characters.');
      const invite = await prisma.feedbackInvite.create({ data: { projectId: id, expiresAt, note: note ?? null } });
      out.write(`${new InviteTokens(runtime.secrets.invite).issue(invite.id, id)}\n`);
      say(`Invitation ${invite.id} for "${slug}", valid until ${expiresAt.toISOString()}. Revoke with: npm run feedback -- invite revoke ${invite.id}`);
      const project = await prisma.feedbackProject.findUniqueOrThrow({ where: { id } });
      if (!project.signedOnly) say(`Note: "${slug}" is not signed-only, so it accepts reports without a token too (project update ${slug} --signed-only true).`);
      return;
    }
    case 'invite revoke': {
      const tokens = new InviteTokens(runtime.secrets.invite);
      const given = args[0];
      const id = UUID.test(given) ? given.toLowerCase() : tokens.idOf(given);
      if (!id) throw new UsageError('invite revoke takes an invitation token or its id (a UUID).');
      const invite = await prisma.feedbackInvite.findUnique({ where: { id } });
      if (!invite || (!UUID.test(given) && tokens.verify(given, invite.projectId) === null)) throw new UsageError('No such invitation (or the token was not issued with this FEEDBACK_INVITE_SECRET).', 1);
      if (invite.revokedAt) {
        say(`Invitation ${id} was already revoked at ${invite.revokedAt.toISOString()}.`);
        return;
      }
      await prisma.feedbackInvite.update({ where: { id }, data: { revokedAt: runtime.clock() } });
      say(`Revoked invitation ${id}.`);
      return;
    }
    case 'invite list': {
      const id = await projectId(runtime, slugOf(args[0]));
      const now = runtime.clock().getTime();
      const invites = await prisma.feedbackInvite.findMany({ where: { projectId: id }, orderBy: { createdAt: 'asc' }, take: MAX_LIST });
      if (invites.length === 0) say('No invitations.');
      for (const i of invites) {
        const state = i.revokedAt ? 'revoked' : i.expiresAt.getTime() <= now ? 'expired' : 'active';
        out.write(`${i.id}\t${state}\texpires ${i.expiresAt.toISOString()}\t${i.note ?? ''}\n`);
      }
      return;
    }
    case 'reports list': {
      const id = await projectId(runtime, slugOf(args[0]));
      const limit = intOf(values.limit as string | undefined, 20, 1, MAX_LIST, '--limit');
      const reports = await prisma.feedbackReport.findMany({ where: { projectId: id }, orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }], take: limit });
      if (reports.length === 0) say('No reports yet.');
      for (const r of reports) {
        const body = r.body as Record<string, unknown>;
        const observation = String(body.observation ?? '').replace(/\s+/g, ' ');
        out.write(`${r.receivedAt.toISOString()}\t${r.id}\t${String(body.outcome ?? '')}\t${observation.length > 100 ? `${observation.slice(0, 99)}…` : observation}\n`);
      }
      return;
    }
    case 'reports export': {
      const id = await projectId(runtime, slugOf(args[0]));
      const format = values.format;
      if (format !== 'jsonl' && format !== 'csv') throw new UsageError('reports export needs --format jsonl or --format csv.');
      const count = await exportReports(runtime.db, id, format as ExportFormat, out);
      say(`Exported ${count} report(s) as ${format}.`);
      return;
    }
  }
}

const PROJECT_OPTIONS = ['name', 'invitation', 'guidance', 'accepting', 'signed-only'];
const ALLOWED_OPTIONS: Record<string, string[]> = {
  'project create': PROJECT_OPTIONS,
  'project update': PROJECT_OPTIONS,
  'project list': [],
  'invite issue': ['expires', 'note'],
  'invite revoke': [],
  'invite list': [],
  'reports list': ['limit'],
  'reports export': ['format', 'out'],
};

function slugOf(raw: string): string {
  if (raw.length > 64 || !SLUG.test(raw)) throw new UsageError(`Invalid slug "${raw}": 1-64 characters, lowercase letters, digits and single hyphens.`);
  return raw;
}

async function projectId(runtime: Runtime, slug: string): Promise<string> {
  const project = await runtime.db.prisma.feedbackProject.findUnique({ where: { slug }, select: { id: true } });
  if (!project) throw new UsageError(`No project "${slug}" (see: npm run feedback -- project list).`, 1);
  return project.id;
}

function projectFields(values: Values): { name?: string; invitation?: string; guidance?: string; accepting?: boolean; signedOnly?: boolean } {
  const text = (option: string, min: number, max: number): string | undefined => {
    const value = values[option] as string | undefined;
    if (value === undefined) return undefined;
    if (value.length < min || value.length > max) throw new UsageError(`--${option} must be ${min} to ${max} characters.`);
    return value;
  };
  const flag = (option: string): boolean | undefined => {
    const value = values[option] as string | undefined;
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') throw new UsageError(`--${option} must be true or false.`);
    return value === 'true';
  };
  const fields = {
    name: text('name', 1, 200),
    invitation: text('invitation', 0, 4000),
    guidance: text('guidance', 0, 4000),
    accepting: flag('accepting'),
    signedOnly: flag('signed-only'),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

function expiryOf(raw: string | undefined, now: Date): Date {
  if (raw === undefined) return new Date(now.getTime() + DEFAULT_INVITE_DAYS * 86_400_000);
  const ms = parseInterval(raw);
  const at = typeof ms === 'number' ? new Date(now.getTime() + ms) : /^\d{4}-\d{2}-\d{2}/.test(raw) ? new Date(raw) : null;
  if (!at || Number.isNaN(at.getTime())) throw new UsageError(`--expires must be a duration like 30d, 12h, 90m or an ISO date (got "${raw}").`);
  if (at.getTime() <= now.getTime()) throw new UsageError('--expires must be in the future.');
  return at;
}

function intOf(raw: string | undefined, fallback: number, min: number, max: number, option: string): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`${option} must be an integer from ${min} to ${max}.`);
  return value;
}

function describe(runtime: Runtime, p: { slug: string; name: string; accepting: boolean; signedOnly: boolean; invitation: string; guidance: string }) {
  return {
    slug: p.slug,
    name: p.name,
    accepting: p.accepting,
    signedOnly: p.signedOnly,
    invitation: p.invitation,
    guidance: p.guidance,
    cardUrl: runtime.feedback.urls(p.slug).card,
  };
}

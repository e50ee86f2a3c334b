// The three tools the model may call, as JSON-schema functions, and the validation of what it sends back.

export const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'open_url',
      description: 'Open a web page by its absolute http(s) URL and read it.',
      parameters: { type: 'object', additionalProperties: false, required: ['url'], properties: { url: { type: 'string', description: 'Absolute http or https URL' } } },
    },
  },
  {
    type: 'function',
    function: {
      name: 'follow_link',
      description: 'Follow one of the numbered links of the page you read last.',
      parameters: { type: 'object', additionalProperties: false, required: ['link'], properties: { link: { type: 'integer', minimum: 0, description: 'The number shown before the link' } } },
    },
  },
  {
    type: 'function',
    function: {
      name: 'finish',
      description: 'Stop and report. Cite the URLs of the pages that show the answer.',
      parameters: {
        type: 'object',
        additionalProperties: false,
        required: ['success', 'answer'],
        properties: {
          success: { type: 'boolean', description: 'Whether the task was done' },
          answer: { type: 'string', description: 'What you found (or why you could not), in one or two sentences' },
          evidence_urls: { type: 'array', items: { type: 'string' }, description: 'URLs of the pages that show it' },
        },
      },
    },
  },
] as const;

export type ToolRequest =
  | { id: string; name: 'open_url'; url: string }
  | { id: string; name: 'follow_link'; link: number }
  | { id: string; name: 'finish'; success: boolean; answer: string; urls: string[] };

export type ParsedToolCall = { ok: true; call: ToolRequest } | { ok: false; id: string | null; error: string };

/** Validates one raw tool call. Never throws: a malformed call becomes an error the model is told about. */
export function parseToolCall(raw: unknown): ParsedToolCall {
  if (!raw || typeof raw !== 'object') return { ok: false, id: null, error: 'a tool call must be an object' };
  const call = raw as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
  const id = typeof call.id === 'string' && call.id ? call.id : null;
  const name = call.function?.name;
  if (typeof name !== 'string') return { ok: false, id, error: 'the tool call has no function name' };
  let args: unknown = call.function?.arguments ?? {};
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : JSON.parse(args);
    } catch {
      return { ok: false, id, error: `the arguments of ${name} are not valid JSON` };
    }
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) return { ok: false, id, error: `the arguments of ${name} must be a JSON object` };
  const a = args as Record<string, unknown>;
  const callId = id ?? 'call';
  switch (name) {
    case 'open_url': {
      if (typeof a.url !== 'string' || !/^https?:\/\//i.test(a.url)) return { ok: false, id, error: 'open_url needs {"url": an absolute http(s) URL}' };
      try {
        return { ok: true, call: { id: callId, name, url: new URL(a.url).href } };
      } catch {
        return { ok: false, id, error: 'open_url got a URL that does not parse' };
      }
    }
    case 'follow_link': {
      const link = typeof a.link === 'string' && /^\d+$/.test(a.link) ? Number(a.link) : a.link;
      if (typeof link !== 'number' || !Number.isInteger(link) || link < 0) return { ok: false, id, error: 'follow_link needs {"link": the number of a link on the last page}' };
      return { ok: true, call: { id: callId, name, link } };
    }
    case 'finish': {
      if (typeof a.success !== 'boolean' || typeof a.answer !== 'string') return { ok: false, id, error: 'finish needs {"success": boolean, "answer": string}' };
      const urls = Array.isArray(a.evidence_urls) ? a.evidence_urls.filter((u): u is string => typeof u === 'string').slice(0, 10) : [];
      return { ok: true, call: { id: callId, name, success: a.success, answer: a.answer.slice(0, 2000), urls } };
    }
    default:
      return { ok: false, id, error: `there is no tool named ${JSON.stringify(name.slice(0, 60))}; use open_url, follow_link or finish` };
  }
}

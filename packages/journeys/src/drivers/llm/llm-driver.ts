// The LLM agent: a chat-completions loop where the model browses with open_url / follow_link and stops with finish.
// The session enforces the page, time and byte budgets; this loop adds the token budget and tolerates a model
// that misbehaves (malformed or missing tool calls) up to a small number of strikes.
import { pathOf } from '../../evidence';
import type { PageLink, PageView } from '../../page/page-view';
import { BudgetExhausted, type BrowsingSession, type DriverContext } from '../../session';
import type { DriverVerdict, JourneyDriver } from '../../types';
import { chatCompletion, LlmEndpointError, withoutKey, type ChatMessage, type LlmConfig, type ToolCall } from './chat-client';
import { parseToolCall, TOOLS } from './tools';

const DEFAULTS = { maxTotalTokens: 60_000, maxCompletionTokens: 800, requestTimeoutMs: 30_000, maxPageChars: 6_000 };
/** Malformed tool calls in a row before the journey ends failed. */
const MAX_STRIKES = 3;
const MAX_LINKS_SHOWN = 60;

export function createLlmDriver(config: LlmConfig): JourneyDriver {
  const settings = { ...config, ...DEFAULTS, ...stripUndefined(config) } as LlmConfig & typeof DEFAULTS;
  return { name: 'llm', run: (context) => runLlm(settings, context) };
}

async function runLlm(config: LlmConfig & typeof DEFAULTS, { session, task, startUrl }: DriverContext): Promise<DriverVerdict> {
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: [
        'You are an AI agent browsing a company website on behalf of a user. You can only read pages, never submit forms.',
        `Task: ${task.goal}`,
        `You may open at most ${session.budgets.maxSteps} pages, so choose links carefully. Pages are summarised for you, with their links numbered.`,
        'Call exactly one tool per turn. When you have the answer, or cannot get it, call finish and cite the URLs that show it.',
      ].join('\n'),
    },
    { role: 'user', content: `Start at ${startUrl}` },
  ];
  let tokens = 0;
  let strikes = 0;
  let lastLinks: PageLink[] = [];
  let callCounter = 0;

  try {
    for (;;) {
      session.ensureBudget();
      if (tokens >= config.maxTotalTokens) return { stoppedBecause: `the token budget (${config.maxTotalTokens} tokens) ran out` };
      const turn = await ask(config, session, messages);
      tokens += turn.tokens;
      const calls = turn.toolCalls.map((raw) => ({ raw, parsed: parseToolCall(raw) }));
      const normalized: ToolCall[] = calls.map(({ raw, parsed }) => ({
        id: parsed.ok ? parsed.call.id : parsed.id ?? `call_${++callCounter}`,
        type: 'function',
        function: { name: String((raw as { function?: { name?: unknown } } | null)?.function?.name ?? 'unknown'), arguments: argumentsText(raw) },
      }));
      messages.push({ role: 'assistant', content: turn.content, ...(normalized.length > 0 ? { tool_calls: normalized } : {}) });

      if (calls.length === 0) {
        strikes++;
        if (strikes >= MAX_STRIKES) return { driverFailure: `The model stopped calling tools (${strikes} answers without a tool call in a row).` };
        messages.push({ role: 'user', content: 'Answer with a tool call: open_url, follow_link or finish.' });
        continue;
      }
      for (const [i, { parsed }] of calls.entries()) {
        const id = normalized[i].id;
        if (!parsed.ok) {
          strikes++;
          messages.push({ role: 'tool', tool_call_id: id, content: `Error: ${parsed.error}.` });
          if (strikes >= MAX_STRIKES) return { driverFailure: `The model sent malformed tool calls ${strikes} times in a row (last: ${parsed.error}).` };
          continue;
        }
        const call = parsed.call;
        if (call.name === 'finish') {
          await session.finish(`agent: ${call.success ? 'done' : 'gave up'}: ${call.answer}`);
          return { claim: { success: call.success, answer: call.answer, urls: call.urls } };
        }
        let url: string;
        if (call.name === 'follow_link') {
          const link = lastLinks[call.link];
          if (!link) {
            strikes++;
            messages.push({ role: 'tool', tool_call_id: id, content: `Error: there is no link number ${call.link} on the last page (${lastLinks.length} links).` });
            if (strikes >= MAX_STRIKES) return { driverFailure: `The model sent malformed tool calls ${strikes} times in a row (last: no link number ${call.link}).` };
            continue;
          }
          url = link.url;
        } else {
          url = call.url;
        }
        strikes = 0;
        const page = await session.open(url, call.name);
        lastLinks = page.links.filter((l) => /^(https?|mailto|tel):/i.test(l.url)).slice(0, MAX_LINKS_SHOWN);
        messages.push({ role: 'tool', tool_call_id: id, content: digest(page, lastLinks, session, config.maxPageChars) });
      }
    }
  } catch (err) {
    if (err instanceof BudgetExhausted) return { stoppedBecause: err.message };
    if (err instanceof LlmEndpointError) {
      config.onEndpointError?.(err);
      return { driverFailure: err.message };
    }
    throw err;
  }
}

async function ask(config: LlmConfig & typeof DEFAULTS, session: BrowsingSession, messages: ChatMessage[]) {
  const timeout = AbortSignal.timeout(config.requestTimeoutMs);
  try {
    return await chatCompletion(config, { messages, tools: [...TOOLS], maxTokens: config.maxCompletionTokens }, AbortSignal.any([session.signal, timeout]));
  } catch (err) {
    if (err instanceof LlmEndpointError) throw err;
    session.ensureBudget(); // the journey's own deadline or an interruption explain it best
    if (timeout.aborted) throw new LlmEndpointError(`The model endpoint did not answer within ${config.requestTimeoutMs} ms.`);
    // The network error may quote the URL (a key in it, too): our sentence in public, the detail for the log.
    const cause = (err as Error & { cause?: unknown }).cause;
    const providerMessage = withoutKey(`${(err as Error).message}${cause instanceof Error ? `: ${cause.message}` : ''}`, config.apiKey);
    throw new LlmEndpointError('The model endpoint could not be reached.', { providerMessage });
  }
}

/** What the model reads of a page: bounded, with the evidence our detectors saw and numbered links. */
function digest(page: PageView, links: PageLink[], session: BrowsingSession, maxChars: number): string {
  const lines = [`URL: ${page.finalUrl}`, `Status: ${page.status ?? 'no response'} (${page.access}${page.accessReason ? `: ${page.accessReason}` : ''})`];
  if (page.title) lines.push(`Title: ${page.title}`);
  if (page.description) lines.push(`Description: ${page.description.slice(0, 300)}`);
  if (page.scriptOnly) lines.push('Note: this page renders only with JavaScript; its text is empty.');
  const found = session.evidenceAt(page.url);
  if (found.length > 0) lines.push(`Found here: ${found.map((e) => `${e.kind}: ${e.detail}`).join(' | ').slice(0, 800)}`);
  if (page.forms.length > 0) lines.push(`Forms: ${page.forms.map((f) => `${f.method.toUpperCase()} ${pathOf(f.action)} [${f.inputs.map((i) => `${i.name}:${i.type}`).join(', ')}]`).join('; ').slice(0, 500)}`);
  const text = page.text.length > maxChars ? `${page.text.slice(0, maxChars)} [truncated]` : page.text;
  lines.push(`Text: ${text}`);
  lines.push('Links:', ...links.map((l, i) => `[${i}] ${l.text || '(no text)'} -> ${l.url}`));
  return lines.join('\n');
}

function argumentsText(raw: unknown): string {
  const args = (raw as { function?: { arguments?: unknown } } | null)?.function?.arguments;
  if (typeof args === 'string') return args.slice(0, 4000);
  try {
    return JSON.stringify(args ?? {}).slice(0, 4000);
  } catch {
    return '{}';
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

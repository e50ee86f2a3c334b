// A minimal client for an OpenAI-compatible chat completions endpoint with tool calls. Plain fetch: the endpoint is
// configured by the operator, so it is not behind the scan SSRF guard (every page the agent opens is).

export interface LlmConfig {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  apiKey: string;
  /** Tokens over the whole journey (prompt + completion, as the endpoint reports them). */
  maxTotalTokens?: number;
  /** max_tokens of one completion. */
  maxCompletionTokens?: number;
  /** One completion request at most. */
  requestTimeoutMs?: number;
  /** Characters of page text given to the model per page. */
  maxPageChars?: number;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatTurn {
  content: string | null;
  /** Raw tool calls as the model sent them; validated by the caller. */
  toolCalls: unknown[];
  tokens: number;
}

export class LlmEndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmEndpointError';
  }
}

const MAX_RESPONSE_BYTES = 1024 * 1024;

export async function chatCompletion(
  config: LlmConfig,
  body: { messages: ChatMessage[]; tools: unknown[]; maxTokens: number },
  signal: AbortSignal,
): Promise<ChatTurn> {
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const payload = JSON.stringify({ model: config.model, messages: body.messages, tools: body.tools, tool_choice: 'auto', temperature: 0, max_tokens: body.maxTokens });
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${config.apiKey}` },
    body: payload,
    signal,
  });
  const text = await readBounded(response);
  if (!response.ok) throw new LlmEndpointError(`The model endpoint answered ${response.status}${errorMessage(text)}.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LlmEndpointError('The model endpoint answered with something that is not JSON.');
  }
  const choice = (parsed as { choices?: Array<{ message?: { content?: unknown; tool_calls?: unknown } }> }).choices?.[0];
  if (!choice?.message || typeof choice.message !== 'object') throw new LlmEndpointError('The model endpoint answered without a message (no choices[0].message).');
  const usage = (parsed as { usage?: { total_tokens?: unknown } }).usage;
  const content = typeof choice.message.content === 'string' ? choice.message.content : null;
  const tokens = typeof usage?.total_tokens === 'number' && usage.total_tokens >= 0 ? usage.total_tokens : Math.ceil((payload.length + text.length) / 4);
  return { content, toolCalls: Array.isArray(choice.message.tool_calls) ? choice.message.tool_calls : [], tokens };
}

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new LlmEndpointError(`The model endpoint answered more than ${MAX_RESPONSE_BYTES} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The endpoint's own error message, short, for the cause; never echoes our request (it holds the key). */
function errorMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' && message.trim() ? `: ${message.trim().slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

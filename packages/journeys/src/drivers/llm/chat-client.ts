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
  /** Told of every endpoint failure with the provider's own details (for the operator's log, never for the public). */
  onEndpointError?: (error: LlmEndpointError) => void;
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

/**
 * A failure of the model endpoint. `message` is our own sentence and becomes the journey's public cause; `detail`
 * is what the provider said (its error text, a network error), with the API key removed, for the operator's log
 * only. Providers echo keys in their errors (some partly masked), so their text never becomes public.
 */
export class LlmEndpointError extends Error {
  constructor(
    message: string,
    readonly detail: { status?: number; providerMessage?: string } = {},
  ) {
    super(message);
    this.name = 'LlmEndpointError';
  }
}

/** Our sentence for an HTTP status of the endpoint. */
function sentenceFor(status: number): string {
  if (status === 401 || status === 403) return `The model endpoint refused our credentials (HTTP ${status}); the operator should check LLM_API_KEY.`;
  if (status === 404) return 'The model endpoint does not know the configured model or path (HTTP 404); the operator should check LLM_BASE_URL and LLM_MODEL.';
  if (status === 408 || status === 429) return `The model endpoint is rate limiting or overloaded (HTTP ${status}).`;
  if (status >= 500) return `The model endpoint failed (HTTP ${status}).`;
  return `The model endpoint refused the request (HTTP ${status}).`;
}

/** Removes the key, and anything shaped like an API key, from a provider's text before it is logged. */
export function withoutKey(text: string, apiKey: string): string {
  let out = apiKey.length > 0 ? text.split(apiKey).join('[redacted]') : text;
  out = out.replace(/\b(?:sk|pk|rk|key)[-_][A-Za-z0-9_\-*.]{4,}/gi, '[redacted]');
  return out.slice(0, 500);
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
  if (!response.ok) {
    throw new LlmEndpointError(sentenceFor(response.status), { status: response.status, providerMessage: withoutKey(errorMessage(text), config.apiKey) });
  }
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

/** The endpoint's own error message (or the start of its body), for the operator's log. */
function errorMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string' && message.trim()) return message.trim();
  } catch {
    // not JSON: the body itself
  }
  return text.trim().slice(0, 500);
}

// "This verdict is wrong": a structured report to the `leaderboard` feedback project, naming the check and the scan
// in `reference` so the owner can find exactly what is disputed. Needs JavaScript (the feedback host takes JSON).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useInteractiveApi } from '../shared/api-context';

interface Props {
  domain: string;
  scanId: string;
  checkId: string;
  checkName: string;
  status: string;
}

type SendState = { kind: 'idle' | 'sending' | 'sent' | 'failed'; message?: string };

export function VerdictReport({ domain, scanId, checkId, checkName, status }: Props) {
  const api = useInteractiveApi();
  const [ready, setReady] = useState(false);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [state, setState] = useState<SendState>({ kind: 'idle' });
  const id = useId();
  useEffect(() => setReady(true), []);
  if (!ready || !api) return null;
  if (state.kind === 'sent') return <p className="notice notice-ok" role="status">{state.message}</p>;
  if (!open) {
    return <button type="button" className="button button-small button-quiet" onClick={() => setOpen(true)}>This verdict is wrong</button>;
  }

  async function send(e: FormEvent) {
    e.preventDefault();
    if (!api) return;
    setState({ kind: 'sending' });
    const { data, error, response } = await api.feedback.POST('/v1/feedback/{slug}/reports', {
      params: { path: { slug: 'leaderboard' } },
      body: {
        observation: text.trim(),
        outcome: 'friction',
        category: 'confusing_output',
        goal: `Dispute the verdict "${status}" of check ${checkId} for ${domain}`,
        reference: `check:${checkId} scan:${scanId}`,
        surface: 'web',
        metadata: { checkId, scanId, domain, status },
      },
    }).catch((err: unknown) => ({ data: undefined, error: { message: (err as Error).message }, response: { status: 0 } as Response }));
    if (data) setState({ kind: 'sent', message: `Thank you: your report on “${checkName}” was received (${data.id}).` });
    else setState({ kind: 'failed', message: `The report could not be sent${response.status ? ` (${response.status})` : ''}: ${error?.message ?? 'unknown error'}` });
  }

  return (
    <form className="verdict-form" onSubmit={(e) => void send(e)}>
      <label htmlFor={`${id}-text`}>What is wrong with the verdict on “{checkName}”?</label>
      <textarea id={`${id}-text`} required minLength={10} maxLength={4000} rows={3} value={text}
        onChange={(e) => setText(e.target.value)} placeholder="For example: our llms.txt is served at /llms.txt with an H1 and links." />
      <p className="hint">Sent to the leaderboard&apos;s feedback project with check <code>{checkId}</code> and scan <code>{scanId}</code>.</p>
      <div className="row">
        <button type="submit" className="button button-small" disabled={state.kind === 'sending' || text.trim().length < 10}>
          {state.kind === 'sending' ? 'Sending…' : 'Send report'}
        </button>
        <button type="button" className="button button-small button-quiet" onClick={() => setOpen(false)}>Cancel</button>
      </div>
      {state.kind === 'failed' && <p className="notice notice-error" role="alert">{state.message}</p>}
    </form>
  );
}

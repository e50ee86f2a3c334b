// Starts (or joins) a scan of the company's website and opens its live page.
import { useEffect, useState } from 'react';
import { useInteractiveApi } from '../shared/api-context';
import { scanPageHref } from '../shared/urls';
import { describeScanError } from './scan-errors';

export function RescanButton({ url, domain }: { url: string; domain: string }) {
  const api = useInteractiveApi();
  const [ready, setReady] = useState(false);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  useEffect(() => setReady(true), []);
  if (!ready || !api) return <a className="button" href="/scan">Rescan</a>;
  return (
    <>
      <button type="button" className="button" disabled={state.busy} onClick={async () => {
        setState({ busy: true, error: null });
        const { data, error, response } = await api.leaderboard.POST('/v1/leaderboard/scans', { body: { url } });
        if (data) {
          window.location.assign(`${scanPageHref(data.scan.id)}${data.started ? '' : '?joined=1'}`);
          return;
        }
        setState({ busy: false, error: describeScanError(response, error) });
      }}>{state.busy ? 'Starting…' : `Rescan ${domain}`}</button>
      {state.error && <p className="notice notice-error" role="alert">{state.error}</p>}
    </>
  );
}

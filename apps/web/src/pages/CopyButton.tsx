// Copies a text (a fix) to the clipboard. Shown only once the page is interactive: without JavaScript the text is
// still there to select.
import { useEffect, useState } from 'react';

export function CopyButton({ text, label, idle = 'Copy fix' }: { text: string; label: string; idle?: string }) {
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  return (
    <button type="button" className="button button-small" aria-label={label}
      onClick={() => {
        navigator.clipboard.writeText(text).then(() => setCopied('done'), () => setCopied('failed'));
      }}>
      {copied === 'done' ? 'Copied ✓' : copied === 'failed' ? 'Copy failed' : idle}
    </button>
  );
}

// The end-of-scan mail: the domain, the score and grade (or how the scan ended and why), and where to read more.
export interface ScanMailFacts {
  scanId: string;
  domain: string;
  ending: 'finished' | 'failed' | 'interrupted' | 'sign_in_required';
  cause: string;
  score: number | null;
  grade: string | null;
  /** Community companies are read with ?community=include. */
  community: boolean;
  publicUrl: string;
}

const ENDINGS: Record<ScanMailFacts['ending'], string> = {
  finished: 'finished',
  failed: 'failed',
  interrupted: 'was interrupted',
  sign_in_required: 'needs a sign-in (nothing public was reachable)',
};

export function composeScanMail(facts: ScanMailFacts): { subject: string; text: string } {
  const base = facts.publicUrl.replace(/\/+$/, '');
  const companyUrl = `${base}/v1/leaderboard/companies/${encodeURIComponent(facts.domain)}${facts.community ? '?community=include' : ''}`;
  const scanUrl = `${base}/v1/leaderboard/scans/${facts.scanId}`;
  const scored = facts.ending === 'finished' && facts.score !== null && facts.grade !== null;
  const subject = scored
    ? `Agent-readiness of ${facts.domain}: ${facts.score}/100 (${facts.grade})`
    : `Agent-readiness scan of ${facts.domain} ${ENDINGS[facts.ending]}`;
  const lines = [
    `The agent-readiness scan of ${facts.domain} ${ENDINGS[facts.ending]}.`,
    '',
    ...(scored ? [`Score: ${facts.score}/100`, `Grade: ${facts.grade}`] : [`Ending: ${facts.ending}`]),
    facts.cause,
    '',
    `Company: ${companyUrl}`,
    `Scan: ${scanUrl}`,
    '',
    'You receive this mail because this address was given when the scan was requested.',
  ];
  return { subject, text: `${lines.join('\n')}\n` };
}

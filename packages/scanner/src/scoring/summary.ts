import type { LayerId, LayerResult } from '../types';

const LABELS: Record<LayerId, string> = { discovery: 'discovery', access: 'access', usability: 'usability', payments: 'payments' };

function adjective(score: number): string {
  if (score >= 85) return 'Strong';
  if (score >= 60) return 'Good';
  if (score >= 40) return 'Fair';
  return 'Weak';
}

/** One human sentence naming the best and the worst layer. */
export function summarize(layers: readonly LayerResult[]): string | null {
  const scored = layers.filter((l): l is LayerResult & { score: number } => l.score !== null);
  if (scored.length === 0) return null;
  const best = scored.reduce((a, b) => (b.score > a.score ? b : a));
  const worst = scored.reduce((a, b) => (b.score < a.score ? b : a));
  if (best.id === worst.id || worst.score >= 85) return `${adjective(worst.score)} across ${scored.length === 1 ? LABELS[best.id] : 'every scored layer'}`;
  return `${adjective(best.score)} ${LABELS[best.id]}, ${adjective(worst.score).toLowerCase()} ${LABELS[worst.id]}`;
}

// The score over time as an inline SVG (no chart library, nothing to download), with the same points as a table
// for screen readers and anyone who prefers numbers.
import type { Schemas } from '../shared/page-data';
import { formatDay } from '../shared/format';

const W = 640;
const H = 200;
const PAD = { left: 36, right: 12, top: 12, bottom: 28 };

export function HistoryChart({ history }: { history: Schemas['ScoreHistory'] }) {
  const points = history.items;
  if (points.length === 0) return <p>No score in the last {history.days} days.</p>;
  const times = points.map((p) => Date.parse(p.at));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const x = (t: number) => PAD.left + (t1 === t0 ? (W - PAD.left - PAD.right) / 2 : ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right));
  const y = (score: number) => PAD.top + (1 - score / 100) * (H - PAD.top - PAD.bottom);
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(times[i]).toFixed(1)},${y(p.score).toFixed(1)}`).join(' ');
  const first = points[0];
  const last = points[points.length - 1];
  const label = `Score history over the last ${history.days} days: ${points.length} point${points.length === 1 ? '' : 's'}, from ${first.score} on ${formatDay(first.at)} to ${last.score} on ${formatDay(last.at)}.`;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        {[0, 25, 50, 75, 100].map((v) => (
          <g key={v}>
            <line className="chart-grid" x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} />
            <text className="chart-label" x={PAD.left - 6} y={y(v) + 4} textAnchor="end">{v}</text>
          </g>
        ))}
        <path className="chart-line" d={path} fill="none" />
        {points.map((p, i) => <circle key={p.at} className="chart-point" cx={x(times[i])} cy={y(p.score)} r={4} />)}
        <text className="chart-label" x={PAD.left} y={H - 8}>{formatDay(first.at)}</text>
        <text className="chart-label" x={W - PAD.right} y={H - 8} textAnchor="end">{formatDay(last.at)}</text>
      </svg>
      <figcaption>{label}</figcaption>
      <details>
        <summary>History as a table</summary>
        <table className="compact">
          <thead><tr><th scope="col">Date</th><th scope="col">Score</th><th scope="col">Grade</th><th scope="col">Rank</th></tr></thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.at}><td>{formatDay(p.at)}</td><td>{p.score}</td><td>{p.grade}</td><td>{p.rank ?? '—'}</td></tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

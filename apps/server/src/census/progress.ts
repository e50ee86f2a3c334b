// Progress of long work for the person at the terminal, on stderr (stdout carries the data): rows done, rows per
// second, how far and the time left. On a terminal one line is rewritten in place a few times a second; into a file
// or a pipe a line every few seconds, so a log of a long import stays readable.
import type { Writable } from 'node:stream';

export interface ProgressOptions {
  /** Rewrite one line in place (a terminal) or append lines. */
  tty: boolean;
  clock?: () => number;
}

export class Progress {
  private readonly clock: () => number;
  private startedAt: number;
  private shownAt = 0;
  /** Whether a rewritable line is on screen (a note must clear it first). */
  private pending = false;

  constructor(private readonly out: Writable, private readonly what: string, private readonly options: ProgressOptions) {
    this.clock = options.clock ?? Date.now;
    this.startedAt = this.clock();
  }

  /** `done` units so far; `fraction` of the whole work when known (for the time left). */
  update(done: number, fraction: number | null, unit = 'rows'): void {
    const now = this.clock();
    if (now - this.shownAt < (this.options.tty ? 250 : 5000)) return;
    this.shownAt = now;
    const seconds = (now - this.startedAt) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    let line = `${this.what}: ${count(done)} ${unit}, ${count(Math.round(rate))} ${unit}/s`;
    if (fraction !== null && fraction > 0 && fraction < 1) {
      const left = (seconds * (1 - fraction)) / fraction;
      line += `, ${Math.min(100, Math.floor(fraction * 100))} %, about ${duration(left)} left`;
    }
    this.show(line);
  }

  /** A line that stays (a refused line, a phase's end), above the progress line. */
  note(line: string): void {
    this.clear();
    this.out.write(`${line}\n`);
  }

  /** Ends the work: the final summary, with the whole time and the mean rate. */
  finish(summary: string, done?: number, unit = 'rows'): void {
    const seconds = (this.clock() - this.startedAt) / 1000;
    const rate = done !== undefined && seconds > 0 ? `, ${count(Math.round(done / seconds))} ${unit}/s` : '';
    this.note(`${summary} (${duration(seconds)}${rate})`);
  }

  /** Starts timing again (a new phase on the same line). */
  restart(): void {
    this.startedAt = this.clock();
    this.shownAt = 0;
  }

  private show(line: string): void {
    if (this.options.tty) {
      this.out.write(`\r\u001b[2K${line}`);
      this.pending = true;
    } else {
      this.out.write(`${line}\n`);
    }
  }

  private clear(): void {
    if (this.pending) this.out.write('\r\u001b[2K');
    this.pending = false;
  }
}

export const count = (n: number): string => n.toLocaleString('en-US');

export function duration(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

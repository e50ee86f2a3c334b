// A binary min-heap of values by time: the moments at which companies' 7-day facts change (live-index.ts).

export class MinHeap<T> {
  private times: number[] = [];
  private values: T[] = [];

  get size(): number {
    return this.times.length;
  }

  peekTime(): number {
    return this.times[0];
  }

  push(time: number, value: T): void {
    let i = this.times.length;
    this.times.push(time);
    this.values.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.times[parent] <= time) break;
      this.move(parent, i);
      i = parent;
    }
    this.times[i] = time;
    this.values[i] = value;
  }

  /** Removes and returns the value with the earliest time (the heap must not be empty). */
  pop(): T {
    const top = this.values[0];
    const time = this.times.pop()!;
    const value = this.values.pop()!;
    const n = this.times.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && this.times[child + 1] < this.times[child]) child++;
        if (this.times[child] >= time) break;
        this.move(child, i);
        i = child;
      }
      this.times[i] = time;
      this.values[i] = value;
    }
    return top;
  }

  private move(from: number, to: number): void {
    this.times[to] = this.times[from];
    this.values[to] = this.values[from];
  }
}

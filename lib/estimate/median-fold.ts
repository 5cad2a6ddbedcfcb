// the median of a day's errors in memory bounded by their range, not their number: a day of the
// network scores tens of millions of samples, and holding each (as medianKm's sorted copy needs)
// grew with the day. the published median is rounded to 0.1 km, so values are counted in bins of
// that rounding (key = Math.round(v * 10)) with each bin's smallest and largest value: the middle
// value's bin gives the rounded median of an odd count, and of an even count the two middle values
// are either in one bin (their mean rounds to it too: it lies between them) or the last of one bin
// and the first of the next (its max and min). so the figure equals medianKm's to the bit
// (test/lib/estimate/median-fold.test.ts checks it against the sort on seeded values).

interface Bin {
  n: number;
  min: number;
  max: number;
}

/** non-finite keys (never met: errors are distances between finite points) sort last, as Infinity would */
const byKey = (a: number, b: number) => (Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : Number.isNaN(b) ? -1 : a - b);

export class MedianFold {
  private readonly bins = new Map<number, Bin>();
  private count = 0;

  get n(): number {
    return this.count;
  }

  add(v: number): void {
    const key = Math.round(v * 10);
    const bin = this.bins.get(key);
    this.count++;
    if (!bin) this.bins.set(key, { n: 1, min: v, max: v });
    else {
      bin.n++;
      if (v < bin.min) bin.min = v;
      if (v > bin.max) bin.max = v;
    }
  }

  /** every value of `other` added to this one */
  merge(other: MedianFold): void {
    for (const [key, b] of other.bins) {
      const bin = this.bins.get(key);
      if (!bin) this.bins.set(key, { ...b });
      else {
        bin.n += b.n;
        if (b.min < bin.min) bin.min = b.min;
        if (b.max > bin.max) bin.max = b.max;
      }
    }
    this.count += other.count;
  }

  /** the median rounded to 0.1 km, exactly medianKm of the values added; 0 for none (callers check n) */
  medianKm(): number {
    if (this.count === 0) return 0;
    const keys = [...this.bins.keys()].sort(byKey);
    const mid = this.count >> 1;
    // the bin holding rank r (0-based) and whether r is its last rank
    let k = 0;
    let below = 0;
    const seek = (r: number) => {
      while (below + this.bins.get(keys[k]!)!.n <= r) below += this.bins.get(keys[k++]!)!.n;
      return { key: keys[k]!, bin: this.bins.get(keys[k]!)!, last: r === below + this.bins.get(keys[k]!)!.n - 1 };
    };
    if (this.count % 2) return seek(mid).key / 10;
    const lo = seek(mid - 1);
    if (!lo.last) return lo.key / 10;
    const hi = seek(mid);
    // the same arithmetic as medianKm (accuracy.ts) on the same two values
    const m = (lo.bin.max + hi.bin.min) / 2;
    return Math.round(m * 10) / 10;
  }
}

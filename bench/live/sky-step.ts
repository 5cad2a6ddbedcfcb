// a readsb aircraft.json moved on one second (seeded): every airborne aircraft flies on along its
// track, `seen` changes, ~1% leave and ~1% arrive. the stream benches' moving feed.

export interface RawSky {
  now: number;
  aircraft: any[];
}

/** the document one second later; `r` is a seeded generator in [0, 1) */
export function stepSky(doc: RawSky, r: () => number): RawSky {
  const out: any[] = [];
  for (const a of doc.aircraft) {
    if (r() < 0.01) continue;
    const b = { ...a, seen: Math.round(r() * 10) / 10 };
    if (typeof a.lat === 'number' && typeof a.gs === 'number' && typeof a.track === 'number' && a.alt_baro !== 'ground') {
      const nm = a.gs / 3600;
      const rad = (a.track * Math.PI) / 180;
      b.lat = Math.max(-89.9, Math.min(89.9, a.lat + (nm * Math.cos(rad)) / 60));
      b.lon = ((a.lon + (nm * Math.sin(rad)) / 60 / Math.max(0.05, Math.cos((a.lat * Math.PI) / 180)) + 540) % 360) - 180;
      b.lat = Math.round(b.lat * 1e6) / 1e6;
      b.lon = Math.round(b.lon * 1e6) / 1e6;
      b.seen_pos = b.seen;
    }
    out.push(b);
  }
  for (let k = 0; k < doc.aircraft.length / 100; k++) {
    const like = doc.aircraft[Math.floor(r() * doc.aircraft.length)];
    out.push({
      ...like,
      hex: Math.floor(r() * 0xffffff)
        .toString(16)
        .padStart(6, '0'),
      seen: 0,
    });
  }
  return { now: doc.now + 1, aircraft: out };
}

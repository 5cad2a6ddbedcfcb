// the memory bench's feed writer, in its own process so the bench's RSS is the server's alone:
// holds the real 12k readsb snapshot and, on each message {step}, moves every aircraft on by
// stepS seconds (the turning share turns 5 degrees a step) and rewrites aircraft.json.
// started by bench/memory.ts; argv: <feed file> <step s> <turning share>
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const USAGE = 'Usage: started by bench/memory.ts (node --import tsx bench/memory-feed.ts <feed file> <step s> <turning share>, with an IPC channel)';
if (process.argv.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
if (!process.send) {
  console.error(USAGE);
  process.exit(2);
}
const [feed = '', stepArg = '2', turningArg = '1'] = process.argv.slice(2);
const STEP_S = Number(stepArg);
const TURNING = Number(turningArg);
const raw = JSON.parse(gunzipSync(readFileSync(new URL('./data/readsb_aircraft_12k.json.gz', import.meta.url))).toString());
const T0 = Math.floor(raw.now);

function write(k: number): number {
  const nowS = T0 + k * STEP_S;
  raw.now = nowS;
  for (const [i, a] of raw.aircraft.entries()) {
    if (typeof a.lat !== 'number' || typeof a.lon !== 'number') continue;
    const turns = i % 1000 < TURNING * 1000;
    const trk = ((a.track ?? 0) + (turns ? 5 : 0)) % 360;
    a.track = trk;
    const nm = ((a.gs ?? 300) * STEP_S) / 3600;
    a.lat = Math.max(-89, Math.min(89, a.lat + (nm / 60) * Math.cos((trk * Math.PI) / 180)));
    a.lon = ((a.lon + (nm / 60) * Math.sin((trk * Math.PI) / 180) + 540) % 360) - 180;
    a.seen_pos = 0;
    a.seen = 0;
  }
  writeFileSync(`${feed}.tmp`, JSON.stringify(raw));
  renameSync(`${feed}.tmp`, feed);
  return nowS;
}

const hexes: string[] = raw.aircraft
  .filter((a: { lat?: number }) => typeof a.lat === 'number')
  .map((a: { hex: string }) => a.hex.replace('~', ''))
  .slice(0, 200);
process.on('message', (m: { step: number }) => process.send!({ nowS: write(m.step) }));
process.send!({ ready: T0, hexes });

// --stations pointed at readsb's clients.json (file or URL): the receivers.json beside it is read
// too, the format is told by content (or forced by --stations-format), and a missing or broken
// receivers.json keeps the previous state with one clear log line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStations } from '../../../server/stations/open.ts';
import { receiversBeside, type StationsFormat } from '../../../server/stations/source.ts';

/** the newest line saying why a list was refused or could not be read */
const why = (logs: string[]) => logs.filter((l) => /rejected|unreadable/.test(l)).at(-1) ?? '';
const FX = new URL('../../fixtures/readsb/', import.meta.url).pathname;
// the fixtures' clients.json says now = 1795435200.123
const NOW_MS = 1795435210_000;

function setup(t: { after: (fn: () => void) => void }, o: { format?: StationsFormat; location?: string } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-readsb-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const logs: string[] = [];
  const st = openStations({
    state: join(dir, 'state'),
    location: o.location ?? join(dir, 'clients.json'),
    ...(o.format ? { format: o.format } : {}),
    clock: () => NOW_MS,
    log: (l) => logs.push(l),
  });
  return { dir, logs, st, src: st.source! };
}

test("a readsb json folder is taken as it is: stations online at readsb's estimated position, marked estimated", async (t) => {
  const s = setup(t);
  copyFileSync(join(FX, 'clients.json'), join(s.dir, 'clients.json'));
  copyFileSync(join(FX, 'receivers.json'), join(s.dir, 'receivers.json'));
  assert.equal(await s.src.poll(), 'applied');
  assert.equal(s.st.roster.stationCount(NOW_MS), 2);
  const list = s.st.roster.publicList(NOW_MS);
  assert.deepEqual(list.map((e) => [e.coarse_lat, e.coarse_lon, e.position_source, e.online]).sort(), [
    [-33.9, 151.2, 'estimated', true],
    [47.5, 8.6, 'estimated', true],
  ]);
  // the rows that are no station are counted in the log, by reason
  for (const reason of ['no_uuid', 'no_position', 'bad_extent'])
    assert.ok(
      s.logs.some((l) => l.includes(`1 entry skipped (${reason})`)),
      reason,
    );
  // where the position comes from survives a restart
  s.src.stop();
  const again = openStations({ state: join(s.dir, 'state'), location: '', clock: () => NOW_MS, log: () => {} });
  assert.deepEqual(
    again.roster.publicList(NOW_MS).map((e) => e.position_source),
    ['estimated', 'estimated'],
  );
});

test('without receivers.json beside clients.json the poll fails with one clear line and the previous state is kept', async (t) => {
  const s = setup(t);
  copyFileSync(join(FX, 'clients.json'), join(s.dir, 'clients.json'));
  assert.equal(await s.src.poll(), 'read_failed');
  assert.equal(await s.src.poll(), 'read_failed');
  assert.deepEqual(
    s.logs.filter((l) => l.includes('unreadable')),
    ['stations: readsb receivers.json beside clients.json unreadable (ENOENT); keeping the previous state'],
    'once, not per poll',
  );
  assert.equal(s.st.roster.stationCount(NOW_MS), null, 'no list taken: presence unavailable');
  copyFileSync(join(FX, 'receivers.json'), join(s.dir, 'receivers.json'));
  assert.equal(await s.src.poll(), 'applied', 'the unchanged clients.json is read again once receivers.json is there');
  assert.ok(s.logs.includes('stations: feeder list readable again'), "s.logs.includes('stations: feeder list readable again')");
});

test('a broken receivers.json or clients.json rejects the list with its reason', async (t) => {
  const s = setup(t);
  copyFileSync(join(FX, 'clients.json'), join(s.dir, 'clients.json'));
  writeFileSync(join(s.dir, 'receivers.json'), '{ "now" : 1795435200.1,\n  "receivers" : [\n    [ "5b0c3f2e');
  assert.equal(await s.src.poll(), 'rejected');
  assert.match(why(s.logs), /feeder list rejected \(bad_receivers\): receivers\.json is not JSON/);
  const cut = setup(t);
  writeFileSync(join(cut.dir, 'clients.json'), '{ "now" : 1795435200.123,\n  "clients" : [\n["5b0c');
  copyFileSync(join(FX, 'receivers.json'), join(cut.dir, 'receivers.json'));
  assert.equal(await cut.src.poll(), 'rejected');
  assert.match(why(cut.logs), /feeder list rejected \(not_json\)/);
});

test("--stations-format forces a format: readsb on our own list and contrail on readsb's are rejected, not guessed", async (t) => {
  const ours = setup(t, { format: 'readsb' });
  writeFileSync(join(ours.dir, 'clients.json'), JSON.stringify({ generated_at: 1795435200, feeders: [] }));
  copyFileSync(join(FX, 'receivers.json'), join(ours.dir, 'receivers.json'));
  assert.equal(await ours.src.poll(), 'rejected');
  assert.match(why(ours.logs), /\(bad_generated_at\): clients\.json: now must be unix seconds/);
  const theirs = setup(t, { format: 'contrail' });
  copyFileSync(join(FX, 'clients.json'), join(theirs.dir, 'clients.json'));
  assert.equal(await theirs.src.poll(), 'rejected');
  assert.match(why(theirs.logs), /\(bad_generated_at\): generated_at must be unix seconds/);
});

test('over HTTP: receivers.json is fetched from beside the clients.json URL', async (t) => {
  const files: Record<string, string> = {
    '/data/clients.json': readFileSync(join(FX, 'clients.json'), 'utf8'),
    '/data/receivers.json': readFileSync(join(FX, 'receivers.json'), 'utf8'),
  };
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url!);
    const body = files[req.url!];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(body ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const { port } = server.address() as { port: number };
  const s = setup(t, { location: `http://127.0.0.1:${port}/data/clients.json` });
  assert.equal(await s.src.poll(), 'applied');
  assert.deepEqual(asked, ['/data/clients.json', '/data/receivers.json']);
  assert.equal(s.st.roster.stationCount(NOW_MS), 2);
  delete files['/data/receivers.json'];
  assert.equal(await s.src.poll(), 'read_failed');
  assert.match(why(s.logs), /receivers\.json beside clients\.json unreadable \(HTTP_404\)/);
});

test('receivers.json is looked for in the folder (or URL folder) of clients.json', () => {
  assert.equal(receiversBeside('/run/readsb/clients.json'), '/run/readsb/receivers.json');
  assert.equal(receiversBeside('http://aggregator:8080/data/clients.json?x=1'), 'http://aggregator:8080/data/receivers.json');
});

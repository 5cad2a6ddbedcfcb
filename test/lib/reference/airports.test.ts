import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRefFile } from '../../../lib/reference/index.ts';
import { parseAirports, indexAirports } from '../../../lib/reference/airports.ts';

const HEADER =
  '"id","ident","type","name","latitude_deg","longitude_deg","elevation_ft","continent","iso_country","iso_region","municipality","scheduled_service","icao_code","iata_code","gps_code","local_code","home_link","wikipedia_link","keywords"';
const row = (ident: string, over: Partial<Record<string, string>> = {}) => {
  const v = { type: 'small_airport', name: `Field ${ident}`, lat: '45.0', lon: '-93.0', elev: '900', sched: 'no', icao: '', iata: '', ...over };
  return `1,"${ident}","${v.type}","${v.name}",${v.lat},${v.lon},${v.elev},"NA","US","US-MN","Town","${v.sched}","${v.icao}","${v.iata}",,,,,`;
};

const real = parseAirports(await readRefFile('data/ref', 'ourairports/airports.csv.gz'));
const index = indexAirports(real.airports);

test('the shipped airports file parses whole, with a tz for every airport', () => {
  assert.equal(real.count.skipped, 0);
  assert.ok(real.airports.length > 80_000, 'real.airports.length > 80_000');
  assert.ok(
    real.airports.every((a) => /^[A-Za-z_]+\/[A-Za-z_\-/+0-9]+$|^Etc\//.test(a.tz)),
    'real.airports.every((a) => /^[A-Za-z_]+\\/[A-Za-z_\\-/+0-9]+$|^Etc\\//.test(a.tz))',
  );
});

test('IATA and ICAO lookups are case-insensitive and agree', () => {
  const msp = index.lookup('msp');
  assert.equal(msp?.ident, 'KMSP');
  assert.equal(index.lookup('KMSP'), msp);
  assert.equal(index.lookup(' kmsp '), msp);
  assert.equal(msp?.tz, 'America/Chicago');
  assert.equal(msp?.kind, 'large_airport');
  assert.equal(msp?.scheduled_service, true);
  assert.equal(index.lookup('LHR')?.tz, 'Europe/London');
  assert.equal(index.lookup('NRT')?.tz, 'Asia/Tokyo');
});

test('every IATA code maps to exactly the airport that carries it', () => {
  const withIata = real.airports.filter((a) => a.iata);
  assert.ok(withIata.length > 9000, 'withIata.length > 9000');
  for (const a of withIata) assert.equal(index.byIata(a.iata!), a);
});

test('the icao_code column wins over the ident (16A is PPIT)', () => {
  const a = index.byIdent('16A');
  assert.equal(a?.icao, 'PPIT');
  assert.equal(index.lookup('PPIT'), a);
});

test('malformed codes and unknown codes look up as null', () => {
  for (const code of ['', 'M', 'MS', 'MSPX1', 'M$P', 'ZZZZ', '12345', 'K MSP']) assert.equal(index.lookup(code), null, code);
});

test('a 4-letter ident without icao_code is used as the ICAO code; digits are not', () => {
  const { airports } = parseAirports([HEADER, row('ABCD'), row('00AA'), row('X1', { icao: 'WXYZ' })].join('\n'));
  assert.deepEqual(
    airports.map((a) => a.icao),
    ['ABCD', null, 'WXYZ'],
  );
});

test("without an ICAO-shaped icao_code or ident, OurAirports' gps_code is the ICAO code (real rows: BZ-SQS is MZCF)", () => {
  // issue 43: /v1/airports/SQS said ident BZ-SQS and /v1/airports/MZCF was a 404
  const sqs = index.byIdent('BZ-SQS')!;
  assert.deepEqual([sqs.iata, sqs.icao], ['SQS', 'MZCF']);
  assert.equal(index.lookup('mzcf'), sqs);
  assert.equal(index.lookup('SQS'), sqs);
  // a gps_code another airport holds by its ident never takes it: AR-0342 (MRS) gives SACV, the ident of Villa Maria
  assert.equal(index.byIdent('AR-0342')!.icao, null);
  assert.equal(index.lookup('SACV')!.ident, 'SACV');
  // an ICAO code the airport had already stays, whatever its gps_code (SACV's gps_code is SAOI)
  assert.equal(index.byIdent('SACV')!.icao, 'SACV');
  assert.equal(index.lookup('SAOI'), null);
});

test('gps_code: only the ICAO shape (4 letters), only when nothing else gives the code, and the column may be absent', () => {
  const withGps = (ident: string, gps: string, icao = '') => row(ident, { icao }).replace(/,,,,,$/, `,"${gps}",,,,`);
  const { airports, count } = parseAirports(
    [
      HEADER,
      withGps('XX-0001', 'ABCD'),
      withGps('XX-0002', 'AB1D'),
      withGps('XX-0003', 'abce'),
      withGps('XX-0004', 'WXYZ', 'KXYZ'),
      withGps('XX-0005', 'KXYZ'),
    ].join('\n'),
  );
  assert.equal(count.skipped, 0);
  assert.deepEqual(
    airports.map((a) => [a.ident, a.icao]),
    [
      ['XX-0001', 'ABCD'],
      ['XX-0002', null], // digits: not the ICAO shape for a gps_code
      ['XX-0003', 'ABCE'], // case-insensitive, as every code
      ['XX-0004', 'KXYZ'], // icao_code first
      ['XX-0005', null], // KXYZ is XX-0004's icao_code
    ],
  );
  const noColumn = parseAirports(
    'ident,type,name,latitude_deg,longitude_deg,elevation_ft,iso_country,iso_region,municipality,scheduled_service,icao_code,iata_code\nXX-1,small_airport,F,1,2,3,US,US-MN,T,no,,\n',
  );
  assert.deepEqual([noColumn.count.rows, noColumn.airports[0]!.icao], [1, null]);
});

test('malformed airport rows are skipped and counted by reason', () => {
  const { airports, count } = parseAirports(
    [HEADER, row('GOOD'), row(''), row('BADLAT', { lat: 'north' }), row('FAR', { lat: '95' }), row('ELEV', { elev: 'high' }), '1,"SHORT","small_airport"'].join(
      '\n',
    ),
  );
  assert.deepEqual(
    airports.map((a) => a.ident),
    ['GOOD'],
  );
  assert.deepEqual(count.reasons, { 'missing ident': 1, 'bad position': 2, 'bad elevation': 1, 'column count': 1 });
});

test('when two airports claim one code the open, bigger one wins', () => {
  const { airports } = parseAirports(
    [HEADER, row('OLD1', { type: 'closed', iata: 'QQQ', icao: 'QQQQ' }), row('NEW1', { type: 'medium_airport', iata: 'QQQ', icao: 'QQQQ' })].join('\n'),
  );
  const idx = indexAirports(airports);
  assert.equal(idx.lookup('QQQ')?.ident, 'NEW1');
  assert.equal(idx.lookup('QQQQ')?.ident, 'NEW1');
  assert.equal(idx.byIdent('old1')?.kind, 'closed');
});

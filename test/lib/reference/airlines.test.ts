import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRefFile } from '../../../lib/reference/index.ts';
import { parseVrsAirlines, parseOperators, mergeAirlines } from '../../../lib/reference/airlines.ts';
import { splitCallsign, normaliseCallsign } from '../../../lib/reference/callsign.ts';

const vrs = parseVrsAirlines(await readRefFile('data/ref', 'vrs-standing-data/airlines.csv'));
const ops = parseOperators(await readRefFile('data/ref', 'flightgazer/operators.csv'));
const table = mergeAirlines(vrs.rows, ops.rows);

test('the shipped airline files parse whole', () => {
  assert.equal(vrs.count.skipped, 0);
  assert.equal(ops.count.skipped, 0);
  assert.ok(table.all.length > 6000, 'table.all.length > 6000');
});

test('a callsign becomes an IATA flight number through the ICAO -> IATA table', () => {
  assert.equal(table.flightNumberFromCallsign('DAL1234'), 'DL1234');
  assert.equal(table.flightNumberFromCallsign('dal1234 '), 'DL1234');
  assert.equal(table.flightNumberFromCallsign('BAW12A'), 'BA12A');
  assert.equal(table.flightNumberFromCallsign('EZY0012'), 'U212');
  assert.equal(table.flightNumberFromCallsign('UAL0'), 'UA0');
});

test('no flight number for registrations, unknown prefixes, airlines without IATA, positioning flights', () => {
  assert.equal(table.flightNumberFromCallsign('N12345'), null);
  assert.equal(table.flightNumberFromCallsign('GABCD'), null);
  assert.equal(table.flightNumberFromCallsign('QQQ123'), null); // no such airline
  assert.equal(table.flightNumberFromCallsign('AMD123'), null); // Red Cross Air Mercy: no IATA
  assert.equal(table.flightNumberFromCallsign('DAL9123'), null); // Delta positioning pattern 9ddd
  assert.equal(table.flightNumberFromCallsign('DAL12345'), null); // number too long
  assert.equal(table.flightNumberFromCallsign(''), null);
});

test('the airline of a callsign merges VRS names with FlightGazer country and telephony', () => {
  const baw = table.airlineOfCallsign('BAW123');
  assert.equal(baw?.name, 'British Airways');
  assert.equal(baw?.iata, 'BA');
  assert.equal(baw?.telephony, 'SPEEDBIRD');
  assert.equal(baw?.country, 'UNITED KINGDOM');
  assert.deepEqual(baw?.sources, ['vrs', 'flightgazer']);
  assert.equal(table.airlineOfCallsign('N123AB'), null);
  assert.equal(table.byIcao('aac')?.sources.includes('flightgazer'), true);
});

test('callsigns are normalised as VRS does', () => {
  assert.equal(normaliseCallsign('EZY0001'), 'EZY1');
  assert.equal(normaliseCallsign('EZY0000'), 'EZY0');
  assert.equal(normaliseCallsign('EZY00AB'), 'EZY0AB');
  assert.deepEqual(splitCallsign('U21234'), { code: 'U2', number: '1234' });
  assert.equal(normaliseCallsign('EZY12ABC'), null);
});

test('malformed airline and operator rows are skipped and counted', () => {
  const v = parseVrsAirlines(
    'Code,Name,ICAO,IATA,PositioningFlightPattern,CharterFlightPattern\nAB,Ok,ABC,AB,(,\nX,Bad,AB1,,,\nY,Bad,ABD,ABC,,\nZ,None,,,,\nQ,Short\n',
  );
  assert.equal(v.rows.length, 1);
  assert.equal(v.rows[0]!.positioning, null); // a broken pattern is dropped, not thrown
  assert.deepEqual(v.count.reasons, { 'bad ICAO code': 1, 'bad IATA code': 1, 'missing code': 1, 'column count': 1 });
  const o = parseOperators('3Ltr,Company,Country,Telephony,FriendlyName\nABC,A,B,C,D\nAB,x,y,z,w\n');
  assert.equal(o.rows.length, 1);
  assert.deepEqual(o.count.reasons, { 'bad 3Ltr code': 1 });
});

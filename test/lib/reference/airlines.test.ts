import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRefFile } from '../../../lib/reference/index.ts';
import { parseVrsAirlines, parseOperators, mergeAirlines, sameOperator } from '../../../lib/reference/airlines.ts';
import { countryCodes, parseCountries, parseVrsCountries } from '../../../lib/reference/countries.ts';
import { splitCallsign, normaliseCallsign } from '../../../lib/reference/callsign.ts';

const vrs = parseVrsAirlines(await readRefFile('data/ref', 'vrs-standing-data/airlines.csv'));
const ops = parseOperators(await readRefFile('data/ref', 'flightgazer/operators.csv'));
const countries = parseCountries(await readRefFile('data/ref', 'ourairports/countries.csv'));
const vrsCountries = parseVrsCountries(await readRefFile('data/ref', 'vrs-standing-data/countries.csv'));
const table = mergeAirlines(vrs.rows, ops.rows, countryCodes([...countries.rows, ...vrsCountries.rows]));

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

test('the airline of a callsign is one operator: VRS where it lists the designator (with FlightGazer country only when it names the same operator), else FlightGazer whole', () => {
  const baw = table.airlineOfCallsign('BAW123');
  assert.equal(baw?.name, 'British Airways');
  assert.equal(baw?.iata, 'BA');
  // VRS's airline table has no country and no telephony; FlightGazer names the same operator, so its come in
  assert.deepEqual([baw?.source, baw?.country, baw?.telephony], ['vrs+flightgazer', 'GB', 'SPEEDBIRD']);
  assert.equal(table.airlineOfCallsign('N123AB'), null);
  // BRK: VRS says Briansk State Air Enterprise, FlightGazer the NATO Heavy Airlift Wing in Hungary (issue 43:
  // the airframe showed the one's name with the other's country); the VRS row stands alone
  const brk = table.byIcao('BRK')!;
  assert.deepEqual([brk.name, brk.country, brk.source], ['Briansk State Air Enterprise', null, 'vrs']);
  // a designator only FlightGazer lists: its name, telephony and country from that one row, the country as alpha-2
  const fgOnly = ops.rows.find((o) => o.country === 'RUSSIAN FEDERATION' && !vrs.rows.some((v) => v.icao === o.icao))!;
  const a = table.byIcao(fgOnly.icao)!;
  assert.deepEqual([a.name, a.telephony, a.country, a.source], [fgOnly.friendly ?? fgOnly.company, fgOnly.telephony, 'RU', 'flightgazer']);
});

test("every airline's country is ISO 3166-1 alpha-2 or null, never a word", () => {
  const withCountry = table.all.filter((a) => a.country !== null);
  assert.ok(withCountry.length > 1000, `${withCountry.length} airlines with a country`);
  for (const a of table.all) assert.ok(a.country === null || /^[A-Z]{2}$/.test(a.country), `${a.icao}: ${a.country}`);
  assert.ok(
    table.all.every((a) => a.source !== 'vrs' || a.country === null),
    'a country only from a FlightGazer row naming the same operator',
  );
});

test('two names are one operator when they agree after folding case, accents, punctuation and corporate words', () => {
  assert.equal(sameOperator('British Airways', { company: 'BRITISH AIRWAYS PLC', friendly: null }), true);
  assert.equal(sameOperator('Abaeté Linhas Aéreas', { company: 'X', friendly: 'Abaete Linhas Aereas' }), true);
  assert.equal(sameOperator('Briansk State Air Enterprise', { company: 'NATO HEAVY AIRLIFT WING', friendly: null }), false);
  // a name that folds to nothing matches nothing
  assert.equal(sameOperator('Air Lines Ltd', { company: 'AIR LINES LTD', friendly: null }), false);
  // the join happens only on agreement: a VRS row whose FlightGazer row names another operator keeps no country
  const t = mergeAirlines(
    [{ icao: 'QQQ', iata: 'QQ', name: 'Alpha Air', positioning: null, charter: null }],
    [{ icao: 'QQQ', company: 'BETA AVIATION', country: 'FRANCE', telephony: 'BETA', friendly: null }],
    () => 'FR',
  );
  assert.deepEqual([t.byIcao('QQQ')?.country, t.byIcao('QQQ')?.telephony, t.byIcao('QQQ')?.source], [null, null, 'vrs']);
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

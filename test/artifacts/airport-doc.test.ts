// the airport document's identity fields against spec 2.6, on a real OurAirports row
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { airportDocument } from '../../artifacts/airport-doc.ts';
import { indexAirports, parseAirports } from '../../lib/reference/airports.ts';
import { problems } from '../../schemas/index.ts';
import { icaoKeyOf } from '../../build/steps/airports/served.ts';

// real rows of OurAirports airports.csv (Unlicense): Tatitlek's ident is its FAA code, its ICAO code is PAKA
const CSV = `ident,type,name,latitude_deg,longitude_deg,elevation_ft,iso_country,iso_region,municipality,scheduled_service,icao_code,iata_code
7KA,small_airport,Tatitlek Airport,60.871449,-146.690297,62,US,US-AK,Tatitlek,yes,PAKA,TEK
LSZH,large_airport,Zurich Airport,47.458056,8.548056,1417,CH,CH-ZH,Zurich,yes,LSZH,ZRH
1G4,small_airport,Grand Canyon West Airport,35.985001,-113.817001,4825,US,US-AZ,Peach Springs,yes,,GCW
`;
const airports = indexAirports(parseAirports(CSV).airports);
const lookups = { flightOf: () => null, routeOf: () => undefined, blockMinutes: () => null, airlineOf: () => null };
const doc = (iata: string) => airportDocument({ airport: airports.byIata(iata)! as never, log: null, timetable: null, lookups });

test('ident is the ICAO ident where the OurAirports ident is not (TEK is 7KA, ICAO PAKA)', () => {
  assert.equal(doc('TEK').ident, 'PAKA');
  assert.equal(doc('ZRH').ident, 'LSZH');
  // no ICAO code known at all: the OurAirports ident is the best there is
  assert.equal(doc('GCW').ident, '1G4');
  for (const c of ['TEK', 'ZRH', 'GCW']) assert.deepEqual(problems('airport', doc(c)), [], c);
});

// the real row of Matthew Spain Airport (OurAirports, Unlicense), gps_code column kept
const GPS_CSV = `"id","ident","type","name","latitude_deg","longitude_deg","elevation_ft","continent","iso_country","iso_region","municipality","scheduled_service","icao_code","iata_code","gps_code","local_code","home_link","wikipedia_link","keywords"
42218,"BZ-SQS","small_airport","Matthew Spain Airport",17.185898,-89.009936,199,"NA","BZ","BZ-CY","Spanish Lookout","no",,"SQS","MZCF",,,"https://en.wikipedia.org/wiki/Matthew_Spain_Airport","Central Farm Airstrip"
`;

test('with no ICAO code, the ICAO-shaped gps_code is the ident, and the build serves the document under it (SQS is MZCF, issue 43)', () => {
  const sqs = indexAirports(parseAirports(GPS_CSV).airports).byIata('SQS')!;
  const d = airportDocument({ airport: sqs as never, log: null, timetable: null, lookups });
  assert.equal(d.ident, 'MZCF');
  // the ICAO spelling the airports step writes the document under besides SQS: what it publishes as ident
  assert.equal(icaoKeyOf(sqs), 'MZCF');
  assert.deepEqual(problems('airport', d), []);
});

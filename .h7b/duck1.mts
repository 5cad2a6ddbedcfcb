import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
const r = await c.runAndReadAll(`select timezone('Europe/Zurich', to_timestamp(1698537600)) as a, timezone('Asia/Tokyo', to_timestamp(1698537600)) as b, extract(hour from timezone('Europe/Zurich', to_timestamp(1698537600)))::int as h, current_setting('TimeZone') tz`);
console.log(r.getRowObjectsJS());
const t0=Date.now();
const r2 = await c.runAndReadAll(`select count(*), sum(extract(hour from timezone(case when i%2=0 then 'Europe/Zurich' else 'Asia/Tokyo' end, to_timestamp(1698537600 + i*7)))*60 + extract(minute from timezone('Europe/Zurich', to_timestamp(1698537600+i*7)))) from range(10000000) t(i)`);
console.log(r2.getRowsJS(), Date.now()-t0);

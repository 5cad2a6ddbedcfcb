// the columns of the researchers' flights and points tables as the bundle's README describes them, in file
// order; the bundle test holds the written Parquet to this list, so the text cannot drift from it.
// a flights row is a flight of /v1/flights/{hex}/{date} (schemas/flights.schema.json) flattened.

/** [name, type, unit and nulls] */
export type ColumnText = readonly [string, string, string];

export const FLIGHT_COLUMNS: readonly ColumnText[] = [
  ['hex', 'VARCHAR', 'ICAO 24-bit address, lower-case hex; never null'],
  ['callsign', 'VARCHAR', 'callsign heard on most of the flight, upper case; null when none was broadcast'],
  ['reg', 'VARCHAR', 'registration as heard; null when not broadcast'],
  ['type', 'VARCHAR', 'ICAO type designator as heard; null when not known'],
  ['org', 'VARCHAR', 'IATA origin; null when not known'],
  ['dst', 'VARCHAR', 'IATA destination; null when not known'],
  ['org_ident', 'VARCHAR', 'OurAirports ident where the take-off was heard; null when it was not'],
  ['dst_ident', 'VARCHAR', 'OurAirports ident where the landing was heard; null when it was not'],
  ['route_source', 'VARCHAR', 'observed, observed+catalog or catalog (data honesty 4); null when neither end is known'],
  ['dep_at', 'BIGINT', 'take-off, unix seconds UTC; null (with dep_lat, dep_lon, dep_runway) when the take-off was not heard'],
  ['dep_lat', 'DOUBLE', 'where the take-off was heard, WGS84 degrees'],
  ['dep_lon', 'DOUBLE', 'where the take-off was heard, WGS84 degrees'],
  ['dep_runway', 'VARCHAR', "the runway end's designator (27R); null when no runway fits well or two fit alike"],
  ['arr_at', 'BIGINT', 'landing, unix seconds UTC; null (with arr_lat, arr_lon, arr_runway) when the landing was not heard'],
  ['arr_lat', 'DOUBLE', 'where the landing was heard, WGS84 degrees'],
  ['arr_lon', 'DOUBLE', 'where the landing was heard, WGS84 degrees'],
  ['arr_runway', 'VARCHAR', "the runway end's designator; null as dep_runway"],
  ['first_seen', 'BIGINT', "unix seconds of the flight's first heard point; never null; with hex the key of its points"],
  ['last_seen', 'BIGINT', 'unix seconds of its last heard point; never null'],
  ['distance_km', 'DOUBLE', 'km flown as heard (the steps between its points); null for a day logged before distances were'],
  ['max_alt_ft', 'INTEGER', 'highest barometric altitude heard, feet; null when none was'],
  ['circuit', 'BOOLEAN', 'leaves and returns to one field, each circuit of a touch-and-go session included; never null'],
  ['open', 'BOOLEAN', "still flying after the newest day built (no landing yet); a later build closes it and replaces the day's file"],
];

export const POINT_COLUMNS_TEXT: readonly ColumnText[] = [
  ['hex', 'VARCHAR', "the flight's hex; never null"],
  ['first_ts', 'BIGINT', "the flight's first_seen: with hex and date, the key that joins a point to its flight"],
  ['t', 'DOUBLE', 'unix seconds UTC'],
  ['lat', 'DOUBLE', 'WGS84 degrees'],
  ['lon', 'DOUBLE', 'WGS84 degrees'],
  ['alt_baro', 'INTEGER', 'barometric altitude, feet; null on the ground (ground = true) or when unknown'],
  ['ground', 'BOOLEAN', 'the decoder said the aircraft was on the ground'],
  ['track', 'DOUBLE', 'track, degrees true; null when unknown'],
];

// the map's aircraft types (/v1/map/types, docs/api.md "Aircraft shapes"): for each ICAO type
// designator of the VRS model-type table, the silhouette the map draws and the type's name spelled
// out. prepared here once from lib/reference/types.ts (engine type, species, wake, the category
// rule) rather than shipped as a table in the browser code: one rule, the one the build's refdata
// uses, and the browser's bundle stays small (2,857 designators, 38 KB gzipped).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTypes, parseModelTypes, type TypeTable } from '../../lib/reference/types.ts';

/** the silhouettes (web/map/shapes.ts draws them); `heavy` is the airliner drawn larger, `business` the regional jet drawn smaller */
const SHAPES = ['airliner', 'heavy', 'regional', 'business', 'turboprop', 'light', 'helicopter', 'glider', 'balloon', 'military', 'ground'] as const;
type Shape = (typeof SHAPES)[number];

// sailplane makers: their motor gliders carry a piston, electric or jet sustainer in the table
const GLIDER_MAKERS = /^(Alexander )?Schleicher|Schempp-Hirth|^DG|Glaser-Dirks|Rolladen-Schneider|^LAK\b|Jonker|Stemme|Grob.*Twin|Pipistrel Taurus/i;

type Info = NonNullable<ReturnType<TypeTable['get']>>;

/** The silhouette for a type, first rule that applies; null for a designator with nothing to go on. */
function shapeOfType(t: Pick<Info, 'designator' | 'manufacturer' | 'model' | 'category' | 'species'>): Shape | null {
  if (t.designator === '-GND' || t.designator === '-TWR') return 'ground';
  if (t.designator === 'BALL' || t.designator === 'SHIP') return 'balloon';
  if (t.designator === 'GLID' || GLIDER_MAKERS.test(t.manufacturer)) return 'glider';
  switch (t.category) {
    case 'helicopter':
    case 'gyrocopter':
      return 'helicopter';
    case 'wide':
      return 'heavy';
    case 'narrow':
      return 'airliner';
    case 'regional':
      return 'regional';
    case 'business':
      return 'business';
    case 'military':
      return 'military';
    case 'turboprop':
    case 'tiltrotor':
      return 'turboprop';
    case 'piston':
    case 'electric':
      return 'light';
    default:
      return null;
  }
}

export interface MapTypes {
  /** designator -> [shape or null, name] */
  types: Record<string, [Shape | null, string]>;
}

/** Every designator of the table, sorted, with its shape and name. */
function mapTypes(table: TypeTable): MapTypes {
  const rows = [...table.all()].sort((a, b) => (a.designator < b.designator ? -1 : 1));
  const types: MapTypes['types'] = {};
  for (const t of rows) types[t.designator] = [shapeOfType(t), t.name];
  return { types };
}

/** The map's types from a reference folder (data/ref). */
export function loadMapTypes(refDir: string): MapTypes {
  return mapTypes(buildTypes(parseModelTypes(readFileSync(join(refDir, 'vrs-standing-data/model-type.csv'))).rows));
}

// the offline basemap's TopoJSON (/map/basemap-10m.json) decoded once into what a tile draws:
// each arc's points in Web Mercator [0, 1] (Float32: a quarter pixel at zoom 14), with its box;
// land as polygons of arc references with their boxes; country borders as the arcs two countries
// share. done here rather than through topojson-client's GeoJSON, which would make an array per
// point (477,000 of them at 1:10m) for code that only ever wants flat coordinates.

type ArcRef = number;

interface TopoGeometry {
  type: string;
  arcs?: ArcRef[][] | ArcRef[][][];
  properties?: { name?: string };
}

export interface Topology {
  type: 'Topology';
  transform: { scale: [number, number]; translate: [number, number] };
  arcs: [number, number][][];
  objects: { land: { type: string; geometries: TopoGeometry[] }; countries: { type: string; geometries: TopoGeometry[] } };
}

interface LandPolygon {
  /** rings of arc references (~i: arc i reversed) */
  rings: ArcRef[][];
  /** [x0, y0, x1, y1] in Mercator units */
  box: Float64Array;
}

export interface Decoded {
  /** arc i's points, x0, y0, x1, y1, ... in Mercator units */
  arcs: Float32Array[];
  /** arc i's box: 4 values from 4 * i */
  arcBox: Float64Array;
  land: LandPolygon[];
  /** arcs shared by two different countries */
  borders: number[];
}

const MAX_LAT = 85.0511287798;
export const mercX = (lon: number) => (lon + 180) / 360;
export function mercY(lat: number): number {
  const l = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  return 0.5 - Math.log(Math.tan(Math.PI / 4 + l / 2)) / (2 * Math.PI);
}

const polygonsOf = (g: TopoGeometry): ArcRef[][][] =>
  g.type === 'Polygon' ? [g.arcs as ArcRef[][]] : g.type === 'MultiPolygon' ? (g.arcs as ArcRef[][][]) : [];

export function decodeTopology(t: Topology): Decoded {
  const [sx, sy] = t.transform.scale;
  const [tx, ty] = t.transform.translate;
  const arcBox = new Float64Array(t.arcs.length * 4);
  const arcs = t.arcs.map((arc, i) => {
    const out = new Float32Array(arc.length * 2);
    let qx = 0;
    let qy = 0;
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (let k = 0; k < arc.length; k++) {
      // delta-encoded quantized positions (TopoJSON 2.1.1)
      qx += arc[k]![0];
      qy += arc[k]![1];
      const x = mercX(qx * sx + tx);
      const y = mercY(qy * sy + ty);
      out[2 * k] = x;
      out[2 * k + 1] = y;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    arcBox.set([x0, y0, x1, y1], 4 * i);
    return out;
  });
  const land: LandPolygon[] = [];
  for (const g of t.objects.land.geometries) {
    for (const rings of polygonsOf(g)) {
      const box = new Float64Array([Infinity, Infinity, -Infinity, -Infinity]);
      for (const ref of rings[0] ?? []) {
        const i = ref < 0 ? ~ref : ref;
        box[0] = Math.min(box[0]!, arcBox[4 * i]!);
        box[1] = Math.min(box[1]!, arcBox[4 * i + 1]!);
        box[2] = Math.max(box[2]!, arcBox[4 * i + 2]!);
        box[3] = Math.max(box[3]!, arcBox[4 * i + 3]!);
      }
      land.push({ rings, box });
    }
  }
  // an arc used by two countries is a border between them; one used by one country is its coast
  const owner = new Int32Array(t.arcs.length).fill(-1);
  const shared = new Uint8Array(t.arcs.length);
  t.objects.countries.geometries.forEach((g, c) => {
    for (const rings of polygonsOf(g))
      for (const ring of rings)
        for (const ref of ring) {
          const i = ref < 0 ? ~ref : ref;
          if (owner[i] === -1) owner[i] = c;
          else if (owner[i] !== c) shared[i] = 1;
        }
  });
  const borders: number[] = [];
  for (let i = 0; i < shared.length; i++) if (shared[i]) borders.push(i);
  return { arcs, arcBox, land, borders };
}

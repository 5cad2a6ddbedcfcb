// the offline basemap (docs/api.md "The map's offline basemap"): Natural Earth 1:10m land, coasts
// and country borders, and the names of countries and large cities, drawn into 256 px canvas tiles
// by a Leaflet GridLayer. a tile draws only the polygons and arcs whose boxes reach it and skips
// points less than half a pixel from the last one drawn, and an arc that misses it as its chord
// (tile-path.ts), so a zoom-2 tile draws a few hundred points of Eurasia's 100,000; Leaflet keeps the tiles, so a pan draws only the tiles that come into view.
import L from 'leaflet';
import { decodePacked, type Decoded } from './topo.ts';
import { traceArcs, type TileFrame } from './tile-path.ts';
import { CITY_FONT, COUNTRY_FONT, placeLabels, type Place, type PlacedLabel } from './place-labels.ts';
import { palette } from './theme.ts';

const TILE = 256;
/** px of margin a tile draws beyond its edges, so strokes meet their neighbours' */
const PAD = 2;

export class VectorBasemap extends L.GridLayer {
  private data: Decoded | null = null;
  private places: Place[] = [];
  private readonly labelsByZoom = new Map<number, PlacedLabel[]>();
  private readonly measure = document.createElement('canvas').getContext('2d')!;
  /** tiles drawn since the layer was made (the tests' and the bench's hook) */
  drawnTiles = 0;
  /** arc points walked by the tiles drawn so far (the bench's hook: what a tile's trace costs) */
  walked = 0;

  constructor() {
    super({ tileSize: TILE, minZoom: 0, maxZoom: 19, maxNativeZoom: 19, updateWhenZooming: false, keepBuffer: 2, className: 'vector-basemap' });
  }

  /** Load the topology and the place names (once); tiles asked for before then are drawn when they arrive. */
  async load(basemapUrl: string, placesUrl: string): Promise<void> {
    const [t, p] = await Promise.all([fetch(basemapUrl), fetch(placesUrl)]);
    if (!t.ok || !p.ok) throw new Error(`basemap: ${t.status} ${p.status}`);
    const [bytes, places] = await Promise.all([t.arrayBuffer(), p.json() as Promise<{ places: Place[] }>]);
    // packed (lib/basemap-pack.ts): one pass over bytes, no JSON.parse of the 3.7 MB topology
    this.data = decodePacked(new Uint8Array(bytes));
    this.places = places.places;
    this.labelsByZoom.clear();
    this.redraw();
  }

  get ready(): boolean {
    return this.data !== null;
  }

  /** the labels the current zoom shows (the tests read them) */
  labels(zoom: number): PlacedLabel[] {
    const z = Math.round(zoom);
    let l = this.labelsByZoom.get(z);
    if (!l) {
      this.labelsByZoom.set(
        z,
        (l = placeLabels(this.places, z, (text, font) => {
          this.measure.font = font;
          return this.measure.measureText(text).width;
        })),
      );
    }
    return l;
  }

  protected override createTile(coords: L.Coords): HTMLElement {
    const canvas = document.createElement('canvas');
    const dpr = window.devicePixelRatio || 1;
    canvas.width = TILE * dpr;
    canvas.height = TILE * dpr;
    const ctx = canvas.getContext('2d')!;
    ctx.scale(dpr, dpr);
    if (this.data) this.drawTile(ctx, coords);
    return canvas;
  }

  private drawTile(ctx: CanvasRenderingContext2D, c: L.Coords): void {
    const d = this.data!;
    const p = palette();
    this.drawnTiles++;
    const scale = TILE * 2 ** c.z;
    const ox = c.x * TILE;
    const oy = c.y * TILE;
    // the tile's box in Mercator units, with its margin
    const pad = PAD / scale;
    const x0 = c.x / 2 ** c.z - pad;
    const y0 = c.y / 2 ** c.z - pad;
    const x1 = (c.x + 1) / 2 ** c.z + pad;
    const y1 = (c.y + 1) / 2 ** c.z + pad;
    const hits = (b: ArrayLike<number>, i = 0) => b[i]! <= x1 && b[i + 2]! >= x0 && b[i + 1]! <= y1 && b[i + 3]! >= y0;
    const frame: TileFrame = { scale, ox, oy, x0, y0, x1, y1 };

    ctx.fillStyle = p.sea;
    ctx.fillRect(0, 0, TILE, TILE);
    const land = new Path2D();
    for (const poly of d.land) {
      if (!hits(poly.box)) continue;
      for (const ring of poly.rings) this.walked += traceArcs(land, d, ring, frame);
    }
    ctx.fillStyle = p.land;
    ctx.fill(land, 'evenodd');
    ctx.strokeStyle = p.coast;
    ctx.lineWidth = 0.8;
    ctx.stroke(land);
    const borders = new Path2D();
    for (const i of d.borders) if (hits(d.arcBox, 4 * i)) this.walked += traceArcs(borders, d, [i], frame, false);
    ctx.strokeStyle = p.border;
    ctx.lineWidth = c.z >= 6 ? 1.1 : 0.8;
    ctx.setLineDash(c.z >= 5 ? [5, 3] : []);
    ctx.stroke(borders);
    ctx.setLineDash([]);
    this.drawLabels(ctx, c.z, ox, oy);
  }

  private drawLabels(ctx: CanvasRenderingContext2D, z: number, ox: number, oy: number): void {
    const p = palette();
    ctx.lineJoin = 'round';
    ctx.lineWidth = 3;
    ctx.strokeStyle = p.halo;
    for (const l of this.labels(z)) {
      const [bx0, by0, bx1, by1] = l.box;
      if (bx1 < ox || bx0 > ox + TILE || by1 < oy || by0 > oy + TILE) continue;
      const x = l.x - ox;
      const y = l.y - oy;
      if (l.kind === 'country') {
        ctx.font = COUNTRY_FONT;
        ctx.textAlign = 'center';
        ctx.letterSpacing = '0.8px';
        ctx.fillStyle = p.country;
        ctx.strokeText(l.text, x, y + 4);
        ctx.fillText(l.text, x, y + 4);
        ctx.letterSpacing = '0px';
      } else {
        ctx.fillStyle = p.city;
        ctx.beginPath();
        ctx.arc(x, y, 2.5, 0, 2 * Math.PI);
        ctx.fill();
        ctx.font = CITY_FONT;
        ctx.textAlign = 'left';
        ctx.strokeText(l.text, x + 6, y + 4);
        ctx.fillText(l.text, x + 6, y + 4);
      }
    }
  }
}

// data/ref/sources.json: one entry per upstream source with its files, license and the credit
// it asks for (the credits page and the bundles read it). Checked on load.
import { RefdataError } from './csv.ts';

export interface Source {
  id: string;
  name: string;
  /** paths relative to the snapshot directory */
  files: string[];
  license: string;
  license_url?: string;
  credit: string;
  upstream: string;
  /** ISO date the files were last taken from upstream */
  retrieved: string;
}

const str = (v: unknown) => typeof v === 'string' && v.trim() !== '';

export function parseSources(input: string | Buffer, file = 'sources.json'): Source[] {
  let doc: unknown;
  try {
    doc = JSON.parse(input.toString());
  } catch (err) {
    throw new RefdataError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(doc)) throw new RefdataError(`${file}: must be an array of sources`);
  return doc.map((s: unknown, i: number) => {
    const at = `${file}: [${i}]`;
    if (typeof s !== 'object' || s === null) throw new RefdataError(`${at} must be an object`);
    const o = s as Record<string, unknown>;
    for (const k of ['id', 'name', 'license', 'credit', 'upstream']) {
      if (!str(o[k])) throw new RefdataError(`${at}.${k} must be a non-empty string`);
    }
    if (typeof o.retrieved !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(o.retrieved)) throw new RefdataError(`${at}.retrieved must be a date YYYY-MM-DD`);
    if (!Array.isArray(o.files) || !o.files.every(str)) throw new RefdataError(`${at}.files must be an array of paths`);
    if (o.license_url !== undefined && !str(o.license_url)) throw new RefdataError(`${at}.license_url must be a URL when present`);
    return o as unknown as Source;
  });
}

// what the nightly learned for the estimator (meta/flow, meta/paths), read from a published tree
// the one way the live server, the accuracy replay and the next night all read it: each document
// validated against its schema (a malformed one is logged and left out), and, for a replay of a
// day, left out when it has learned that day or a later one (it would know where the replayed
// aircraft went and flatter the figures).
import { problems } from '../schemas/index.ts';
import { keys } from './keys.ts';
import { readObject } from './tree.ts';
import { decodeFlow, type FlowDoc } from '../lib/estimate/flow.ts';
import { decodePaths, type PathsDoc } from '../lib/estimate/paths.ts';
import type { Learned } from '../lib/estimate/fly.ts';

const NAMES = { flow: ['traffic flow', 'is', 'has'], paths: ['traffic paths', 'are', 'have'] } as const;

/** A published document when well formed (and, with `before`, learned only from days before it); else null, said in `warn`. */
export function learnedDoc<K extends 'flow' | 'paths'>(
  dir: string,
  kind: K,
  warn: (m: string) => void,
  before?: string,
): (K extends 'flow' ? FlowDoc : PathsDoc) | null {
  const doc = readObject(dir, keys[kind]());
  if (doc === null) return null;
  const p = problems(kind, doc);
  if (p.length) {
    const [name, is] = NAMES[kind];
    warn(`${name} ${is} malformed (${p.slice(0, 2).join('; ')}); estimates do without it`);
    return null;
  }
  const through = (doc as { through: string }).through;
  if (before !== undefined && through >= before) {
    const [name, , has] = NAMES[kind];
    warn(`the published ${name} ${has} learned ${through}, not before ${before}: replaying without it`);
    return null;
  }
  return doc as K extends 'flow' ? FlowDoc : PathsDoc;
}

/** Both, decoded for the estimator (see learnedDoc). */
export function learnedOf(dir: string, warn: (m: string) => void, before?: string): Required<Learned> {
  const flow = learnedDoc(dir, 'flow', warn, before);
  const paths = learnedDoc(dir, 'paths', warn, before);
  return { flow: flow && decodeFlow(flow), paths: paths && decodePaths(paths) };
}

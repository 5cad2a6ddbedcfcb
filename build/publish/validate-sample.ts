// which documents the writer checks against their schema. a build's documents come from a few
// builder functions, so a mistake in one (a renamed field, a null where the schema wants a string)
// is in every document of that kind: the first documents of each kind find it. a mistake in a
// rarer branch (an airframe with no registry row, a route only the catalog knows) shows in a share
// of the documents: a sample spread over the whole run finds it with high probability (a branch
// taken by 1 % of 10,000 documents is sampled with probability 1 - (1 - 1/32)^100 = 96 %).
// the sample is a hash of (seed, key), not of the order: the nightly seeds it with its clock, so
// each night checks other documents, and a night can be replayed exactly.
import { unit } from '../../lib/random.ts';

/** every document of each kind up to here is validated */
export const VALIDATE_FIRST = 200;
/** after that, this share of the documents (by a hash of seed and key) */
export const VALIDATE_SHARE = 1 / 32;

/** 'all': every document (tests, CONTRAIL_VALIDATE_ALL); 'sample': the first of each kind and a seeded share after */
export type ValidateMode = 'all' | 'sample';

/** PURE given its state: whether the document `key` of kind `kind` is to be validated. */
export function validationSampler(mode: ValidateMode, seed: number): (kind: string, key: string) => boolean {
  if (mode === 'all') return () => true;
  const seen = new Map<string, number>();
  return (kind, key) => {
    const n = seen.get(kind) ?? 0;
    seen.set(kind, n + 1);
    return n < VALIDATE_FIRST || unit(seed, key) < VALIDATE_SHARE;
  };
}

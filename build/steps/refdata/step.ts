// the refdata step's declaration (declaration.ts): the type and airport documents, from the
// reference data and one scan of the window's legs; nothing is kept for the next night.
import type { StepDeclaration } from '../declaration.ts';

export const REFDATA_STEP = {
  name: 'refdata',
  reads: ['legs'],
  makes: [],
  saves: [],
  reuse: {},
} as const satisfies StepDeclaration;

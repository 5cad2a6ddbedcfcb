// the nightly's replay of the newest day and what it learns from it, in one pass over the day's
// trace files: each track is replayed (step.ts), then folded into tonight's traffic flow (a grid of
// counts, flow.ts) and its paths (paths.ts), and dropped. the folds run in file order, so the sums
// and the documents are the bytes the earlier all-tracks-held version made
// (test/build/accuracy/night.test.ts compares them with its output).
import { accuracyStep, type AccuracyStepResult, type DestinationOf } from './step.ts';
import type { Progress } from '../progress.ts';
import type { ObservedTrack } from '../../lib/estimate/accuracy.ts';
import { decayFlow, emptyFlow, encodeFlow, learnFlow, type FlowDoc, type FlowField } from '../../lib/estimate/flow.ts';
import { encodePaths, learnPaths, mergePaths, type PathSet, type PathsDoc, type TrafficPath } from '../../lib/estimate/paths.ts';

export interface NightReplay {
  step: AccuracyStepResult;
  /** tonight's meta/flow and meta/paths */
  flow: FlowDoc;
  paths: PathsDoc;
  /** cruise points the flow learned from the day, its bins in all */
  flowLearned: number;
  flowBins: number;
  /** paths learned from the day, paths kept in all */
  pathsAdded: number;
  pathsKept: number;
}

/** Replay `day` with what was learned before it (`before`), and learn the day on top of that. */
export async function replayAndLearn(
  history: string,
  day: string,
  destinationOf: DestinationOf,
  before: { flow: FlowField | null; paths: PathSet | null },
  progress?: Progress,
): Promise<NightReplay> {
  const field = before.flow ? decayFlow(before.flow) : emptyFlow();
  const added: TrafficPath[] = [];
  let flowLearned = 0;
  const visit = (t: ObservedTrack) => {
    flowLearned += learnFlow(field, [[...t.points].sort((a, b) => a.t - b.t)]);
    for (const p of learnPaths(day, [t], destinationOf)) added.push(p);
  };
  const step = await accuracyStep(history, day, destinationOf, { learned: before, visit, progress });
  const paths = mergePaths(before.paths?.paths ?? [], added, day);
  return {
    step,
    flow: encodeFlow(field, day),
    paths: encodePaths(paths, day),
    flowLearned,
    flowBins: field.bins.size,
    pathsAdded: added.length,
    pathsKept: paths.length,
  };
}

// the demo's two banners: the live URLs once the server has caught up with the simulated feed, the
// history URLs once the nightly build is published and loaded. a URL is printed only after it
// answered 200, checked just before; the first banner says what is still being built.

export type Get = (url: string) => Promise<{ status: number; body: string }>;

/** GET with a timeout; status 0 when nothing answered */
export const httpGet: Get = async (url) => {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return { status: r.status, body: await r.text() };
  } catch {
    return { status: 0, body: '' };
  }
};

export interface Checked {
  /** the paths that answered 200, in the order asked */
  ok: string[];
  /** the others, with what they answered (0: nothing) */
  left: { path: string; status: number }[];
}

/** GET every path, one after another, and sort them by whether they answered 200 */
export async function answering(base: string, paths: readonly string[], get: Get = httpGet): Promise<Checked> {
  const out: Checked = { ok: [], left: [] };
  for (const path of paths) {
    const r = await get(base + path);
    if (r.status === 200) out.ok.push(path);
    else out.left.push({ path, status: r.status });
  }
  return out;
}

export const daysOf = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

const RULE = '='.repeat(78);
const SIMULATED = [' ALL DATA HERE IS SIMULATED (sim/): generated flights on real airports, routes and', ' airframes; not observations of real aircraft.'];

/** what the first banner says is still loading, and why */
export const STILL_LOADING = [
  ' Still being built: the history (airframes, airports, routes, alliances), the estimates',
  ' and the map. The nightly build is turning the simulated history into them (its progress',
  ' follows); estimates wait for it because they use its routes (destinations) and learned',
  ' paths. Their URLs are printed here once the build is published and the server has it.',
];

export interface LiveBanner {
  base: string;
  secs: number;
  ok: readonly string[];
  days: number;
}

export function liveBanner(b: LiveBanner): string[] {
  return [
    '',
    RULE,
    ` Contrail demo: live in ${b.secs} s at ${b.base}`,
    ...SIMULATED,
    RULE,
    ' Live now (each answered 200):',
    ...b.ok.map((u) => `  ${b.base}${u}`),
    '',
    ...STILL_LOADING,
    ` (${daysOf(b.days)} of simulated history.) Ctrl-C stops the server and the simulator.`,
    '',
  ];
}

export interface HistoryBanner {
  base: string;
  secs: number;
  ok: readonly string[];
  build: string;
  archiveThrough: string;
  estimated: number | null;
  /** a first build of the newest `days` of the `of` simulated: the rest follows in a second build */
  partial?: { days: number; of: number };
}

export function historyBanner(b: HistoryBanner): string[] {
  return [
    '',
    RULE,
    ` Contrail demo: history ready in ${b.secs} s (build ${b.build}, archive through ${b.archiveThrough})`,
    ' SIMULATED, as above.',
    RULE,
    ' History, estimates and the map (each answered 200):',
    ...b.ok.map((u) => `  ${b.base}${u}`),
    '',
    ...(b.estimated === null ? [] : [` ${b.estimated} aircraft ${b.estimated === 1 ? 'is' : 'are'} estimated now: gone quiet over oceans and coverage gaps.`]),
    ...(b.partial ? partialLines(b.partial) : [' Everything is up. Ctrl-C stops the server and the simulator.']),
    '',
  ];
}

/** what a first build of part of the days leaves to the second */
const partialLines = (p: { days: number; of: number }) => [
  ` This first build holds the newest ${daysOf(p.days)} of ${p.of}, and no estimate accuracy yet (/v1/estimated`,
  ` says "accuracy": null until it is measured). The older ${daysOf(p.of - p.days)}: simulated now, then a second`,
  ' nightly build over all of them, with the accuracy, in the background; the server switches',
  ' to it when it is published, and a banner here says so.',
  ' Ctrl-C stops the server and the simulator.',
];

export interface FullBanner {
  base: string;
  secs: number;
  ok: readonly string[];
  build: string;
  archiveThrough: string;
  days: number;
}

/** the second build's arrival, after a first build of part of the days */
export function fullBanner(b: FullBanner): string[] {
  return [
    '',
    RULE,
    ` Contrail demo: full history in ${b.secs} s (build ${b.build}, archive through ${b.archiveThrough}, ${daysOf(b.days)})`,
    RULE,
    ' The URLs above now answer from it (each answered 200 again):',
    ...b.ok.map((u) => `  ${b.base}${u}`),
    '',
    ' Everything is up. Ctrl-C stops the server and the simulator.',
    '',
  ];
}

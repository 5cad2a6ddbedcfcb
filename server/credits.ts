// credits and terms (spec 1): the data is ODbL 1.0; users credit the network's feeders and link the
// credits page. the URLs are configuration; the sources come from data/ref/sources.json plus the
// traffic data and the network itself. creditsDocument() is pure; loadCredits() reads the one file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { httpUrlOrEmpty, type Specs } from '../lib/cli.ts';
import { parseSources } from '../lib/reference/sources.ts';

export interface CreditsConfig {
  /** name of the receiver network, used in the attribution line */
  networkName: string;
  /** the terms page; empty: the credits document, which carries the terms in short */
  termsUrl: string;
  /** the contribution site (outside this API); empty: none */
  contributeUrl: string;
  /** the human credits page; empty: {base_url}/v1/credits */
  creditsUrl: string;
}

/** Flags and environment variables; the server config spreads these into its own table. */
export const creditsOptions: Specs<CreditsConfig> = {
  networkName: {
    flag: 'network-name',
    env: 'CONTRAIL_NETWORK_NAME',
    kind: 'string',
    default: 'Contrail',
    help: 'name of the receiver network, in the credit line users carry ("<name> and its feeders")',
    check: (v) => (v.trim() ? undefined : 'must not be empty'),
  },
  termsUrl: {
    flag: 'terms-url',
    env: 'CONTRAIL_TERMS_URL',
    kind: 'string',
    default: '',
    check: httpUrlOrEmpty,
    help: 'terms of use page (empty: {base_url}/v1/credits, which states the terms in short)',
  },
  contributeUrl: {
    flag: 'contribute-url',
    env: 'CONTRAIL_CONTRIBUTE_URL',
    kind: 'string',
    default: '',
    check: httpUrlOrEmpty,
    help: 'contribution site for corrections and additions (empty: none is advertised)',
  },
  creditsUrl: {
    flag: 'credits-url',
    env: 'CONTRAIL_CREDITS_URL',
    kind: 'string',
    default: '',
    check: httpUrlOrEmpty,
    help: 'credits page users link when they republish (empty: {base_url}/v1/credits)',
  },
};

export const CREDITS_DEFAULTS: CreditsConfig = {
  networkName: creditsOptions.networkName.default,
  termsUrl: '',
  contributeUrl: '',
  creditsUrl: '',
};

type SourceKind = 'network' | 'traffic' | 'reference';

export interface CreditSource {
  id: string;
  name: string;
  kind: SourceKind;
  license: string;
  license_url?: string;
  credit: string;
  upstream?: string;
  retrieved?: string;
}

export interface Credits {
  config: CreditsConfig;
  sources: CreditSource[];
}

const ODBL = { name: 'ODbL 1.0', url: 'https://opendatacommons.org/licenses/odbl/1-0/' } as const;

/** the recorded traffic shipped in data/sample (its CREDITS.md says the same) */
const SHIPPED_TRAFFIC: CreditSource[] = [
  {
    id: 'adsb-lol',
    name: 'adsb.lol (sample history)',
    kind: 'traffic',
    license: 'ODbL 1.0',
    license_url: ODBL.url,
    credit: 'adsb.lol and its feeders',
    upstream: 'published in the eastham adsb_actions repository (BSD-2-Clause); see data/sample/CREDITS.md',
  },
];

const DEFAULT_SOURCES_FILE = fileURLToPath(new URL('../data/ref/sources.json', import.meta.url));

/** Read the reference sources (checked by lib/reference) and put the network and the traffic beside them. */
export function loadCredits(config: CreditsConfig, opts: { sourcesFile?: string; traffic?: CreditSource[] } = {}): Credits {
  const file = opts.sourcesFile ?? DEFAULT_SOURCES_FILE;
  const reference = parseSources(readFileSync(file), file).map(
    (s): CreditSource => ({
      id: s.id,
      name: s.name,
      kind: 'reference',
      license: s.license,
      ...(s.license_url ? { license_url: s.license_url } : {}),
      credit: s.credit,
      upstream: s.upstream,
      retrieved: s.retrieved,
    }),
  );
  const network: CreditSource = {
    id: 'feeders',
    name: `${config.networkName} receiver network`,
    kind: 'network',
    license: ODBL.name,
    license_url: ODBL.url,
    credit: `${config.networkName} and its feeders`,
  };
  return { config, sources: [network, ...(opts.traffic ?? SHIPPED_TRAFFIC), ...reference] };
}

/** The /v1/credits document (schemas/credits.schema.json); `baseUrl` may be empty (relative links). */
export function creditsDocument(c: Credits, baseUrl: string) {
  const base = baseUrl.replace(/\/+$/, '');
  const creditsUrl = c.config.creditsUrl || `${base}/v1/credits`;
  return {
    license: ODBL,
    attribution: `Data: ${c.config.networkName} and its feeders, ${ODBL.name} (${creditsUrl})`,
    terms: [
      `The data is licensed under ${ODBL.name} (${ODBL.url}).`,
      `Credit the network's feeders ("${c.config.networkName} and its feeders") and link ${creditsUrl}.`,
      'Republishing carries these credits, including the credit each source below asks for.',
      'History is observation, never an official registry: a gap means the network did not hear the aircraft.',
      'No key and no account are needed; rate limits apply per client IP.',
    ],
    credits_url: creditsUrl,
    terms_url: c.config.termsUrl || creditsUrl,
    contribute_url: c.config.contributeUrl || null,
    docs_url: `${base}/docs`,
    sources: c.sources,
  };
}

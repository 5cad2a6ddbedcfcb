// headless Chromium for the browser tests (the /docs page, the map): Debian's package driven by
// playwright-core, which downloads no browser (docs/components.md). CHROMIUM_PATH points elsewhere.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** a headless Chromium; fails saying how to install one when there is none */
export function launchChromium(): Promise<Browser> {
  assert.ok(
    existsSync(CHROMIUM),
    `no Chromium at ${CHROMIUM}: install Debian's package with \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH)`,
  );
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

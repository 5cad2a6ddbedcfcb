// the live server's entry point: `npm run --silent serve -- [flags]` (see --help).
import { ConfigError } from '../lib/cli.ts';
import { loadServerConfig, serverHelp } from './config.ts';
import { createApp } from './app.ts';
import { loadNativeUws } from './http/uws.ts';

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = loadServerConfig(process.argv.slice(2));
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`contrail: ${e.message}`);
      return 2;
    }
    throw e;
  }
  if (parsed.help) {
    console.log(serverHelp());
    return 0;
  }
  try {
    loadNativeUws();
  } catch (e) {
    console.error(`contrail: ${(e as Error).message}`);
    return 1;
  }
  const app = await createApp(parsed.config, { log: (line) => console.error(line) });
  const stop = () => {
    app.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(`contrail: listening on http://${parsed.config.host}:${app.port} (feed: ${parsed.config.feed || 'none'}; artifacts: ${parsed.config.artifacts || 'none'})`);
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e) => {
    console.error(`contrail: ${(e as Error).message}`);
    process.exit(1);
  },
);

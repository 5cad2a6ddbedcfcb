// the live server's entry point: `npm run --silent serve -- [flags]` (see --help).
import { setFlagsFromString } from 'node:v8';
import { RUNNING, runAsMain, runCommand, type Command } from '../lib/cli.ts';
import { serverOptions, serverUsage, type ServerConfig } from './config.ts';

const serve: Command<ServerConfig> = {
  name: 'contrail',
  usage: serverUsage,
  specs: serverOptions,
  run: async (config) => {
    // the server's modules load only once the flags are read: --help and a bad flag answer in
    // a second, not after the whole app has been compiled and loaded
    const [{ createApp }, { loadNativeUws }, { createLogger }, { glibcVersion, mallocWarning }] = await Promise.all([
      import('./app.ts'),
      import('./http/uws.ts'),
      import('../lib/log.ts'),
      import('./malloc.ts'),
    ]);
    try {
      loadNativeUws();
    } catch (e) {
      console.error(`contrail: ${(e as Error).message}`);
      return 1;
    }
    // before the app allocates: the threads it starts take the flag too (see config.ts)
    if (config.heapGrowthPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`);
    // JSON lines on stdout (pretty in a terminal); a refusal to start stays a plain line on stderr
    const { log, event } = createLogger(config);
    const malloc = mallocWarning(process.env, glibcVersion());
    if (malloc) log(malloc, 'warn');
    const app = await createApp(config, { log, event });
    const stop = (signal: string) => {
      log(`contrail: stopping (${signal})`);
      // the serving threads close their sockets first: a thread ended with sockets open aborts the process
      void app.stop().finally(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    event(
      `contrail: listening on http://${config.host}:${app.port} (feed: ${config.feed || 'none'}; artifacts: ${config.artifacts || 'none'}; serving threads: ${app.threads})`,
      { port: app.port, threads: app.threads },
    );
    return RUNNING;
  },
};

runAsMain(import.meta.url, () => runCommand(serve, process.argv.slice(2)));

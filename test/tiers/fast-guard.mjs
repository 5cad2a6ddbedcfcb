// the fast tier's guard (make check; docs/ARCHITECTURE.md "Tests"): loaded with --import before the
// tests that carry no `.slow.test.ts` suffix, it makes starting a process or a listening server
// throw, naming the rule. a test that needs one belongs to the slow tier by its name, so a new
// slow test cannot join the edit-test loop unnoticed. worker threads and in-process DuckDB are
// allowed. plain JavaScript: Node 20 applies --import to worker threads too, where tsx is not
// registered yet (lib/ts-worker.ts).
import childProcess from 'node:child_process';
import net from 'node:net';
import Module, { syncBuiltinESMExports } from 'node:module';

const TIER_RULE = 'the fast tier starts no process and no listening server: name this test file *.slow.test.ts (docs/ARCHITECTURE.md, "Tests")';

/** @param {string} what */
const refuse = (what) => () => {
  throw new Error(`${what}: ${TIER_RULE}`);
};

for (const name of ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync']) {
  childProcess[name] = refuse(`child_process.${name}`);
}
net.Server.prototype.listen = refuse('a listening socket (net.Server.listen)');
// the ESM named exports (import { spawn } from 'node:child_process') follow the patched CommonJS ones
syncBuiltinESMExports();

// uWebSockets.js's binary is loaded with require (server/http/uws.ts loadNativeUws): its apps may
// be made, not listen
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const mod = load.call(this, request, parent, isMain);
  if (!/(^|[\\/])uws_[^\\/]*\.node$/.test(request)) return mod;
  const wrap =
    (make) =>
    (...a) => {
      const app = make(...a);
      app.listen = refuse('a uWebSockets.js server (App.listen)');
      return app;
    };
  return { ...mod, App: wrap(mod.App), SSLApp: wrap(mod.SSLApp) };
};

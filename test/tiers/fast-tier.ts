// the fast tier as one file of `make test`: the guard first (it refuses a process or a listening
// server, as under make check), then every fast file in this one process, so node and tsx start
// once for the tier instead of once per file (docs/perf-log/test-suite.md, "The fast tier in one process").
import './fast-guard.mjs';
import './fast.ts';

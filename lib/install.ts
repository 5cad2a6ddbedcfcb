// where this installation lives: the defaults of every command (the shipped data/ref, the sample
// history, var/) resolve from here, never from the working directory, so cron or systemd can run a
// command from anywhere.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** the project's root folder (the one holding package.json) */
const INSTALL_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** a path inside the installation */
export const installed = (rel: string) => join(INSTALL_ROOT, rel);

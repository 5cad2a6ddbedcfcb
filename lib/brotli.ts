// brotli's options, spelled out in one place for every body compressed once (snapshots, static files).
import { constants } from 'node:zlib';

/** brotli's options for a body of `bytes` at `quality` (0-11) */
export const brotliOptions = (quality: number, bytes: number) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes },
});

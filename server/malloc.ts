// glibc's malloc and the serving threads (docs/operating.md, "Memory"). what uWebSockets.js frees on
// a worker thread (a slow stream client's buffers, megabytes each) goes back to that thread's malloc
// arena, which glibc rarely returns to the system: after 300 paused stream clients left, the server
// stayed at 1.55 GB RSS against 0.46 before (bench/stream-paused.ts). buffers of 128 KiB and more
// mmapped on their own, as this setting makes them, are returned the moment they are freed (the
// same run: back to 0.39 GB). glibc reads it only when the process starts, so every launcher sets
// it (npm run serve, the image, the systemd unit, the demo) and the server warns without it.

/** the environment the live server is started with */
export const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' } as const;

/** The start-up warning for a glibc process started without MALLOC_ENV; null when it is set, or the C library is another. */
export function mallocWarning(env: NodeJS.ProcessEnv, glibcVersion: string | undefined): string | null {
  if (!glibcVersion || env.MALLOC_MMAP_THRESHOLD_ !== undefined) return null;
  return `contrail: started without MALLOC_MMAP_THRESHOLD_=${MALLOC_ENV.MALLOC_MMAP_THRESHOLD_}: glibc ${glibcVersion} keeps what the serving threads free (slow stream clients' buffers) in this process's memory; set it where the server is started (docs/operating.md, "Memory")`;
}

/** the glibc version this process runs on, or undefined (musl, macOS) */
export function glibcVersion(): string | undefined {
  return (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
}

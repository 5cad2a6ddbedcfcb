// at most n requests in flight: every request of an upload (objects, multipart parts) takes a slot,
// so the bound holds however the work is split.

export type Limiter = <T>(fn: () => Promise<T>) => Promise<T>;

export function limiter(n: number): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await fn();
    } finally {
      // hand the slot straight to the next waiter (active stays the same), or free it
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

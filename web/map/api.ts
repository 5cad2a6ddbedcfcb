// GET a JSON document from the server the page came from, and say plainly what came back: the body,
// or the section-7 error with its Retry-After (503 stale_snapshot means stale, never empty).

export type Answer<T> = { ok: true; status: number; body: T } | { ok: false; status: number; error: string; detail: string; retryAfterS: number | null };

export async function getJson<T>(path: string): Promise<Answer<T>> {
  let res: Response;
  try {
    res = await fetch(path, { headers: { Accept: 'application/json' } });
  } catch (e) {
    return { ok: false, status: 0, error: 'network', detail: `the server did not answer: ${(e as Error).message}`, retryAfterS: null };
  }
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    // a proxy's HTML error page: reported below with its status
  }
  if (res.ok && body !== null) return { ok: true, status: res.status, body: body as T };
  const retry = Number(res.headers.get('Retry-After'));
  return {
    ok: false,
    status: res.status,
    error: typeof body?.error === 'string' ? body.error : `http_${res.status}`,
    detail: typeof body?.detail === 'string' ? body.detail : text.slice(0, 200),
    retryAfterS: Number.isFinite(retry) && retry > 0 ? retry : null,
  };
}

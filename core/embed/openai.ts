// A client for any OpenAI-compatible embeddings endpoint (OpenAI, Ollama, vLLM, llama.cpp server,
// text-embeddings-inference): POST {base}/embeddings with {model, input: [...]}, batched, with a per-request timeout
// and retries with exponential backoff on transient failures (network errors, timeouts, 408, 429, 5xx; Retry-After
// honoured up to the backoff cap). Vectors come back normalised to unit length.
import { type Embedder, EmbeddingError, normalise } from './provider.ts';

export interface OpenAIEmbedderOptions {
  /** Base URL: `http://host:11434/v1`, `https://api.openai.com/v1`; a URL ending in `/embeddings` is used as is. */
  url: string;
  model: string;
  key?: string | null;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Per-request time limit (default 10000 ms). */
  timeoutMs?: number;
  /** Further attempts after a transient failure (default 2). */
  retries?: number;
  /** First backoff delay; doubles per attempt (default 250 ms, capped at 8 s). */
  backoffMs?: number;
}

/** `…/v1` → `…/v1/embeddings`; `…/embeddings` unchanged; a bare host gets `/v1/embeddings`. */
export function embeddingsUrl(base: string): string {
  const u = base.replace(/\/+$/, '');
  if (/\/embeddings$/.test(u)) return u;
  if (/\/v\d+$/.test(u)) return `${u}/embeddings`;
  return `${u}/v1/embeddings`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class OpenAIEmbedder implements Embedder {
  readonly provider = 'openai-compatible' as const;
  readonly model: string;
  dim: number | null = null;
  private readonly endpoint: string;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;

  constructor(private readonly opts: OpenAIEmbedderOptions) {
    this.model = opts.model;
    this.endpoint = embeddingsUrl(opts.url);
    this.batchSize = Math.max(1, opts.batchSize ?? 64);
    this.timeoutMs = opts.timeoutMs ?? 10000;
    this.retries = Math.max(0, opts.retries ?? 2);
    this.backoffMs = opts.backoffMs ?? 250;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize)
      out.push(...(await this.batch(texts.slice(i, i + this.batchSize))));
    return out;
  }

  private async batch(input: string[]): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      let retryAfterMs: number | null = null;
      try {
        return await this.request(input);
      } catch (e) {
        const err = e as EmbeddingError & { retryAfterMs?: number };
        const transient =
          err.kind === 'network' ||
          err.kind === 'timeout' ||
          (err.kind === 'http' && (err.status === 408 || err.status === 429 || (err.status ?? 0) >= 500));
        if (!transient || attempt >= this.retries) throw err;
        retryAfterMs = err.retryAfterMs ?? null;
      }
      const backoff = Math.min(8000, this.backoffMs * 2 ** attempt);
      await sleep(retryAfterMs !== null ? Math.min(8000, Math.max(backoff, retryAfterMs)) : backoff);
    }
  }

  private async request(input: string[]): Promise<Float32Array[]> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.opts.key) headers.authorization = `Bearer ${this.opts.key}`;
    let res: Response;
    try {
      res = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.model, input, encoding_format: 'float' }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      const name = (e as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new EmbeddingError('timeout', `embedding endpoint timed out after ${this.timeoutMs} ms`);
      throw new EmbeddingError('network', `embedding endpoint unreachable (${(e as Error).message})`);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch (e) {
      const name = (e as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new EmbeddingError('timeout', `embedding endpoint timed out after ${this.timeoutMs} ms`);
      if (!res.ok) body = null;
      else throw new EmbeddingError('invalid-response', 'embedding endpoint answered with something other than JSON');
    }
    if (!res.ok) {
      const err = new EmbeddingError(
        'http',
        `embedding endpoint answered HTTP ${res.status}`,
        res.status,
      ) as EmbeddingError & { retryAfterMs?: number };
      const ra = res.headers.get('retry-after');
      if (ra !== null && /^\d+$/.test(ra.trim())) err.retryAfterMs = Number(ra) * 1000;
      throw err;
    }
    const data = (body as { data?: { index?: number; embedding?: unknown }[] })?.data;
    if (!Array.isArray(data) || data.length !== input.length)
      throw new EmbeddingError(
        'invalid-response',
        `embedding endpoint returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${input.length} inputs`,
      );
    const sorted = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return sorted.map((d) => {
      const v = d.embedding;
      if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EmbeddingError('invalid-response', 'embedding endpoint returned a malformed vector');
      }
      if (this.dim === null) this.dim = v.length;
      else if (v.length !== this.dim)
        throw new EmbeddingError(
          'invalid-response',
          `embedding endpoint returned ${v.length} dimensions, expected ${this.dim}`,
        );
      return normalise(Float32Array.from(v as number[]));
    });
  }
}

// Scratch files the build streams through: appended in ~1 MB pieces as rows arrive (never a whole table in memory),
// and NDJSON read back one row at a time.
import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createInterface } from 'node:readline';

const PIECE = 1 << 20;

/** A file written front to back; `length` is its size so far, written or still buffered. */
export class AppendFile {
  length = 0;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  private constructor(
    readonly path: string,
    private readonly out: FileHandle,
  ) {}

  static async create(path: string): Promise<AppendFile> {
    return new AppendFile(path, await open(path, 'w'));
  }

  async append(data: string | Uint8Array): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.length += bytes.length;
    if (this.pendingBytes >= PIECE) await this.flush();
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.out.close();
    }
  }

  private async flush(): Promise<void> {
    const bytes = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    // A write may be short (a full disk): write the rest until it all lands or the write throws (ENOSPC).
    for (let done = 0; done < bytes.length;) {
      const { bytesWritten } = await this.out.write(bytes, done, bytes.length - done);
      if (bytesWritten === 0)
        throw Object.assign(new Error(`no space left writing ${this.path}`), { code: 'ENOSPC', path: this.path });
      done += bytesWritten;
    }
  }
}

/** One JSON line per row; `rows` counts them. */
export class NdjsonWriter {
  rows = 0;

  private constructor(private readonly file: AppendFile) {}

  static async create(path: string): Promise<NdjsonWriter> {
    return new NdjsonWriter(await AppendFile.create(path));
  }

  get path(): string {
    return this.file.path;
  }

  async write(row: object): Promise<void> {
    await this.writeLines(JSON.stringify(row) + '\n', 1);
  }

  /** Rows already serialized: `count` JSON lines. */
  async writeLines(ndjson: string, count: number): Promise<void> {
    this.rows += count;
    await this.file.append(ndjson);
  }

  close(): Promise<void> {
    return this.file.close();
  }
}

/** Closes every file, even when one fails to (a full disk); then throws the first failure. */
export async function closeAll(files: { close(): Promise<void> }[]): Promise<void> {
  const failed = (await Promise.allSettled(files.map((f) => f.close()))).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

export async function* readNdjson<T>(path: string): AsyncGenerator<T> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield JSON.parse(line) as T;
}

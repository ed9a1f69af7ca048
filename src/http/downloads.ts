// The pool of release-file downloads (GET /api/releases/:id/files/…), bounded apart from admission.
import { createReadStream } from 'node:fs';
import { finished, type Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Limits } from '../config.ts';
import { HttpError } from './errors.ts';

/**
 * Release file downloads, apart from the bound on DuckDB work: at most `downloadMax` at once (503 with Retry-After
 * beyond). A download is counted until its file stream is done (read to its end, or destroyed with the response when
 * the client goes away or is cut off; stream.finished calls back exactly once), and cut off when the client takes no
 * byte for `downloadIdleMs` or is not done after `downloadSendMs`.
 */
export class Downloads {
  /** In progress now. */
  active = 0;

  constructor(private readonly limits: Limits) {}

  start(ctx: Context, path: string): Readable {
    const { downloadMax, downloadIdleMs, downloadSendMs } = this.limits;
    if (this.active >= downloadMax) {
      throw new HttpError(
        503,
        'Downloads busy',
        `${downloadMax} release files are being downloaded; retry shortly`,
        {},
        { 'Retry-After': '5' },
      );
    }
    this.active++;
    const file = createReadStream(path);
    const cut = () => ctx.res.destroy();
    const send = setTimeout(cut, downloadSendMs);
    ctx.res.setTimeout(downloadIdleMs, cut);
    finished(file, () => {
      this.active--;
      clearTimeout(send);
    });
    return file;
  }
}

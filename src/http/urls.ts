// Absolute links to records, built from the public base URL, or else the server's own address: never from a
// client's Host header (a forged one would put its links into answers, and caches would keep them).
import type { Socket } from 'node:net';

import type { LinkQuery, Links } from '../queries/links.ts';

/**
 * The server's own address on this connection: the configured host, or for a wildcard listen address (`0.0.0.0`,
 * `::`) the local end of the socket the client reached, with the port it listens on (the configured one once the
 * socket is gone).
 */
export function ownBase(listen: { host: string; port: number }, socket: Socket): string {
  const host = ['0.0.0.0', '::', ''].includes(listen.host)
    ? (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '')
    : listen.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${socket.localPort ?? listen.port}`;
}

export class Urls implements Links {
  constructor(readonly base: string) {}
  page(id: string, md = false): string {
    return `${this.base}/api/pages/${encodeURIComponent(id)}${md ? '.md' : ''}`;
  }
  item(id: string, md = false): string {
    return `${this.base}/api/items/${encodeURIComponent(id)}${md ? '.md' : ''}`;
  }
  comment(id: string, md = false): string {
    return `${this.base}/api/comments/${encodeURIComponent(id)}${md ? '.md' : ''}`;
  }
  votes(q: LinkQuery): string {
    return this.api('/api/aggregates/votes', q);
  }
  housing(q: LinkQuery): string {
    return this.api('/api/aggregates/housing', q);
  }
  comments(q: LinkQuery): string {
    return this.api('/api/comments', q);
  }
  changes(): string {
    return this.api('/api/changes');
  }
  meeting(date: string, md = false): string {
    return `${this.base}/api/meetings/${encodeURIComponent(date)}${md ? '.md' : ''}`;
  }
  meetings(q: LinkQuery = {}): string {
    return this.api('/api/meetings', q);
  }
  coverage(q: LinkQuery = {}): string {
    return this.api('/api/coverage', q);
  }
  snapshot(entity: string, q: LinkQuery = {}): string {
    return this.api(`/api/snapshots/${entity}`, q);
  }
  snapshotRecord(entity: string, id: string): string {
    return this.api(`/api/snapshots/${entity}/${encodeURIComponent(id)}`);
  }
  /** The page describing a problem type: a problem document's `type`. */
  problem(type: string): string {
    return `${this.base}/problems/${type}`;
  }
  releaseFile(release: string, path: string): string {
    return `${this.base}/api/releases/${release}/files/${path}`;
  }
  api(path: string, params: LinkQuery = {}): string {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    return `${this.base}${path}${s ? `?${s}` : ''}`;
  }
}

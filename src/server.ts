// Starts the HTTP server over a lake; used by main.ts and by the tests (which pass their own config).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { type Config, limitsOf } from './config.ts';
import { createApp } from './http/app.ts';
import type { Downloads } from './http/downloads.ts';
import { onClientError } from './http/wire.ts';
import { Lake } from './lake/lake.ts';
import { mcpMount } from './mcp/http.ts';
import { warmRelease } from './queries/warm.ts';

export interface Running {
  server: Server;
  lake: Lake;
  url: string;
  /** Requests admitted right now (README, Robustness). */
  admitted: () => number;
  /** Release-file downloads in progress (README, Robustness). */
  downloads: Downloads;
  /** Stops accepting connections, lets the requests in flight finish for up to `drainMs`, then closes every connection. */
  close(): Promise<void>;
}

export async function start(config: Config): Promise<Running> {
  const limits = limitsOf(config);
  // The per-release tables (position table, passage vectors, stores...) take seconds to read at scale: they are read
  // before the server listens (and before a new release takes over), not by the first requests, which would wait for
  // them. A replica is thus ready once it accepts connections: a load balancer needs no readiness check of its own.
  const lake = await Lake.open(config.lakeDir, { ...config, warm: warmRelease });
  await lake.warmed();
  lake.watch(config.watchMs);
  const app = createApp(config, lake, [mcpMount(config)]);
  const server = createServer(
    {
      // A request's header, then its whole body, must arrive in time (408); checked every second, not every 30.
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    app.callback(),
  );
  // No connection sits without a byte moving either way for longer than an answer may take to send.
  server.setTimeout(limits.sendTimeoutMs);
  server.on('clientError', onClientError(config.log));
  server.listen(config.port, config.host);
  // A start that fails here (the port taken) closes the release it opened: its DuckDB and spill folder with it.
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject)).catch((e) => {
    lake.close();
    throw e;
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  return {
    server,
    lake,
    url,
    admitted: app.admitted,
    downloads: app.downloads,
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive connections are closed as soon as they fall idle, half-open ones (an unfinished header) and
        // answers still being sent at the deadline.
        const idle = setInterval(() => server.closeIdleConnections(), 200);
        const force = setTimeout(() => server.closeAllConnections(), limits.drainMs);
        server.close(() => {
          clearInterval(idle);
          clearTimeout(force);
          lake.close();
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

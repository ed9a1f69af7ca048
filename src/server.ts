// Starts the HTTP server over a lake; used by main.ts and by the tests (which pass their own config).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import { createApp } from './http/app.ts';
import { Lake } from './lake/lake.ts';

export interface Running { server: Server; lake: Lake; url: string; close(): Promise<void> }

export async function start(config: Config): Promise<Running> {
  const lake = await Lake.open(config.lakeDir, config);
  lake.watch(config.watchMs);
  const app = createApp(config, lake);
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  return {
    server,
    lake,
    url,
    close: () => new Promise<void>((resolve) => {
      server.close(() => {
        lake.close();
        resolve();
      });
      server.closeIdleConnections();
    }),
  };
}

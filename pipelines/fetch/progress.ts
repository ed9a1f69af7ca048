// Progress: a redrawn bar on a terminal; otherwise one line per stage (cron logs stay readable).
export interface Reporter {
  stage(message: string): void;
  warn(message: string): void;
  start(total: number): void;
  tick(label: string): void;
  done(): void;
}

export function createReporter(stream: NodeJS.WriteStream = process.stderr, tty = Boolean(stream.isTTY)): Reporter {
  let total = 0;
  let count = 0;
  let drawn = false;
  const clear = () => {
    if (drawn) stream.write('\r\x1b[2K');
    drawn = false;
  };
  return {
    stage(message) {
      clear();
      stream.write(`${message}\n`);
    },
    warn(message) {
      clear();
      stream.write(`warning: ${message}\n`);
    },
    start(n) {
      total = n;
      count = 0;
    },
    tick(label) {
      count++;
      if (!tty) return;
      const width = 30;
      const filled = total ? Math.round((count / total) * width) : width;
      const columns = stream.columns || 80;
      const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${count}/${total} ${label}`;
      stream.write(`\r\x1b[2K${line.slice(0, columns - 1)}`);
      drawn = true;
    },
    done: clear,
  };
}

export const silentReporter: Reporter = { stage() {}, warn() {}, start() {}, tick() {}, done() {} };

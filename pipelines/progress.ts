// A progress bar on a terminal; one log line per stage otherwise (CI, pipes).
export interface Progress {
  tick(n?: number): void;
  done(summary?: string): void;
}

export function stage(name: string, total: number, out: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  let count = 0;
  const tty = out.isTTY === true;
  const draw = () => {
    const width = 30;
    const filled = total > 0 ? Math.round((count / total) * width) : width;
    out.write(`\r${name.padEnd(10)} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${count}/${total}`);
  };
  if (tty) draw();
  return {
    tick(n = 1) {
      count += n;
      if (tty) draw();
    },
    done(summary = '') {
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      if (tty) out.write('\n');
      out.write(`${name}: ${summary || `${count} of ${total}`} in ${secs}s\n`);
    },
  };
}

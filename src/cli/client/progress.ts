import cliProgress from 'cli-progress';
import { formatElapsed } from '../../client/polling.js';
import type { FileProgress, UploadFile } from '../../client/uploads.js';

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);

export interface UploadDisplay {
  update(file: FileProgress): void;
  stop(): void;
}

export interface WaitDisplay {
  /** `percent` is null when the flow reports a status only (Smart Editing). */
  update(status: string, percent: number | null, elapsedMs: number): void;
  stop(): void;
}

export interface CountDisplay {
  tick(name: string): void;
  stop(): void;
}

/**
 * What `retouch edit` shows on standard error: progress bars (cli-progress) on a terminal,
 * one line per event otherwise (logs, CI), so a captured run reads as a plain record.
 */
export class Progress {
  constructor(private readonly tty = Boolean(process.stderr.isTTY)) {}

  line(text: string): void {
    process.stderr.write(`${text}\n`);
  }

  uploads(files: UploadFile[]): UploadDisplay {
    const count = files.length;
    let done = 0;
    if (!this.tty) {
      return {
        update: (f) => {
          if (f.state === 'done') this.line(`uploaded ${f.name} (${++done}/${count})`);
          else if (f.state === 'failed') this.line(`upload failed: ${f.error}`);
        },
        stop: () => undefined,
      };
    }
    const multi = new cliProgress.MultiBar({ stream: process.stderr, format: ' {bar} {percentage}% | {label} | {sent}/{size} MB', hideCursor: true, autopadding: true }, cliProgress.Presets.shades_classic);
    const totalBytes = files.reduce((a, f) => a + f.size, 0);
    const sentOf = new Map<string, number>();
    const total = multi.create(totalBytes, 0, { label: `all ${count} photos`, sent: '0.0', size: mb(totalBytes) });
    const bars = new Map<string, cliProgress.SingleBar>();
    return {
      update: (f) => {
        sentOf.set(f.name, f.sent);
        const sent = [...sentOf.values()].reduce((a, b) => a + b, 0);
        let bar = bars.get(f.name);
        if (f.state === 'uploading' && !bar) {
          bar = multi.create(f.size, 0, { label: f.name, sent: '0.0', size: mb(f.size) });
          bars.set(f.name, bar);
        }
        bar?.update(f.sent, { sent: mb(f.sent) });
        if (f.state === 'done' || f.state === 'failed') {
          if (bar) multi.remove(bar);
          bars.delete(f.name);
          if (f.state === 'done') done++;
          else multi.log(`upload failed: ${f.error}\n`);
        }
        total.update(sent, { label: `${done}/${count} photos`, sent: mb(sent) });
      },
      stop: () => multi.stop(),
    };
  }

  waiting(what: string): WaitDisplay {
    if (!this.tty) {
      let last = '';
      return {
        update: (status, percent, elapsed) => {
          const text = `${what}: ${status}${percent === null ? '' : ` ${Math.round(percent)}%`}`;
          if (text !== last) this.line(`${text} (${formatElapsed(elapsed)})`);
          last = text;
        },
        stop: () => undefined,
      };
    }
    let bar: cliProgress.SingleBar | null = null;
    return {
      update: (status, percent, elapsed) => {
        const format = percent === null ? ` ${what}: {status} | {elapsed} elapsed` : ` {bar} {percentage}% | ${what}: {status} | {elapsed} elapsed`;
        if (!bar) {
          bar = new cliProgress.SingleBar({ stream: process.stderr, format, hideCursor: true }, cliProgress.Presets.shades_classic);
          bar.start(100, 0, { status, elapsed: formatElapsed(elapsed) });
        }
        bar.update(percent ?? 0, { status, elapsed: formatElapsed(elapsed) });
      },
      stop: () => bar?.stop(),
    };
  }

  downloads(count: number): CountDisplay {
    let done = 0;
    if (!this.tty) return { tick: (name) => this.line(`downloaded ${name} (${++done}/${count})`), stop: () => undefined };
    const bar = new cliProgress.SingleBar({ stream: process.stderr, format: ' {bar} {value}/{total} files downloaded | {name}', hideCursor: true }, cliProgress.Presets.shades_classic);
    bar.start(count, 0, { name: '' });
    return { tick: (name) => bar.increment(1, { name }), stop: () => bar.stop() };
  }
}

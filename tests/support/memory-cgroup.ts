import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A memory cgroup of its own with a limit (issue 49: the embedded default on a 1 GB server), on cgroup v2 or v1,
 * for a process started in it. Creating one needs root (or a delegated subtree); `openMemoryCgroup` answers why
 * not when it cannot.
 */
export interface MemoryCgroup {
  version: 1 | 2;
  dir: string;
  /** The command line that puts the shell it runs in into the group, then runs `command` (exec). */
  wrap(command: string): string;
  /** Times the kernel's OOM killer ended a process of the group. */
  oomKills(): number;
  /** The highest usage seen (page cache included), in bytes; v2 kernels before 5.19 have none (null). */
  peakBytes(): number | null;
  remove(): void;
}

export function openMemoryCgroup(name: string, limitBytes: number): MemoryCgroup | { reason: string } {
  const v2 = '/sys/fs/cgroup';
  const v1 = '/sys/fs/cgroup/memory';
  try {
    if (existsSync(join(v2, 'cgroup.controllers')) && readFileSync(join(v2, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('memory')) {
      const dir = join(v2, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'memory.max'), String(limitBytes));
      try {
        writeFileSync(join(dir, 'memory.swap.max'), '0');
      } catch {
        // no swap accounting: the limit still holds the memory
      }
      return group(2, dir);
    }
    if (existsSync(join(v1, 'memory.limit_in_bytes'))) {
      const dir = join(v1, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'memory.limit_in_bytes'), String(limitBytes));
      try {
        writeFileSync(join(dir, 'memory.swappiness'), '0');
      } catch {
        // not settable here: without swap it changes nothing
      }
      return group(1, dir);
    }
    return { reason: 'no memory cgroup controller (v1 or v2) is mounted at /sys/fs/cgroup' };
  } catch (error) {
    return { reason: `a memory cgroup cannot be created here (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); run as root` };
  }
}

function group(version: 1 | 2, dir: string): MemoryCgroup {
  const read = (file: string) => {
    try {
      return readFileSync(join(dir, file), 'utf8');
    } catch {
      return null;
    }
  };
  return {
    version,
    dir,
    wrap: (command) => `echo $$ > ${join(dir, 'cgroup.procs')} && exec ${command}`,
    oomKills() {
      const text = read(version === 2 ? 'memory.events' : 'memory.oom_control') ?? '';
      return Number(/^oom_kill (\d+)$/m.exec(text)?.[1] ?? 0);
    },
    peakBytes() {
      const value = read(version === 2 ? 'memory.peak' : 'memory.max_usage_in_bytes');
      return value === null ? null : Number(value.trim());
    },
    remove() {
      try {
        rmdirSync(dir);
      } catch {
        // a process is still in it, or it is gone
      }
    },
  };
}

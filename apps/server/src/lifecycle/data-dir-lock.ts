// One owner per data directory. The embedded database (PGlite) is a set of plain files that any number of processes
// could open, each with its own view; a second process on the same DATA_DIR would silently lose writes. So the
// process that opens DATA_DIR first holds an exclusive lock on DATA_DIR/.lock for its whole life, and every other
// process refuses at once, before it opens or migrates anything.
//
// The lock is an open-file-description lock (fcntl F_OFD_SETLK on Linux, flock on macOS) taken through
// fs-native-extensions on an open file descriptor: the kernel releases it when the process ends, however it ends
// (kill -9 included), so a crash never leaves a stale lock. The file also holds the owner's PID, read only to
// name the owner in the refusal; the lock, not the PID, decides.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tryLock } from 'fs-native-extensions';

export const LOCK_FILE = '.lock';

export class DataDirBusyError extends Error {
  constructor(readonly dataDir: string, readonly ownerPid: number | null) {
    super(
      `${dataDir} is already in use by process ${ownerPid ?? '(unknown PID)'}: ` +
        'only one process may open the embedded database, so stop that process first or choose another DATA_DIR.',
    );
    this.name = 'DataDirBusyError';
  }
}

export interface DataDirLock {
  dataDir: string;
  /** Releases the lock (also released by the kernel when the process ends). Idempotent. */
  release(): void;
}

/** Takes the lock on `dataDir` (created if missing) or throws DataDirBusyError naming the owner. */
export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
  let granted = false;
  try {
    granted = tryLock(fd);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  if (!granted) {
    fs.closeSync(fd);
    throw new DataDirBusyError(dataDir, readOwner(file));
  }
  fs.ftruncateSync(fd, 0);
  fs.writeSync(fd, `${process.pid}\n`, 0);
  let released = false;
  return {
    dataDir,
    release() {
      if (released) return;
      released = true;
      // Closing the descriptor drops the lock; the file stays (removing it would race with the next owner).
      fs.closeSync(fd);
    },
  };
}

/** The PID the owner wrote; null in the instant between its lock and its write, or if the file is unreadable. */
function readOwner(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

import { closeSync, openSync } from 'node:fs';

/**
 * Open file descriptors of ring files (up to 1,024), least recently used closed first. Appends to hot rooms then
 * cost one pwrite instead of open + write + close.
 */
export class FdCache {
  private readonly fds = new Map<string, number>();

  constructor(private readonly capacity = 1024) {}

  get(path: string): number {
    const fd = this.fds.get(path);
    if (fd !== undefined) {
      this.fds.delete(path);
      this.fds.set(path, fd);
      return fd;
    }
    const opened = openSync(path, 'a+');
    this.fds.set(path, opened);
    if (this.fds.size > this.capacity) {
      const [oldest, oldFd] = this.fds.entries().next().value as [string, number];
      this.fds.delete(oldest);
      closeSync(oldFd);
    }
    return opened;
  }

  close(path: string): void {
    const fd = this.fds.get(path);
    if (fd === undefined) return;
    this.fds.delete(path);
    closeSync(fd);
  }

  closeAll(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }
}

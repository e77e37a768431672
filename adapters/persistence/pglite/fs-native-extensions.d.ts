/** The part of fs-native-extensions (no types of its own) that the data-directory lock uses. */
declare module 'fs-native-extensions' {
  /** Takes an exclusive (or, with `shared`, a shared) lock on the open file without waiting; false when another holds it. */
  export function tryLock(fd: number, opts?: { shared?: boolean }): boolean;
  export function unlock(fd: number): void;
}

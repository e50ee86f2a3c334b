// The part of fs-native-extensions we use (the package ships no type declarations).
declare module 'fs-native-extensions' {
  /** Exclusive (or shared) lock on an open file descriptor; false when another descriptor holds it. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
  export function unlock(fd: number): void;
}

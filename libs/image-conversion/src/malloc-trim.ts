/** Gives the C heap's free pages back to the system; resolves whether any were given back. */
export type MallocTrim = () => Promise<boolean>;

/**
 * glibc's `malloc_trim(0)`, called on libuv's thread pool so that walking the arenas never holds
 * up a request; undefined where the C library is not glibc (musl, macOS), whose allocators do
 * not keep freed pages this way, or where no FFI binding is built for the platform.
 */
export async function loadMallocTrim(): Promise<MallocTrim | undefined> {
  try {
    const { default: koffi } = await import('koffi');
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    return () => new Promise((resolve, reject) => trim.async(0, (error: unknown, released: number) => (error ? reject(error) : resolve(released === 1))));
  } catch {
    return undefined;
  }
}

// A random UUID v4 for X-Request-Id in any JavaScript context. `crypto.randomUUID` exists only in secure contexts
// (HTTPS or localhost) in browsers, so a page served over plain HTTP on a LAN address would throw with it;
// `crypto.getRandomValues` is available everywhere Web Crypto is, secure or not.
type WebCrypto = { randomUUID?: () => string; getRandomValues?: <T extends Uint8Array>(array: T) => T };

export function randomRequestId(webCrypto: WebCrypto | undefined = (globalThis as { crypto?: WebCrypto }).crypto): string {
  if (typeof webCrypto?.randomUUID === 'function') {
    try {
      return webCrypto.randomUUID();
    } catch {
      // Some engines expose it and then refuse outside a secure context: fall through.
    }
  }
  const bytes = new Uint8Array(16);
  if (typeof webCrypto?.getRandomValues === 'function') webCrypto.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 9562 variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface LinkValue {
  href: string;
  rel: string[];
  type: string | null;
}

/** RFC 8288 Link header, tolerant of the sloppy forms seen in the wild. */
export function parseLinkHeader(header: string, base: string): LinkValue[] {
  const links: LinkValue[] = [];
  const pattern = /<([^>]*)>((?:\s*;\s*[^;,]+(?:=(?:"[^"]*"|[^;,]*))?)*)/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(header)) !== null) {
    const params = match[2];
    const rel = /;\s*rel\s*=\s*"?([^";,]+)"?/i.exec(params)?.[1] ?? '';
    const type = /;\s*type\s*=\s*"?([^";,]+)"?/i.exec(params)?.[1] ?? null;
    let href = match[1];
    try {
      href = new URL(match[1], base).href;
    } catch {
      // keep the raw value
    }
    links.push({ href, rel: rel.toLowerCase().split(/\s+/).filter(Boolean), type });
  }
  return links;
}

/** undefined means "not JSON"; a JSON null comes back as null. */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

export function parseJsonObject(body: string): Record<string, unknown> | null {
  const value = parseJson(body);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

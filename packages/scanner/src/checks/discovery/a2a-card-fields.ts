/**
 * The fields an A2A agent card must carry, by the protocol version it declares or evidently follows.
 *
 * A2A 1.0 (specification/a2a.proto, fields marked REQUIRED): name, description, supportedInterfaces, version,
 * capabilities, defaultInputModes, defaultOutputModes, skills; each AgentInterface: url, protocolBinding,
 * protocolVersion; each AgentSkill: id, name, description, tags.
 * A2A 0.x (specification/json/a2a.json of 0.2.6-0.3.0, AgentCard.required): capabilities, defaultInputModes,
 * defaultOutputModes, description, name, protocolVersion, skills, url, version; the same four skill fields.
 * preferredTransport is optional there (it defaults to JSONRPC), so its absence is not a fault.
 */
export interface A2aCardReading {
  /** The shape the card is judged by. */
  judgedBy: '1.0' | '0.3';
  /** How that was decided, for evidence: "declares 1.0", "supportedInterfaces" (1.0 shape), "declares 0.3.0"... */
  why: string;
  /** Required fields that are absent or of the wrong kind, as paths ("supportedInterfaces[0].protocolBinding"). */
  missing: string[];
  /** An endpoint an agent can reach: a 1.0 interface with a url, or the 0.x top-level url. */
  reachable: boolean;
}

type Card = Record<string, unknown>;

const isText = (v: unknown): boolean => typeof v === 'string' && v.trim().length > 0;
const isList = (v: unknown): v is unknown[] => Array.isArray(v);
const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

function declaredVersion(card: Card): string | null {
  return isText(card.protocolVersion) ? String(card.protocolVersion).trim() : null;
}

/** 1.0 when the card says so or carries supportedInterfaces; 0.x when it declares a 0.x version or keeps the 0.x url. */
export function a2aShapeOf(card: Card): Pick<A2aCardReading, 'judgedBy' | 'why'> {
  const declared = declaredVersion(card);
  const interfaces = isList(card.supportedInterfaces) && card.supportedInterfaces.length > 0;
  if (interfaces) return { judgedBy: '1.0', why: declared && !/^1\./.test(declared) ? `supportedInterfaces (1.0 shape), though it declares ${declared}` : 'supportedInterfaces (1.0 shape)' };
  if (declared && /^[1-9]/.test(declared)) return { judgedBy: '1.0', why: `declares ${declared}` };
  if (declared) return { judgedBy: '0.3', why: `declares ${declared}` };
  return { judgedBy: '0.3', why: isText(card.url) ? 'a top-level url (0.x shape)' : 'no supportedInterfaces (0.x shape)' };
}

function commonMissing(card: Card, missing: string[]): void {
  for (const field of ['name', 'description', 'version']) if (!isText(card[field])) missing.push(field);
  if (!isObject(card.capabilities)) missing.push('capabilities');
  for (const field of ['defaultInputModes', 'defaultOutputModes']) if (!isList(card[field])) missing.push(field);
  if (!isList(card.skills)) {
    missing.push('skills');
    return;
  }
  card.skills.forEach((skill, i) => {
    if (!isObject(skill)) return void missing.push(`skills[${i}]`);
    for (const field of ['id', 'name', 'description']) if (!isText(skill[field])) missing.push(`skills[${i}].${field}`);
    if (!isList(skill.tags)) missing.push(`skills[${i}].tags`);
  });
}

export function readA2aCard(card: Card): A2aCardReading {
  const shape = a2aShapeOf(card);
  const missing: string[] = [];
  let reachable: boolean;
  if (shape.judgedBy === '1.0') {
    const interfaces = isList(card.supportedInterfaces) ? card.supportedInterfaces : null;
    if (!interfaces || interfaces.length === 0) missing.push('supportedInterfaces');
    (interfaces ?? []).forEach((entry, i) => {
      if (!isObject(entry)) return void missing.push(`supportedInterfaces[${i}]`);
      for (const field of ['url', 'protocolBinding', 'protocolVersion']) if (!isText(entry[field])) missing.push(`supportedInterfaces[${i}].${field}`);
    });
    // A card declaring 1.0 that still keeps the 0.3 top-level url can be reached by a 0.3 client: incomplete, not dead.
    reachable = (interfaces ?? []).some((entry) => isObject(entry) && isText(entry.url)) || isText(card.url);
  } else {
    if (!isText(card.url)) missing.push('url');
    if (!declaredVersion(card)) missing.push('protocolVersion');
    reachable = isText(card.url);
  }
  commonMissing(card, missing);
  return { ...shape, missing, reachable };
}

/** "a, b, c and 4 more": evidence stays one line however broken the card. */
export function listMissing(missing: string[], max = 6): string {
  const shown = missing.slice(0, max).join(', ');
  return missing.length > max ? `${shown} and ${missing.length - max} more` : shown;
}

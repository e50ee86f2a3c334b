/** Access verdict of one page, as an agent would read it. */
export type PageAccess = 'ok' | 'blocked' | 'sign_in' | 'not_found' | 'error';

export interface PageLink {
  url: string;
  text: string;
}

export interface PageForm {
  action: string;
  method: string;
  /** Input names and types, e.g. email:email, password:password. */
  inputs: Array<{ name: string; type: string }>;
  /** Text of the submit buttons. */
  buttons: string[];
}

/** One page as the agent saw it: parsed once, read by the evidence detectors, the judge and both drivers. */
export interface PageView {
  /** The URL the agent asked for. */
  url: string;
  /** Where redirects ended. */
  finalUrl: string;
  status: number | null;
  contentType: string;
  access: PageAccess;
  /** Why access is not ok, in a few words. */
  accessReason?: string;
  /** The guarded fetch's error when no answer came at all (DNS, refused, TLS, timeout...). */
  fetchError?: { code: string; message: string };
  title: string;
  description: string;
  headings: string[];
  /** Visible text, whitespace collapsed, bounded. */
  text: string;
  links: PageLink[];
  forms: PageForm[];
  jsonLd: Array<Record<string, unknown>>;
  /** The page renders nothing without JavaScript. */
  scriptOnly: boolean;
  /** Body parsed as JSON, when the response was JSON (OpenAPI documents, API answers). */
  json?: unknown;
  bytes: number;
}

export const MAX_TEXT_CHARS = 20_000;
export const MAX_LINKS = 200;

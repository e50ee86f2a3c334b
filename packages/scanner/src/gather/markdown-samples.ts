/** What the scan sends to ask a page for markdown (RFC 9110 §12.5.1), the home page and every sampled page alike. */
export const MARKDOWN_ACCEPT = 'text/markdown, text/plain;q=0.5';

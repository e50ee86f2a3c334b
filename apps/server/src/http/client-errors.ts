// Errors Node's HTTP parser raises before a request exists (malformed request line or header, a request head over
// the size limit, a client too slow to send its request) would leave as a bare status line with no body and no
// request id. They are answered here like every other error: `{code, message, requestId}` with X-Request-Id, then
// the connection is closed (the parser cannot continue on it). Documented in both contracts (400, 408, 431).
import { randomUUID } from 'node:crypto';
import type * as http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

interface Answer {
  status: number;
  reason: string;
  code: string;
  message: string;
}

function answerFor(err: NodeJS.ErrnoException): Answer {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'Request Header Fields Too Large', code: 'request_header_fields_too_large', message: 'The request line and headers are larger than this service accepts.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', code: 'request_timeout', message: 'The request did not arrive in time.' };
    default:
      return { status: 400, reason: 'Bad Request', code: 'bad_request', message: 'The request is not valid HTTP.' };
  }
}

/**
 * Writes an error answer straight to the socket and closes it (no request object exists, or none will be routed).
 * `extraHeaders` are full header lines.
 */
function answerOnSocket(socket: Duplex, answer: Answer, extraHeaders = ''): string {
  const requestId = randomUUID();
  const body = JSON.stringify({ code: answer.code, message: answer.message, requestId });
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      extraHeaders +
      'X-Content-Type-Options: nosniff\r\n' +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
  return requestId;
}

/**
 * `allow`: the methods this server answers, for the 405 a CONNECT gets (Node hands CONNECT to a `connect` listener
 * and, without one, closes the connection with no answer at all).
 */
export function answerClientErrors(server: http.Server, logger: Logger, allow = 'GET, HEAD, POST'): void {
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const requestId = answerOnSocket(
      socket,
      { status: 405, reason: 'Method Not Allowed', code: 'method_not_allowed', message: 'CONNECT is not allowed: this service is not a proxy.' },
      `Allow: ${allow}\r\n`,
    );
    logger.warn({ requestId, status: 405, target: String(req.url).slice(0, 200) }, 'refused a CONNECT request');
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const response = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
    // A reset connection has no one to answer; a response already under way cannot be replaced.
    if (err.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = answerFor(err);
    const requestId = answerOnSocket(socket, answer);
    logger.warn({ requestId, status: answer.status, parserError: err.code }, 'refused a request Node could not parse');
  });
}

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

export function answerClientErrors(server: http.Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const response = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
    // A reset connection has no one to answer; a response already under way cannot be replaced.
    if (err.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = answerFor(err);
    const requestId = randomUUID();
    const body = JSON.stringify({ code: answer.code, message: answer.message, requestId });
    logger.warn({ requestId, status: answer.status, parserError: err.code }, 'refused a request Node could not parse');
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Cache-Control: no-store\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

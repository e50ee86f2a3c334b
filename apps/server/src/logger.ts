import pino, { type Logger } from 'pino';

export function createLogger(level: string, name = 'arl'): Logger {
  return pino({
    name,
    level,
    // Secrets never reach the log: connection strings, credentials and tokens are masked wherever they appear.
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'databaseUrl', 'config.databaseUrl', '*.apiKey', '*.smtpUrl', '*.inviteSecret', '*.cursorSecret', 'invite'],
      censor: '[redacted]',
    },
  });
}

// The owner CLI's arguments: an invitation token that starts with "-" (one in 64: base64url) is a positional, not an
// option (it was refused as "Unknown option", so such a token could not be revoked; a CI run met one).
import { parseCommand } from '../src/cli/feedback-args';

test('a token that starts with "-" is the positional it is, whatever option surrounds it', () => {
  const token = '-AbCdEfGhIjKlMnOpQrStU.wXyZ0123456789_-abcdef';
  expect(parseCommand(['invite', 'revoke', token]).positionals).toEqual(['invite', 'revoke', token]);
  expect(parseCommand(['invite', 'revoke', token, '--format', 'json'])).toMatchObject({ positionals: ['invite', 'revoke', token], values: { format: 'json' } });
});

test('options and unknown options still parse as before', () => {
  expect(parseCommand(['invite', 'issue', 'x', '--expires', '2d']).values).toEqual({ expires: '2d' });
  expect(() => parseCommand(['invite', 'revoke', '-x'])).toThrow(/Unknown option/);
  expect(() => parseCommand(['invite', 'revoke', '-AbCdEfGhIjKlMnOpQrStUv'])).toThrow(/Unknown option/);
});

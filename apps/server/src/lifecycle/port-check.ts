// Ports are checked before the database is opened: a start that cannot listen must fail in a second with the port's
// name, not after migrations, and without touching the data. The check binds and releases each port; the real
// listen happens moments later and still reports its own error if another process took the port in between.
import * as net from 'node:net';

export class PortBusyError extends Error {
  constructor(readonly variable: string, readonly host: string, readonly port: number, cause: string) {
    super(`${variable}=${port} cannot be used on ${host} (${cause}): stop the process listening there or choose another ${variable}.`);
    this.name = 'PortBusyError';
  }
}

export async function assertPortsFree(host: string, ports: Array<{ variable: string; port: number }>): Promise<void> {
  for (const { variable, port } of ports) {
    if (port === 0) continue; // any free port: nothing to check
    await new Promise<void>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', (err: NodeJS.ErrnoException) =>
        reject(new PortBusyError(variable, host, port, err.code === 'EADDRINUSE' ? 'already in use' : (err.code ?? err.message))),
      );
      probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
    });
  }
}

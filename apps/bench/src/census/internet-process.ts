// Child process of the census bench: the simulated internet on its own event loop (and its own CPU figure), so the
// bench's sampling never waits behind page writes. argv[2]: JSON { sites, seed, sitesPerAddress, certFile, keyFile,
// port }. First IPC message: { ready, port, addresses }; then answers { cmd: 'counters' } with the counters.
import { startInternet } from './internet';
import { generatePopulation } from './population';

const o = JSON.parse(process.argv[2]) as { sites: number; seed: number; sitesPerAddress: number; certFile: string; keyFile: string; port: number };

async function main(): Promise<void> {
  const sites = generatePopulation({ sites: o.sites, seed: o.seed, sitesPerAddress: o.sitesPerAddress });
  // Port 443 when the bench runs as root (the sites are then plain https://host/), else any free port, the same on
  // every address (chosen by the parent).
  const live = await startInternet({ sites, certFile: o.certFile, keyFile: o.keyFile, port: o.port, seed: o.seed });
  process.on('message', (m: { cmd: string }) => {
    if (m.cmd === 'counters') process.send!({ counters: { ...live.counters } });
  });
  process.on('disconnect', () => void live.close().finally(() => process.exit(0)));
  process.send!({ ready: true, port: live.port, addresses: live.addresses.length });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

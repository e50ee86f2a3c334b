// GET /v1/leaderboard/coverage over the real API on loopback (PGlite, or PostgreSQL with TEST_DATABASE_URL): the
// reasons unscored scans ended are counted once per reason, with each company's own host names taken out of the
// cause as whole names ("The domain … could not be resolved"), never a piece of a longer name ("azure.…").
import { randomUUID } from 'node:crypto';
import { insertCompany } from './support/fixtures';
import { startTestServer, type TestServer } from './support/harness';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ dbName: 'scan_coverage' });
});
afterAll(() => t.close());

async function endedScan(domain: string, url: string, cause: string): Promise<void> {
  const companyId = (await t.db.prisma.company.findUniqueOrThrow({ where: { domain }, select: { id: true } })).id;
  await t.db.prisma.scan.create({
    data: { id: randomUUID(), target: url, url, domain, state: 'ended', ending: 'failed', cause, companyId, endedAt: new Date() },
  });
}

test('each company\'s own host names are masked whole, so one reason counts once', async () => {
  const companies: Array<[string, string, string]> = [
    // The seeded Microsoft Azure: its website is a subdomain of the company's domain.
    ['Microsoft Azure', 'microsoft.com', 'https://azure.microsoft.com/'],
    ['Stripe', 'stripe.com', 'https://stripe.com/'],
    ['Example', 'example.com', 'https://www.example.com:8443/'],
    ['X', 'x.com', 'https://x.com/'],
    ['Shop', 'shop.io', 'https://shop.io/'],
  ];
  for (const [name, domain] of companies) await insertCompany(t.db, { name, domain });
  await endedScan('microsoft.com', 'https://azure.microsoft.com/', 'The domain azure.microsoft.com could not be resolved (DNS failure).');
  await endedScan('stripe.com', 'https://stripe.com/', 'The domain stripe.com could not be resolved (DNS failure).');
  await endedScan('example.com', 'https://www.example.com:8443/', 'www.example.com:8443 refused the connection.');
  // Another company's name that merely ends with this company's domain stays whole (x.com is not in netflix.com).
  await endedScan('x.com', 'https://x.com/', 'The home page of x.com redirects to netflix.com, which could not be resolved.');
  // Nor a name that merely starts with it.
  await endedScan('shop.io', 'https://shop.io/', 'The home page of shop.io redirects to shop.io.example.net, which could not be resolved.');

  const { data, error } = await t.client.GET('/v1/leaderboard/coverage');
  expect(error).toBeUndefined();
  expect(data!.unscored).toBe(5);
  expect(data!.causes).toEqual([
    { ending: 'failed', cause: 'The domain … could not be resolved (DNS failure).', companies: 2 },
    { ending: 'failed', cause: 'The home page of … redirects to netflix.com, which could not be resolved.', companies: 1 },
    { ending: 'failed', cause: 'The home page of … redirects to shop.io.example.net, which could not be resolved.', companies: 1 },
    { ending: 'failed', cause: '… refused the connection.', companies: 1 },
  ]);
});

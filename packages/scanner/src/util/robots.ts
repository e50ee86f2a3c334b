import robotsParser from 'robots-parser';

export interface RobotsRules {
  isAllowed(url: string, agent: string): boolean;
  namesAgent(agent: string): boolean;
  contentSignals: Array<Record<string, string>>;
  directiveCount: number;
}

export function parseRobots(robotsUrl: string, body: string): RobotsRules {
  const parser = robotsParser(robotsUrl, body);
  const lines = body.split(/\r?\n/);
  const agents = new Set<string>();
  let directiveCount = 0;
  const contentSignals: Array<Record<string, string>> = [];
  for (const raw of lines) {
    const line = raw.replace(/#.*$/, '').trim();
    const match = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!match) continue;
    const key = match[1].toLowerCase();
    if (['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay', 'content-signal'].includes(key)) directiveCount++;
    if (key === 'user-agent') agents.add(match[2].trim().toLowerCase());
    if (key === 'content-signal') {
      const signals: Record<string, string> = {};
      for (const pair of match[2].split(',')) {
        const [k, v] = pair.split('=').map((s) => s.trim().toLowerCase());
        if (k && v) signals[k] = v;
      }
      contentSignals.push(signals);
    }
  }
  return {
    isAllowed: (url, agent) => parser.isAllowed(url, agent) !== false,
    namesAgent: (agent) => agents.has(agent.toLowerCase()),
    contentSignals,
    directiveCount,
  };
}

// The frame of every page: a skip link, the site header with its navigation, the main landmark and a footer that
// links the machine-readable descriptions (API reference, OpenAPI, llms.txt) for people and agents alike.
import type { ReactNode } from 'react';

const NAV = [
  { href: '/', label: 'Leaderboard', page: 'leaderboard' },
  { href: '/stats', label: 'State of readiness', page: 'stats' },
  { href: '/scan', label: 'Scan a site', page: 'scan' },
  { href: '/methodology', label: 'Methodology', page: 'methodology' },
  { href: '/docs', label: 'API docs', page: 'docs' },
];

export function Layout({ current, children }: { current: string; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="site-header">
        <div className="wrap header-row">
          <a className="brand" href="/">
            <span aria-hidden="true" className="brand-mark">◆</span> Agent-Readiness Leaderboard
          </a>
          <nav aria-label="Site">
            <ul className="nav-list">
              {NAV.map((item) => (
                <li key={item.href}>
                  <a href={item.href} aria-current={item.page === current ? 'page' : undefined}>{item.label}</a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" className="wrap" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <div className="wrap">
          <p>
            How ready is a company&apos;s web presence for AI agents? Scores come from scans anyone can start and the{' '}
            <a href="/methodology">published methodology</a>.
          </p>
          <ul className="footer-links">
            <li><a href="/docs">API reference</a></li>
            <li><a href="/openapi.json">OpenAPI document</a></li>
            <li><a href="/llms.txt">llms.txt</a></li>
          </ul>
        </div>
      </footer>
    </>
  );
}

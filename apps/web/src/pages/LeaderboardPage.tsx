// The leaderboard. Without JavaScript it is a table, a GET form and a "next page" link; with JavaScript the same
// form searches as you type, filters change the list at once (the URL follows), and the next page loads when the
// end of the list comes into view.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { LEADERBOARD_SORTS } from '@arl/client';
import { useInteractiveApi } from '../shared/api-context';
import { SORT_LABELS, formatTime, gradeClass, rankMovement, scoreMovement } from '../shared/format';
import type { LeaderboardList, LeaderboardQuery, PageData } from '../shared/page-data';
import { companyHref, leaderboardHref } from '../shared/urls';
import { EmptyState } from './EmptyState';

type Props = Extract<PageData, { page: 'leaderboard' }>;

export function LeaderboardPage(props: Props) {
  const api = useInteractiveApi();
  const [query, setQuery] = useState<LeaderboardQuery>({ ...props.query, cursor: undefined });
  const [list, setList] = useState<LeaderboardList>(props.list);
  const [loading, setLoading] = useState<'page' | 'more' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [enhanced, setEnhanced] = useState(false);
  const requestSeq = useRef(0);
  const sentinel = useRef<HTMLLIElement | null>(null);

  useEffect(() => setEnhanced(true), []);

  async function fetchPage(view: LeaderboardQuery, cursor: string | undefined) {
    if (!api) return null;
    const { data, error, response } = await api.leaderboard.GET('/v1/leaderboard', {
      params: {
        query: {
          q: view.q || undefined,
          category: view.category || undefined,
          sort: view.sort,
          order: view.order || undefined,
          community: view.community,
          cursor,
          limit: view.limit ?? 50,
        },
      },
    });
    if (error) throw new Error(`${response.status} ${error.message}`);
    return data;
  }

  async function apply(next: LeaderboardQuery) {
    setQuery(next);
    window.history.replaceState(null, '', leaderboardHref(next));
    const seq = ++requestSeq.current;
    setLoading('page');
    try {
      const data = await fetchPage(next, undefined);
      if (data && seq === requestSeq.current) {
        setList(data);
        setFailure(null);
      }
    } catch (err) {
      if (seq === requestSeq.current) setFailure(`The list could not be loaded: ${(err as Error).message}`);
    } finally {
      if (seq === requestSeq.current) setLoading(null);
    }
  }

  async function loadMore() {
    if (!list.nextCursor || loading) return;
    const seq = requestSeq.current;
    setLoading('more');
    try {
      const data = await fetchPage(query, list.nextCursor);
      if (data && seq === requestSeq.current) setList((prev) => ({ items: [...prev.items, ...data.items], nextCursor: data.nextCursor, total: data.total }));
    } catch (err) {
      setFailure(`The next page could not be loaded: ${(err as Error).message}`);
    } finally {
      setLoading(null);
    }
  }

  // Instant search: wait for a pause in typing, then ask.
  const searchTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  function onSearch(value: string) {
    const next = { ...query, q: value };
    setQuery(next);
    clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(() => void apply(next), 250);
  }

  // Infinite scroll: the next page loads when the end of the list comes into view.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !list.nextCursor || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMore();
    }, { rootMargin: '400px' });
    observer.observe(el);
    return () => observer.disconnect();
  });

  const filtered = Boolean(query.q || query.category);
  const nextHref = list.nextCursor ? leaderboardHref({ ...props.query, cursor: list.nextCursor }) : null;

  return (
    <>
      <h1>Agent-Readiness Leaderboard</h1>
      <p className="lead">
        Companies ranked by how ready their websites, APIs and MCP servers are for AI agents: can an agent find them,
        get in, use them and pay? Each score comes from a scan that runs the published checks in four layers; every check links to its
        evidence and the fix.
      </p>

      <form className="filters" method="get" action="/" role="search" aria-label="Filter the leaderboard"
        onSubmit={(e: FormEvent) => { e.preventDefault(); void apply(query); }}
        {...{ toolname: 'search_leaderboard', tooldescription: 'Search and filter the ranked companies' }}>
        <div className="field field-grow">
          <label htmlFor="q">Search</label>
          <input id="q" name="q" type="search" maxLength={120} placeholder="Company name or domain" value={query.q ?? ''}
            onChange={(e) => onSearch(e.target.value)} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="category">Category</label>
          <select id="category" name="category" value={query.category ?? ''}
            onChange={(e) => void apply({ ...query, category: e.target.value || undefined })}>
            <option value="">All categories</option>
            {props.categories.map((c) => <option key={c.slug} value={c.slug}>{c.name}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="sort">Sort by</label>
          <select id="sort" name="sort" value={query.sort ?? 'score'}
            onChange={(e) => void apply({ ...query, sort: e.target.value as LeaderboardQuery['sort'], order: undefined })}>
            {LEADERBOARD_SORTS.map((s) => <option key={s} value={s}>{SORT_LABELS[s]}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="order">Order</label>
          <select id="order" name="order" value={query.order ?? ''}
            onChange={(e) => void apply({ ...query, order: (e.target.value || undefined) as LeaderboardQuery['order'] })}>
            <option value="">Default</option>
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </div>
        <div className="field-check">
          <input id="community" name="community" type="checkbox" value="include" checked={query.community === 'include'}
            onChange={(e) => void apply({ ...query, community: e.target.checked ? 'include' : undefined })} />
          <label htmlFor="community">Include community scans</label>
        </div>
        <button type="submit" className={enhanced ? 'visually-hidden' : 'button'}>Apply</button>
      </form>

      <p className="result-count" aria-live="polite">
        {loading === 'page' ? 'Loading…' : `${list.total} ${list.total === 1 ? 'company' : 'companies'}${filtered ? ' match' : ' ranked'}`}
        {query.community === 'include' ? ' (community scans included)' : ''}
      </p>
      {failure && <p className="notice notice-error" role="alert">{failure}</p>}

      {list.items.length === 0 ? (
        filtered ? (
          <p className="notice">No company matches these filters. <a href={leaderboardHref({ community: query.community })}>Show all companies</a>.</p>
        ) : (
          <EmptyState coverage={props.coverage} community={query.community === 'include'} />
        )
      ) : (
        <LeaderboardTable list={list} community={query.community === 'include'} />
      )}

      {list.nextCursor && (
        <ul className="pager" aria-label="More results">
          <li ref={sentinel}>
            <a className="button" href={nextHref ?? undefined} rel="next"
              onClick={(e) => { if (enhanced) { e.preventDefault(); void loadMore(); } }}>
              {loading === 'more' ? 'Loading…' : 'Next page'}
            </a>
          </li>
        </ul>
      )}
    </>
  );
}

function LeaderboardTable({ list, community }: { list: LeaderboardList; community: boolean }) {
  return (
    <table className="board">
      <caption className="visually-hidden">Ranked companies with score, grade and 7-day movement</caption>
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Company</th>
          <th scope="col">Category</th>
          <th scope="col">Score</th>
          <th scope="col">Grade</th>
          <th scope="col">7 days</th>
          <th scope="col">Scanned</th>
        </tr>
      </thead>
      <tbody>
        {list.items.map((entry) => {
          const rank = rankMovement(entry.rankChange7d);
          const score = scoreMovement(entry.scoreChange7d);
          return (
            <tr key={entry.company.id}>
              <td className="rank" data-label="Rank">{entry.rank}</td>
              <td className="company" data-label="Company">
                <a href={companyHref(entry.company.domain, community)}>{entry.company.name}</a>
                <span className="domain">{entry.company.domain}</span>
                {entry.newThisWeek && <span className="badge badge-new">New this week</span>}
                {entry.company.source === 'community' && <span className="badge">Community</span>}
              </td>
              <td data-label="Category">{entry.company.category?.name ?? '—'}</td>
              <td className="score" data-label="Score">{entry.score}</td>
              <td data-label="Grade"><span className={gradeClass(entry.grade)}>{entry.grade}</span></td>
              <td className="movement" data-label="7 days">
                <span title={score.words}><span aria-hidden="true">{score.sign}{entry.scoreChange7d === null ? '' : ' pts'}</span><span className="visually-hidden">Score {score.words}</span></span>
                {' · '}
                <span title={rank.words}><span aria-hidden="true">{rank.sign}</span><span className="visually-hidden">Rank {rank.words}</span></span>
              </td>
              <td data-label="Scanned">{formatTime(entry.scannedAt)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * Lists that do not grow with their table (issue 25): every list counts at most LIST_MAX_ROWS rows
 * (`total_exact: false` beyond) and pages within them; a page beyond is refused with 422 LIST_TOO_DEEP,
 * in the asker's language, telling them to narrow the filter or export. The matches list (10,030 matches)
 * and a hand-written list (notices) show it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message } from '@dau/domain';
import { LIST_MAX_ROWS } from '../src/platform/paging';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';

const MATCHES = LIST_MAX_ROWS + 30;
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  // Start times out of id order, so that the list's order (start time, then id) is not the insertion order.
  await t.database.exec(
    `INSERT INTO feed_events (event_id, sport_id, league_id, home_team, away_team, start_time, event_status, updated_ts)
     SELECT 'sr:match:depth' || i, 1, 'sr:tournament:depth', 'home ' || i, 'away ' || i,
            timestamp '2030-01-01 00:00:00+00' + make_interval(mins => (i * 7919) % ${MATCHES}), 0, 0
     FROM generate_series(1, ${MATCHES}) i`,
  );
});
afterAll(async () => {
  await t?.close();
});

const matches = (query: string, headers?: Record<string, string>) =>
  t.call('GET', `/api/v1/sports/matches?league_id=sr:tournament:depth&${query}`, { token, headers });

describe('list depth', () => {
  it('counts a first page up to the bound and says the total is a lower bound beyond it', async () => {
    const first = await matches('page=1&page_size=20');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: LIST_MAX_ROWS, total_exact: false, page: 1 });
    expect(first.body.items).toHaveLength(20);
    // Within the bound the total is exact.
    const some = await matches('page=1&page_size=20&date_to=2030-01-01T00:10:00Z');
    expect(some.body).toMatchObject({ total: 10, total_exact: true });
  });

  it('answers the deepest page within the bound in the list order, and refuses the next with what to do', async () => {
    const deepest = await matches(`page=${LIST_MAX_ROWS / 20}&page_size=20`);
    expect(deepest.status).toBe(200);
    const expected = (
      await t.database.query(
        `SELECT event_id FROM feed_events WHERE league_id = 'sr:tournament:depth' ORDER BY start_time, id OFFSET ${LIST_MAX_ROWS - 20} LIMIT 20`,
      )
    ).rows.map((r) => r.event_id);
    expect(deepest.body.items.map((m: { event_id: string }) => m.event_id)).toEqual(expected);

    const beyond = await matches(`page=${LIST_MAX_ROWS / 20 + 1}&page_size=20`);
    expect(beyond.status).toBe(422);
    expect(beyond.body.code).toBe('LIST_TOO_DEEP');
    expect(beyond.body.message).toBe(message('LIST_TOO_DEEP', 'en-US', { max: '10,000' }));
    const swahili = await matches('page=1000000&page_size=200', { 'x-locale': 'sw-KE' });
    expect(swahili.status).toBe(422);
    expect(swahili.body.message).toBe(message('LIST_TOO_DEEP', 'sw-KE', { max: '10,000' }));
  });

  it('holds the same bound on a list written by hand', async () => {
    expect((await t.call('GET', '/api/v1/notices?page=500&page_size=20', { token })).status).toBe(200);
    const beyond = await t.call('GET', '/api/v1/notices?page=501&page_size=20', { token });
    expect(beyond.status).toBe(422);
    expect(beyond.body.code).toBe('LIST_TOO_DEEP');
  });
});

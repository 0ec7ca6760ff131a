import { createElement as h, isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { UserInfo } from '@dau/contract';

/**
 * The feed's recovery in the console (UOF): the producers' panel shows each producer's state (up, down,
 * recovering: the request, since when, from when) and asks for a recovery; the match list asks for one
 * match's. No browser here (the web project runs in node): the screens are rendered to HTML with their
 * answer already in the query cache, antd's pop-confirm hands over what it would ask and its "OK" (called
 * as the operator's click), the toasts are spies and `fetch` is stubbed (the console's api client calls it).
 */
const ui = vi.hoisted(() => ({
  confirms: [] as Array<{ title: ReactNode; onConfirm(): Promise<unknown>; children: ReactNode }>,
  success: [] as string[],
  error: [] as string[],
}));

vi.mock('antd', async (importOriginal) => {
  const antd = await importOriginal<typeof import('antd')>();
  const toasts = { success: (m: string) => ui.success.push(m), error: (m: string) => ui.error.push(m), warning: () => undefined, info: () => undefined };
  return {
    ...antd,
    Popconfirm: (props: (typeof ui.confirms)[number]) => {
      ui.confirms.push(props);
      return props.children;
    },
    App: Object.assign(({ children }: { children: ReactNode }) => children, { useApp: () => ({ message: toasts, modal: {}, notification: {} }) }),
  };
});
// The operator's preferences touch the document; the language is all the screens read.
vi.mock('../src/kit/prefs', () => ({ usePrefs: () => ({ language: 'en-US' }) }));

const { default: i18n } = await import('../src/locales');
const { AccessProvider } = await import('../src/kit/access');
const { default: ReceivingStatisticsPage } = await import('../src/pages/sports/ReceivingStatisticsPage');
const { EventUrn, RecoverMatchButton } = await import('../src/pages/sports/MatchActions');
type ReceivingAnswer = import('../src/pages/sports/ReceivingStatisticsPage').ReceivingAnswer;
type ProducerStats = import('../src/pages/sports/ReceivingStatisticsPage').ProducerStats;

beforeAll(async () => {
  for (const area of ['menu', 'sports', 'system'] as const) {
    const texts = (await import(`../src/locales/en-US/${area}.ts`)) as { default: object };
    i18n.addResourceBundle('en-US', 'translation', texts.default, true, false);
  }
});

afterEach(() => {
  ui.confirms.length = 0;
  ui.success.length = 0;
  ui.error.length = 0;
  vi.unstubAllGlobals();
});

const base = (producer: number): ProducerStats => ({
  producer,
  alive: true,
  last_message_at: '2026-03-01T10:00:00.000Z',
  last_alive_at: '2026-03-01T10:00:05.000Z',
  messages: { odds_change: 12, alive: 30 },
  duplicates: 0,
  out_of_order: 0,
  downs: 1,
  recoveries: 1,
  selection_updates: 40,
  errors: { data_error: 0, unknown_type: 0 },
  last_error: null,
});

const UOF_ANSWER: ReceivingAnswer = {
  events: 3,
  unattributed_errors: { data_error: 0, unknown_type: 0 },
  items: [
    { ...base(1), name: 'LO', description: 'Live Odds', state: 'up', recovery: null, last_processed_at: '2026-03-01T10:00:00.000Z' },
    {
      ...base(3),
      name: 'Ctrl',
      description: 'Betradar Ctrl',
      alive: false,
      state: 'recovering',
      recovery: { request_id: 77, since: '2026-03-01T09:59:00.000Z', after: '2026-03-01T09:40:00.000Z' },
      last_processed_at: '2026-03-01T09:40:00.000Z',
    },
    { ...base(4), name: 'BetPal', description: 'BetPal', alive: false, state: 'recovering', recovery: { request_id: 78, since: '2026-03-01T09:59:30.000Z', after: null }, last_processed_at: null },
    { ...base(5), name: 'PremiumCricket', description: 'Premium Cricket', alive: false, state: 'down', recovery: null, last_processed_at: '2026-03-01T08:00:00.000Z' },
  ],
};

const user = (permissions: string[]) => ({ id: 1, is_super: false, permissions }) as unknown as UserInfo;

/** A screen as the shell shows it: the signed-in admin's permissions, the route of its page, the query cache. */
function render(node: ReactElement, { page, permissions, client = new QueryClient() }: { page: string; permissions: string[]; client?: QueryClient }) {
  const html = renderToString(
    h(
      QueryClientProvider,
      { client },
      h(MemoryRouter, { initialEntries: [`/customer/${page}`] }, h(AccessProvider, { user: user(permissions), menus: [], hasScreen: () => true, children: node })),
    ),
  );
  return { html, client };
}

function renderPanel(answer: ReceivingAnswer, permissions = ['receiving_statistics', 'receiving_statistics:recover']) {
  const client = new QueryClient();
  client.setQueryData(['receiving_statistics'], answer);
  return render(h(ReceivingStatisticsPage), { page: 'receiving_statistics', permissions, client });
}

/** One producer's card (its HTML up to the next card). */
function card(html: string, producer: number) {
  const start = html.indexOf(`data-testid="producer-${producer}"`);
  expect(start, `card of producer ${producer}`).toBeGreaterThan(-1);
  const rest = html.slice(start + 1);
  const end = rest.search(/data-testid="producer-\d+"/);
  return end === -1 ? rest : rest.slice(0, end);
}

/** The pop-confirm around the button with this test id. */
function confirmOf(testId: string) {
  const found = ui.confirms.find((c) => isValidElement(c.children) && (c.children.props as Record<string, unknown>)['data-testid'] === testId);
  expect(found, `confirmation of ${testId}`).toBeDefined();
  return found!;
}

/** `fetch` answering once with this status and body; its calls. */
function answer(status: number, body: unknown) {
  const calls: Array<{ url: string; method?: string; body?: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, method: init?.method, body: init?.body });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

/** A producer's state badge: its data-state, its antd status (colour) and its label. */
function badge(html: string, producer: number) {
  const m = new RegExp(`data-testid="producer-alive-${producer}" data-alive="(\\w+)" data-state="(\\w+)">.*?ant-badge-status-(\\w+)".*?ant-badge-status-text">([^<]+)<`).exec(html);
  expect(m, `badge of producer ${producer}`).not.toBeNull();
  return { alive: m![1], state: m![2], status: m![3], label: m![4] };
}

const text = (html: string) => html.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ');

describe('producers panel: UOF states and recovery', () => {
  it('shows each producer by its name, its state, last alive / message / processed, and a recovery in progress', () => {
    const { html } = renderPanel(UOF_ANSWER);
    const up = text(card(html, 1));
    expect(up).toContain('Live Odds (LO, producer 1)');
    expect(badge(html, 1)).toEqual({ alive: 'true', state: 'up', status: 'success', label: 'Up' });
    for (const label of ['Last alive signal', 'Last message', 'Last processed']) expect(up).toContain(label);
    expect(up).not.toContain('Recovery request');

    // Recovering from a time: the request, since when, from when.
    expect(badge(html, 3)).toEqual({ alive: 'false', state: 'recovering', status: 'processing', label: 'Recovering' });
    const from = text(card(html, 3));
    expect(from).toContain('Recovery request');
    expect(from).toContain('#77');
    expect(from).toContain('Recovering since');
    expect(from).toMatch(/Recovering from .*2026-03-01 12:40:00/); // 09:40 UTC in Dar es Salaam
    expect(from).not.toContain('Full recovery');

    // A full recovery says so; nothing processed yet is "Never".
    const full = text(card(html, 4));
    expect(full).toContain('#78');
    expect(full).toContain('Full recovery');
    expect(full).toMatch(/Last processed .*Never/);

    expect(badge(html, 5)).toEqual({ alive: 'false', state: 'down', status: 'error', label: 'Down' });
    // The figures are still there.
    expect(html).toContain('data-testid="producer-1-selection_updates"');
    expect(html).toContain('data-testid="feed-events"');
  });

  it('reads an older answer (no UOF fields) from `alive`', () => {
    const old = { ...UOF_ANSWER, items: [base(1), { ...base(3), alive: false }] };
    const { html } = renderPanel(old);
    expect(text(card(html, 1))).toContain('Live (producer 1)');
    expect(badge(html, 1)).toMatchObject({ state: 'up', status: 'success' });
    expect(badge(html, 3)).toMatchObject({ state: 'down', status: 'error' });
    expect(html).not.toContain('Last processed');
  });

  it('offers "Recover now" only with the button permission receiving_statistics:recover', () => {
    expect(renderPanel(UOF_ANSWER).html).toContain('data-testid="producer-recover-1"');
    ui.confirms.length = 0;
    const { html } = renderPanel(UOF_ANSWER, ['receiving_statistics']);
    expect(html).not.toContain('producer-recover-');
    expect(ui.confirms).toEqual([]);
  });

  it('asks first, posts the recovery, says which request was made and refreshes the panel', async () => {
    const { client } = renderPanel(UOF_ANSWER);
    const confirm = confirmOf('producer-recover-3');
    expect(text(renderToString(h('div', null, confirm.title)))).toContain("Recover Betradar Ctrl (Ctrl, producer 3) now? Every market of this producer stays suspended until the provider's snapshot is complete.");

    const calls = answer(202, { request_id: 42, after: '2026-03-01T09:40:00.000Z' });
    await confirm.onConfirm();
    expect(calls).toEqual([{ url: '/api/v1/sports/producers/3/recovery', method: 'POST', body: '{}' }]);
    expect(ui.success).toEqual(['Recovery requested (request 42) · from 2026-03-01 12:40:00']);
    expect(ui.error).toEqual([]);
    expect(client.getQueryState(['receiving_statistics'])?.isInvalidated).toBe(true);

    answer(202, { request_id: 43, after: null });
    await confirmOf('producer-recover-4').onConfirm();
    expect(ui.success.at(-1)).toBe('Recovery requested (request 43) · Full recovery');
  });

  it("shows the server's message when the recovery is refused (in progress, too soon)", async () => {
    renderPanel(UOF_ANSWER);
    answer(409, { code: 'RECOVERY_IN_PROGRESS', message: 'A recovery of producer 3 is in progress (request 77).' });
    await confirmOf('producer-recover-3').onConfirm();
    answer(429, { code: 'RECOVERY_TOO_SOON', message: 'Wait 40 seconds before the next recovery of producer 1.' });
    await confirmOf('producer-recover-1').onConfirm();
    expect(ui.error).toEqual(['A recovery of producer 3 is in progress (request 77).', 'Wait 40 seconds before the next recovery of producer 1.']);
    expect(ui.success).toEqual([]);
  });
});

describe('match: URN and "Recover this match"', () => {
  const match = { id: 7, event_id: 'sr:match:29613041', home_team: 'Simba', away_team: 'Yanga' };

  it('shows the URN monospace and copyable', () => {
    const { html } = render(h(EventUrn, { value: match.event_id }), { page: 'match_list', permissions: ['match_list'] });
    expect(html).toMatch(/<code>sr:match:29613041</);
    expect(html).toContain('ant-typography-copy');
  });

  it('is offered only with match_list:recover, asks first and posts to the URL-encoded event id', async () => {
    expect(render(h(RecoverMatchButton, { row: match }), { page: 'match_list', permissions: ['match_list'] }).html).toBe('');

    const client = new QueryClient();
    client.setQueryData(['match_list', 'odds', match.event_id], { markets: [] });
    const { html } = render(h(RecoverMatchButton, { row: match }), { page: 'match_list', permissions: ['match_list', 'match_list:recover'], client });
    expect(text(html)).toContain('Recover this match');
    const confirm = confirmOf('match-recover-7');
    expect(text(renderToString(h('div', null, confirm.title)))).toContain('Recover Simba - Yanga (sr:match:29613041)?');

    const calls = answer(202, { request_id: 9 });
    await confirm.onConfirm();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/v1/sports/matches/sr%3Amatch%3A29613041/recovery']);
    expect(ui.success).toEqual(['Recovery requested (request 9)']);
    // The list and the open odds refresh.
    expect(client.getQueryState(['match_list', 'odds', match.event_id])?.isInvalidated).toBe(true);

    answer(429, { code: 'RECOVERY_TOO_SOON', message: 'Too many recoveries: try again in a minute.' });
    await confirm.onConfirm();
    expect(ui.error).toEqual(['Too many recoveries: try again in a minute.']);
  });
});

import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { BETTING_OFFER_STATUS, EVENT_STATUS, SPORT } from '@dau/domain';
import { logOf, openMenuGroup, screenshot, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { dialog, rowWithText, settled, toastAfter, until } from './support/ui';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Issue 4 in the browser: an operator filters the match list by sport, league, start date and match
 * status, opens a match's odds and sees a price change arrive without reloading, suspends a market and
 * sees it suspended; row controls (suspend a match, live delay) and the margins dialog.
 *
 * Data: no simulator (the random sandbox feed would make the list unpredictable). The matches and their
 * prices come from the sandbox-only feed route (DAU_SANDBOX_ROUTES=1, POST /sandbox/feed/messages), which
 * hands provider messages to the feed engine exactly as a provider adapter does.
 */
const e2e = useE2e({ server: { simulator: false, env: { DAU_SANDBOX_ROUTES: '1' } } });
let token = '';
const api = <T = any>(method: string, p: string, body?: unknown) => e2e.server.api<T>(method, p, body, token);

const PL = { id: 'sr:tournament:17', name: 'Premier League' };
const LALIGA = { id: 'sr:tournament:8', name: 'LaLiga' };
const NBA = { id: 'sr:tournament:132', name: 'NBA' };
/** The console shows and filters dates in the operator's zone (DESIGN "Time"): tomorrow is a Dar es Salaam day. */
const ZONE = 'Africa/Dar_es_Salaam';
const tomorrow = dayjs().tz(ZONE).add(1, 'day').startOf('day');

interface Match {
  id: string;
  sport: number;
  league: { id: string; name: string };
  start: dayjs.Dayjs;
  home: string;
  away: string;
}
const MATCHES: Match[] = [
  { id: 'sr:match:9001', sport: SPORT.football, league: PL, start: tomorrow.hour(14), home: 'Arsenal', away: 'Chelsea' },
  { id: 'sr:match:9002', sport: SPORT.football, league: PL, start: tomorrow.hour(19), home: 'Liverpool', away: 'Everton' },
  { id: 'sr:match:9003', sport: SPORT.football, league: PL, start: tomorrow.add(3, 'day').hour(15), home: 'Fulham', away: 'Brentford' },
  { id: 'sr:match:9004', sport: SPORT.football, league: LALIGA, start: tomorrow.hour(20), home: 'Sevilla', away: 'Valencia' },
  { id: 'sr:match:9005', sport: SPORT.basketball, league: NBA, start: tomorrow.hour(2), home: 'Lakers', away: 'Celtics' },
  // Cancelled by the operator before the test: out of a "Not started" filter.
  { id: 'sr:match:9006', sport: SPORT.football, league: PL, start: tomorrow.hour(16), home: 'Wolves', away: 'Burnley' },
];
const [ARSENAL, LIVERPOOL, , , , WOLVES] = MATCHES;
const X12 = '1|'; // 1X2 market key: type 1, no specifiers
let clock = Date.now();

async function feed(message: Record<string, unknown>) {
  clock += 1000;
  const body = expectStatus(await api('POST', '/sandbox/feed/messages', { timestamp: clock, ...message }), 201, `feed ${String(message.type)}`);
  expect(body.applied, `${String(message.type)} applied`).toBe(true);
}

const oneXtwo = (eventId: string, home: string) =>
  feed({
    type: 'odds_change',
    producer: 3,
    event_id: eventId,
    event_status: EVENT_STATUS.not_started,
    markets: [
      {
        id: 1,
        status: BETTING_OFFER_STATUS.bettable,
        outcomes: [
          { id: '1', price: home, active: true },
          { id: '2', price: '3.40', active: true },
          { id: '3', price: '3.90', active: true },
        ],
      },
      { id: 18, specifiers: 'total=2.5', status: BETTING_OFFER_STATUS.bettable, outcomes: [{ id: '12', price: '1.90', active: true }, { id: '13', price: '1.95', active: true }] },
    ],
  });

beforeAll(async () => {
  token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  for (const m of MATCHES) {
    await feed({
      type: 'fixture_change',
      producer: 3,
      event_id: m.id,
      sport_id: m.sport,
      league_id: m.league.id,
      league_name: m.league.name,
      home_team: m.home,
      away_team: m.away,
      start_time: m.start.valueOf(),
      status: EVENT_STATUS.not_started,
    });
  }
  await oneXtwo(ARSENAL.id, '2.10');
  expectStatus(await api('POST', `/sports/matches/${encodeURIComponent(WOLVES.id)}/cancel`, { reason: 'Waterlogged pitch' }), 200, 'cancel Wolves');
});

async function openMatches(page: Page) {
  await openMenuGroup(page, 'betting');
  await page.getByTestId('menu-match_list').click();
  await until(async () => (await page.getByTestId('page-title').innerText()) === 'Matches', 'the Matches screen');
  await settled(page);
}

/** Picks `option` in the search form's select labelled `label`. */
async function pick(page: Page, label: string, option: string) {
  const search = page.getByTestId('resource-search');
  const select = search.locator('.ant-form-item').filter({ has: page.locator('.ant-form-item-label label', { hasText: new RegExp(`^${label}$`) }) }).locator('.ant-select');
  await select.click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: new RegExp(`^${option}$`) }).click();
  // The choice took (a click on a dropdown still opening or closing can be lost on a busy machine).
  await until(async () => (await select.innerText()).trim() === option, `${option} chosen as ${label}`);
}

/**
 * Types a start and an end date into the search form's range picker and waits until the picker holds both
 * and is closed. A busy browser can drop a keystroke or an Enter while the picker opens or moves to its
 * second input: the entry is typed again until the picker shows it (it is idempotent).
 */
async function enterRange(page: Page, from: string, to: string) {
  const range = page.getByTestId('resource-search').locator('.ant-picker-range');
  const [start, end] = [range.locator('input').first(), range.locator('input').last()];
  let typed = false;
  let closing = 0;
  await until(async () => {
    const shown = [await start.inputValue(), await end.inputValue()];
    const open = await page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').count();
    const holdsBoth = shown[0] === from && shown[1] === to;
    if (holdsBoth && !open) return true;
    if (holdsBoth) {
      // Both dates are in and the panel is still open (an Enter that repeats the value it holds does not
      // close it): confirm the end date, and on the next look close the panel, rather than typing again.
      // The search's URL, checked after submitting, proves the dates took.
      await (closing++ % 2 === 0 ? end.press('Enter') : page.keyboard.press('Escape'));
      throw new Error(`picker shows ${JSON.stringify(shown)} and is still open`);
    }
    if (typed && open) {
      // Still closing or waiting for the end date: give the picker another poll before typing again.
      typed = false;
      throw new Error(`picker shows ${JSON.stringify(shown)}, open: ${open}`);
    }
    await start.click();
    await start.fill(from);
    await start.press('Enter');
    await end.fill(to);
    await end.press('Enter');
    typed = true;
    throw new Error(`typed ${from} - ${to}; picker showed ${JSON.stringify(shown)}`);
  }, `the range ${from} - ${to} in the picker`);
}

const shownTeams = async (page: Page) =>
  (await page.getByTestId('resource-table').locator('tr.ant-table-row').allInnerTexts()).map((r) => MATCHES.find((m) => r.includes(m.home) && r.includes(m.away))?.home ?? `?${r}`).sort();

async function setTheme(page: Page, dark: boolean) {
  const isDark = () => page.evaluate(() => localStorage.getItem('theme') === '2');
  if ((await isDark()) !== dark) await page.getByTestId('theme-toggle').click();
  await until(async () => (await isDark()) === dark, `the ${dark ? 'dark' : 'light'} theme`);
}

describe('match list and odds', () => {
  test('an operator filters by sport, league, date and status; sees a price move live; suspends a market', async () => {
    const page = await e2e.newPage();
    const log = logOf(page);
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openMatches(page);
    await until(async () => (await shownTeams(page)).length === MATCHES.length, 'every match in the list');
    await screenshot(page, 'sports-01-match-list-light');

    // Filters: Football, Premier League, tomorrow, not started -> Arsenal and Liverpool only.
    await pick(page, 'Sport', 'Football');
    await pick(page, 'League', PL.name);
    await pick(page, 'Match status', 'Not started');
    const day = tomorrow.format('YYYY-MM-DD');
    await enterRange(page, day, day);
    await page.getByTestId('resource-search-submit').click();
    await until(() => /match_status=1/.test(page.url()) && /date_from=/.test(page.url()) && /date_to=/.test(page.url()), 'every filter in the URL');
    const url = decodeURIComponent(page.url());
    expect(url).toContain(`league_id=${PL.id}`);
    expect(url).toContain(`sport_id=${SPORT.football}`);
    expect(dayjs(new URL(page.url().replace('#/customer/match_list', '')).searchParams.get('date_from')!).valueOf()).toBe(tomorrow.valueOf());
    await settled(page);
    await until(async () => JSON.stringify(await shownTeams(page)) === JSON.stringify(['Arsenal', 'Liverpool']), 'only the two Premier League matches of tomorrow that have not started');
    // The server agrees with the screen.
    const q = new URL(page.url().replace('#/customer/match_list', '')).search;
    const listed = expectStatus(await api('GET', `/sports/matches${q}`), 200, 'filtered list');
    expect(listed.items.map((m: any) => m.event_id).sort()).toEqual([ARSENAL.id, LIVERPOOL.id]);

    // The odds of Arsenal - Chelsea, live.
    const row = rowWithText(page, new RegExp(`${ARSENAL.home}.*${ARSENAL.away}`, 's'));
    const id = await row.getAttribute('data-row-key');
    await page.getByTestId(`match-odds-${id}`).click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: 'Arsenal vs Chelsea' });
    await drawer.waitFor();
    const homePrice = drawer.getByTestId(`odds-price-${X12}-1`);
    // Prices carry the operator's margin: the screen shows what the server prices.
    const served = async () => {
      const o = expectStatus(await api('GET', `/sports/matches/${encodeURIComponent(ARSENAL.id)}/odds`), 200, 'odds');
      const s = o.markets.find((m: any) => m.key === X12).selections.find((x: any) => x.name === '1');
      return { price: Number(s.price).toFixed(2), original: Number(s.original_price).toFixed(2) };
    };
    const before = await served();
    expect(before.original).toBe('2.10');
    await until(async () => (await homePrice.innerText()).startsWith(before.price), `the home price ${before.price}`);
    await screenshot(page, 'sports-02-odds-drawer-light');

    // The provider moves the price: it reaches the open drawer without a reload.
    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));
    await oneXtwo(ARSENAL.id, '2.35');
    const after = await served();
    expect(after.original).toBe('2.35');
    expect(after.price).not.toBe(before.price);
    await until(async () => (await homePrice.innerText()).startsWith(after.price), `the new home price ${after.price} in the open drawer`);
    expect(navigations, 'no reload').toEqual([]);

    // Suspend the 1X2 market: the tag says Suspended, the button turns into Resume.
    await toastAfter(page, 'Successful operation', () => drawer.getByTestId(`odds-market-suspend-${X12}`).click());
    await drawer.getByTestId(`odds-market-suspended-${X12}`).waitFor();
    expect(await drawer.getByTestId(`odds-market-suspended-${X12}`).innerText()).toBe('Suspended');
    await drawer.getByTestId(`odds-market-resume-${X12}`).waitFor();
    const odds = expectStatus(await api('GET', `/sports/matches/${encodeURIComponent(ARSENAL.id)}/odds`), 200, 'odds');
    expect(odds.markets.find((m: any) => m.key === X12)).toMatchObject({ suspended: true, suspended_by: { operator: true } });
    // The other market stays open.
    expect(await drawer.getByTestId('odds-market-suspended-18|total=2.5').count()).toBe(0);

    // One selection of the total market.
    await drawer.getByTestId('odds-selection-suspend-18|total=2.5-12').click();
    await drawer.getByTestId('odds-selection-resume-18|total=2.5-12').waitFor();

    await screenshot(page, 'sports-03-odds-drawer-suspended-light');

    // The same screens in the dark theme.
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    await setTheme(page, true);
    await settled(page);
    await screenshot(page, 'sports-04-match-list-dark');
    await page.getByTestId(`match-odds-${id}`).click();
    await drawer.getByTestId(`odds-market-suspended-${X12}`).waitFor();
    await screenshot(page, 'sports-05-odds-drawer-dark');
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    await setTheme(page, false);
    expect(log.pageErrors, 'page errors').toEqual([]);
    expect(log.consoleErrors, 'console errors').toEqual([]);
  });

  test('row controls: suspend a match after confirming, set its live delay, set a margin', async () => {
    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);
    await openMatches(page);
    const row = rowWithText(page, new RegExp(`${LIVERPOOL.home}.*${LIVERPOOL.away}`, 's'));
    await row.waitFor();
    const id = await row.getAttribute('data-row-key');

    await page.getByTestId(`match-more-${id}`).click();
    await page.getByTestId(`match-suspend-${id}`).waitFor();
    await screenshot(page, 'sports-06-row-actions-light');
    await page.getByTestId(`match-suspend-${id}`).click();
    await dialog(page).locator('.ant-modal-confirm-title', { hasText: 'Suspend betting on Liverpool - Everton?' }).waitFor();
    await toastAfter(page, 'Successful operation', () => page.getByTestId('confirm-ok').click());
    await until(async () => (await api('GET', `/sports/matches?league_id=${PL.id}`)).body.items.find((m: any) => m.event_id === LIVERPOOL.id)?.is_suspended === true, 'Liverpool suspended');
    // The menu now offers to resume it.
    await page.getByTestId(`match-more-${id}`).click();
    await page.getByTestId(`match-unsuspend-${id}`).waitFor();
    await page.keyboard.press('Escape');

    await page.getByTestId(`match-more-${id}`).click();
    await page.getByTestId(`match-live-delay-${id}`).click();
    const delay = dialog(page, 'Live bet delay');
    await delay.waitFor();
    const seconds = delay.locator('input').first();
    await seconds.fill('8');
    await toastAfter(page, 'Successful operation', () => delay.getByTestId('form-submit').click());
    await delay.waitFor({ state: 'hidden' });
    await until(async () => (await api('GET', `/sports/matches?league_id=${PL.id}`)).body.items.find((m: any) => m.event_id === LIVERPOOL.id)?.live_delay_seconds === 8, 'the delay saved');

    // Margins: 5 % on football.
    await page.getByTestId('match-margins').click();
    const margins = dialog(page, 'Price margins');
    await margins.waitFor();
    await margins.getByTestId('margin-percent').fill('5');
    await margins.getByTestId('margin-save').click();
    await until(async () => (await margins.getByTestId(`margin-${SPORT.football}-all`).innerText().catch(() => '')) === '5.00 %', 'the football margin in the list');
    await screenshot(page, 'sports-07-margins-light');
    const saved = expectStatus(await api('GET', '/sports/margins'), 200, 'margins');
    expect(saved.items.find((m: any) => m.sport_id === SPORT.football && m.league_id === null)?.margin_bps).toBe(500);
  });
});

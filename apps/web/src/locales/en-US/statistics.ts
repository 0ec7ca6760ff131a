/**
 * Texts of the statistics screens (issue 5): today_statistics, match_statistics, history_statistics.
 * Titles are the menu's; figures are defined in apps/server/src/modules/statistics/figures.ts.
 */
const statistics = {
  statistics: {
    describe: {
      today_statistics: "Today's figures of your branch, Dar es Salaam time (UTC+3), by hour. Refreshed every 15 seconds.",
      match_statistics: 'Per match: stakes taken, payouts, gross gaming revenue and what the book pays if each outcome wins.',
      history_statistics: 'The same figures as today, per day, over the days you choose (at most 92).',
    },
    figure: {
      turnover: 'Turnover',
      payouts: 'Payouts',
      ggr: 'GGR',
      ngr: 'NGR',
      tax: 'Tax withheld',
      bonuses: 'Bonuses',
      cashouts: 'Cashouts',
      orders: 'Orders',
      settled: 'Settled orders',
      bettors: 'Bettors',
      deposits: 'Deposits',
      deposit_count: 'Deposit count',
      withdrawals: 'Withdrawals',
      withdrawal_count: 'Withdrawal count',
      new_bettors: 'New bettors',
      online_bettors: 'Online now',
      net_deposits: 'Net deposits',
    },
    hint: {
      cashouts: 'Paid for cashed-out orders; part of payouts.',
      ggr: 'Gross gaming revenue: turnover minus payouts (cashouts included).',
      ngr: 'Net gaming revenue: GGR minus bonuses.',
      tax: 'Withholding tax on winnings, owed to the revenue authority.',
      bettors: 'Distinct bettors who placed an order.',
      margin: 'Hold: {{value}} of turnover',
    },
    chart: {
      money: 'Turnover, payouts and GGR',
      activity: 'Orders and bettors',
      cash: 'Deposits and withdrawals',
      hour: 'Hour',
      day: 'Day',
    },
    today: {
      asOf: 'As of {{time}} (Dar es Salaam)',
      live: 'Live',
    },
    match: {
      match: 'Match',
      sport: 'Sport',
      league: 'League',
      start: 'Start time',
      eventId: 'Event ID',
      liability: 'Liability',
      maxLiability: 'Worst outcome',
      stake: 'Stake',
      market: 'Market',
      outcome: 'Outcome',
      startRange: 'Start between',
      noOutcomes: 'No selections of this match in your branch.',
      liabilityHint: 'What the book pays if this outcome wins, over the open orders holding it.',
      legsHint: 'Order legs on the match: an accumulator counts toward each of its matches.',
    },
    history: {
      range: 'Days',
      day: 'Day',
      total: 'Total',
      tooLong: 'Choose at most 92 days.',
      exportCsv: 'Export CSV',
    },
  },
};

export default statistics;

import type en from '../en-US/statistics';

import type { Shape } from '../shape';

const statistics: Shape<typeof en> = {
  statistics: {
    describe: {
      today_statistics: 'Takwimu za leo za tawi lako, kwa saa za Dar es Salaam (UTC+3), kwa kila saa. Husasishwa kila sekunde 15.',
      match_statistics: 'Kwa kila mechi: dau zilizopokelewa, malipo, mapato ghafi ya michezo na kiasi ambacho kampuni hulipa kila matokeo yakishinda.',
      history_statistics: 'Takwimu zile zile za leo, kwa kila siku, katika siku unazochagua (zisizozidi 92).',
    },
    figure: {
      turnover: 'Jumla ya dau',
      payouts: 'Malipo',
      ggr: 'Mapato ghafi (GGR)',
      ngr: 'Mapato halisi (NGR)',
      tax: 'Kodi iliyozuiliwa',
      bonuses: 'Bonasi',
      cashouts: 'Malipo ya mapema',
      orders: 'Tiketi',
      settled: 'Tiketi zilizolipwa',
      bettors: 'Wabashiri',
      deposits: 'Amana',
      deposit_count: 'Idadi ya amana',
      withdrawals: 'Utoaji',
      withdrawal_count: 'Idadi ya utoaji',
      new_bettors: 'Wabashiri wapya',
      online_bettors: 'Walio mtandaoni sasa',
      net_deposits: 'Amana halisi',
    },
    hint: {
      cashouts: 'Kilicholipwa kwa tiketi zilizolipwa mapema; ni sehemu ya malipo.',
      ggr: 'Mapato ghafi ya michezo: jumla ya dau toa malipo (pamoja na malipo ya mapema).',
      ngr: 'Mapato halisi ya michezo: GGR toa bonasi.',
      tax: 'Kodi ya zuio kwenye ushindi, inayodaiwa na mamlaka ya mapato.',
      bettors: 'Wabashiri tofauti walioweka tiketi.',
      margin: 'Kiasi kilichobaki: {{value}} ya jumla ya dau',
    },
    chart: {
      money: 'Jumla ya dau, malipo na GGR',
      activity: 'Tiketi na wabashiri',
      cash: 'Amana na utoaji',
      hour: 'Saa',
      day: 'Siku',
    },
    today: {
      asOf: 'Hadi saa {{time}} (Dar es Salaam)',
      live: 'Moja kwa moja',
    },
    match: {
      match: 'Mechi',
      sport: 'Mchezo',
      league: 'Ligi',
      start: 'Muda wa kuanza',
      eventId: 'Kitambulisho cha mechi',
      liability: 'Dhima',
      maxLiability: 'Matokeo mabaya zaidi',
      stake: 'Dau',
      market: 'Soko',
      outcome: 'Matokeo',
      startRange: 'Inaanza kati ya',
      noOutcomes: 'Hakuna machaguo ya mechi hii katika tawi lako.',
      liabilityHint: 'Kiasi ambacho kampuni hulipa matokeo haya yakishinda, kwa tiketi zilizo wazi zinazoyashikilia.',
      legsHint: 'Sehemu za tiketi kwenye mechi: tiketi ya mchanganyiko huhesabiwa kwa kila mechi yake.',
    },
    history: {
      range: 'Siku',
      day: 'Siku',
      total: 'Jumla',
      tooLong: 'Chagua siku zisizozidi 92.',
      exportCsv: 'Hamisha CSV',
    },
  },
};

export default statistics;

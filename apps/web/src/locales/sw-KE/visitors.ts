/** Maandishi ya skrini ya wageni (toleo 16). */
const visitors = {
  visitors: {
    describe: 'Wageni wa tovuti na programu ya kubashiri, kwa siku na saa za Dar es Salaam: wapya na wanaorudi, kwa kifaa, chanzo na nchi. Ziara huhifadhiwa siku 90; takwimu za kila siku hubaki daima.',
    visits: 'Ziara',
    visitors: 'Wageni',
    new: 'Wageni wapya',
    returning: 'Wageni wanaorudi',
    day: 'Siku',
    dayTable: 'Kwa siku',
    exportDays: 'Pakua siku',
    visitsTitle: 'Ziara',
    unknownCountry: 'Haijulikani',
    tooLong: 'Chagua siku zisizozidi {{n}}.',
    chart: {
      days: 'Wageni kwa siku',
      hours: 'Ziara kwa kila saa ya siku',
      devices: 'Kwa kifaa',
      sources: 'Kwa chanzo',
      countries: 'Kwa nchi au eneo (10 bora)',
    },
    field: {
      id: 'Kitambulisho',
      visited_at: 'Muda',
      visitor_id: 'Kitambulisho cha mgeni',
      kind: 'Mpya au anayerudi',
      device: 'Kifaa',
      source: 'Chanzo',
      country: 'Nchi au eneo',
      path: 'Ukurasa',
    },
  },
};

export default visitors;

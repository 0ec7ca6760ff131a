/** Texts of the visitor screen (issue 16). */
const visitors = {
  visitors: {
    describe: 'Visitors of the betting site and app, per Dar es Salaam day and hour: new and returning, by device, source and country. Visits are kept 90 days; the daily figures for good.',
    visits: 'Visits',
    visitors: 'Visitors',
    new: 'New visitors',
    returning: 'Returning visitors',
    day: 'Day',
    dayTable: 'Per day',
    exportDays: 'Download days',
    visitsTitle: 'Visits',
    unknownCountry: 'Unknown',
    tooLong: 'Choose at most {{n}} days.',
    chart: {
      days: 'Visitors per day',
      hours: 'Visits per hour of the day',
      devices: 'By device',
      sources: 'By source',
      countries: 'By country or region (top 10)',
    },
    field: {
      id: 'ID',
      visited_at: 'Time',
      visitor_id: 'Visitor ID',
      kind: 'New or returning',
      device: 'Device',
      source: 'Source',
      country: 'Country or region',
      path: 'Page',
    },
  },
};

export default visitors;

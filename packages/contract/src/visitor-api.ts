import { z } from 'zod';
import { answerRow } from './answers.js';

/** The zod answer of GET /visitors/stats (the console takes the VisitorStats type of ./visitor-resources.ts). */
const counts = { visits: 'number', visitors: 'number', new_visitors: 'number', returning_visitors: 'number' } as const;
export const visitorStatsAnswer = z.object({
  date_from: z.string(),
  date_to: z.string(),
  totals: answerRow(counts),
  days: z.array(answerRow({ day: 'string', ...counts })),
  hours: z.array(answerRow({ hour: 'number', ...counts })),
  devices: z.array(answerRow({ device: 'number', ...counts })),
  sources: z.array(answerRow({ source: 'number', ...counts })),
  countries: z.array(answerRow({ country: 'string', ...counts })),
});

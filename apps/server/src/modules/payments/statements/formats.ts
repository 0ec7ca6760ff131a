import type { PayType } from '../operators.js';
import type { ProviderId } from '../provider.js';
import { StatementFormatError, centsToShillings, csvLine, eatText, eatTime, readCsv, shillingsToCents, type CsvRecord } from './csv.js';

/**
 * The statement files of the providers, one format each: how the provider's portal exports a day of the
 * account (parse), and how the built-in sandbox's "portal" writes one from its books (render). A format is
 * strict: a file it cannot read is refused with the line (StatementFormatError → 422), never half-read.
 *
 * Sources and assumptions (the report of issue 28 lists them):
 *  - mpesa: the Vodacom M-Pesa organisation portal's "organisation statement" CSV export. Its columns
 *    (Receipt No., Completion Time, Initiation Time, Details, Transaction Status, Paid In, Withdrawn,
 *    Balance, Reason Type, Other Party Info, Linked Transaction ID, A/C No.) are those of the org portal
 *    statement as public integrations read it; a preamble of account lines may precede the header. Our
 *    serial number is the OpenAPI's input_TransactionReference / input_ThirdPartyConversationID, which
 *    the statement shows in A/C No. (assumed). Charge lines (Reason Type with "Charge"/"Fee") are skipped.
 *  - airtel: no public layout of the Airtel Money merchant portal's transaction report was found: the
 *    columns are ASSUMED (Transaction ID, External Reference, Transaction Date, Transaction Type, MSISDN,
 *    Amount, Currency, Status) with the Open API's own status codes (TS success, TF failed, TA/TIP pending).
 *  - aggregator: no public layout of the aggregator dashboard's export was found: the columns are ASSUMED
 *    (Date, Transaction ID, Reference, Channel, Type, MSISDN, Amount, Currency, Status); one file carries
 *    every channel, the lines of other channels than the pay type's are skipped.
 */

export type LineStatus = 'success' | 'failed' | 'pending';

/** A statement line, normalised. */
export interface StatementLine {
  /** The file's line number. */
  line: number;
  /** The operator's transaction id (our carrier order number). */
  operatorRef: string;
  /** Our serial number when the line carries it. */
  reference: string | null;
  kind: 'collect' | 'disburse';
  /** Cents, positive. */
  amount: number;
  status: LineStatus;
  time: Date;
  /** The line as the file had it (header → cell). */
  raw: Record<string, string>;
}

export interface ParsedStatement {
  lines: StatementLine[];
  /** Lines read and left out (charges, other channels). */
  skipped: number;
}

/** A completed transaction of the sandbox's books, as its portal exports it. */
export interface PortalTxn {
  kind: 'collect' | 'disburse';
  reference: string;
  carrierRef: string;
  phone: string;
  amount: number;
  status: 'success' | 'failed';
  completedAt: Date;
}

export interface StatementFormat {
  provider: ProviderId;
  /** The file name the portal gives a day's export. */
  fileName(payType: PayType, day: string): string;
  parse(text: string, payType: PayType): ParsedStatement;
  render(txns: readonly PortalTxn[], payType: PayType, day: string): string;
}

// ------------------------------------------------------------------------------------------------

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** The header row (the first row holding every required column) and the data rows after it. */
function table(text: string, required: readonly string[]) {
  const records = readCsv(text);
  const at = records.findIndex((r) => required.every((c) => r.cells.some((cell) => norm(cell) === norm(c))));
  if (at < 0) throw new StatementFormatError(records[0]?.line ?? 1, `no header row with the columns ${required.join(', ')}`);
  const header = records[at]!.cells.map(norm);
  const rows = records.slice(at + 1);
  const col = (name: string) => header.indexOf(norm(name));
  const reader = (r: CsvRecord) => {
    if (r.cells.length !== header.length) throw new StatementFormatError(r.line, `${r.cells.length} fields where the header has ${header.length}`);
    const raw = Object.fromEntries(records[at]!.cells.map((h, i) => [h.trim(), r.cells[i]!.trim()]));
    const get = (name: string) => {
      const i = col(name);
      return i < 0 ? '' : r.cells[i]!.trim();
    };
    const need = (name: string) => {
      const v = get(name);
      if (!v) throw new StatementFormatError(r.line, `${name} is empty`);
      return v;
    };
    return { raw, get, need };
  };
  return { rows, reader };
}

function statusOf(value: string, table: Record<string, LineStatus>, line: number, column: string): LineStatus {
  const s = table[value.trim().toUpperCase()];
  if (!s) throw new StatementFormatError(line, `${column}: "${value}" is not a known status`);
  return s;
}

function positive(cents: number, line: number, column: string) {
  if (cents <= 0) throw new StatementFormatError(line, `${column}: the amount must be positive`);
  return cents;
}

// ------------------------------------------------------------------------------------------------
// Vodacom M-Pesa: the organisation portal's statement.

const MPESA_COLUMNS = [
  'Receipt No.', 'Completion Time', 'Initiation Time', 'Details', 'Transaction Status', 'Paid In', 'Withdrawn', 'Balance',
  'Reason Type', 'Other Party Info', 'Linked Transaction ID', 'A/C No.',
] as const;
const MPESA_REQUIRED = ['Receipt No.', 'Completion Time', 'Transaction Status', 'Paid In', 'Withdrawn', 'Reason Type', 'A/C No.'];
const MPESA_STATUS: Record<string, LineStatus> = {
  COMPLETED: 'success', FAILED: 'failed', DECLINED: 'failed', CANCELLED: 'failed', EXPIRED: 'failed', REVERSED: 'failed', PENDING: 'pending',
};

export const mpesaStatement: StatementFormat = {
  provider: 'mpesa',
  fileName: (_p, day) => `ORG_STATEMENT_${day.replace(/-/g, '')}.csv`,
  parse(text) {
    const { rows, reader } = table(text, MPESA_REQUIRED);
    const lines: StatementLine[] = [];
    let skipped = 0;
    for (const r of rows) {
      const { raw, get, need } = reader(r);
      if (/charge|fee/i.test(get('Reason Type'))) {
        skipped += 1;
        continue;
      }
      const paidIn = get('Paid In');
      const withdrawn = get('Withdrawn');
      if (!!paidIn === !!withdrawn) throw new StatementFormatError(r.line, 'exactly one of Paid In and Withdrawn must hold the amount');
      const kind = paidIn ? 'collect' : 'disburse';
      const amount = positive(Math.abs(shillingsToCents(paidIn || withdrawn, r.line, paidIn ? 'Paid In' : 'Withdrawn')), r.line, 'amount');
      lines.push({
        line: r.line, operatorRef: need('Receipt No.'), reference: get('A/C No.') || null, kind, amount,
        status: statusOf(need('Transaction Status'), MPESA_STATUS, r.line, 'Transaction Status'),
        time: eatTime(need('Completion Time'), r.line, 'Completion Time'), raw,
      });
    }
    return { lines, skipped };
  },
  render(txns, payType, day) {
    let balance = 0;
    const out = [
      csvLine(['Organisation Statement', `Short Code ${payType === 6 ? 'sandbox' : payType}`]),
      csvLine(['Time Period', `${day} 00:00:00 - ${day} 23:59:59`]),
      csvLine(MPESA_COLUMNS),
    ];
    for (const t of txns) {
      if (t.status === 'success') balance += t.kind === 'collect' ? t.amount : -t.amount;
      const when = eatText(t.completedAt);
      out.push(csvLine([
        t.carrierRef, when, when,
        t.kind === 'collect' ? `Customer Payment from ${t.phone}` : `Business Payment to ${t.phone}`,
        t.status === 'success' ? 'Completed' : 'Failed',
        t.kind === 'collect' ? centsToShillings(t.amount) : '',
        t.kind === 'disburse' ? centsToShillings(-t.amount) : '',
        centsToShillings(balance),
        t.kind === 'collect' ? 'Customer Payment' : 'Business Payment to Customer',
        t.phone, '', t.reference,
      ]));
    }
    return `${out.join('\r\n')}\r\n`;
  },
};

// ------------------------------------------------------------------------------------------------
// Airtel Money: the merchant portal's transaction report (columns assumed, statuses the Open API's).

const AIRTEL_COLUMNS = ['Transaction ID', 'External Reference', 'Transaction Date', 'Transaction Type', 'MSISDN', 'Amount', 'Currency', 'Status'] as const;
const AIRTEL_STATUS: Record<string, LineStatus> = {
  TS: 'success', SUCCESS: 'success', SUCCESSFUL: 'success', TF: 'failed', FAILED: 'failed', TA: 'pending', TIP: 'pending',
};
const AIRTEL_TYPE: Record<string, StatementLine['kind']> = {
  'MERCHANT PAYMENT': 'collect', COLLECTION: 'collect', 'USSD PUSH': 'collect', DISBURSEMENT: 'disburse', 'B2C': 'disburse',
};

export const airtelStatement: StatementFormat = {
  provider: 'airtel',
  fileName: (_p, day) => `airtel_money_transactions_${day}.csv`,
  parse(text) {
    const { rows, reader } = table(text, AIRTEL_COLUMNS);
    const lines: StatementLine[] = rows.map((r) => {
      const { raw, get, need } = reader(r);
      const kind = AIRTEL_TYPE[need('Transaction Type').toUpperCase()];
      if (!kind) throw new StatementFormatError(r.line, `Transaction Type: "${get('Transaction Type')}" is not known`);
      if (need('Currency').toUpperCase() !== 'TZS') throw new StatementFormatError(r.line, `Currency: "${get('Currency')}" is not TZS`);
      return {
        line: r.line, operatorRef: need('Transaction ID'), reference: get('External Reference') || null, kind,
        amount: positive(shillingsToCents(need('Amount'), r.line, 'Amount'), r.line, 'Amount'),
        status: statusOf(need('Status'), AIRTEL_STATUS, r.line, 'Status'),
        time: eatTime(need('Transaction Date'), r.line, 'Transaction Date'), raw,
      };
    });
    return { lines, skipped: 0 };
  },
  render(txns) {
    const out = [csvLine(AIRTEL_COLUMNS)];
    for (const t of txns) {
      out.push(csvLine([
        t.carrierRef, t.reference, eatText(t.completedAt), t.kind === 'collect' ? 'Merchant Payment' : 'Disbursement',
        t.phone.replace(/^255/, ''), centsToShillings(t.amount), 'TZS', t.status === 'success' ? 'TS' : 'TF',
      ]));
    }
    return `${out.join('\n')}\n`;
  },
};

// ------------------------------------------------------------------------------------------------
// The aggregator: its dashboard's transaction export, every channel in one file (columns assumed).

const AGG_COLUMNS = ['Date', 'Transaction ID', 'Reference', 'Channel', 'Type', 'MSISDN', 'Amount', 'Currency', 'Status'] as const;
/** The channel names of our pay types in the aggregator's export (several spellings seen in dashboards). */
const AGG_CHANNELS: Record<PayType, readonly string[]> = {
  3: ['TIGO', 'TIGOPESA', 'TIGO PESA', 'MIXX'],
  4: ['AIRTEL', 'AIRTELMONEY', 'AIRTEL MONEY'],
  6: ['MPESA', 'M-PESA', 'VODACOM'],
  7: ['HALOPESA', 'HALOTEL', 'HALO PESA'],
};
const AGG_STATUS: Record<string, LineStatus> = {
  SUCCESS: 'success', SUCCESSFUL: 'success', COMPLETED: 'success', FAILED: 'failed', FAILURE: 'failed', CANCELLED: 'failed', REJECTED: 'failed',
  PENDING: 'pending', PROCESSING: 'pending',
};
const AGG_TYPE: Record<string, StatementLine['kind']> = { COLLECTION: 'collect', CHECKOUT: 'collect', DISBURSEMENT: 'disburse', PAYOUT: 'disburse' };
const knownChannel = (c: string) => Object.values(AGG_CHANNELS).some((names) => names.includes(c));

export const aggregatorStatement: StatementFormat = {
  provider: 'aggregator',
  fileName: (p, day) => `transactions_${day}_${AGG_CHANNELS[p][0]!.toLowerCase()}.csv`,
  parse(text, payType) {
    const { rows, reader } = table(text, AGG_COLUMNS);
    const lines: StatementLine[] = [];
    let skipped = 0;
    for (const r of rows) {
      const { raw, get, need } = reader(r);
      const channel = need('Channel').toUpperCase();
      if (!knownChannel(channel)) throw new StatementFormatError(r.line, `Channel: "${get('Channel')}" is not known`);
      if (!AGG_CHANNELS[payType].includes(channel)) {
        skipped += 1;
        continue;
      }
      const kind = AGG_TYPE[need('Type').toUpperCase()];
      if (!kind) throw new StatementFormatError(r.line, `Type: "${get('Type')}" is not known`);
      if (need('Currency').toUpperCase() !== 'TZS') throw new StatementFormatError(r.line, `Currency: "${get('Currency')}" is not TZS`);
      lines.push({
        line: r.line, operatorRef: need('Transaction ID'), reference: get('Reference') || null, kind,
        amount: positive(shillingsToCents(need('Amount'), r.line, 'Amount'), r.line, 'Amount'),
        status: statusOf(need('Status'), AGG_STATUS, r.line, 'Status'),
        time: eatTime(need('Date'), r.line, 'Date'), raw,
      });
    }
    return { lines, skipped };
  },
  render(txns, payType) {
    const out = [csvLine(AGG_COLUMNS)];
    for (const t of txns) {
      out.push(csvLine([
        eatText(t.completedAt), t.carrierRef, t.reference, AGG_CHANNELS[payType][0]!, t.kind === 'collect' ? 'COLLECTION' : 'DISBURSEMENT',
        t.phone, centsToShillings(t.amount), 'TZS', t.status === 'success' ? 'SUCCESS' : 'FAILED',
      ]));
    }
    return `${out.join('\n')}\n`;
  },
};

export const STATEMENT_FORMATS: Record<ProviderId, StatementFormat> = { mpesa: mpesaStatement, airtel: airtelStatement, aggregator: aggregatorStatement };

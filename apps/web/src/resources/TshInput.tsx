import { Input, type FormRule, type InputProps } from 'antd';
import type { TFunction } from 'i18next';
import { formatAmount, parseTshToCents } from '@dau/domain';
import { specMessage } from '../kit/spec-messages';

/**
 * An amount of shillings typed as text ("10,000", "-2,500.50", "TSh 1,305"): read exactly with
 * parseTshToCents, never through a float. Form.Item hands it `value` / `onChange`.
 */
export function TshInput(props: InputProps) {
  return <Input prefix="TSh" inputMode="decimal" autoComplete="off" {...props} />;
}

export interface TshRuleOptions {
  /** Bounds in cents (the API's unit). */
  min?: number;
  max?: number;
  /** Whether 0 is an amount (default true). */
  allowZero?: boolean;
  /** Extra check of the parsed cents: an error text, or null. */
  check?: (cents: number) => string | null;
}

/**
 * The rule of an amount field: readable with at most two decimals ("Please enter a valid amount..."), then
 * bounds and the caller's check. A blank value passes (the `required` rule speaks for it).
 */
export function tshRule(t: TFunction, locale: string, opts: TshRuleOptions = {}): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const text = value === undefined || value === null ? '' : String(value).trim();
      if (!text) return;
      const cents = parseTshToCents(text);
      if (cents === null || (cents === 0 && opts.allowZero === false)) throw new Error(specMessage('AMOUNT_INVALID', locale));
      const { min, max } = opts;
      if (min !== undefined && max !== undefined && (cents < min || cents > max)) {
        throw new Error(t('form.between', { min: formatAmount(min), max: formatAmount(max) }));
      }
      if (min !== undefined && cents < min) throw new Error(t('form.atLeast', { min: formatAmount(min) }));
      if (max !== undefined && cents > max) throw new Error(t('form.atMost', { max: formatAmount(max) }));
      const problem = opts.check?.(cents);
      if (problem) throw new Error(problem);
    },
  };
}

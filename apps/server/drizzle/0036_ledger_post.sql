-- Issue 26, one posting path. `dau_ledger_post` is THE definition of one movement of money on a bettor's
-- account: the bettor's guarded balance update, the bill (before / after) and the counter-entry on a house
-- account. Everything that posts one movement calls it: the ledger's `post` and `cashMovementCtes`
-- (modules/money/ledger.ts) and the casino wallet's group commit below. To change how a movement is
-- booked, change this function (in a later migration) and nothing else; test/ledger-writers.test.ts fails
-- on any other function that writes bills, house entries or balances.
--
-- Answers one row (the bill's id, the balance after, the bill's time), or none when the movement is
-- refused: `p_guard` false (the caller's condition, evaluated before the bettor's row is locked), a debit
-- that would take the balance below zero (unless `p_allow_negative`: corrections, whose bill type the
-- ledger checks), or the bettor's state (the three optional `p_*` state arguments, checked on the locked
-- row). Credits are never refused for the balance: a bettor in debt after a correction is paid. Account
-- kinds are the domain's ACCOUNT_KIND (1 cash, 2 credit); other constants are the caller's.
CREATE OR REPLACE FUNCTION dau_ledger_post(
  p_bettor_id integer, p_account_kind smallint, p_amount bigint, p_type smallint, p_house text,
  p_cause_type text, p_cause_id text, p_serial text, p_txn_id text,
  p_admin_id integer DEFAULT NULL, p_remark text DEFAULT '', p_remark_kind text DEFAULT NULL, p_remark_params jsonb DEFAULT NULL,
  p_allow_negative boolean DEFAULT false, p_at timestamptz DEFAULT NULL, p_guard boolean DEFAULT true,
  p_disabled smallint DEFAULT NULL, p_bet_status smallint DEFAULT NULL, p_not_risk_level smallint DEFAULT NULL)
RETURNS TABLE (bill_id bigint, balance_after bigint, created_at timestamptz)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  IF p_account_kind NOT IN (1, 2) OR p_amount = 0 THEN
    RAISE EXCEPTION 'dau_ledger_post: account kind % amount %', p_account_kind, p_amount USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN QUERY
  WITH u AS (
      UPDATE bettors SET
        cash_balance = CASE WHEN p_account_kind = 1 THEN cash_balance + p_amount ELSE cash_balance END,
        credit_balance = CASE WHEN p_account_kind = 2 THEN credit_balance + p_amount ELSE credit_balance END,
        updated_at = now()
      WHERE id = p_bettor_id AND p_guard IS TRUE
        AND (p_amount > 0 OR p_allow_negative OR (CASE WHEN p_account_kind = 1 THEN cash_balance ELSE credit_balance END) + p_amount >= 0)
        AND (p_disabled IS NULL OR disabled = p_disabled)
        AND (p_bet_status IS NULL OR bet_status = p_bet_status)
        AND (p_not_risk_level IS NULL OR risk_level <> p_not_risk_level)
      RETURNING CASE WHEN p_account_kind = 1 THEN cash_balance ELSE credit_balance END AS balance, agent_id),
    b AS (
      INSERT INTO bills (created_at, serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after,
        cause_type, cause_id, admin_id, remark, remark_kind, remark_params, txn_id)
      SELECT coalesce(p_at, now()), p_serial, p_bettor_id, u.agent_id, p_account_kind, p_type, p_amount, u.balance - p_amount, u.balance,
        p_cause_type, p_cause_id, p_admin_id, coalesce(p_remark, ''), p_remark_kind, p_remark_params, p_txn_id FROM u
      RETURNING id, balance_after, created_at),
    h AS (
      INSERT INTO house_entries (txn_id, account, amount, bill_type, created_at)
      SELECT p_txn_id, p_house, -p_amount, p_type, coalesce(p_at, now()) FROM u)
  SELECT b.id, b.balance_after, b.created_at FROM b;
END $$;--> statement-breakpoint
-- The casino wallet's group commit (migration 0027), the same elements, with the money of each moved by
-- dau_ledger_post instead of 0027's own copy of the balance update, bill and house entry. Same arguments
-- and answer as 0027 (this replaces it; hot-batch.ts is unchanged). What 0027 did per element, still:
-- the round, the movement, the transaction row; a refusal (1 / 0 rows), a replayed uuid or a lock problem
-- rolls back that element alone (its `bal` is NULL) and the caller decides it on the full path.
-- The movement is the `bl` CTE, read by `t` (a data-modifying CTE, run to completion) and by the answer;
-- its `p_guard` (the round exists / was updated) is evaluated before the bettor's row is locked, so the
-- lock order stays bet → round → bettor.
CREATE OR REPLACE FUNCTION dau_casino_hot_batch(
  kinds text[], provider_ids integer[], bettor_ids integer[], game_ids integer[], round_refs text[], uuids text[], hashes text[],
  amounts bigint[], serials text[], txn_ids text[], ref_uuids text[], bill_types smallint[], houses text[],
  p_cash smallint, p_bet_bill smallint, p_bet_house text, p_enabled smallint, p_allowed smallint, p_no_betting smallint)
RETURNS TABLE (idx integer, bal bigint)
LANGUAGE plpgsql AS $$
DECLARE
  k integer;
  ok integer;
BEGIN
  FOR k IN 1 .. coalesce(array_length(kinds, 1), 0) LOOP
    idx := k;
    bal := NULL;
    BEGIN
      IF kinds[k] = 'bet' THEN
        WITH r AS (
            INSERT INTO casino_rounds (provider_id, round_ref, game_id, bettor_id, agent_id, bet_total)
            SELECT provider_ids[k], round_refs[k], game_ids[k], bettor_ids[k], agent_id, amounts[k] FROM bettors WHERE id = bettor_ids[k]
            ON CONFLICT (provider_id, round_ref) DO UPDATE SET bet_total = casino_rounds.bet_total + EXCLUDED.bet_total, status = 1, updated_at = now()
              WHERE casino_rounds.bettor_id = EXCLUDED.bettor_id AND casino_rounds.game_id = EXCLUDED.game_id
            RETURNING id),
          bl AS (
            SELECT m.bill_id AS id, m.balance_after FROM dau_ledger_post(bettor_ids[k], p_cash, -amounts[k], p_bet_bill, p_bet_house,
              'casino', (SELECT id FROM r)::text, serials[k], txn_ids[k],
              p_guard => EXISTS (SELECT 1 FROM r), p_disabled => p_enabled, p_bet_status => p_allowed, p_not_risk_level => p_no_betting) m),
          t AS (
            INSERT INTO casino_transactions (provider_id, transaction_uuid, round_id, kind, amount, request_hash, status, balance_after, bill_id)
            SELECT provider_ids[k], uuids[k], r.id, 'bet', amounts[k], hashes[k], 'RS_OK', bl.balance_after, bl.id FROM r, bl
            ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
        SELECT (SELECT balance_after FROM bl), 1 / (SELECT count(*) FROM t)::integer INTO bal, ok;
      ELSIF kinds[k] = 'win' THEN
        WITH b AS (
            SELECT round_id FROM casino_transactions
            WHERE provider_id = provider_ids[k] AND transaction_uuid = ref_uuids[k] AND kind = 'bet' AND NOT tombstone AND reference_uuid IS NULL
              AND round_id = (SELECT id FROM casino_rounds WHERE provider_id = provider_ids[k] AND round_ref = round_refs[k] AND bettor_id = bettor_ids[k])
            FOR UPDATE),
          rr AS (UPDATE casino_rounds SET win_total = win_total + amounts[k], updated_at = now() WHERE id = (SELECT round_id FROM b) RETURNING id),
          bl AS (
            SELECT m.bill_id AS id, m.balance_after FROM dau_ledger_post(bettor_ids[k], p_cash, amounts[k], bill_types[k], houses[k],
              'casino', (SELECT id FROM rr)::text, serials[k], txn_ids[k], p_guard => EXISTS (SELECT 1 FROM rr)) m),
          t AS (
            INSERT INTO casino_transactions (provider_id, transaction_uuid, round_id, kind, amount, reference_uuid, request_hash, status, balance_after, bill_id)
            SELECT provider_ids[k], uuids[k], rr.id, 'win', amounts[k], ref_uuids[k], hashes[k], 'RS_OK', bl.balance_after, bl.id FROM bl, rr
            ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
        SELECT (SELECT balance_after FROM bl), 1 / (SELECT count(*) FROM t)::integer INTO bal, ok;
      ELSIF kinds[k] = 'zero_win' THEN
        WITH b AS (
            SELECT round_id FROM casino_transactions
            WHERE provider_id = provider_ids[k] AND transaction_uuid = ref_uuids[k] AND kind = 'bet' AND NOT tombstone AND reference_uuid IS NULL
              AND round_id = (SELECT id FROM casino_rounds WHERE provider_id = provider_ids[k] AND round_ref = round_refs[k] AND bettor_id = bettor_ids[k])
            FOR UPDATE),
          rr AS (UPDATE casino_rounds SET updated_at = now() WHERE id = (SELECT round_id FROM b) RETURNING id),
          u AS (SELECT cash_balance FROM bettors WHERE id = bettor_ids[k] AND EXISTS (SELECT 1 FROM rr)),
          t AS (
            INSERT INTO casino_transactions (provider_id, transaction_uuid, round_id, kind, amount, reference_uuid, request_hash, status, balance_after)
            SELECT provider_ids[k], uuids[k], rr.id, 'win', 0, ref_uuids[k], hashes[k], 'RS_OK', u.cash_balance FROM u, rr
            ON CONFLICT (provider_id, transaction_uuid) DO NOTHING RETURNING id)
        SELECT (SELECT cash_balance FROM u), 1 / (SELECT count(*) FROM t)::integer INTO bal, ok;
      END IF;
    EXCEPTION WHEN division_by_zero OR deadlock_detected OR serialization_failure OR unique_violation OR lock_not_available THEN
      -- The fast path's refusal signal (1 / 0 rows), or a lock problem: this element's writes are rolled
      -- back and the caller takes the full path for it. Any other error aborts the whole statement.
      bal := NULL;
    END;
    RETURN NEXT;
  END LOOP;
END $$;

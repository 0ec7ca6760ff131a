-- The casino wallet's group commit (modules/casino/hot-batch.ts): the bets and wins that arrive together
-- are applied in ONE statement, so they share one round trip and one commit instead of one each. Element k
-- is the same movement as the single-call hot path (wallet.ts FAST_BET / FAST_WIN / FAST_ZERO_WIN): the
-- round, the bettor's guarded balance update, the bill, the house counter-entry and the transaction row.
-- Each element runs in its own subtransaction (BEGIN … EXCEPTION): a refusal, a replayed uuid or a lock
-- problem rolls back that element alone (its `bal` is NULL) and the caller decides it on the full path;
-- the others commit with the statement. The caller sorts the elements by bettor, so two batches lock
-- bettors in the same order. Constants of the domain (bill types, account kind, states) are arguments.
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
          u AS (
            UPDATE bettors SET cash_balance = cash_balance - amounts[k], updated_at = now()
            WHERE id = bettor_ids[k] AND cash_balance - amounts[k] >= 0
              AND disabled = p_enabled AND bet_status = p_allowed AND risk_level <> p_no_betting AND EXISTS (SELECT 1 FROM r)
            RETURNING cash_balance, agent_id),
          bl AS (
            INSERT INTO bills (serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, remark, txn_id)
            SELECT serials[k], bettor_ids[k], u.agent_id, p_cash, p_bet_bill, -amounts[k], u.cash_balance + amounts[k], u.cash_balance, 'casino', (SELECT id FROM r)::text, '', txn_ids[k] FROM u
            RETURNING id, balance_after),
          h AS (INSERT INTO house_entries (txn_id, account, amount, bill_type) SELECT txn_ids[k], p_bet_house, amounts[k], p_bet_bill FROM u),
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
          u AS (
            UPDATE bettors SET cash_balance = cash_balance + amounts[k], updated_at = now()
            WHERE id = bettor_ids[k] AND EXISTS (SELECT 1 FROM rr)
            RETURNING cash_balance, agent_id),
          bl AS (
            INSERT INTO bills (serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, cause_id, remark, txn_id)
            SELECT serials[k], bettor_ids[k], u.agent_id, p_cash, bill_types[k], amounts[k], u.cash_balance - amounts[k], u.cash_balance, 'casino', (SELECT id FROM rr)::text, '', txn_ids[k] FROM u
            RETURNING id, balance_after),
          h AS (INSERT INTO house_entries (txn_id, account, amount, bill_type) SELECT txn_ids[k], houses[k], -amounts[k], bill_types[k] FROM u),
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

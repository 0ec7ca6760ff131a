-- The session cache of every server process (platform/access.ts SessionCache) forgets a session, an
-- admin's sessions or a role's sessions when that row changes. PostgreSQL sends the notice when the
-- change commits, on the bus channel every process LISTENs to (platform/db.ts), whoever made it.
CREATE OR REPLACE FUNCTION dau_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payload json;
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    payload := json_build_object('adminId', OLD.admin_id, 'sessionId', OLD.id);
  ELSIF TG_TABLE_NAME = 'admins' THEN
    payload := json_build_object('adminId', OLD.id);
  ELSE
    payload := json_build_object('roleId', OLD.id);
  END IF;
  PERFORM pg_notify('dau_bus', json_build_object('c', 'auth.changed', 'p', payload)::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER sessions_auth_changed AFTER UPDATE OF revoked_at OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION dau_auth_changed();--> statement-breakpoint
CREATE TRIGGER admins_auth_changed AFTER UPDATE OR DELETE ON admins FOR EACH ROW EXECUTE FUNCTION dau_auth_changed();--> statement-breakpoint
CREATE TRIGGER roles_auth_changed AFTER UPDATE OR DELETE ON roles FOR EACH ROW EXECUTE FUNCTION dau_auth_changed();

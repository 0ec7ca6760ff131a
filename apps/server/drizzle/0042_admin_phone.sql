-- Issue 29. Administrators' phones in the form bettors' phones are kept (the admin routes normalise from
-- now on): a Tanzanian mobile number typed in any form ("0712000111", "+255 712 000 111") becomes
-- "255712000111"; another country's number written with its code ("+86 138 0013 8000") its digits. Other
-- values are left as they are (an operator corrects them on the admin's next edit).
UPDATE "admins" SET "phone" = '255' || substring(regexp_replace("phone", '[\s().-]', '', 'g') from '^(?:\+?255|0)?([67][0-9]{8})$')
WHERE regexp_replace("phone", '[\s().-]', '', 'g') ~ '^(\+?255|0)?[67][0-9]{8}$';--> statement-breakpoint
UPDATE "admins" SET "phone" = regexp_replace(regexp_replace("phone", '[\s().-]', '', 'g'), '^(\+|00)', '')
WHERE regexp_replace("phone", '[\s().-]', '', 'g') ~ '^(\+|00)[1-9][0-9]{6,14}$' AND regexp_replace("phone", '[\s().-]', '', 'g') !~ '^(\+|00)255';
--> statement-breakpoint
-- The server log settings of loggers the server does not have (nothing logs as "database" or "socket"):
-- a level set there changed nothing. The remaining rows' levels are applied (modules/system/log-levels.ts).
DELETE FROM "log_config" WHERE "logger" IN ('database', 'socket');

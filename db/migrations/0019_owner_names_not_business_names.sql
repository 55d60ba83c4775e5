-- Sign-up stored the business name as its owner's name, so Team listed the owner under the company's name.
-- It was never the person's name: clear it, and the dashboard shows their email until a name is given. Only
-- a merchant's first user whose name is still exactly the business name is touched (invited members typed
-- their own).
UPDATE "users" SET "name" = NULL
FROM "merchants"
WHERE "merchants"."id" = "users"."merchant_id"
  AND "users"."name" = "merchants"."name"
  AND "users"."id" = (SELECT min("first"."id") FROM "users" AS "first" WHERE "first"."merchant_id" = "users"."merchant_id");

-- A currency's minor units, which the fees and the JSON of amounts are written in.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- A currency's ISO 4217 minor units (lib/money/currencies.ts has the same table, for formatting; a unit test
-- holds the two together): two IN lists, which the planner inlines.
CREATE OR REPLACE FUNCTION minor_units(currency text) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN currency IN ('BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') THEN 3
    WHEN currency IN ('BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV',
                      'XAF', 'XOF', 'XPF') THEN 0
    ELSE 2 END
$$;

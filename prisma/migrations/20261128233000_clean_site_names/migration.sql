-- What a scanned site says about itself is an attacker's input (issue 40): new names pass one door on their way in
-- (cleanSiteText, packages/scanner/src/util/site-text.ts). The names stored before it existed pass the same steps
-- here, in the same order: NFC; every whitespace run one space; control (Cc), format (Cf: zero-width, bidi marks,
-- embeddings, overrides, isolates, U+FEFF) and private-use (Co) characters removed (the classes as Unicode 15.1
-- lists them; NUL cannot be stored); spaces folded again; the ends trimmed; at most 120 characters. A name with
-- nothing visible left becomes its domain, as a scan names a site that gives none. Only rows that change are
-- written (each bumps its change version, so running servers' indexes learn the new name).
WITH cleaned AS (
  SELECT id, rtrim(left(btrim(regexp_replace(regexp_replace(regexp_replace(normalize(name, NFC),
    '[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+', ' ', 'g'),
    '[\u0001-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ue000-\uf8ff\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f\U000f0000-\U000ffffd\U00100000-\U0010fffd]', '', 'g'),
    '[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+', ' ', 'g'), ' '), 120), ' ') AS name
  FROM "companies"
)
UPDATE "companies" AS c
   SET "name" = CASE WHEN cleaned.name = '' THEN c."domain" ELSE cleaned.name END
  FROM cleaned
 WHERE cleaned.id = c.id AND c."name" <> CASE WHEN cleaned.name = '' THEN c."domain" ELSE cleaned.name END;

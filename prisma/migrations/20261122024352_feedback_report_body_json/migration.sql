-- Report bodies are kept exactly as sent: json keeps the text (key order too), and jsonb cannot hold \u0000 or
-- lone surrogates, which a valid JSON body may carry. (Idempotent: a no-op where the column is already json.)
ALTER TABLE "feedback_reports" ALTER COLUMN "body" SET DATA TYPE JSON;

-- The environment's logo (decision 042): its versioned public URL, the file under logos/environments/<uuid>/.
ALTER TABLE "environments" ADD COLUMN "logo_url" text;
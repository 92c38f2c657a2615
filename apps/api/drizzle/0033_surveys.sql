CREATE TABLE "survey_answers" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"survey_uuid" uuid NOT NULL,
	"recipient_uuid" uuid NOT NULL,
	"answers" jsonb NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "survey_answers_recipientUuid_unique" UNIQUE("recipient_uuid")
);
--> statement-breakpoint
CREATE TABLE "survey_recipients" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"survey_uuid" uuid NOT NULL,
	"organization_title" text NOT NULL,
	"audience" text NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "survey_recipients_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "surveys" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"environment_uuid" uuid NOT NULL,
	"title" text NOT NULL,
	"introduction" text,
	"questions" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by_uuid" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "survey_answers" ADD CONSTRAINT "survey_answers_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_answers" ADD CONSTRAINT "survey_answers_survey_uuid_surveys_uuid_fk" FOREIGN KEY ("survey_uuid") REFERENCES "public"."surveys"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_answers" ADD CONSTRAINT "survey_answers_recipient_uuid_survey_recipients_uuid_fk" FOREIGN KEY ("recipient_uuid") REFERENCES "public"."survey_recipients"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_recipients" ADD CONSTRAINT "survey_recipients_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_recipients" ADD CONSTRAINT "survey_recipients_survey_uuid_surveys_uuid_fk" FOREIGN KEY ("survey_uuid") REFERENCES "public"."surveys"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_environment_uuid_environments_uuid_fk" FOREIGN KEY ("environment_uuid") REFERENCES "public"."environments"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_created_by_uuid_users_uuid_fk" FOREIGN KEY ("created_by_uuid") REFERENCES "public"."users"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "survey_answers_survey_idx" ON "survey_answers" USING btree ("survey_uuid","organization_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_recipients_once_key" ON "survey_recipients" USING btree ("survey_uuid","organization_uuid","email");--> statement-breakpoint
CREATE INDEX "survey_recipients_organization_idx" ON "survey_recipients" USING btree ("organization_uuid");--> statement-breakpoint
CREATE INDEX "surveys_environment_idx" ON "surveys" USING btree ("environment_uuid","created_at");--> statement-breakpoint
-- Hand-written (decision 038). The link's holder works as flotte_app with no organization and the
-- SHA-256 of their token in app.survey_token (db/scope.ts withSurveyRespondent): these policies
-- let that scope see its one link, that link's survey, and insert that link's answers; nothing else.
CREATE OR REPLACE FUNCTION app_current_survey_token() RETURNS text
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.survey_token', true), '') $$;
--> statement-breakpoint
-- Links and answers are an organization's data: tenant isolation as every organization's table.
SELECT flotte_tenant_table('survey_recipients');
--> statement-breakpoint
SELECT flotte_tenant_table('survey_answers');
--> statement-breakpoint
CREATE POLICY survey_respondent_read ON survey_recipients FOR SELECT TO flotte_app
  USING (token_hash = app_current_survey_token());
--> statement-breakpoint
CREATE POLICY survey_respondent_claim ON survey_recipients FOR UPDATE TO flotte_app
  USING (token_hash = app_current_survey_token()) WITH CHECK (token_hash = app_current_survey_token());
--> statement-breakpoint
CREATE POLICY survey_respondent_answer ON survey_answers FOR INSERT TO flotte_app
  WITH CHECK (EXISTS (
    SELECT 1 FROM survey_recipients r
    WHERE r.token_hash = app_current_survey_token()
      AND r.uuid = survey_answers.recipient_uuid
      AND r.organization_uuid = survey_answers.organization_uuid
      AND r.survey_uuid = survey_answers.survey_uuid
  ));
--> statement-breakpoint
-- Surveys are an environment's data (the broker's): reached in system scope, where the service
-- checks the environment; a tenant sees none; a link's holder sees only its link's survey.
ALTER TABLE surveys ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE surveys FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY system_access ON surveys TO flotte_system USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY survey_respondent_read ON surveys FOR SELECT TO flotte_app
  USING (EXISTS (SELECT 1 FROM survey_recipients r WHERE r.token_hash = app_current_survey_token() AND r.survey_uuid = surveys.uuid));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON surveys TO flotte_app, flotte_system;

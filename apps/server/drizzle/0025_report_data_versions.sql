CREATE TABLE "report_data_versions" (
	"organization_id" uuid NOT NULL,
	"backend" integer NOT NULL,
	"changes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_data_versions_pk" PRIMARY KEY("organization_id","backend")
);
--> statement-breakpoint
ALTER TABLE "report_data_versions" ADD CONSTRAINT "report_data_versions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The organizations whose report data a statement changed, counted once
-- each on the writing backend's own row (see reportDataVersions in
-- schema/rollups.ts): a cached report result stays valid while its
-- organization's sum is unchanged. Organizations that no longer exist are
-- skipped: deleting one fires these triggers through its cascades, and its
-- rows go with it.
CREATE FUNCTION "report_data_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO report_data_versions AS v (organization_id, backend, changes)
    SELECT o.id, pg_backend_pid(), 1 FROM organizations o
    WHERE o.id IN (SELECT organization_id FROM old_rows)
    ORDER BY o.id
    ON CONFLICT ON CONSTRAINT report_data_versions_pk DO UPDATE SET changes = v.changes + 1;
  ELSE
    INSERT INTO report_data_versions AS v (organization_id, backend, changes)
    SELECT o.id, pg_backend_pid(), 1 FROM organizations o
    WHERE o.id IN (SELECT organization_id FROM new_rows)
    ORDER BY o.id
    ON CONFLICT ON CONSTRAINT report_data_versions_pk DO UPDATE SET changes = v.changes + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every table that a kept result reads (report items, value statistics,
-- analytics), facts, rollups and what names them alike: a table added to
-- those queries needs its triggers here too (metrics/result-cache.test.ts
-- lists them against the queries). The log is partitioned: its statement
-- triggers are its parent's.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY[
    'analytics_funnels', 'chatbot_variables', 'chatbots', 'course_last_slides', 'course_learners',
    'course_run_questions', 'course_runs', 'courses', 'learner_answer_hours', 'learner_chatbot_variable_values',
    'learner_variable_latest', 'learner_variable_values', 'learners', 'learning_activity_hours',
    'learning_events', 'question_daily_stats', 'question_learners', 'questions', 'run_answer_sheets',
    'variable_daily_stats', 'variable_stats', 'variables'
  ] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION report_data_changed()', t || '_report_version_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION report_data_changed()', t || '_report_version_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION report_data_changed()', t || '_report_version_delete', t);
  END LOOP;
END $$;

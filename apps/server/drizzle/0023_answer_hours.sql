CREATE TABLE "learner_answer_hours" (
	"organization_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"learner_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"answers" integer DEFAULT 0 NOT NULL,
	"graded" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "learner_answer_hours_pk" PRIMARY KEY("organization_id","hour","learner_id","course_id")
);
--> statement-breakpoint
ALTER TABLE "learner_answer_hours" ADD CONSTRAINT "learner_answer_hours_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_answer_hours" ADD CONSTRAINT "learner_answer_hours_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The answers rollup of the analytics overview: each learner's answers per
-- course and UTC hour, graded and right (see learnerAnswerHours in
-- schema/questions.ts). Kept in the writing transaction on both engines, as
-- the log's hourly activity is (0020): a row belongs to one learner, and a
-- batch's rows are written in key order, so two batches of one learner wait
-- rather than deadlock. Bulk loads skip it (rollups_deferred(), see 0004)
-- and recompute at the end.
CREATE FUNCTION "rollup_answer_hours"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE learner_answer_hours h
    SET answers = h.answers - g.answers, graded = h.graded - g.graded, correct = h.correct - g.correct
    FROM (
      SELECT organization_id, learning_activity_hour(created_at) AS hour, learner_id, course_id,
        count(*) AS answers, count(correct) AS graded, count(*) FILTER (WHERE correct) AS correct
      FROM old_rows
      GROUP BY 1, 2, 3, 4
    ) AS g
    WHERE h.organization_id = g.organization_id AND h.hour = g.hour AND h.learner_id = g.learner_id
      AND h.course_id = g.course_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO learner_answer_hours AS h (organization_id, hour, learner_id, course_id, answers, graded, correct)
    SELECT organization_id, learning_activity_hour(created_at), learner_id, course_id,
      count(*), count(correct), count(*) FILTER (WHERE correct)
    FROM new_rows
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT learner_answer_hours_pk DO UPDATE SET
      answers = h.answers + excluded.answers, graded = h.graded + excluded.graded,
      correct = h.correct + excluded.correct;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM learner_answer_hours h
    USING (SELECT DISTINCT organization_id, learning_activity_hour(created_at) AS hour, learner_id, course_id
           FROM old_rows) AS g
    WHERE h.organization_id = g.organization_id AND h.hour = g.hour AND h.learner_id = g.learner_id
      AND h.course_id = g.course_id AND h.answers <= 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "course_run_questions_answer_hours_insert" AFTER INSERT ON "course_run_questions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_answer_hours();
--> statement-breakpoint
CREATE TRIGGER "course_run_questions_answer_hours_delete" AFTER DELETE ON "course_run_questions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_answer_hours();
--> statement-breakpoint
CREATE TRIGGER "course_run_questions_answer_hours_update" AFTER UPDATE ON "course_run_questions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_answer_hours();
--> statement-breakpoint
-- An organization's rows counted again from its answers (null: every
-- organization): the back-fill below, and seeds after a bulk load.
CREATE FUNCTION "rollup_answer_hours_recompute"(org uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM learner_answer_hours WHERE org IS NULL OR organization_id = org;
  INSERT INTO learner_answer_hours (organization_id, hour, learner_id, course_id, answers, graded, correct)
  SELECT organization_id, learning_activity_hour(created_at), learner_id, course_id,
    count(*), count(correct), count(*) FILTER (WHERE correct)
  FROM course_run_questions
  WHERE org IS NULL OR organization_id = org
  GROUP BY 1, 2, 3, 4;
END $$;
--> statement-breakpoint
SELECT rollup_answer_hours_recompute(NULL);
--> statement-breakpoint
-- Statistics at once: the overview's plan depends on the rollup's size.
ANALYZE "learner_answer_hours";

CREATE TABLE "run_answer_sheets" (
	"organization_id" uuid NOT NULL,
	"course_run_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"question_ids" uuid[] NOT NULL,
	"answer_ids" uuid[] NOT NULL,
	"answered_at" timestamp with time zone[] NOT NULL,
	"marks" double precision[] NOT NULL,
	"answers" text[] NOT NULL,
	"graded" boolean[] NOT NULL,
	"total" double precision NOT NULL,
	CONSTRAINT "run_answer_sheets_pk" PRIMARY KEY("organization_id","course_run_id")
);
--> statement-breakpoint
ALTER TABLE "run_answer_sheets" ADD CONSTRAINT "run_answer_sheets_course_run_fk" FOREIGN KEY ("organization_id","course_run_id") REFERENCES "public"."course_runs"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_answer_sheets_course_idx" ON "run_answer_sheets" USING btree ("organization_id","course_id");--> statement-breakpoint
-- Each run's answer sheet (see runAnswerSheets in schema/questions.ts): the
-- last answer to each question of the run, which item analysis would
-- otherwise find by sorting every answer of a course by run. Kept in the
-- writing transaction on both engines, as the answers' other rollups are;
-- bulk loads skip it (rollups_deferred(), see 0004) and recompute at the end.
--
-- One run's answers as its sheet: per question the newest answer (by time,
-- then id), its mark (points, else 1 for right and 0 for wrong) and whether
-- it was graded, in question-id order; the total adds the marks in that
-- order too, so it is the same number whichever way the sheet was built.
CREATE FUNCTION "answer_sheet"(answers course_run_questions[]) RETURNS run_answer_sheets
LANGUAGE sql IMMUTABLE AS $$
  SELECT (answers[1]).organization_id, (answers[1]).course_run_id, (answers[1]).course_id,
    array_agg(question_id ORDER BY question_id), array_agg(id ORDER BY question_id),
    array_agg(created_at ORDER BY question_id), array_agg(mark ORDER BY question_id),
    array_agg(answer_choice ORDER BY question_id), array_agg(graded ORDER BY question_id),
    sum(mark ORDER BY question_id)
  FROM (
    SELECT DISTINCT ON (a.question_id) a.question_id, a.id, a.created_at, a.answer_choice,
      coalesce(a.points_assigned, CASE WHEN a.correct THEN 1 ELSE 0 END)::float8 AS mark,
      (a.points_assigned IS NOT NULL OR a.correct IS NOT NULL) AS graded
    FROM unnest(answers) AS a
    ORDER BY a.question_id, a.created_at DESC, a.id DESC
  ) AS last_answers
$$;
--> statement-breakpoint
-- Two sheets of one run as one: per question the newer answer. Taking the
-- newer of two is the same in any order, so concurrent batches of one run
-- each merge theirs into the stored sheet and none is lost.
CREATE FUNCTION "answer_sheets_merged"(stored run_answer_sheets, added run_answer_sheets) RETURNS run_answer_sheets
LANGUAGE sql IMMUTABLE AS $$
  SELECT stored.organization_id, stored.course_run_id, stored.course_id,
    array_agg(question_id ORDER BY question_id), array_agg(answer_id ORDER BY question_id),
    array_agg(answered_at ORDER BY question_id), array_agg(mark ORDER BY question_id),
    array_agg(answer ORDER BY question_id), array_agg(graded ORDER BY question_id),
    sum(mark ORDER BY question_id)
  FROM (
    SELECT DISTINCT ON (question_id) *
    FROM (
      SELECT * FROM unnest(stored.question_ids, stored.answer_ids, stored.answered_at, stored.marks,
        stored.answers, stored.graded)
      UNION ALL
      SELECT * FROM unnest(added.question_ids, added.answer_ids, added.answered_at, added.marks,
        added.answers, added.graded)
    ) AS entries(question_id, answer_id, answered_at, mark, answer, graded)
    ORDER BY question_id, answered_at DESC, answer_id DESC
  ) AS newest
$$;
--> statement-breakpoint
-- The sheets of the runs named (pairs of organization and run) built again
-- from their answers, and dropped where none remain: deletes and updates of
-- answers (course or learner deletion; rare), and the recompute below.
CREATE FUNCTION "rebuild_answer_sheets"(orgs uuid[], runs uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM run_answer_sheets s
    USING unnest(orgs, runs) AS r(organization_id, course_run_id)
    WHERE s.organization_id = r.organization_id AND s.course_run_id = r.course_run_id;
  INSERT INTO run_answer_sheets AS s
    SELECT sheet.*
    FROM (
      SELECT a.organization_id, a.course_run_id, array_agg(a) AS answers
      FROM (SELECT DISTINCT * FROM unnest(orgs, runs)) AS r(organization_id, course_run_id)
      JOIN course_run_questions a ON a.organization_id = r.organization_id AND a.course_run_id = r.course_run_id
      GROUP BY a.organization_id, a.course_run_id
    ) AS answered
    CROSS JOIN LATERAL answer_sheet(answered.answers) AS sheet
    ORDER BY sheet.organization_id, sheet.course_run_id
    -- A batch of the run committed since the delete above: take its answers in too.
    ON CONFLICT ON CONSTRAINT run_answer_sheets_pk DO UPDATE SET
      (question_ids, answer_ids, answered_at, marks, answers, graded, total) = (
        SELECT m.question_ids, m.answer_ids, m.answered_at, m.marks, m.answers, m.graded, m.total
        FROM answer_sheets_merged(s, excluded) AS m);
END $$;
--> statement-breakpoint
-- Inserts merge the batch's sheets into the stored ones, runs in key order
-- (two batches of one run wait rather than deadlock). Deletes and updates
-- rebuild the sheets of the runs they touched.
CREATE FUNCTION "rollup_answer_sheets"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO run_answer_sheets AS s
    SELECT sheet.*
    FROM (
      SELECT organization_id, course_run_id, array_agg(n::course_run_questions) AS answers
      FROM new_rows n
      WHERE course_run_id IS NOT NULL
      GROUP BY organization_id, course_run_id
    ) AS answered
    CROSS JOIN LATERAL answer_sheet(answered.answers) AS sheet
    ORDER BY sheet.organization_id, sheet.course_run_id
    ON CONFLICT ON CONSTRAINT run_answer_sheets_pk DO UPDATE SET
      (question_ids, answer_ids, answered_at, marks, answers, graded, total) = (
        SELECT m.question_ids, m.answer_ids, m.answered_at, m.marks, m.answers, m.graded, m.total
        FROM answer_sheets_merged(s, excluded) AS m);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM rebuild_answer_sheets(array_agg(organization_id), array_agg(course_run_id))
    FROM old_rows WHERE course_run_id IS NOT NULL;
  ELSE
    PERFORM rebuild_answer_sheets(array_agg(organization_id), array_agg(course_run_id))
    FROM (SELECT organization_id, course_run_id FROM old_rows
          UNION SELECT organization_id, course_run_id FROM new_rows) AS touched
    WHERE course_run_id IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "course_run_questions_answer_sheets_insert" AFTER INSERT ON "course_run_questions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_answer_sheets();
--> statement-breakpoint
CREATE TRIGGER "course_run_questions_answer_sheets_delete" AFTER DELETE ON "course_run_questions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_answer_sheets();
--> statement-breakpoint
CREATE TRIGGER "course_run_questions_answer_sheets_update" AFTER UPDATE ON "course_run_questions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_answer_sheets();
--> statement-breakpoint
-- An organization's sheets built again from its answers (null: every
-- organization): the back-fill below, and seeds after a bulk load. A sheet
-- belongs to a run (foreign key), so rebuilding every run's leaves none stale.
CREATE FUNCTION "rollup_answer_sheets_recompute"(org uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM rebuild_answer_sheets(array_agg(organization_id), array_agg(id))
  FROM course_runs WHERE org IS NULL OR organization_id = org;
END $$;
--> statement-breakpoint
SELECT rollup_answer_sheets_recompute(NULL);
--> statement-breakpoint
ANALYZE "run_answer_sheets";

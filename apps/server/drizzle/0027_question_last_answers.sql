-- Each learner's last answer to a question (the newest by time, then id)
-- joins their other figures in question_learners: when, which answer, and
-- whether it was right. The heatmaps over all time read it there rather than
-- every answer of the course sorted per learner and question. The answer
-- folds keep the newer of the stored and the folded last answer (answers
-- fold in any order); a recompute of a question reads it from its answers.
--
-- The table is copied with the new columns filled rather than updated in
-- place: an update of every row leaves each row and index entry twice until
-- vacuum, and an index built after it in the same transaction (migrations
-- run in one) keeps both, twice the size and about twice as slow to read.
ALTER TABLE "question_learners" RENAME TO "question_learners_before_0027";--> statement-breakpoint
ALTER TABLE "question_learners_before_0027" RENAME CONSTRAINT "question_learners_pk" TO "question_learners_before_0027_pk";--> statement-breakpoint
ALTER TABLE "question_learners_before_0027" DROP CONSTRAINT "question_learners_question_fk";--> statement-breakpoint
DROP INDEX "question_learners_question_idx";--> statement-breakpoint
DROP TRIGGER "question_learners_report_version_insert" ON "question_learners_before_0027";--> statement-breakpoint
DROP TRIGGER "question_learners_report_version_update" ON "question_learners_before_0027";--> statement-breakpoint
DROP TRIGGER "question_learners_report_version_delete" ON "question_learners_before_0027";--> statement-breakpoint
CREATE TABLE "question_learners" (
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"first_answered_at" timestamp with time zone NOT NULL,
	"responses" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	"points" double precision DEFAULT 0 NOT NULL,
	"graded" integer DEFAULT 0 NOT NULL,
	"best_points" double precision,
	"last_answered_at" timestamp with time zone,
	"last_answer_id" uuid,
	"last_correct" boolean
);
--> statement-breakpoint
INSERT INTO "question_learners" (organization_id, course_id, question_id, learner_id, first_answered_at, responses,
    correct, points, graded, best_points, last_answered_at, last_answer_id, last_correct)
  SELECT o.organization_id, o.course_id, o.question_id, o.learner_id, o.first_answered_at, o.responses, o.correct,
    o.points, o.graded, o.best_points, x.created_at, x.id, x.correct
  FROM "question_learners_before_0027" o
  LEFT JOIN (
    SELECT DISTINCT ON (organization_id, question_id, learner_id) organization_id, question_id, learner_id,
      created_at, id, correct
    FROM course_run_questions
    ORDER BY organization_id, question_id, learner_id, created_at DESC, id DESC
  ) AS x ON x.organization_id = o.organization_id AND x.question_id = o.question_id AND x.learner_id = o.learner_id
  ORDER BY o.organization_id, o.question_id, o.learner_id;--> statement-breakpoint
DROP TABLE "question_learners_before_0027";--> statement-breakpoint
ALTER TABLE "question_learners" ADD CONSTRAINT "question_learners_pk" PRIMARY KEY("organization_id","question_id","learner_id");--> statement-breakpoint
ALTER TABLE "question_learners" ADD CONSTRAINT "question_learners_question_fk" FOREIGN KEY ("organization_id","course_id","question_id") REFERENCES "public"."questions"("organization_id","course_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_learners_question_idx" ON "question_learners" USING btree ("organization_id","question_id","learner_id","best_points","responses","graded","correct","first_answered_at","course_id","last_correct");--> statement-breakpoint
CREATE TRIGGER "question_learners_report_version_insert" AFTER INSERT ON "question_learners" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_data_changed();--> statement-breakpoint
CREATE TRIGGER "question_learners_report_version_update" AFTER UPDATE ON "question_learners" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_data_changed();--> statement-breakpoint
CREATE TRIGGER "question_learners_report_version_delete" AFTER DELETE ON "question_learners" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_data_changed();--> statement-breakpoint
-- Statistics for the copy now, not at the first autovacuum: the heatmaps' plans read the new column.
ANALYZE "question_learners";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_fold_answers"(orgs uuid[], ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  WITH rows AS (
    SELECT r.organization_id, r.course_id, r.question_id, r.learner_id, r.id, r.created_at, r.correct,
      r.points_assigned, coalesce(nullif(r.answer_choice, ''), '(no answer)') AS answer
    FROM (SELECT DISTINCT * FROM unnest(orgs, ids)) AS k(organization_id, id)
    JOIN course_run_questions r ON r.organization_id = k.organization_id AND r.id = k.id
  ),
  answers AS (
    INSERT INTO question_answer_stats AS a (organization_id, course_id, question_id, answer_key, answer, responses,
        correct)
    SELECT organization_id, course_id, question_id, md5(answer)::uuid, answer, count(*),
      count(*) FILTER (WHERE correct)
    FROM rows
    GROUP BY organization_id, course_id, question_id, answer
    ORDER BY organization_id, question_id, md5(answer)::uuid
    ON CONFLICT (organization_id, question_id, answer_key) DO UPDATE SET
      responses = a.responses + excluded.responses,
      correct = a.correct + excluded.correct
  ),
  new_pairs AS (
    INSERT INTO question_learners AS l (organization_id, course_id, question_id, learner_id, first_answered_at,
        responses, graded, correct, points, best_points, last_answered_at, last_answer_id, last_correct)
    SELECT organization_id, course_id, question_id, learner_id, min(created_at), count(*), count(correct),
      count(*) FILTER (WHERE correct), coalesce(sum(points_assigned), 0), max(points_assigned),
      (array_agg(created_at ORDER BY created_at DESC, id DESC))[1],
      (array_agg(id ORDER BY created_at DESC, id DESC))[1],
      (array_agg(correct ORDER BY created_at DESC, id DESC))[1]
    FROM rows
    GROUP BY organization_id, course_id, question_id, learner_id
    ORDER BY organization_id, question_id, learner_id
    ON CONFLICT (organization_id, question_id, learner_id) DO UPDATE SET
      first_answered_at = least(l.first_answered_at, excluded.first_answered_at),
      responses = l.responses + excluded.responses,
      graded = l.graded + excluded.graded,
      correct = l.correct + excluded.correct,
      points = l.points + excluded.points,
      best_points = greatest(l.best_points, excluded.best_points),
      -- The newer of the two last answers: answers fold in any order (late ones, batches of a queue).
      last_answered_at = CASE WHEN l.last_answered_at IS NULL
          OR (excluded.last_answered_at, excluded.last_answer_id) > (l.last_answered_at, l.last_answer_id)
        THEN excluded.last_answered_at ELSE l.last_answered_at END,
      last_answer_id = CASE WHEN l.last_answered_at IS NULL
          OR (excluded.last_answered_at, excluded.last_answer_id) > (l.last_answered_at, l.last_answer_id)
        THEN excluded.last_answer_id ELSE l.last_answer_id END,
      last_correct = CASE WHEN l.last_answered_at IS NULL
          OR (excluded.last_answered_at, excluded.last_answer_id) > (l.last_answered_at, l.last_answer_id)
        THEN excluded.last_correct ELSE l.last_correct END
    RETURNING organization_id, course_id, question_id, first_answered_at, (xmax = 0) AS inserted
  ),
  changes AS (
    SELECT organization_id, course_id, question_id, (created_at AT TIME ZONE 'UTC')::date AS day,
      count(*) AS responses, count(correct) AS graded, count(*) FILTER (WHERE correct) AS correct,
      coalesce(sum(points_assigned), 0) AS points, 0 AS new_learners
    FROM rows
    GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT organization_id, course_id, question_id, (first_answered_at AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, count(*)
    FROM new_pairs
    WHERE inserted
    GROUP BY 1, 2, 3, 4
  )
  INSERT INTO question_daily_stats AS s (organization_id, course_id, question_id, day, responses, graded, correct,
      points, new_learners)
  SELECT organization_id, course_id, question_id, day, sum(responses), sum(graded), sum(correct), sum(points),
    sum(new_learners)
  FROM changes
  GROUP BY organization_id, course_id, question_id, day
  ORDER BY organization_id, question_id, day
  ON CONFLICT (organization_id, question_id, day) DO UPDATE SET
    responses = s.responses + excluded.responses,
    graded = s.graded + excluded.graded,
    correct = s.correct + excluded.correct,
    points = s.points + excluded.points,
    new_learners = s.new_learners + excluded.new_learners;
  UPDATE course_learners l
  SET question_ids = array(SELECT DISTINCT x FROM unnest(l.question_ids || p.question_ids) AS x ORDER BY 1)
  FROM (
    SELECT r.organization_id, r.course_id, r.learner_id, array_agg(DISTINCT r.question_id) AS question_ids
    FROM (SELECT DISTINCT * FROM unnest(orgs, ids)) AS k(organization_id, id)
    JOIN course_run_questions r ON r.organization_id = k.organization_id AND r.id = k.id
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
  ) AS p
  WHERE l.organization_id = p.organization_id AND l.course_id = p.course_id AND l.learner_id = p.learner_id
    AND NOT (p.question_ids <@ l.question_ids);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_questions_recompute"(orgs uuid[], question_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  pair_orgs uuid[];
  pair_courses uuid[];
  pair_learners uuid[];
BEGIN
  -- The (course, learner) pairs that had answers: whether they still do is read again below.
  WITH gone AS (
    DELETE FROM question_learners l
      USING unnest(orgs, question_ids) AS a(organization_id, question_id)
      WHERE l.organization_id = a.organization_id AND l.question_id = a.question_id
      RETURNING l.organization_id, l.course_id, l.learner_id
  )
  SELECT array_agg(organization_id), array_agg(course_id), array_agg(learner_id)
  INTO pair_orgs, pair_courses, pair_learners
  FROM (SELECT DISTINCT * FROM gone) AS g;
  DELETE FROM question_daily_stats s
    USING unnest(orgs, question_ids) AS a(organization_id, question_id)
    WHERE s.organization_id = a.organization_id AND s.question_id = a.question_id;
  DELETE FROM question_answer_stats s
    USING unnest(orgs, question_ids) AS a(organization_id, question_id)
    WHERE s.organization_id = a.organization_id AND s.question_id = a.question_id;
  INSERT INTO question_answer_stats (organization_id, course_id, question_id, answer_key, answer, responses, correct)
    SELECT r.organization_id, r.course_id, r.question_id, md5(x.answer)::uuid, x.answer, count(*),
      count(*) FILTER (WHERE r.correct)
    FROM (SELECT DISTINCT * FROM unnest(orgs, question_ids)) AS a(organization_id, question_id)
    JOIN course_run_questions r ON r.organization_id = a.organization_id AND r.question_id = a.question_id
    CROSS JOIN LATERAL (SELECT coalesce(nullif(r.answer_choice, ''), '(no answer)') AS answer) AS x
    GROUP BY r.organization_id, r.course_id, r.question_id, x.answer;
  INSERT INTO question_learners (organization_id, course_id, question_id, learner_id, first_answered_at, responses,
      graded, correct, points, best_points, last_answered_at, last_answer_id, last_correct)
    SELECT r.organization_id, r.course_id, r.question_id, r.learner_id, min(r.created_at), count(*), count(r.correct),
      count(*) FILTER (WHERE r.correct), coalesce(sum(r.points_assigned), 0), max(r.points_assigned),
      (array_agg(r.created_at ORDER BY r.created_at DESC, r.id DESC))[1],
      (array_agg(r.id ORDER BY r.created_at DESC, r.id DESC))[1],
      (array_agg(r.correct ORDER BY r.created_at DESC, r.id DESC))[1]
    FROM (SELECT DISTINCT * FROM unnest(orgs, question_ids)) AS a(organization_id, question_id)
    JOIN course_run_questions r ON r.organization_id = a.organization_id AND r.question_id = a.question_id
    GROUP BY r.organization_id, r.course_id, r.question_id, r.learner_id;
  INSERT INTO question_daily_stats (organization_id, course_id, question_id, day, responses, graded, correct, points,
      new_learners)
    SELECT organization_id, course_id, question_id, day, sum(responses), sum(graded), sum(correct), sum(points),
      sum(new_learners)
    FROM (
      SELECT r.organization_id, r.course_id, r.question_id, (r.created_at AT TIME ZONE 'UTC')::date AS day,
        count(*) AS responses, count(r.correct) AS graded, count(*) FILTER (WHERE r.correct) AS correct,
        coalesce(sum(r.points_assigned), 0) AS points, 0 AS new_learners
      FROM (SELECT DISTINCT * FROM unnest(orgs, question_ids)) AS a(organization_id, question_id)
      JOIN course_run_questions r ON r.organization_id = a.organization_id AND r.question_id = a.question_id
      GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT l.organization_id, l.course_id, l.question_id, (l.first_answered_at AT TIME ZONE 'UTC')::date,
        0, 0, 0, 0, count(*)
      FROM (SELECT DISTINCT * FROM unnest(orgs, question_ids)) AS a(organization_id, question_id)
      JOIN question_learners l ON l.organization_id = a.organization_id AND l.question_id = a.question_id
      GROUP BY 1, 2, 3, 4
    ) AS changes
    GROUP BY organization_id, course_id, question_id, day;
  UPDATE course_learners c SET question_ids = array(
      SELECT DISTINCT r.question_id FROM course_run_questions r
      WHERE r.organization_id = c.organization_id AND r.learner_id = c.learner_id AND r.course_id = c.course_id
      ORDER BY 1)
    FROM (
      SELECT * FROM unnest(pair_orgs, pair_courses, pair_learners)
      UNION
      SELECT l.organization_id, l.course_id, l.learner_id
      FROM (SELECT DISTINCT * FROM unnest(orgs, question_ids)) AS a(organization_id, question_id)
      JOIN question_learners l ON l.organization_id = a.organization_id AND l.question_id = a.question_id
    ) AS p(organization_id, course_id, learner_id)
    WHERE c.organization_id = p.organization_id AND c.course_id = p.course_id AND c.learner_id = p.learner_id;
END $$;

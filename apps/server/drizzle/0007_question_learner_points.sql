ALTER TABLE "question_learners" ADD COLUMN "responses" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "question_learners" ADD COLUMN "correct" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "question_learners" ADD COLUMN "points" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "question_learners_points_idx" ON "question_learners" USING btree ("question_id","points" DESC NULLS LAST);--> statement-breakpoint
-- The rollup functions of 0004, now also counting each learner's answers,
-- right answers and points per question.
CREATE OR REPLACE FUNCTION "rollup_questions_recompute"(orgs uuid[], question_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM question_learners l
    USING unnest(orgs, question_ids) AS a(organization_id, question_id)
    WHERE l.question_id = a.question_id;
  DELETE FROM question_daily_stats s
    USING unnest(orgs, question_ids) AS a(organization_id, question_id)
    WHERE s.question_id = a.question_id;
  INSERT INTO question_learners (organization_id, course_id, question_id, learner_id, first_answered_at, responses,
      correct, points)
    SELECT r.organization_id, r.course_id, r.question_id, r.learner_id, min(r.created_at), count(*),
      count(*) FILTER (WHERE r.correct), coalesce(sum(r.points_assigned), 0)
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
      JOIN question_learners l ON l.question_id = a.question_id
      GROUP BY 1, 2, 3, 4
    ) AS changes
    GROUP BY organization_id, course_id, question_id, day;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_answers_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  WITH new_pairs AS (
    INSERT INTO question_learners AS l (organization_id, course_id, question_id, learner_id, first_answered_at,
        responses, correct, points)
    SELECT organization_id, course_id, question_id, learner_id, min(created_at), count(*),
      count(*) FILTER (WHERE correct), coalesce(sum(points_assigned), 0)
    FROM new_rows
    GROUP BY organization_id, course_id, question_id, learner_id
    ORDER BY question_id, learner_id
    ON CONFLICT (question_id, learner_id) DO UPDATE SET
      first_answered_at = least(l.first_answered_at, excluded.first_answered_at),
      responses = l.responses + excluded.responses,
      correct = l.correct + excluded.correct,
      points = l.points + excluded.points
    -- xmax is 0 on a freshly inserted row and set on an updated one: only
    -- inserted pairs are learners new to the question. A late answer older
    -- than a learner's first moves first_answered_at but not the day its
    -- learner was counted on: per-question sums of new_learners are exact,
    -- the day they fall on is when the learner was first stored.
    RETURNING organization_id, course_id, question_id, first_answered_at, (xmax = 0) AS inserted
  ),
  changes AS (
    SELECT organization_id, course_id, question_id, (created_at AT TIME ZONE 'UTC')::date AS day,
      count(*) AS responses, count(correct) AS graded, count(*) FILTER (WHERE correct) AS correct,
      coalesce(sum(points_assigned), 0) AS points, 0 AS new_learners
    FROM new_rows
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
  ORDER BY question_id, day
  ON CONFLICT (question_id, day) DO UPDATE SET
    responses = s.responses + excluded.responses,
    graded = s.graded + excluded.graded,
    correct = s.correct + excluded.correct,
    points = s.points + excluded.points,
    new_learners = s.new_learners + excluded.new_learners;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Pairs written before this migration get their counts.
SELECT rollup_questions_recompute(array_agg(organization_id), array_agg(id)) FROM questions;

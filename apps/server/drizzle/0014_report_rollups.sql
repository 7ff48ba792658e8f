CREATE TABLE "question_answer_stats" (
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"answer_key" uuid NOT NULL,
	"answer" text NOT NULL,
	"responses" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "question_answer_stats_pk" PRIMARY KEY("organization_id","question_id","answer_key")
);
--> statement-breakpoint
CREATE TABLE "variable_daily_stats" (
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"variable_id" uuid NOT NULL,
	"day" date NOT NULL,
	"values" integer DEFAULT 0 NOT NULL,
	"numbers" integer DEFAULT 0 NOT NULL,
	"number_sum" double precision DEFAULT 0 NOT NULL,
	"number_min" double precision,
	"number_max" double precision,
	"booleans" integer DEFAULT 0 NOT NULL,
	"trues" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "variable_daily_stats_pk" PRIMARY KEY("organization_id","variable_id","day")
);
--> statement-breakpoint
DROP INDEX "question_learners_points_idx";--> statement-breakpoint
ALTER TABLE "course_learners" ADD COLUMN "first_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "course_learners" ADD COLUMN "last_completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "course_learners" ADD COLUMN "passed" boolean;--> statement-breakpoint
ALTER TABLE "course_learners" ADD COLUMN "best_score" double precision;--> statement-breakpoint
ALTER TABLE "course_learners" ADD COLUMN "question_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "question_learners" ADD COLUMN "graded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "question_learners" ADD COLUMN "best_points" double precision;--> statement-breakpoint
ALTER TABLE "question_answer_stats" ADD CONSTRAINT "question_answer_stats_question_fk" FOREIGN KEY ("organization_id","course_id","question_id") REFERENCES "public"."questions"("organization_id","course_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_daily_stats" ADD CONSTRAINT "variable_daily_stats_variable_fk" FOREIGN KEY ("organization_id","course_id","variable_id") REFERENCES "public"."variables"("organization_id","course_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Report items answered from rollups (the metrics layer's report queries):
-- - question_learners also keeps each learner's graded answers and best
--   points on the question (a retry replaces a score), so items per learner,
--   by the value of another variable, or of points, need no answer one by one;
-- - course_learners also keeps what a learner's runs of a course add up to:
--   first start, last completion, pass (true if any run passed, false if they
--   only failed, null without an outcome) and best score, and which of the
--   course's questions the learner answered (added by the answer fold when
--   the pair is there, else read from the answers when the pair is first
--   stored: a set union, so the order of the folds does not matter);
-- - variable_daily_stats counts every value of a variable per UTC day (the
--   charts' trends);
-- - question_answer_stats counts the answers to a question per answer given
--   (the question chart's spread of answers).
-- Counters are added up by the folds as before; the outcome columns are
-- merged (least, greatest, any) by the run fold, and recomputed from the
-- pair's runs when a run's start, completion, pass or score changes.
CREATE OR REPLACE FUNCTION "rollup_fold_answers"(orgs uuid[], ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  WITH rows AS (
    SELECT r.organization_id, r.course_id, r.question_id, r.learner_id, r.created_at, r.correct, r.points_assigned,
      coalesce(nullif(r.answer_choice, ''), '(no answer)') AS answer
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
        responses, graded, correct, points, best_points)
    SELECT organization_id, course_id, question_id, learner_id, min(created_at), count(*), count(correct),
      count(*) FILTER (WHERE correct), coalesce(sum(points_assigned), 0), max(points_assigned)
    FROM rows
    GROUP BY organization_id, course_id, question_id, learner_id
    ORDER BY organization_id, question_id, learner_id
    ON CONFLICT (organization_id, question_id, learner_id) DO UPDATE SET
      first_answered_at = least(l.first_answered_at, excluded.first_answered_at),
      responses = l.responses + excluded.responses,
      graded = l.graded + excluded.graded,
      correct = l.correct + excluded.correct,
      points = l.points + excluded.points,
      best_points = greatest(l.best_points, excluded.best_points)
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
      graded, correct, points, best_points)
    SELECT r.organization_id, r.course_id, r.question_id, r.learner_id, min(r.created_at), count(*), count(r.correct),
      count(*) FILTER (WHERE r.correct), coalesce(sum(r.points_assigned), 0), max(r.points_assigned)
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_fold_values"(orgs uuid[], ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  WITH rows AS (
    SELECT v.*
    FROM (SELECT DISTINCT * FROM unnest(orgs, ids)) AS k(organization_id, id)
    JOIN learner_variable_values v ON v.organization_id = k.organization_id AND v.id = k.id
  ),
  latest AS (
    SELECT DISTINCT ON (organization_id, variable_id, learner_id) organization_id, course_id, variable_id,
      learner_id, id, value, value_number, value_boolean, value_date, recorded_at
    FROM rows
    ORDER BY organization_id, variable_id, learner_id, recorded_at DESC, id DESC
  ),
  upserted AS (
    INSERT INTO learner_variable_latest AS l (organization_id, course_id, variable_id, learner_id, value_id, value,
        value_number, value_boolean, value_date, recorded_at)
    SELECT organization_id, course_id, variable_id, learner_id, id, value, value_number, value_boolean, value_date,
      recorded_at
    FROM latest
    ORDER BY organization_id, variable_id, learner_id
    ON CONFLICT (organization_id, variable_id, learner_id) DO UPDATE SET
      course_id = excluded.course_id,
      value_id = excluded.value_id,
      value = excluded.value,
      value_number = excluded.value_number,
      value_boolean = excluded.value_boolean,
      value_date = excluded.value_date,
      recorded_at = excluded.recorded_at
    WHERE (excluded.recorded_at, excluded.value_id) > (l.recorded_at, l.value_id)
    RETURNING l.organization_id, l.variable_id, (l.xmax = 0) AS inserted
  ),
  new_learners AS (
    SELECT organization_id, variable_id, count(*) FILTER (WHERE inserted) AS learners
    FROM upserted
    GROUP BY organization_id, variable_id
  ),
  days AS (
    INSERT INTO variable_daily_stats AS d (organization_id, course_id, variable_id, day, values, numbers, number_sum,
        number_min, number_max, booleans, trues)
    SELECT organization_id, course_id, variable_id, (recorded_at AT TIME ZONE 'UTC')::date, count(*),
      count(value_number), coalesce(sum(value_number), 0), min(value_number), max(value_number), count(value_boolean),
      count(*) FILTER (WHERE value_boolean)
    FROM rows
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 3, 4
    ON CONFLICT (organization_id, variable_id, day) DO UPDATE SET
      values = d.values + excluded.values,
      numbers = d.numbers + excluded.numbers,
      number_sum = d.number_sum + excluded.number_sum,
      number_min = least(d.number_min, excluded.number_min),
      number_max = greatest(d.number_max, excluded.number_max),
      booleans = d.booleans + excluded.booleans,
      trues = d.trues + excluded.trues
  )
  INSERT INTO variable_stats AS s (organization_id, course_id, variable_id, usage_count, learner_count,
      last_recorded_at)
  SELECT c.organization_id, c.course_id, c.variable_id, c.values_count, coalesce(n.learners, 0), c.last_recorded_at
  FROM (
    SELECT organization_id, course_id, variable_id, count(*) AS values_count, max(recorded_at) AS last_recorded_at
    FROM rows
    GROUP BY organization_id, course_id, variable_id
  ) AS c
  LEFT JOIN new_learners n ON n.organization_id = c.organization_id AND n.variable_id = c.variable_id
  ORDER BY c.organization_id, c.variable_id
  ON CONFLICT (organization_id, variable_id) DO UPDATE SET
    usage_count = s.usage_count + excluded.usage_count,
    learner_count = s.learner_count + excluded.learner_count,
    last_recorded_at = greatest(s.last_recorded_at, excluded.last_recorded_at);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_variables_recompute"(orgs uuid[], variable_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM learner_variable_latest l
    USING unnest(orgs, variable_ids) AS a(organization_id, variable_id)
    WHERE l.organization_id = a.organization_id AND l.variable_id = a.variable_id;
  DELETE FROM variable_stats s
    USING unnest(orgs, variable_ids) AS a(organization_id, variable_id)
    WHERE s.organization_id = a.organization_id AND s.variable_id = a.variable_id;
  DELETE FROM variable_daily_stats s
    USING unnest(orgs, variable_ids) AS a(organization_id, variable_id)
    WHERE s.organization_id = a.organization_id AND s.variable_id = a.variable_id;
  INSERT INTO learner_variable_latest (organization_id, course_id, variable_id, learner_id, value_id, value,
      value_number, value_boolean, value_date, recorded_at)
    SELECT DISTINCT ON (v.organization_id, v.variable_id, v.learner_id) v.organization_id, v.course_id,
      v.variable_id, v.learner_id, v.id, v.value, v.value_number, v.value_boolean, v.value_date, v.recorded_at
    FROM (SELECT DISTINCT * FROM unnest(orgs, variable_ids)) AS a(organization_id, variable_id)
    JOIN learner_variable_values v ON v.organization_id = a.organization_id AND v.variable_id = a.variable_id
    ORDER BY v.organization_id, v.variable_id, v.learner_id, v.recorded_at DESC, v.id DESC;
  INSERT INTO variable_stats (organization_id, course_id, variable_id, usage_count, learner_count, last_recorded_at)
    SELECT v.organization_id, v.course_id, v.variable_id, count(*), count(DISTINCT v.learner_id), max(v.recorded_at)
    FROM (SELECT DISTINCT * FROM unnest(orgs, variable_ids)) AS a(organization_id, variable_id)
    JOIN learner_variable_values v ON v.organization_id = a.organization_id AND v.variable_id = a.variable_id
    GROUP BY v.organization_id, v.course_id, v.variable_id;
  INSERT INTO variable_daily_stats (organization_id, course_id, variable_id, day, values, numbers, number_sum,
      number_min, number_max, booleans, trues)
    SELECT v.organization_id, v.course_id, v.variable_id, (v.recorded_at AT TIME ZONE 'UTC')::date, count(*),
      count(v.value_number), coalesce(sum(v.value_number), 0), min(v.value_number), max(v.value_number),
      count(v.value_boolean), count(*) FILTER (WHERE v.value_boolean)
    FROM (SELECT DISTINCT * FROM unnest(orgs, variable_ids)) AS a(organization_id, variable_id)
    JOIN learner_variable_values v ON v.organization_id = a.organization_id AND v.variable_id = a.variable_id
    GROUP BY 1, 2, 3, 4;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_fold_runs"(orgs uuid[], ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO course_daily_stats AS s (organization_id, course_id, day, runs)
    SELECT r.organization_id, r.course_id, (r.created_at AT TIME ZONE 'UTC')::date, count(*)
    FROM (SELECT DISTINCT * FROM unnest(orgs, ids)) AS k(organization_id, id)
    JOIN course_runs r ON r.organization_id = k.organization_id AND r.id = k.id
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, course_id, day) DO UPDATE SET runs = s.runs + excluded.runs;
  -- The outcome columns merge the runs as they are now: merging a run twice
  -- (it was also recomputed since) changes nothing.
  INSERT INTO course_learners AS l (organization_id, course_id, learner_id, first_run_at, last_run_at, runs,
      first_started_at, last_completed_at, passed, best_score, question_ids)
    SELECT p.*, array(
        SELECT DISTINCT a.question_id FROM course_run_questions a
        WHERE a.organization_id = p.organization_id AND a.learner_id = p.learner_id AND a.course_id = p.course_id
        ORDER BY 1)
    FROM (
      SELECT r.organization_id, r.course_id, r.learner_id, min(r.created_at), max(r.created_at), count(*),
        min(r.started_at), max(r.completed_at), bool_or(r.passed), max(r.score)
      FROM (SELECT DISTINCT * FROM unnest(orgs, ids)) AS k(organization_id, id)
      JOIN course_runs r ON r.organization_id = k.organization_id AND r.id = k.id
      GROUP BY 1, 2, 3
    ) AS p
    ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, course_id, learner_id) DO UPDATE SET
      first_run_at = least(l.first_run_at, excluded.first_run_at),
      last_run_at = greatest(l.last_run_at, excluded.last_run_at),
      runs = l.runs + excluded.runs,
      first_started_at = least(l.first_started_at, excluded.first_started_at),
      last_completed_at = greatest(l.last_completed_at, excluded.last_completed_at),
      passed = CASE WHEN l.passed OR excluded.passed THEN true ELSE coalesce(l.passed, excluded.passed) END,
      best_score = greatest(l.best_score, excluded.best_score),
      question_ids = CASE WHEN excluded.question_ids <@ l.question_ids THEN l.question_ids
        ELSE array(SELECT DISTINCT x FROM unnest(l.question_ids || excluded.question_ids) AS x ORDER BY 1) END;
END $$;
--> statement-breakpoint
-- The outcome columns of the (course, learner) pairs of some runs, recomputed
-- from every run of each pair (a run completed, passed, failed, rescored).
-- Pairs not in course_learners yet get theirs when their first run is folded.
CREATE FUNCTION "rollup_course_outcomes_recompute"(orgs uuid[], run_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(run_ids), 0) = 0 THEN
    RETURN;
  END IF;
  UPDATE course_learners l SET
    first_started_at = o.first_started_at,
    last_completed_at = o.last_completed_at,
    passed = o.passed,
    best_score = o.best_score
  FROM (
    SELECT r.organization_id, r.course_id, r.learner_id, min(r.started_at) AS first_started_at,
      max(r.completed_at) AS last_completed_at, bool_or(r.passed) AS passed, max(r.score) AS best_score
    FROM (
      SELECT DISTINCT c.organization_id, c.course_id, c.learner_id
      FROM (SELECT DISTINCT * FROM unnest(orgs, run_ids)) AS k(organization_id, id)
      JOIN course_runs c ON c.organization_id = k.organization_id AND c.id = k.id
    ) AS p
    JOIN course_runs r ON r.organization_id = p.organization_id AND r.course_id = p.course_id
      AND r.learner_id = p.learner_id
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
  ) AS o
  WHERE l.organization_id = o.organization_id AND l.course_id = o.course_id AND l.learner_id = o.learner_id
    AND (l.first_started_at, l.last_completed_at, l.passed, l.best_score)
      IS DISTINCT FROM (o.first_started_at, o.last_completed_at, o.passed, o.best_score);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_course_learners_recompute"(orgs uuid[], course_ids uuid[], learner_ids uuid[])
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM course_learners l
    USING unnest(orgs, course_ids, learner_ids) AS a(organization_id, course_id, learner_id)
    WHERE l.organization_id = a.organization_id AND l.course_id = a.course_id AND l.learner_id = a.learner_id;
  INSERT INTO course_learners (organization_id, course_id, learner_id, first_run_at, last_run_at, runs,
      first_started_at, last_completed_at, passed, best_score, question_ids)
    SELECT p.*, array(
        SELECT DISTINCT q.question_id FROM course_run_questions q
        WHERE q.organization_id = p.organization_id AND q.learner_id = p.learner_id AND q.course_id = p.course_id
        ORDER BY 1)
    FROM (
      SELECT r.organization_id, r.course_id, r.learner_id, min(r.created_at), max(r.created_at), count(*),
        min(r.started_at), max(r.completed_at), bool_or(r.passed), max(r.score)
      FROM (SELECT DISTINCT * FROM unnest(orgs, course_ids, learner_ids)) AS a(organization_id, course_id, learner_id)
      JOIN course_runs r ON r.organization_id = a.organization_id AND r.course_id = a.course_id
        AND r.learner_id = a.learner_id
      GROUP BY r.organization_id, r.course_id, r.learner_id
    ) AS p;
END $$;
--> statement-breakpoint
-- Runs whose start, course or learner moved are recomputed where they were
-- and where they are (as in 0009); runs whose start, completion, pass or
-- score changed get their pair's outcome recomputed: at once inline, else
-- queued as a 'run' row whose other_id is set (the run's learner), which the
-- fold reads as "recompute this run's outcome" and counts nothing for.
CREATE OR REPLACE FUNCTION "rollup_runs_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  orgs uuid[];
  course_ids uuid[];
  learner_ids uuid[];
  days date[];
  outcome_orgs uuid[];
  outcome_runs uuid[];
  outcome_learners uuid[];
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(x.organization_id), array_agg(x.course_id), array_agg(x.learner_id),
    array_agg((x.created_at AT TIME ZONE 'UTC')::date)
  INTO orgs, course_ids, learner_ids, days
  FROM old_rows o
  JOIN new_rows n ON n.organization_id = o.organization_id AND n.id = o.id
  CROSS JOIN LATERAL (VALUES (o.organization_id, o.course_id, o.learner_id, o.created_at),
                             (n.organization_id, n.course_id, n.learner_id, n.created_at))
    AS x(organization_id, course_id, learner_id, created_at)
  WHERE (o.created_at, o.course_id, o.learner_id) IS DISTINCT FROM (n.created_at, n.course_id, n.learner_id);
  SELECT array_agg(n.organization_id), array_agg(n.id), array_agg(n.learner_id)
  INTO outcome_orgs, outcome_runs, outcome_learners
  FROM old_rows o
  JOIN new_rows n ON n.organization_id = o.organization_id AND n.id = o.id
  WHERE (o.started_at, o.completed_at, o.passed, o.score) IS DISTINCT FROM (n.started_at, n.completed_at, n.passed, n.score)
    AND (o.created_at, o.course_id, o.learner_id) IS NOT DISTINCT FROM (n.created_at, n.course_id, n.learner_id);
  IF rollups_inline() THEN
    IF orgs IS NOT NULL THEN
      PERFORM rollup_course_learners_recompute(orgs, course_ids, learner_ids);
      PERFORM rollup_course_days_recompute(orgs, course_ids, days);
    END IF;
    PERFORM rollup_course_outcomes_recompute(outcome_orgs, outcome_runs);
  ELSE
    IF orgs IS NOT NULL THEN
      INSERT INTO rollup_queue (organization_id, kind, row_id, other_id)
        SELECT DISTINCT o, 'course_learner', c, l FROM unnest(orgs, course_ids, learner_ids) AS k(o, c, l);
      INSERT INTO rollup_queue (organization_id, kind, row_id, day)
        SELECT DISTINCT o, 'course_day', c, d FROM unnest(orgs, course_ids, days) AS k(o, c, d);
    END IF;
    IF outcome_runs IS NOT NULL THEN
      INSERT INTO rollup_queue (organization_id, kind, row_id, other_id)
        SELECT o, 'run', r, l FROM unnest(outcome_orgs, outcome_runs, outcome_learners) AS k(o, r, l);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- One fold (0011's), telling new runs (counted) from runs whose outcome
-- changed (their pair's outcome recomputed last, after everything counted).
CREATE OR REPLACE FUNCTION "rollup_fold_batch"(max_rows integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  has_recompute boolean;
  taken integer;
  answer_orgs uuid[];
  answer_ids uuid[];
  value_orgs uuid[];
  value_ids uuid[];
  run_orgs uuid[];
  run_ids uuid[];
  outcome_orgs uuid[];
  outcome_ids uuid[];
  q_orgs uuid[];
  q_ids uuid[];
  v_orgs uuid[];
  v_ids uuid[];
  cl_orgs uuid[];
  cl_courses uuid[];
  cl_learners uuid[];
  cd_orgs uuid[];
  cd_courses uuid[];
  cd_days date[];
  covered_orgs uuid[];
  covered_runs uuid[];
BEGIN
  has_recompute := EXISTS (SELECT 1 FROM rollup_queue WHERE kind NOT IN ('answer', 'value', 'run'));
  WITH taken_rows AS (
    DELETE FROM rollup_queue q
    WHERE (q.organization_id, q.seq) IN (
      SELECT organization_id, seq FROM rollup_queue
      LIMIT CASE WHEN has_recompute THEN NULL ELSE max_rows END
    )
    RETURNING q.organization_id, q.kind, q.row_id, q.other_id, q.day
  )
  SELECT count(*),
    array_agg(organization_id) FILTER (WHERE kind = 'answer'),
    array_agg(row_id) FILTER (WHERE kind = 'answer'),
    array_agg(organization_id) FILTER (WHERE kind = 'value'),
    array_agg(row_id) FILTER (WHERE kind = 'value'),
    array_agg(organization_id) FILTER (WHERE kind = 'run' AND other_id IS NULL),
    array_agg(row_id) FILTER (WHERE kind = 'run' AND other_id IS NULL),
    array_agg(organization_id) FILTER (WHERE kind = 'run' AND other_id IS NOT NULL),
    array_agg(row_id) FILTER (WHERE kind = 'run' AND other_id IS NOT NULL),
    array_agg(organization_id) FILTER (WHERE kind = 'question'),
    array_agg(row_id) FILTER (WHERE kind = 'question'),
    array_agg(organization_id) FILTER (WHERE kind = 'variable'),
    array_agg(row_id) FILTER (WHERE kind = 'variable'),
    array_agg(organization_id) FILTER (WHERE kind = 'course_learner'),
    array_agg(row_id) FILTER (WHERE kind = 'course_learner'),
    array_agg(other_id) FILTER (WHERE kind = 'course_learner'),
    array_agg(organization_id) FILTER (WHERE kind = 'course_day'),
    array_agg(row_id) FILTER (WHERE kind = 'course_day'),
    array_agg(day) FILTER (WHERE kind = 'course_day')
  INTO taken, answer_orgs, answer_ids, value_orgs, value_ids, run_orgs, run_ids, outcome_orgs, outcome_ids,
    q_orgs, q_ids, v_orgs, v_ids, cl_orgs, cl_courses, cl_learners, cd_orgs, cd_courses, cd_days
  FROM taken_rows;
  IF taken = 0 THEN
    RETURN 0;
  END IF;

  IF has_recompute THEN
    -- Facts under a recomputed key are counted by the recompute, not folded;
    -- a run under a recomputed (course, learner) or (course, day) has both of
    -- its keys recomputed.
    SELECT array_agg(r.organization_id), array_agg(r.id) INTO covered_orgs, covered_runs
    FROM (SELECT DISTINCT * FROM unnest(run_orgs, run_ids)) AS k(organization_id, id)
    JOIN course_runs r ON r.organization_id = k.organization_id AND r.id = k.id
    WHERE EXISTS (SELECT 1 FROM unnest(cl_orgs, cl_courses, cl_learners) AS a(o, c, l)
                  WHERE a.o = r.organization_id AND a.c = r.course_id AND a.l = r.learner_id)
       OR EXISTS (SELECT 1 FROM unnest(cd_orgs, cd_courses, cd_days) AS a(o, c, d)
                  WHERE a.o = r.organization_id AND a.c = r.course_id
                    AND a.d = (r.created_at AT TIME ZONE 'UTC')::date);
    IF covered_runs IS NOT NULL THEN
      SELECT coalesce(cl_orgs, '{}') || array_agg(r.organization_id),
        coalesce(cl_courses, '{}') || array_agg(r.course_id),
        coalesce(cl_learners, '{}') || array_agg(r.learner_id),
        coalesce(cd_orgs, '{}') || array_agg(r.organization_id),
        coalesce(cd_courses, '{}') || array_agg(r.course_id),
        coalesce(cd_days, '{}') || array_agg((r.created_at AT TIME ZONE 'UTC')::date)
      INTO cl_orgs, cl_courses, cl_learners, cd_orgs, cd_courses, cd_days
      FROM unnest(covered_orgs, covered_runs) AS k(organization_id, id)
      JOIN course_runs r ON r.organization_id = k.organization_id AND r.id = k.id;
      SELECT array_agg(k.organization_id), array_agg(k.id) INTO run_orgs, run_ids
      FROM (
        SELECT * FROM unnest(run_orgs, run_ids)
        EXCEPT
        SELECT * FROM unnest(covered_orgs, covered_runs)
      ) AS k(organization_id, id);
    END IF;
    SELECT array_agg(r.organization_id), array_agg(r.id) INTO answer_orgs, answer_ids
    FROM (SELECT DISTINCT * FROM unnest(answer_orgs, answer_ids)) AS k(organization_id, id)
    JOIN course_run_questions r ON r.organization_id = k.organization_id AND r.id = k.id
    WHERE NOT EXISTS (SELECT 1 FROM unnest(q_orgs, q_ids) AS a(o, q)
                      WHERE a.o = r.organization_id AND a.q = r.question_id);
    SELECT array_agg(v.organization_id), array_agg(v.id) INTO value_orgs, value_ids
    FROM (SELECT DISTINCT * FROM unnest(value_orgs, value_ids)) AS k(organization_id, id)
    JOIN learner_variable_values v ON v.organization_id = k.organization_id AND v.id = k.id
    WHERE NOT EXISTS (SELECT 1 FROM unnest(v_orgs, v_ids) AS a(o, variable)
                      WHERE a.o = v.organization_id AND a.variable = v.variable_id);
  END IF;

  -- Facts deleted since they were queued are simply not found.
  PERFORM rollup_fold_answers(answer_orgs, answer_ids);
  PERFORM rollup_fold_values(value_orgs, value_ids);
  PERFORM rollup_fold_runs(run_orgs, run_ids);

  IF q_ids IS NOT NULL THEN
    PERFORM rollup_questions_recompute(q_orgs, q_ids);
  END IF;
  IF v_ids IS NOT NULL THEN
    PERFORM rollup_variables_recompute(v_orgs, v_ids);
  END IF;
  IF cl_courses IS NOT NULL THEN
    PERFORM rollup_course_learners_recompute(cl_orgs, cl_courses, cl_learners);
  END IF;
  IF cd_courses IS NOT NULL THEN
    PERFORM rollup_course_days_recompute(cd_orgs, cd_courses, cd_days);
  END IF;
  PERFORM rollup_course_outcomes_recompute(outcome_orgs, outcome_ids);
  RETURN taken;
END $$;
--> statement-breakpoint
-- Rows written before this migration. Facts still queued for a fold are
-- left to it (it adds them up); the merged columns can take them twice.
UPDATE question_learners l SET graded = x.graded, best_points = x.best_points
FROM (
  SELECT r.organization_id, r.question_id, r.learner_id, count(r.correct) AS graded, max(r.points_assigned) AS best_points
  FROM course_run_questions r
  WHERE NOT EXISTS (SELECT 1 FROM rollup_queue q
                    WHERE q.organization_id = r.organization_id AND q.kind = 'answer' AND q.row_id = r.id)
  GROUP BY 1, 2, 3
) AS x
WHERE l.organization_id = x.organization_id AND l.question_id = x.question_id AND l.learner_id = x.learner_id;
--> statement-breakpoint
UPDATE course_learners l SET first_started_at = x.first_started_at, last_completed_at = x.last_completed_at,
  passed = x.passed, best_score = x.best_score, question_ids = coalesce(a.question_ids, '{}')
FROM (
  SELECT r.organization_id, r.course_id, r.learner_id, min(r.started_at) AS first_started_at,
    max(r.completed_at) AS last_completed_at, bool_or(r.passed) AS passed, max(r.score) AS best_score
  FROM course_runs r
  GROUP BY 1, 2, 3
) AS x
LEFT JOIN (
  SELECT q.organization_id, q.course_id, q.learner_id, array_agg(q.question_id ORDER BY q.question_id) AS question_ids
  FROM question_learners q
  GROUP BY 1, 2, 3
) AS a ON a.organization_id = x.organization_id AND a.course_id = x.course_id AND a.learner_id = x.learner_id
WHERE l.organization_id = x.organization_id AND l.course_id = x.course_id AND l.learner_id = x.learner_id;
--> statement-breakpoint
INSERT INTO variable_daily_stats (organization_id, course_id, variable_id, day, values, numbers, number_sum,
    number_min, number_max, booleans, trues)
  SELECT v.organization_id, v.course_id, v.variable_id, (v.recorded_at AT TIME ZONE 'UTC')::date, count(*),
    count(v.value_number), coalesce(sum(v.value_number), 0), min(v.value_number), max(v.value_number),
    count(v.value_boolean), count(*) FILTER (WHERE v.value_boolean)
  FROM learner_variable_values v
  WHERE NOT EXISTS (SELECT 1 FROM rollup_queue q
                    WHERE q.organization_id = v.organization_id AND q.kind = 'value' AND q.row_id = v.id)
  GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO question_answer_stats (organization_id, course_id, question_id, answer_key, answer, responses, correct)
  SELECT r.organization_id, r.course_id, r.question_id, md5(x.answer)::uuid, x.answer, count(*),
    count(*) FILTER (WHERE r.correct)
  FROM course_run_questions r
  CROSS JOIN LATERAL (SELECT coalesce(nullif(r.answer_choice, ''), '(no answer)') AS answer) AS x
  WHERE NOT EXISTS (SELECT 1 FROM rollup_queue q
                    WHERE q.organization_id = r.organization_id AND q.kind = 'answer' AND q.row_id = r.id)
  GROUP BY r.organization_id, r.course_id, r.question_id, x.answer;
--> statement-breakpoint
-- The new indexes last: the back-fills above do not maintain them row by row.
CREATE INDEX "course_learners_org_completed_idx" ON "course_learners" USING btree ("organization_id","last_completed_at");
--> statement-breakpoint
CREATE INDEX "question_learners_question_idx" ON "question_learners" USING btree ("organization_id","question_id","learner_id","best_points","responses","graded","correct","first_answered_at","course_id");

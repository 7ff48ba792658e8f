CREATE TABLE "learning_event_keys" (
	"organization_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learning_event_keys_pk" PRIMARY KEY("organization_id","event_id"),
	CONSTRAINT "learning_event_keys_event_id_length" CHECK (char_length("learning_event_keys"."event_id") between 1 and 128)
);
--> statement-breakpoint
CREATE TABLE "learning_events" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"source" text DEFAULT 'api' NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"api_key_id" uuid,
	"course_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"run_id" uuid,
	"slide_number" integer,
	"slide_title" text,
	"scene" text,
	"question_id" uuid,
	"variable_id" uuid,
	"value" jsonb,
	"correct" boolean,
	"points" double precision,
	"score" double precision,
	"pass_mark" double precision,
	"percent" double precision,
	"seconds" double precision,
	"extras" jsonb,
	CONSTRAINT "learning_events_pk" PRIMARY KEY("organization_id","occurred_at","id"),
	CONSTRAINT "learning_events_type_check" CHECK ("learning_events"."type" in ('course.started', 'slide.viewed', 'variable.set', 'question.answered', 'course.progressed', 'course.passed', 'course.failed', 'course.exited', 'course.completed')),
	CONSTRAINT "learning_events_source_check" CHECK ("learning_events"."source" in ('api', 'backfill', 'chatbot', 'pipeline', 'seed'))
) PARTITION BY RANGE ("occurred_at");
--> statement-breakpoint
CREATE TABLE "rollup_queue" (
	"organization_id" uuid NOT NULL,
	"seq" bigserial NOT NULL,
	"kind" text NOT NULL,
	"row_id" uuid NOT NULL,
	"other_id" uuid,
	"day" date,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rollup_queue_pk" PRIMARY KEY("organization_id","seq"),
	CONSTRAINT "rollup_queue_kind_check" CHECK ("rollup_queue"."kind" in ('answer', 'value', 'run', 'question', 'variable', 'course_learner', 'course_day'))
);
--> statement-breakpoint
ALTER TABLE "learning_event_keys" ADD CONSTRAINT "learning_event_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_events" ADD CONSTRAINT "learning_events_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_events" ADD CONSTRAINT "learning_events_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollup_queue" ADD CONSTRAINT "rollup_queue_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "learning_event_keys_org_received_idx" ON "learning_event_keys" USING btree ("organization_id","received_at");--> statement-breakpoint
CREATE INDEX "learning_events_learner_idx" ON "learning_events" USING btree ("organization_id","learner_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "learning_events_course_idx" ON "learning_events" USING btree ("organization_id","course_id","occurred_at");--> statement-breakpoint
CREATE INDEX "rollup_queue_recompute_idx" ON "rollup_queue" USING btree ("kind") WHERE "rollup_queue"."kind" not in ('answer', 'value', 'run');--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "event_retention_months" integer;--> statement-breakpoint
ALTER TABLE "course_runs" ADD COLUMN "passed" boolean;--> statement-breakpoint
ALTER TABLE "course_runs" ADD COLUMN "score" double precision;--> statement-breakpoint
ALTER TABLE "course_runs" ADD COLUMN "pass_mark" double precision;--> statement-breakpoint
ALTER TABLE "course_runs" ADD COLUMN "progress_percent" double precision;--> statement-breakpoint
ALTER TABLE "course_runs" ADD COLUMN "exited_at" timestamp with time zone;--> statement-breakpoint
-- The log is partitioned by month of occurred_at, one partition per month,
-- created on demand (ingestion asks for the months of a batch before
-- writing, see ensureEventPartitions), so an old month is detached or
-- dropped whole.
CREATE FUNCTION "learning_events_partition"(month date) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  first_day date := date_trunc('month', month)::date;
  name text := 'learning_events_' || to_char(first_day, 'YYYY_MM');
BEGIN
  IF to_regclass(name) IS NULL THEN
    EXECUTE format(
      'CREATE TABLE IF NOT EXISTS %I PARTITION OF learning_events FOR VALUES FROM (%L) TO (%L)',
      name,
      (first_day::timestamp AT TIME ZONE 'UTC'),
      ((first_day + interval '1 month')::timestamp AT TIME ZONE 'UTC'));
  END IF;
  RETURN name;
END $$;
--> statement-breakpoint
-- The ingestion API's idempotency keys move to the key table.
INSERT INTO learning_event_keys (organization_id, event_id, occurred_at, received_at)
  SELECT organization_id, event_id, occurred_at, received_at FROM ingested_events
  ON CONFLICT DO NOTHING;
--> statement-breakpoint
DROP TABLE "ingested_events" CASCADE;
--> statement-breakpoint
-- Writes the log rows of facts stored without one: the history from before
-- the log, and bulk seeds. A back-filled event's id is derived from its fact
-- (md5 of kind and fact id), so a second back-fill adds nothing.
CREATE FUNCTION "backfill_learning_events"(org uuid) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  written bigint := 0;
  added bigint;
BEGIN
  PERFORM learning_events_partition(m)
  FROM (
    SELECT date_trunc('month', started_at AT TIME ZONE 'UTC')::date AS m FROM course_runs
      WHERE org IS NULL OR organization_id = org
    UNION SELECT date_trunc('month', completed_at AT TIME ZONE 'UTC')::date FROM course_runs
      WHERE completed_at IS NOT NULL AND (org IS NULL OR organization_id = org)
    UNION SELECT date_trunc('month', recorded_at AT TIME ZONE 'UTC')::date FROM learner_variable_values
      WHERE org IS NULL OR organization_id = org
    UNION SELECT date_trunc('month', created_at AT TIME ZONE 'UTC')::date FROM course_run_questions
      WHERE org IS NULL OR organization_id = org
  ) AS months;

  INSERT INTO learning_events (organization_id, id, occurred_at, event_id, type, source, received_at, course_id,
      learner_id, run_id)
  SELECT f.organization_id, f.id, f.occurred_at, 'backfill:' || f.id, f.type, 'backfill', f.received_at,
    f.course_id, f.learner_id, f.run_id
  FROM (
    SELECT r.organization_id, md5('course.started:' || r.id)::uuid AS id, r.started_at AS occurred_at,
      'course.started' AS type, r.created_at AS received_at, r.course_id, r.learner_id, r.id AS run_id
    FROM course_runs r WHERE org IS NULL OR r.organization_id = org
    UNION ALL
    SELECT r.organization_id, md5('course.completed:' || r.id)::uuid, r.completed_at, 'course.completed',
      r.updated_at, r.course_id, r.learner_id, r.id
    FROM course_runs r WHERE r.completed_at IS NOT NULL AND (org IS NULL OR r.organization_id = org)
  ) AS f
  WHERE NOT EXISTS (SELECT 1 FROM learning_events e
    WHERE e.organization_id = f.organization_id AND e.occurred_at = f.occurred_at AND e.id = f.id);
  GET DIAGNOSTICS added = ROW_COUNT;
  written := written + added;

  INSERT INTO learning_events (organization_id, id, occurred_at, event_id, type, source, received_at, course_id,
      learner_id, run_id, variable_id, value)
  SELECT v.organization_id, md5('variable.set:' || v.id)::uuid, v.recorded_at,
    'backfill:' || md5('variable.set:' || v.id)::uuid, 'variable.set', 'backfill', v.created_at, v.course_id,
    v.learner_id, v.course_run_id, v.variable_id,
    CASE
      WHEN v.value_number IS NOT NULL THEN to_jsonb(v.value_number)
      WHEN v.value_boolean IS NOT NULL THEN to_jsonb(v.value_boolean)
      ELSE to_jsonb(v.value)
    END
  FROM learner_variable_values v
  WHERE (org IS NULL OR v.organization_id = org)
    AND NOT EXISTS (SELECT 1 FROM learning_events e
      WHERE e.organization_id = v.organization_id AND e.occurred_at = v.recorded_at
        AND e.id = md5('variable.set:' || v.id)::uuid);
  GET DIAGNOSTICS added = ROW_COUNT;
  written := written + added;

  INSERT INTO learning_events (organization_id, id, occurred_at, event_id, type, source, received_at, course_id,
      learner_id, run_id, slide_number, question_id, value, correct, points)
  SELECT a.organization_id, md5('question.answered:' || a.id)::uuid, a.created_at,
    'backfill:' || md5('question.answered:' || a.id)::uuid, 'question.answered', 'backfill', a.created_at,
    a.course_id, a.learner_id, a.course_run_id, a.slide_number, a.question_id, to_jsonb(a.answer_choice),
    a.correct, a.points_assigned
  FROM course_run_questions a
  WHERE (org IS NULL OR a.organization_id = org)
    AND NOT EXISTS (SELECT 1 FROM learning_events e
      WHERE e.organization_id = a.organization_id AND e.occurred_at = a.created_at
        AND e.id = md5('question.answered:' || a.id)::uuid);
  GET DIAGNOSTICS added = ROW_COUNT;
  RETURN written + added;
END $$;
--> statement-breakpoint
SELECT backfill_learning_events(NULL);
--> statement-breakpoint
-- Rollups off the hot path. Each connection says how its writes reach the
-- rollups (setting courselens.rollups):
-- - 'deferred' (PostgreSQL's application connections, and the default):
--   the statement triggers only append to rollup_queue, which no two writers
--   contend on; the folder (rollup_fold_batch, run by the workers) counts
--   queued facts in batches and deletes them in the same transaction.
-- - 'inline' (PGlite: one connection, so there is nobody to wait for): the
--   triggers count in the writing transaction, through the same functions.
-- courselens.bulk_load = 'on' still skips both (seeds rebuild at the end).
CREATE FUNCTION "rollups_inline"() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('courselens.rollups', true), '') = 'inline'
$$;
--> statement-breakpoint
-- Counts answers in question_learners and question_daily_stats (the insert
-- logic of 0007, over rows given by id instead of a transition table).
CREATE FUNCTION "rollup_fold_answers"(ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  WITH rows AS (
    SELECT r.organization_id, r.course_id, r.question_id, r.learner_id, r.created_at, r.correct, r.points_assigned
    FROM course_run_questions r WHERE r.id = ANY(ids)
  ),
  new_pairs AS (
    INSERT INTO question_learners AS l (organization_id, course_id, question_id, learner_id, first_answered_at,
        responses, correct, points)
    SELECT organization_id, course_id, question_id, learner_id, min(created_at), count(*),
      count(*) FILTER (WHERE correct), coalesce(sum(points_assigned), 0)
    FROM rows
    GROUP BY organization_id, course_id, question_id, learner_id
    ORDER BY question_id, learner_id
    ON CONFLICT (question_id, learner_id) DO UPDATE SET
      first_answered_at = least(l.first_answered_at, excluded.first_answered_at),
      responses = l.responses + excluded.responses,
      correct = l.correct + excluded.correct,
      points = l.points + excluded.points
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
  ORDER BY question_id, day
  ON CONFLICT (question_id, day) DO UPDATE SET
    responses = s.responses + excluded.responses,
    graded = s.graded + excluded.graded,
    correct = s.correct + excluded.correct,
    points = s.points + excluded.points,
    new_learners = s.new_learners + excluded.new_learners;
END $$;
--> statement-breakpoint
-- Counts values in learner_variable_latest and variable_stats (0004's insert logic).
CREATE FUNCTION "rollup_fold_values"(ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  WITH rows AS (
    SELECT * FROM learner_variable_values v WHERE v.id = ANY(ids)
  ),
  latest AS (
    SELECT DISTINCT ON (variable_id, learner_id) organization_id, course_id, variable_id, learner_id, id, value,
      value_number, value_boolean, value_date, recorded_at
    FROM rows
    ORDER BY variable_id, learner_id, recorded_at DESC, id DESC
  ),
  upserted AS (
    INSERT INTO learner_variable_latest AS l (organization_id, course_id, variable_id, learner_id, value_id, value,
        value_number, value_boolean, value_date, recorded_at)
    SELECT organization_id, course_id, variable_id, learner_id, id, value, value_number, value_boolean, value_date,
      recorded_at
    FROM latest
    ORDER BY variable_id, learner_id
    ON CONFLICT (variable_id, learner_id) DO UPDATE SET
      course_id = excluded.course_id,
      value_id = excluded.value_id,
      value = excluded.value,
      value_number = excluded.value_number,
      value_boolean = excluded.value_boolean,
      value_date = excluded.value_date,
      recorded_at = excluded.recorded_at
    WHERE (excluded.recorded_at, excluded.value_id) > (l.recorded_at, l.value_id)
    RETURNING l.variable_id, (l.xmax = 0) AS inserted
  ),
  new_learners AS (
    SELECT variable_id, count(*) FILTER (WHERE inserted) AS learners FROM upserted GROUP BY variable_id
  )
  INSERT INTO variable_stats AS s (organization_id, course_id, variable_id, usage_count, learner_count,
      last_recorded_at)
  SELECT c.organization_id, c.course_id, c.variable_id, c.values_count, coalesce(n.learners, 0), c.last_recorded_at
  FROM (
    SELECT organization_id, course_id, variable_id, count(*) AS values_count, max(recorded_at) AS last_recorded_at
    FROM rows
    GROUP BY organization_id, course_id, variable_id
  ) AS c
  LEFT JOIN new_learners n ON n.variable_id = c.variable_id
  ORDER BY c.variable_id
  ON CONFLICT (variable_id) DO UPDATE SET
    usage_count = s.usage_count + excluded.usage_count,
    learner_count = s.learner_count + excluded.learner_count,
    last_recorded_at = greatest(s.last_recorded_at, excluded.last_recorded_at);
END $$;
--> statement-breakpoint
-- Counts runs in course_daily_stats and course_learners (0006's insert logic).
CREATE FUNCTION "rollup_fold_runs"(ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO course_daily_stats AS s (organization_id, course_id, day, runs)
    SELECT organization_id, course_id, (created_at AT TIME ZONE 'UTC')::date, count(*)
    FROM course_runs WHERE id = ANY(ids)
    GROUP BY 1, 2, 3
    ORDER BY 2, 3
    ON CONFLICT (course_id, day) DO UPDATE SET runs = s.runs + excluded.runs;
  INSERT INTO course_learners AS l (organization_id, course_id, learner_id, first_run_at, last_run_at, runs)
    SELECT organization_id, course_id, learner_id, min(created_at), max(created_at), count(*)
    FROM course_runs WHERE id = ANY(ids)
    GROUP BY 1, 2, 3
    ORDER BY 2, 3
    ON CONFLICT (course_id, learner_id) DO UPDATE SET
      first_run_at = least(l.first_run_at, excluded.first_run_at),
      last_run_at = greatest(l.last_run_at, excluded.last_run_at),
      runs = l.runs + excluded.runs;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_answers_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF rollups_inline() THEN
    PERFORM rollup_fold_answers(array(SELECT id FROM new_rows));
  ELSE
    INSERT INTO rollup_queue (organization_id, kind, row_id)
      SELECT organization_id, 'answer', id FROM new_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_values_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF rollups_inline() THEN
    PERFORM rollup_fold_values(array(SELECT id FROM new_rows));
  ELSE
    INSERT INTO rollup_queue (organization_id, kind, row_id)
      SELECT organization_id, 'value', id FROM new_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_runs_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF rollups_inline() THEN
    PERFORM rollup_fold_runs(array(SELECT id FROM new_rows));
  ELSE
    INSERT INTO rollup_queue (organization_id, kind, row_id)
      SELECT organization_id, 'run', id FROM new_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Deletes and updates: recomputed at once inline, queued as recompute
-- requests when deferred (the folder recomputes them in one snapshot with
-- whatever it folds, so nothing is counted twice).
CREATE OR REPLACE FUNCTION "rollup_answers_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF rollups_inline() THEN
    PERFORM rollup_questions_recompute(array_agg(organization_id), array_agg(question_id))
    FROM (SELECT DISTINCT organization_id, question_id FROM old_rows) AS affected;
  ELSE
    INSERT INTO rollup_queue (organization_id, kind, row_id)
      SELECT DISTINCT organization_id, 'question', question_id FROM old_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_answers_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF rollups_inline() THEN
    PERFORM rollup_questions_recompute(array_agg(organization_id), array_agg(question_id))
    FROM (
      SELECT organization_id, question_id FROM old_rows
      UNION
      SELECT organization_id, question_id FROM new_rows
    ) AS affected;
  ELSE
    INSERT INTO rollup_queue (organization_id, kind, row_id)
      SELECT organization_id, 'question', question_id FROM old_rows
      UNION
      SELECT organization_id, 'question', question_id FROM new_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_values_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF rollups_inline() THEN
    PERFORM rollup_variables_recompute(array_agg(organization_id), array_agg(variable_id))
    FROM (SELECT DISTINCT organization_id, variable_id FROM old_rows) AS affected;
  ELSE
    INSERT INTO rollup_queue (organization_id, kind, row_id)
      SELECT DISTINCT organization_id, 'variable', variable_id FROM old_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_values_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF rollups_inline() THEN
    PERFORM rollup_variables_recompute(array_agg(organization_id), array_agg(variable_id))
    FROM (
      SELECT organization_id, variable_id FROM old_rows
      UNION
      SELECT organization_id, variable_id FROM new_rows
    ) AS affected;
  ELSE
    INSERT INTO rollup_queue (organization_id, kind, row_id)
      SELECT organization_id, 'variable', variable_id FROM old_rows
      UNION
      SELECT organization_id, 'variable', variable_id FROM new_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_runs_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF rollups_inline() THEN
    PERFORM rollup_course_learners_recompute(array_agg(organization_id), array_agg(course_id), array_agg(learner_id))
    FROM (SELECT DISTINCT organization_id, course_id, learner_id FROM old_rows) AS affected;
    PERFORM rollup_course_days_recompute(array_agg(organization_id), array_agg(course_id), array_agg(day))
    FROM (SELECT DISTINCT organization_id, course_id, (created_at AT TIME ZONE 'UTC')::date AS day FROM old_rows)
      AS affected;
  ELSE
    INSERT INTO rollup_queue (organization_id, kind, row_id, other_id)
      SELECT DISTINCT organization_id, 'course_learner', course_id, learner_id FROM old_rows;
    INSERT INTO rollup_queue (organization_id, kind, row_id, day)
      SELECT DISTINCT organization_id, 'course_day', course_id, (created_at AT TIME ZONE 'UTC')::date FROM old_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_runs_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  orgs uuid[];
  course_ids uuid[];
  learner_ids uuid[];
  days date[];
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  -- Only runs whose start, course or learner changed (completing a run does
  -- not): their old and new places are recomputed.
  SELECT array_agg(x.organization_id), array_agg(x.course_id), array_agg(x.learner_id),
    array_agg((x.created_at AT TIME ZONE 'UTC')::date)
  INTO orgs, course_ids, learner_ids, days
  FROM old_rows o
  JOIN new_rows n ON n.id = o.id
  CROSS JOIN LATERAL (VALUES (o.organization_id, o.course_id, o.learner_id, o.created_at),
                             (n.organization_id, n.course_id, n.learner_id, n.created_at))
    AS x(organization_id, course_id, learner_id, created_at)
  WHERE (o.created_at, o.course_id, o.learner_id) IS DISTINCT FROM (n.created_at, n.course_id, n.learner_id);
  IF orgs IS NULL THEN
    RETURN NULL;
  END IF;
  IF rollups_inline() THEN
    PERFORM rollup_course_learners_recompute(orgs, course_ids, learner_ids);
    PERFORM rollup_course_days_recompute(orgs, course_ids, days);
  ELSE
    INSERT INTO rollup_queue (organization_id, kind, row_id, other_id)
      SELECT DISTINCT o, 'course_learner', c, l FROM unnest(orgs, course_ids, learner_ids) AS k(o, c, l);
    INSERT INTO rollup_queue (organization_id, kind, row_id, day)
      SELECT DISTINCT o, 'course_day', c, d FROM unnest(orgs, course_ids, days) AS k(o, c, d);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- One fold: takes up to max_rows queued facts (every queued row when a
-- recompute is queued, so no fact under a recomputed key is left behind to
-- be counted again), counts them, runs the recomputes, and deletes what it
-- took. Callers run it in a REPEATABLE READ transaction holding the folder's
-- advisory lock: the queue rows it deletes and the facts it reads are then
-- one snapshot, and writers commit a fact together with its queue row, so
-- every fact is counted exactly once. Returns how many queue rows it took.
CREATE FUNCTION "rollup_fold_batch"(max_rows integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  has_recompute boolean;
  taken integer;
  answer_ids uuid[];
  value_ids uuid[];
  run_ids uuid[];
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
    array_agg(row_id) FILTER (WHERE kind = 'answer'),
    array_agg(row_id) FILTER (WHERE kind = 'value'),
    array_agg(row_id) FILTER (WHERE kind = 'run'),
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
  INTO taken, answer_ids, value_ids, run_ids, q_orgs, q_ids, v_orgs, v_ids, cl_orgs, cl_courses, cl_learners,
    cd_orgs, cd_courses, cd_days
  FROM taken_rows;
  IF taken = 0 THEN
    RETURN 0;
  END IF;

  IF has_recompute THEN
    -- Facts under a recomputed key are counted by the recompute, not folded;
    -- a run under a recomputed (course, learner) or (course, day) has both of
    -- its keys recomputed.
    SELECT array_agg(r.id) INTO covered_runs
    FROM course_runs r
    WHERE r.id = ANY(coalesce(run_ids, '{}'))
      AND (EXISTS (SELECT 1 FROM unnest(cl_courses, cl_learners) AS k(c, l)
                   WHERE k.c = r.course_id AND k.l = r.learner_id)
        OR EXISTS (SELECT 1 FROM unnest(cd_courses, cd_days) AS k(c, d)
                   WHERE k.c = r.course_id AND k.d = (r.created_at AT TIME ZONE 'UTC')::date));
    IF covered_runs IS NOT NULL THEN
      SELECT coalesce(cl_orgs, '{}') || array_agg(r.organization_id),
        coalesce(cl_courses, '{}') || array_agg(r.course_id),
        coalesce(cl_learners, '{}') || array_agg(r.learner_id),
        coalesce(cd_orgs, '{}') || array_agg(r.organization_id),
        coalesce(cd_courses, '{}') || array_agg(r.course_id),
        coalesce(cd_days, '{}') || array_agg((r.created_at AT TIME ZONE 'UTC')::date)
      INTO cl_orgs, cl_courses, cl_learners, cd_orgs, cd_courses, cd_days
      FROM course_runs r WHERE r.id = ANY(covered_runs);
      run_ids := array(SELECT unnest(run_ids) EXCEPT SELECT unnest(covered_runs));
    END IF;
    answer_ids := array(SELECT r.id FROM course_run_questions r
      WHERE r.id = ANY(coalesce(answer_ids, '{}')) AND NOT (r.question_id = ANY(coalesce(q_ids, '{}'))));
    value_ids := array(SELECT v.id FROM learner_variable_values v
      WHERE v.id = ANY(coalesce(value_ids, '{}')) AND NOT (v.variable_id = ANY(coalesce(v_ids, '{}'))));
  END IF;

  -- Facts deleted since they were queued are simply not found.
  PERFORM rollup_fold_answers(answer_ids);
  PERFORM rollup_fold_values(value_ids);
  PERFORM rollup_fold_runs(run_ids);

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
  RETURN taken;
END $$;
--> statement-breakpoint
-- Months of the log that retention emptied, older than last month, are
-- dropped whole (no rewrite, no vacuum of dead rows).
CREATE FUNCTION "drop_empty_learning_event_partitions"() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  part record;
  dropped integer := 0;
  is_empty boolean;
BEGIN
  FOR part IN
    SELECT c.relname AS name
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    JOIN pg_class p ON p.oid = i.inhparent
    WHERE p.relname = 'learning_events'
      AND c.relname ~ '^learning_events_[0-9]{4}_[0-9]{2}$'
      AND to_date(substring(c.relname from 17), 'YYYY_MM') < date_trunc('month', now() - interval '1 month')
  LOOP
    EXECUTE format('SELECT NOT EXISTS (SELECT 1 FROM %I)', part.name) INTO is_empty;
    IF is_empty THEN
      EXECUTE format('DROP TABLE %I', part.name);
      dropped := dropped + 1;
    END IF;
  END LOOP;
  RETURN dropped;
END $$;

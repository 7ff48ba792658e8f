-- Keeps the rollup tables of 0003 (question_daily_stats, question_learners,
-- variable_stats, learner_variable_latest) in step with the answers and the
-- variable values, inside the writing transaction. Statement-level triggers
-- with transition tables: one set-based pass per INSERT statement however
-- many rows it wrote. Inserts (ingestion, the hot path) add to the counters;
-- deletes and updates (course deletion, cascades) recompute the affected
-- questions or variables from the rows that remain.
-- Rows are written in key order so concurrent batches lock counters in the
-- same order.

-- Bulk loads (the demo and benchmark seeds) write millions of rows in one
-- transaction: every statement would update the same counter rows again and
-- grow their version chains, so they set `courselens.bulk_load = 'on'`
-- (SET LOCAL), which makes these triggers skip, and recompute at the end.
CREATE FUNCTION "rollups_deferred"() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('courselens.bulk_load', true), '') = 'on'
$$;
--> statement-breakpoint
CREATE FUNCTION "rollup_questions_recompute"(orgs uuid[], question_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM question_learners l
    USING unnest(orgs, question_ids) AS a(organization_id, question_id)
    WHERE l.question_id = a.question_id;
  DELETE FROM question_daily_stats s
    USING unnest(orgs, question_ids) AS a(organization_id, question_id)
    WHERE s.question_id = a.question_id;
  INSERT INTO question_learners (organization_id, course_id, question_id, learner_id, first_answered_at)
    SELECT r.organization_id, r.course_id, r.question_id, r.learner_id, min(r.created_at)
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
CREATE FUNCTION "rollup_answers_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  WITH new_pairs AS (
    INSERT INTO question_learners AS l (organization_id, course_id, question_id, learner_id, first_answered_at)
    SELECT organization_id, course_id, question_id, learner_id, min(created_at)
    FROM new_rows
    GROUP BY organization_id, course_id, question_id, learner_id
    ORDER BY question_id, learner_id
    ON CONFLICT (question_id, learner_id) DO UPDATE SET first_answered_at = excluded.first_answered_at
      WHERE excluded.first_answered_at < l.first_answered_at
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
CREATE FUNCTION "rollup_answers_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  PERFORM rollup_questions_recompute(array_agg(organization_id), array_agg(question_id))
  FROM (SELECT DISTINCT organization_id, question_id FROM old_rows) AS affected;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "rollup_answers_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  PERFORM rollup_questions_recompute(array_agg(organization_id), array_agg(question_id))
  FROM (
    SELECT organization_id, question_id FROM old_rows
    UNION
    SELECT organization_id, question_id FROM new_rows
  ) AS affected;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "course_run_questions_rollup_insert" AFTER INSERT ON "course_run_questions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_answers_insert();
--> statement-breakpoint
CREATE TRIGGER "course_run_questions_rollup_delete" AFTER DELETE ON "course_run_questions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_answers_delete();
--> statement-breakpoint
CREATE TRIGGER "course_run_questions_rollup_update" AFTER UPDATE ON "course_run_questions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_answers_update();
--> statement-breakpoint
CREATE FUNCTION "rollup_variables_recompute"(orgs uuid[], variable_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM learner_variable_latest l
    USING unnest(orgs, variable_ids) AS a(organization_id, variable_id)
    WHERE l.variable_id = a.variable_id;
  DELETE FROM variable_stats s
    USING unnest(orgs, variable_ids) AS a(organization_id, variable_id)
    WHERE s.variable_id = a.variable_id;
  INSERT INTO learner_variable_latest (organization_id, course_id, variable_id, learner_id, value_id, value,
      value_number, value_boolean, value_date, recorded_at)
    SELECT DISTINCT ON (v.variable_id, v.learner_id) v.organization_id, v.course_id, v.variable_id, v.learner_id,
      v.id, v.value, v.value_number, v.value_boolean, v.value_date, v.recorded_at
    FROM (SELECT DISTINCT * FROM unnest(orgs, variable_ids)) AS a(organization_id, variable_id)
    JOIN learner_variable_values v ON v.organization_id = a.organization_id AND v.variable_id = a.variable_id
    ORDER BY v.variable_id, v.learner_id, v.recorded_at DESC, v.id DESC;
  INSERT INTO variable_stats (organization_id, course_id, variable_id, usage_count, learner_count, last_recorded_at)
    SELECT v.organization_id, v.course_id, v.variable_id, count(*), count(DISTINCT v.learner_id), max(v.recorded_at)
    FROM (SELECT DISTINCT * FROM unnest(orgs, variable_ids)) AS a(organization_id, variable_id)
    JOIN learner_variable_values v ON v.organization_id = a.organization_id AND v.variable_id = a.variable_id
    GROUP BY v.organization_id, v.course_id, v.variable_id;
END $$;
--> statement-breakpoint
-- The latest value of a (variable, learner) is the one recorded last; a tie
-- goes to the greater value id, the same order as the recompute above.
CREATE FUNCTION "rollup_values_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  WITH latest AS (
    SELECT DISTINCT ON (variable_id, learner_id) organization_id, course_id, variable_id, learner_id, id, value,
      value_number, value_boolean, value_date, recorded_at
    FROM new_rows
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
    -- xmax is 0 on a freshly inserted row and set on an updated one: the
    -- learners new to the variable are the inserted rows.
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
    FROM new_rows
    GROUP BY organization_id, course_id, variable_id
  ) AS c
  LEFT JOIN new_learners n ON n.variable_id = c.variable_id
  ORDER BY c.variable_id
  ON CONFLICT (variable_id) DO UPDATE SET
    usage_count = s.usage_count + excluded.usage_count,
    learner_count = s.learner_count + excluded.learner_count,
    last_recorded_at = greatest(s.last_recorded_at, excluded.last_recorded_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "rollup_values_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  PERFORM rollup_variables_recompute(array_agg(organization_id), array_agg(variable_id))
  FROM (SELECT DISTINCT organization_id, variable_id FROM old_rows) AS affected;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "rollup_values_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  PERFORM rollup_variables_recompute(array_agg(organization_id), array_agg(variable_id))
  FROM (
    SELECT organization_id, variable_id FROM old_rows
    UNION
    SELECT organization_id, variable_id FROM new_rows
  ) AS affected;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "learner_variable_values_rollup_insert" AFTER INSERT ON "learner_variable_values"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_values_insert();
--> statement-breakpoint
CREATE TRIGGER "learner_variable_values_rollup_delete" AFTER DELETE ON "learner_variable_values"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_values_delete();
--> statement-breakpoint
CREATE TRIGGER "learner_variable_values_rollup_update" AFTER UPDATE ON "learner_variable_values"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_values_update();
--> statement-breakpoint
-- Rows written before this migration.
SELECT rollup_questions_recompute(array_agg(organization_id), array_agg(id)) FROM questions;
--> statement-breakpoint
SELECT rollup_variables_recompute(array_agg(organization_id), array_agg(id)) FROM variables;

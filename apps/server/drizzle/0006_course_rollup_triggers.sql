-- Keeps course_daily_stats and course_learners (0005) in step with
-- course_runs, like 0004 does for answers and values: statement-level
-- triggers, inserts add to the rollups, deletes and the rare updates that
-- move a run (another start time, course or learner) recompute what they
-- touched. Updates that only complete a run change nothing here and cost a
-- comparison. Bulk loads skip them (rollups_deferred(), see 0004).

CREATE FUNCTION "rollup_course_learners_recompute"(orgs uuid[], course_ids uuid[], learner_ids uuid[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM course_learners l
    USING unnest(course_ids, learner_ids) AS a(course_id, learner_id)
    WHERE l.course_id = a.course_id AND l.learner_id = a.learner_id;
  INSERT INTO course_learners (organization_id, course_id, learner_id, first_run_at, last_run_at, runs)
    SELECT r.organization_id, r.course_id, r.learner_id, min(r.created_at), max(r.created_at), count(*)
    FROM (SELECT DISTINCT * FROM unnest(orgs, course_ids, learner_ids)) AS a(organization_id, course_id, learner_id)
    JOIN course_runs r ON r.organization_id = a.organization_id AND r.course_id = a.course_id
      AND r.learner_id = a.learner_id
    GROUP BY r.organization_id, r.course_id, r.learner_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION "rollup_course_days_recompute"(orgs uuid[], course_ids uuid[], days date[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM course_daily_stats s
    USING unnest(course_ids, days) AS a(course_id, day)
    WHERE s.course_id = a.course_id AND s.day = a.day;
  INSERT INTO course_daily_stats (organization_id, course_id, day, runs)
    SELECT a.organization_id, a.course_id, a.day, count(*)
    FROM (SELECT DISTINCT * FROM unnest(orgs, course_ids, days)) AS a(organization_id, course_id, day)
    JOIN course_runs r ON r.organization_id = a.organization_id AND r.course_id = a.course_id
      AND r.created_at >= (a.day::timestamp AT TIME ZONE 'UTC')
      AND r.created_at < ((a.day + 1)::timestamp AT TIME ZONE 'UTC')
    GROUP BY a.organization_id, a.course_id, a.day;
END $$;
--> statement-breakpoint
CREATE FUNCTION "rollup_runs_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  INSERT INTO course_daily_stats AS s (organization_id, course_id, day, runs)
    SELECT organization_id, course_id, (created_at AT TIME ZONE 'UTC')::date, count(*)
    FROM new_rows
    GROUP BY 1, 2, 3
    ORDER BY 2, 3
    ON CONFLICT (course_id, day) DO UPDATE SET runs = s.runs + excluded.runs;
  INSERT INTO course_learners AS l (organization_id, course_id, learner_id, first_run_at, last_run_at, runs)
    SELECT organization_id, course_id, learner_id, min(created_at), max(created_at), count(*)
    FROM new_rows
    GROUP BY 1, 2, 3
    ORDER BY 2, 3
    ON CONFLICT (course_id, learner_id) DO UPDATE SET
      first_run_at = least(l.first_run_at, excluded.first_run_at),
      last_run_at = greatest(l.last_run_at, excluded.last_run_at),
      runs = l.runs + excluded.runs;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "rollup_runs_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  PERFORM rollup_course_learners_recompute(array_agg(organization_id), array_agg(course_id), array_agg(learner_id))
  FROM (SELECT DISTINCT organization_id, course_id, learner_id FROM old_rows) AS affected;
  PERFORM rollup_course_days_recompute(array_agg(organization_id), array_agg(course_id), array_agg(day))
  FROM (SELECT DISTINCT organization_id, course_id, (created_at AT TIME ZONE 'UTC')::date AS day FROM old_rows) AS affected;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "rollup_runs_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  -- Only runs whose start, course or learner changed (completing a run does
  -- not): their old and new places are recomputed.
  PERFORM rollup_course_learners_recompute(array_agg(organization_id), array_agg(course_id), array_agg(learner_id)),
    rollup_course_days_recompute(array_agg(organization_id), array_agg(course_id), array_agg(day))
  FROM (
    SELECT DISTINCT x.organization_id, x.course_id, x.learner_id, (x.created_at AT TIME ZONE 'UTC')::date AS day
    FROM old_rows o
    JOIN new_rows n ON n.id = o.id
    CROSS JOIN LATERAL (VALUES (o.organization_id, o.course_id, o.learner_id, o.created_at),
                               (n.organization_id, n.course_id, n.learner_id, n.created_at))
      AS x(organization_id, course_id, learner_id, created_at)
    WHERE (o.created_at, o.course_id, o.learner_id) IS DISTINCT FROM (n.created_at, n.course_id, n.learner_id)
  ) AS moved
  HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "course_runs_rollup_insert" AFTER INSERT ON "course_runs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_runs_insert();
--> statement-breakpoint
CREATE TRIGGER "course_runs_rollup_delete" AFTER DELETE ON "course_runs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_runs_delete();
--> statement-breakpoint
CREATE TRIGGER "course_runs_rollup_update" AFTER UPDATE ON "course_runs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_runs_update();
--> statement-breakpoint
-- Runs written before this migration.
INSERT INTO course_daily_stats (organization_id, course_id, day, runs)
  SELECT organization_id, course_id, (created_at AT TIME ZONE 'UTC')::date, count(*)
  FROM course_runs GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO course_learners (organization_id, course_id, learner_id, first_run_at, last_run_at, runs)
  SELECT organization_id, course_id, learner_id, min(created_at), max(created_at), count(*)
  FROM course_runs GROUP BY 1, 2, 3;

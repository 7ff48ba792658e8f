CREATE TABLE "learning_activity_hours" (
	"organization_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"learner_id" uuid NOT NULL,
	"course_id" uuid,
	"course_key" uuid GENERATED ALWAYS AS (coalesce(course_id, '00000000-0000-0000-0000-000000000000'::uuid)) STORED NOT NULL,
	"events_0" integer DEFAULT 0 NOT NULL,
	"events_15" integer DEFAULT 0 NOT NULL,
	"events_30" integer DEFAULT 0 NOT NULL,
	"events_45" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "learning_activity_hours_pk" PRIMARY KEY("organization_id","hour","learner_id","course_key")
);
--> statement-breakpoint
ALTER TABLE "learning_activity_hours" ADD CONSTRAINT "learning_activity_hours_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_activity_hours" ADD CONSTRAINT "learning_activity_hours_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The activity rollup: each learner's events per course and UTC hour, by
-- quarter of the hour (see learningActivityHours in schema/events.ts). The
-- triggers below keep it in the writing transaction, on both engines: a row
-- belongs to one learner, so batches of different learners never wait on
-- one another, and a batch's rows are written in key order, so two batches
-- of one learner wait rather than deadlock. Bulk loads skip them
-- (rollups_deferred(), see 0004) and recompute at the end.
CREATE FUNCTION "learning_activity_hour"(at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_bin('1 hour', at, timestamptz '1970-01-01 00:00:00+00')
$$;
--> statement-breakpoint
-- 0 to 3: the quarter of its UTC hour an instant falls in.
CREATE FUNCTION "learning_activity_quarter"(at timestamptz) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (extract(minute FROM at AT TIME ZONE 'UTC'))::int / 15
$$;
--> statement-breakpoint
CREATE FUNCTION "rollup_activity_hours"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE learning_activity_hours h
    SET events_0 = h.events_0 - g.e0, events_15 = h.events_15 - g.e15,
      events_30 = h.events_30 - g.e30, events_45 = h.events_45 - g.e45
    FROM (
      SELECT organization_id, learning_activity_hour(occurred_at) AS hour, learner_id, course_id,
        count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 0) AS e0,
        count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 1) AS e15,
        count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 2) AS e30,
        count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 3) AS e45
      FROM old_rows
      GROUP BY 1, 2, 3, 4
    ) AS g
    WHERE h.organization_id = g.organization_id AND h.hour = g.hour AND h.learner_id = g.learner_id
      AND h.course_key = coalesce(g.course_id, '00000000-0000-0000-0000-000000000000'::uuid);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO learning_activity_hours AS h (organization_id, hour, learner_id, course_id,
        events_0, events_15, events_30, events_45)
    SELECT organization_id, learning_activity_hour(occurred_at), learner_id, course_id,
      count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 0),
      count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 1),
      count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 2),
      count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 3)
    FROM new_rows
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT learning_activity_hours_pk DO UPDATE SET
      events_0 = h.events_0 + excluded.events_0, events_15 = h.events_15 + excluded.events_15,
      events_30 = h.events_30 + excluded.events_30, events_45 = h.events_45 + excluded.events_45;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM learning_activity_hours h
    USING (SELECT DISTINCT organization_id, learning_activity_hour(occurred_at) AS hour, learner_id, course_id
           FROM old_rows) AS g
    WHERE h.organization_id = g.organization_id AND h.hour = g.hour AND h.learner_id = g.learner_id
      AND h.course_key = coalesce(g.course_id, '00000000-0000-0000-0000-000000000000'::uuid)
      AND h.events_0 + h.events_15 + h.events_30 + h.events_45 <= 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "learning_events_activity_insert" AFTER INSERT ON "learning_events"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_activity_hours();
--> statement-breakpoint
CREATE TRIGGER "learning_events_activity_delete" AFTER DELETE ON "learning_events"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_activity_hours();
--> statement-breakpoint
CREATE TRIGGER "learning_events_activity_update" AFTER UPDATE ON "learning_events"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_activity_hours();
--> statement-breakpoint
-- An organization's rows counted again from its log (null: every
-- organization): the back-fill below, and seeds after a bulk load.
CREATE FUNCTION "rollup_activity_hours_recompute"(org uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM learning_activity_hours WHERE org IS NULL OR organization_id = org;
  INSERT INTO learning_activity_hours (organization_id, hour, learner_id, course_id,
      events_0, events_15, events_30, events_45)
  SELECT organization_id, learning_activity_hour(occurred_at), learner_id, course_id,
    count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 0),
    count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 1),
    count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 2),
    count(*) FILTER (WHERE learning_activity_quarter(occurred_at) = 3)
  FROM learning_events
  WHERE org IS NULL OR organization_id = org
  GROUP BY 1, 2, 3, 4;
END $$;
--> statement-breakpoint
SELECT rollup_activity_hours_recompute(NULL);

CREATE TABLE "course_last_slides" (
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"last_slide" integer NOT NULL,
	CONSTRAINT "course_last_slides_pk" PRIMARY KEY("organization_id","course_id")
);
--> statement-breakpoint
ALTER TABLE "course_last_slides" ADD CONSTRAINT "course_last_slides_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Each course's highest slide viewed (see courseLastSlides in
-- schema/events.ts). A batch writes only the courses it takes past the
-- number stored: the common case reads the row and locks nothing, so
-- concurrent batches of one course do not wait on each other. Bulk loads
-- skip it (rollups_deferred(), see 0004) and recompute at the end.
CREATE FUNCTION "rollup_course_last_slides"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF rollups_deferred() THEN
    RETURN NULL;
  END IF;
  INSERT INTO course_last_slides AS c (organization_id, course_id, last_slide)
  SELECT v.organization_id, v.course_id, v.last_slide
  FROM (
    SELECT organization_id, course_id, max(slide_number) AS last_slide
    FROM new_rows
    WHERE type = 'slide.viewed' AND slide_number IS NOT NULL AND course_id IS NOT NULL
    GROUP BY 1, 2
  ) AS v
  WHERE NOT EXISTS (SELECT 1 FROM course_last_slides x
                    WHERE x.organization_id = v.organization_id AND x.course_id = v.course_id
                      AND x.last_slide >= v.last_slide)
  ORDER BY 1, 2
  ON CONFLICT ON CONSTRAINT course_last_slides_pk DO UPDATE
    SET last_slide = greatest(c.last_slide, excluded.last_slide);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "learning_events_last_slide_insert" AFTER INSERT ON "learning_events"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_course_last_slides();
--> statement-breakpoint
-- An organization's courses counted again from its log (null: every
-- organization): the back-fill below, and seeds after a bulk load.
CREATE FUNCTION "rollup_course_last_slides_recompute"(org uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM course_last_slides WHERE org IS NULL OR organization_id = org;
  INSERT INTO course_last_slides (organization_id, course_id, last_slide)
  SELECT organization_id, course_id, max(slide_number)
  FROM learning_events
  WHERE type = 'slide.viewed' AND slide_number IS NOT NULL AND course_id IS NOT NULL
    AND (org IS NULL OR organization_id = org)
  GROUP BY 1, 2;
END $$;
--> statement-breakpoint
SELECT rollup_course_last_slides_recompute(NULL);

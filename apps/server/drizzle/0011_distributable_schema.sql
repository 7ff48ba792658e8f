-- Distributable by organization (decision 011): every tenant table's
-- primary key, unique keys and foreign keys between tenant tables carry
-- organization_id, so Citus can distribute them all by it, co-located. Ids
-- stay as they are; only keys change. Order: foreign keys that depend on a
-- key being replaced go first, then the old keys, then the new keys, then the
-- foreign keys again (composite now), then the rollup functions whose
-- ON CONFLICT targets and lookups follow the new keys.
--
-- 1. Foreign keys on the old single-column keys, and the composite ones that
-- depend on the (organization_id, id) unique constraints the primary keys replace.
ALTER TABLE "broadcasts" DROP CONSTRAINT "broadcasts_course_id_courses_id_fk";
--> statement-breakpoint
ALTER TABLE "course_variable_mappings" DROP CONSTRAINT "course_variable_mappings_course_id_courses_id_fk";
--> statement-breakpoint
ALTER TABLE "course_variable_mappings" DROP CONSTRAINT "course_variable_mappings_destination_variable_id_variables_id_fk";
--> statement-breakpoint
ALTER TABLE "variables" DROP CONSTRAINT "variables_course_id_courses_id_fk";
--> statement-breakpoint
ALTER TABLE "questions" DROP CONSTRAINT "questions_course_id_courses_id_fk";
--> statement-breakpoint
ALTER TABLE "custom_report_question_identifiers" DROP CONSTRAINT "custom_report_question_identifiers_report_id_custom_reports_id_fk";
--> statement-breakpoint
ALTER TABLE "custom_report_question_identifiers" DROP CONSTRAINT "custom_report_question_identifiers_course_id_courses_id_fk";
--> statement-breakpoint
ALTER TABLE "custom_report_questions" DROP CONSTRAINT "custom_report_questions_report_id_custom_reports_id_fk";
--> statement-breakpoint
ALTER TABLE "custom_report_questions" DROP CONSTRAINT "custom_report_questions_question_id_questions_id_fk";
--> statement-breakpoint
ALTER TABLE "custom_report_variables" DROP CONSTRAINT "custom_report_variables_report_id_custom_reports_id_fk";
--> statement-breakpoint
ALTER TABLE "custom_report_variables" DROP CONSTRAINT "custom_report_variables_variable_id_variables_id_fk";
--> statement-breakpoint
ALTER TABLE "shared_views" DROP CONSTRAINT "shared_views_variable_id_variables_id_fk";
--> statement-breakpoint
ALTER TABLE "shared_views" DROP CONSTRAINT "shared_views_question_id_questions_id_fk";
--> statement-breakpoint
ALTER TABLE "shared_views" DROP CONSTRAINT "shared_views_chatbot_variable_id_chatbot_variables_id_fk";
--> statement-breakpoint
ALTER TABLE "chat_messages" DROP CONSTRAINT "chat_messages_session_id_chat_sessions_id_fk";
--> statement-breakpoint
ALTER TABLE "chat_sessions" DROP CONSTRAINT "chat_sessions_chatbot_id_chatbots_id_fk";
--> statement-breakpoint
ALTER TABLE "chat_sessions" DROP CONSTRAINT "chat_sessions_learner_id_learners_id_fk";
--> statement-breakpoint
ALTER TABLE "chatbot_variable_mappings" DROP CONSTRAINT "chatbot_variable_mappings_chatbot_variable_id_chatbot_variables_id_fk";
--> statement-breakpoint
ALTER TABLE "chatbot_variable_mappings" DROP CONSTRAINT "chatbot_variable_mappings_destination_variable_id_variables_id_fk";
--> statement-breakpoint
ALTER TABLE "chatbot_variables" DROP CONSTRAINT "chatbot_variables_chatbot_id_chatbots_id_fk";
--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" DROP CONSTRAINT "learner_chatbot_variable_values_chatbot_variable_id_chatbot_variables_id_fk";
--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" DROP CONSTRAINT "learner_chatbot_variable_values_learner_id_learners_id_fk";
--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" DROP CONSTRAINT "learner_chatbot_variable_values_chat_session_id_chat_sessions_id_fk";
--> statement-breakpoint
ALTER TABLE "course_runs" DROP CONSTRAINT "course_runs_course_fk";
--> statement-breakpoint
ALTER TABLE "course_runs" DROP CONSTRAINT "course_runs_learner_fk";
--> statement-breakpoint
ALTER TABLE "learner_variable_values" DROP CONSTRAINT "learner_variable_values_learner_fk";
--> statement-breakpoint
ALTER TABLE "learner_variable_values" DROP CONSTRAINT "learner_variable_values_course_run_fk";
--> statement-breakpoint
ALTER TABLE "course_run_questions" DROP CONSTRAINT "course_run_questions_learner_fk";
--> statement-breakpoint
ALTER TABLE "course_run_questions" DROP CONSTRAINT "course_run_questions_course_run_fk";
--> statement-breakpoint
ALTER TABLE "course_daily_stats" DROP CONSTRAINT "course_daily_stats_course_fk";
--> statement-breakpoint
ALTER TABLE "course_learners" DROP CONSTRAINT "course_learners_course_fk";
--> statement-breakpoint
ALTER TABLE "learning_events" DROP CONSTRAINT "learning_events_course_fk";
--> statement-breakpoint
ALTER TABLE "learning_events" DROP CONSTRAINT "learning_events_learner_fk";
--> statement-breakpoint
-- 2. The old keys.
ALTER TABLE "invitations" DROP CONSTRAINT "invitations_token_hash_unique";
--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_key_hash_unique";
--> statement-breakpoint
ALTER TABLE "course_runs" DROP CONSTRAINT "course_runs_org_id_unique";
--> statement-breakpoint
ALTER TABLE "courses" DROP CONSTRAINT "courses_org_id_unique";
--> statement-breakpoint
ALTER TABLE "learners" DROP CONSTRAINT "learners_org_id_unique";
--> statement-breakpoint
ALTER TABLE "custom_report_questions" DROP CONSTRAINT "custom_report_questions_report_question_unique";
--> statement-breakpoint
ALTER TABLE "custom_report_variables" DROP CONSTRAINT "custom_report_variables_report_variable_unique";
--> statement-breakpoint
ALTER TABLE "custom_reports" DROP CONSTRAINT "custom_reports_public_share_token_unique";
--> statement-breakpoint
ALTER TABLE "shared_views" DROP CONSTRAINT "shared_views_token_unique";
--> statement-breakpoint
ALTER TABLE "invitations" DROP CONSTRAINT "invitations_pkey";
--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_pkey";
--> statement-breakpoint
ALTER TABLE "broadcasts" DROP CONSTRAINT "broadcasts_pkey";
--> statement-breakpoint
ALTER TABLE "course_runs" DROP CONSTRAINT "course_runs_pkey";
--> statement-breakpoint
ALTER TABLE "courses" DROP CONSTRAINT "courses_pkey";
--> statement-breakpoint
ALTER TABLE "learners" DROP CONSTRAINT "learners_pkey";
--> statement-breakpoint
ALTER TABLE "course_variable_mappings" DROP CONSTRAINT "course_variable_mappings_pkey";
--> statement-breakpoint
ALTER TABLE "learner_variable_values" DROP CONSTRAINT "learner_variable_values_pkey";
--> statement-breakpoint
ALTER TABLE "variables" DROP CONSTRAINT "variables_pkey";
--> statement-breakpoint
ALTER TABLE "course_run_questions" DROP CONSTRAINT "course_run_questions_pkey";
--> statement-breakpoint
ALTER TABLE "questions" DROP CONSTRAINT "questions_pkey";
--> statement-breakpoint
ALTER TABLE "variable_stats" DROP CONSTRAINT "variable_stats_pkey";
--> statement-breakpoint
ALTER TABLE "custom_report_question_identifiers" DROP CONSTRAINT "custom_report_question_identifiers_pkey";
--> statement-breakpoint
ALTER TABLE "custom_report_questions" DROP CONSTRAINT "custom_report_questions_pkey";
--> statement-breakpoint
ALTER TABLE "custom_report_variables" DROP CONSTRAINT "custom_report_variables_pkey";
--> statement-breakpoint
ALTER TABLE "custom_reports" DROP CONSTRAINT "custom_reports_pkey";
--> statement-breakpoint
ALTER TABLE "shared_views" DROP CONSTRAINT "shared_views_pkey";
--> statement-breakpoint
ALTER TABLE "ai_summaries" DROP CONSTRAINT "ai_summaries_pkey";
--> statement-breakpoint
ALTER TABLE "actions" DROP CONSTRAINT "actions_pkey";
--> statement-breakpoint
ALTER TABLE "pipelines" DROP CONSTRAINT "pipelines_pkey";
--> statement-breakpoint
ALTER TABLE "chat_messages" DROP CONSTRAINT "chat_messages_pkey";
--> statement-breakpoint
ALTER TABLE "chat_sessions" DROP CONSTRAINT "chat_sessions_pkey";
--> statement-breakpoint
ALTER TABLE "chatbot_variable_mappings" DROP CONSTRAINT "chatbot_variable_mappings_pkey";
--> statement-breakpoint
ALTER TABLE "chatbot_variables" DROP CONSTRAINT "chatbot_variables_pkey";
--> statement-breakpoint
ALTER TABLE "chatbots" DROP CONSTRAINT "chatbots_pkey";
--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" DROP CONSTRAINT "learner_chatbot_variable_values_pkey";
--> statement-breakpoint
ALTER TABLE "activity_events" DROP CONSTRAINT "activity_events_pkey";
--> statement-breakpoint
ALTER TABLE "analytics_funnels" DROP CONSTRAINT "analytics_funnels_pkey";
--> statement-breakpoint
ALTER TABLE "analytics_settings" DROP CONSTRAINT "analytics_settings_pkey";
--> statement-breakpoint
ALTER TABLE "course_daily_stats" DROP CONSTRAINT "course_daily_stats_pk";
--> statement-breakpoint
ALTER TABLE "course_learners" DROP CONSTRAINT "course_learners_pk";
--> statement-breakpoint
ALTER TABLE "learner_variable_latest" DROP CONSTRAINT "learner_variable_latest_pk";
--> statement-breakpoint
ALTER TABLE "question_daily_stats" DROP CONSTRAINT "question_daily_stats_pk";
--> statement-breakpoint
ALTER TABLE "question_learners" DROP CONSTRAINT "question_learners_pk";
--> statement-breakpoint
-- 3. The new keys: (organization_id, id) and the rollups' keys led by
-- organization_id. A token or key hash is unique within its organization and
-- leads its index, which serves the lookup by token alone (the public link,
-- the invitation, the API key).
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "course_runs" ADD CONSTRAINT "course_runs_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "learners" ADD CONSTRAINT "learners_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "course_variable_mappings" ADD CONSTRAINT "course_variable_mappings_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "learner_variable_values" ADD CONSTRAINT "learner_variable_values_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "variables" ADD CONSTRAINT "variables_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "course_run_questions" ADD CONSTRAINT "course_run_questions_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "variable_stats" ADD CONSTRAINT "variable_stats_pk" PRIMARY KEY("organization_id","variable_id");
--> statement-breakpoint
ALTER TABLE "custom_report_question_identifiers" ADD CONSTRAINT "custom_report_question_identifiers_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "custom_report_questions" ADD CONSTRAINT "custom_report_questions_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "custom_report_variables" ADD CONSTRAINT "custom_report_variables_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "custom_reports" ADD CONSTRAINT "custom_reports_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "shared_views" ADD CONSTRAINT "shared_views_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "ai_summaries" ADD CONSTRAINT "ai_summaries_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "pipelines" ADD CONSTRAINT "pipelines_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "chatbot_variable_mappings" ADD CONSTRAINT "chatbot_variable_mappings_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "chatbot_variables" ADD CONSTRAINT "chatbot_variables_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "chatbots" ADD CONSTRAINT "chatbots_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" ADD CONSTRAINT "learner_chatbot_variable_values_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "activity_events" ADD CONSTRAINT "activity_events_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "analytics_funnels" ADD CONSTRAINT "analytics_funnels_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "analytics_settings" ADD CONSTRAINT "analytics_settings_pk" PRIMARY KEY("organization_id","id");
--> statement-breakpoint
ALTER TABLE "course_daily_stats" ADD CONSTRAINT "course_daily_stats_pk" PRIMARY KEY("organization_id","course_id","day");
--> statement-breakpoint
ALTER TABLE "course_learners" ADD CONSTRAINT "course_learners_pk" PRIMARY KEY("organization_id","course_id","learner_id");
--> statement-breakpoint
ALTER TABLE "learner_variable_latest" ADD CONSTRAINT "learner_variable_latest_pk" PRIMARY KEY("organization_id","variable_id","learner_id");
--> statement-breakpoint
ALTER TABLE "question_daily_stats" ADD CONSTRAINT "question_daily_stats_pk" PRIMARY KEY("organization_id","question_id","day");
--> statement-breakpoint
ALTER TABLE "question_learners" ADD CONSTRAINT "question_learners_pk" PRIMARY KEY("organization_id","question_id","learner_id");
--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_token_hash_unique" UNIQUE("token_hash","organization_id");
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash","organization_id");
--> statement-breakpoint
ALTER TABLE "custom_report_questions" ADD CONSTRAINT "custom_report_questions_report_question_unique" UNIQUE("organization_id","report_id","question_id");
--> statement-breakpoint
ALTER TABLE "custom_report_variables" ADD CONSTRAINT "custom_report_variables_report_variable_unique" UNIQUE("organization_id","report_id","variable_id");
--> statement-breakpoint
ALTER TABLE "custom_reports" ADD CONSTRAINT "custom_reports_public_share_token_unique" UNIQUE("public_share_token","organization_id");
--> statement-breakpoint
ALTER TABLE "shared_views" ADD CONSTRAINT "shared_views_token_unique" UNIQUE("token","organization_id");
--> statement-breakpoint
-- 4. Foreign keys between tenant tables, organization_id on both sides.
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "course_variable_mappings" ADD CONSTRAINT "course_variable_mappings_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "course_variable_mappings" ADD CONSTRAINT "course_variable_mappings_destination_fk" FOREIGN KEY ("organization_id","destination_variable_id") REFERENCES "public"."variables"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "variables" ADD CONSTRAINT "variables_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "custom_report_question_identifiers" ADD CONSTRAINT "custom_report_question_identifiers_report_fk" FOREIGN KEY ("organization_id","report_id") REFERENCES "public"."custom_reports"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "custom_report_question_identifiers" ADD CONSTRAINT "custom_report_question_identifiers_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "custom_report_questions" ADD CONSTRAINT "custom_report_questions_report_fk" FOREIGN KEY ("organization_id","report_id") REFERENCES "public"."custom_reports"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "custom_report_questions" ADD CONSTRAINT "custom_report_questions_question_fk" FOREIGN KEY ("organization_id","question_id") REFERENCES "public"."questions"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "custom_report_variables" ADD CONSTRAINT "custom_report_variables_report_fk" FOREIGN KEY ("organization_id","report_id") REFERENCES "public"."custom_reports"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "custom_report_variables" ADD CONSTRAINT "custom_report_variables_variable_fk" FOREIGN KEY ("organization_id","variable_id") REFERENCES "public"."variables"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "shared_views" ADD CONSTRAINT "shared_views_variable_fk" FOREIGN KEY ("organization_id","variable_id") REFERENCES "public"."variables"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "shared_views" ADD CONSTRAINT "shared_views_question_fk" FOREIGN KEY ("organization_id","question_id") REFERENCES "public"."questions"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "shared_views" ADD CONSTRAINT "shared_views_chatbot_variable_fk" FOREIGN KEY ("organization_id","chatbot_variable_id") REFERENCES "public"."chatbot_variables"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_session_fk" FOREIGN KEY ("organization_id","session_id") REFERENCES "public"."chat_sessions"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_chatbot_fk" FOREIGN KEY ("organization_id","chatbot_id") REFERENCES "public"."chatbots"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "chatbot_variable_mappings" ADD CONSTRAINT "chatbot_variable_mappings_chatbot_variable_fk" FOREIGN KEY ("organization_id","chatbot_variable_id") REFERENCES "public"."chatbot_variables"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "chatbot_variable_mappings" ADD CONSTRAINT "chatbot_variable_mappings_destination_fk" FOREIGN KEY ("organization_id","destination_variable_id") REFERENCES "public"."variables"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "chatbot_variables" ADD CONSTRAINT "chatbot_variables_chatbot_fk" FOREIGN KEY ("organization_id","chatbot_id") REFERENCES "public"."chatbots"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" ADD CONSTRAINT "learner_chatbot_variable_values_chatbot_variable_fk" FOREIGN KEY ("organization_id","chatbot_variable_id") REFERENCES "public"."chatbot_variables"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "learner_chatbot_variable_values" ADD CONSTRAINT "learner_chatbot_variable_values_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Only chat_session_id is cleared: a plain SET NULL would clear organization_id too.
ALTER TABLE "learner_chatbot_variable_values" ADD CONSTRAINT "learner_chatbot_variable_values_chat_session_fk" FOREIGN KEY ("organization_id","chat_session_id") REFERENCES "public"."chat_sessions"("organization_id","id") ON DELETE SET NULL ("chat_session_id") ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "course_runs" ADD CONSTRAINT "course_runs_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "course_runs" ADD CONSTRAINT "course_runs_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "learner_variable_values" ADD CONSTRAINT "learner_variable_values_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "learner_variable_values" ADD CONSTRAINT "learner_variable_values_course_run_fk" FOREIGN KEY ("organization_id","course_run_id") REFERENCES "public"."course_runs"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "course_run_questions" ADD CONSTRAINT "course_run_questions_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "course_run_questions" ADD CONSTRAINT "course_run_questions_course_run_fk" FOREIGN KEY ("organization_id","course_run_id") REFERENCES "public"."course_runs"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "course_daily_stats" ADD CONSTRAINT "course_daily_stats_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "course_learners" ADD CONSTRAINT "course_learners_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "learning_events" ADD CONSTRAINT "learning_events_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "learning_events" ADD CONSTRAINT "learning_events_learner_fk" FOREIGN KEY ("organization_id","learner_id") REFERENCES "public"."learners"("organization_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- 5. The rollup functions of 0009, on the new keys: facts are found by
-- (organization_id, id), the primary keys' order, instead of by id alone, and
-- the upserts name the rollups' new keys as their ON CONFLICT targets. The
-- fold functions take the organizations beside the ids.
DROP FUNCTION "rollup_fold_answers"(uuid[]);
--> statement-breakpoint
DROP FUNCTION "rollup_fold_values"(uuid[]);
--> statement-breakpoint
DROP FUNCTION "rollup_fold_runs"(uuid[]);
--> statement-breakpoint
-- Counts answers (given as parallel arrays of organization and id) in
-- question_learners and question_daily_stats.
CREATE FUNCTION "rollup_fold_answers"(orgs uuid[], ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  WITH rows AS (
    SELECT r.organization_id, r.course_id, r.question_id, r.learner_id, r.created_at, r.correct, r.points_assigned
    FROM (SELECT DISTINCT * FROM unnest(orgs, ids)) AS k(organization_id, id)
    JOIN course_run_questions r ON r.organization_id = k.organization_id AND r.id = k.id
  ),
  new_pairs AS (
    INSERT INTO question_learners AS l (organization_id, course_id, question_id, learner_id, first_answered_at,
        responses, correct, points)
    SELECT organization_id, course_id, question_id, learner_id, min(created_at), count(*),
      count(*) FILTER (WHERE correct), coalesce(sum(points_assigned), 0)
    FROM rows
    GROUP BY organization_id, course_id, question_id, learner_id
    ORDER BY organization_id, question_id, learner_id
    ON CONFLICT (organization_id, question_id, learner_id) DO UPDATE SET
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
  ORDER BY organization_id, question_id, day
  ON CONFLICT (organization_id, question_id, day) DO UPDATE SET
    responses = s.responses + excluded.responses,
    graded = s.graded + excluded.graded,
    correct = s.correct + excluded.correct,
    points = s.points + excluded.points,
    new_learners = s.new_learners + excluded.new_learners;
END $$;
--> statement-breakpoint
-- Counts values (organizations and ids) in learner_variable_latest and variable_stats.
CREATE FUNCTION "rollup_fold_values"(orgs uuid[], ids uuid[]) RETURNS void
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
-- Counts runs (organizations and ids) in course_daily_stats and course_learners.
CREATE FUNCTION "rollup_fold_runs"(orgs uuid[], ids uuid[]) RETURNS void
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
  INSERT INTO course_learners AS l (organization_id, course_id, learner_id, first_run_at, last_run_at, runs)
    SELECT r.organization_id, r.course_id, r.learner_id, min(r.created_at), max(r.created_at), count(*)
    FROM (SELECT DISTINCT * FROM unnest(orgs, ids)) AS k(organization_id, id)
    JOIN course_runs r ON r.organization_id = k.organization_id AND r.id = k.id
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, course_id, learner_id) DO UPDATE SET
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
    PERFORM rollup_fold_answers(array_agg(organization_id), array_agg(id)) FROM new_rows;
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
    PERFORM rollup_fold_values(array_agg(organization_id), array_agg(id)) FROM new_rows;
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
    PERFORM rollup_fold_runs(array_agg(organization_id), array_agg(id)) FROM new_rows;
  ELSE
    INSERT INTO rollup_queue (organization_id, kind, row_id)
      SELECT organization_id, 'run', id FROM new_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The recomputes (0004, 0006, 0007) delete and rebuild the rollup rows of the
-- given keys, now matched with their organization.
CREATE OR REPLACE FUNCTION "rollup_questions_recompute"(orgs uuid[], question_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM question_learners l
    USING unnest(orgs, question_ids) AS a(organization_id, question_id)
    WHERE l.organization_id = a.organization_id AND l.question_id = a.question_id;
  DELETE FROM question_daily_stats s
    USING unnest(orgs, question_ids) AS a(organization_id, question_id)
    WHERE s.organization_id = a.organization_id AND s.question_id = a.question_id;
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
      JOIN question_learners l ON l.organization_id = a.organization_id AND l.question_id = a.question_id
      GROUP BY 1, 2, 3, 4
    ) AS changes
    GROUP BY organization_id, course_id, question_id, day;
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
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_course_learners_recompute"(orgs uuid[], course_ids uuid[], learner_ids uuid[])
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM course_learners l
    USING unnest(orgs, course_ids, learner_ids) AS a(organization_id, course_id, learner_id)
    WHERE l.organization_id = a.organization_id AND l.course_id = a.course_id AND l.learner_id = a.learner_id;
  INSERT INTO course_learners (organization_id, course_id, learner_id, first_run_at, last_run_at, runs)
    SELECT r.organization_id, r.course_id, r.learner_id, min(r.created_at), max(r.created_at), count(*)
    FROM (SELECT DISTINCT * FROM unnest(orgs, course_ids, learner_ids)) AS a(organization_id, course_id, learner_id)
    JOIN course_runs r ON r.organization_id = a.organization_id AND r.course_id = a.course_id
      AND r.learner_id = a.learner_id
    GROUP BY r.organization_id, r.course_id, r.learner_id;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "rollup_course_days_recompute"(orgs uuid[], course_ids uuid[], days date[])
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM course_daily_stats s
    USING unnest(orgs, course_ids, days) AS a(organization_id, course_id, day)
    WHERE s.organization_id = a.organization_id AND s.course_id = a.course_id AND s.day = a.day;
  INSERT INTO course_daily_stats (organization_id, course_id, day, runs)
    SELECT a.organization_id, a.course_id, a.day, count(*)
    FROM (SELECT DISTINCT * FROM unnest(orgs, course_ids, days)) AS a(organization_id, course_id, day)
    JOIN course_runs r ON r.organization_id = a.organization_id AND r.course_id = a.course_id
      AND r.created_at >= (a.day::timestamp AT TIME ZONE 'UTC')
      AND r.created_at < ((a.day + 1)::timestamp AT TIME ZONE 'UTC')
    GROUP BY a.organization_id, a.course_id, a.day;
END $$;
--> statement-breakpoint
-- One fold (0009's), keeping each queued fact's organization beside its id.
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
    array_agg(organization_id) FILTER (WHERE kind = 'run'),
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
  INTO taken, answer_orgs, answer_ids, value_orgs, value_ids, run_orgs, run_ids, q_orgs, q_ids, v_orgs, v_ids,
    cl_orgs, cl_courses, cl_learners, cd_orgs, cd_courses, cd_days
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
  RETURN taken;
END $$;
